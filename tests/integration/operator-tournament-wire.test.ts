/**
 * Protocol 4 over the wire (what the client needs to play tournaments), real TLS on
 * loopback, scripted clients pinning the operator's key:
 * - `tournament.state`'s standing: after `tournament.registered`, on the field's changes while
 *   registering, at the start, after each hand at the player's table (checked against the table as
 *   the player's own stream shows it: stack, rank, chips), at the end;
 * - `tournament.seat.why`, `tournament.finished.bounties` (against the POGAIN records);
 * - `tournament.results`, paged, BAD_CURSOR, still there after the operator restarts;
 * - `TableView.tournament`, `HistoryHand.tournament` (the level the hand was dealt at);
 * - `table.watch` / `table.unwatch`: a cash and a tournament table followed without a seat, at most
 *   24, stopped by unwatch, by a seat taken there, by the disconnection; seats untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, ServerMessageOf } from '../../shared/protocol/messages';
import { prng } from '../../shared/rules/engine/test-support';
import { MAX_WATCHED } from '../../operator/server/watches';
import { startOperator, type OperatorOptions, type RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { tournamentSpec } from '../support/operator/tournament-env';
import { authedOf, until, watchOperatorOptions, WATCH_TABLES } from '../support/operator/wire';

const KO = tournamentSpec({ id: 'ko-3', name: 'Trio KO', bounty: 200, seats: 3, maxEntrants: 3, minEntrants: 3 });

// One cash table where practice players deal hands, and enough quiet ones to reach the watch limit.
const CASH = WATCH_TABLES;

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;
let options: OperatorOptions;

beforeAll(async () => {
  dir = tempDir();
  options = {
    ...watchOperatorOptions(dir.dir, '0099'),
    // A scheduled one an hour of operator time away (practice players fill only sit & go's here).
    tournaments: { specs: [KO, { ...KO, id: 'later', name: 'Later', format: 'scheduled', maxEntrants: 100, minEntrants: 2, startAt: Date.now() + 60 * 60_000 * 40 }], practiceFillMs: 40_000 },
  };
  op = await startOperator(options);
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

const authed = authedOf;

describe('a tournament as the client plays it (protocol 4)', () => {
  it('the standing from registration to the end, why the seat, the bounties, the table and its hands naming the tournament, the results', async () => {
    const a = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.2' });
    const b = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.3' });
    const watcher = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.4' });
    const list = await a.request({ type: 'tournament.list' });
    if (list.type !== 'tournament.list') throw new Error(list.type);
    const ko = list.tournaments.find((t) => t.tournamentId === 'ko-3-1')!;

    // The table as A's stream shows it, checked at each standing: stack, chips, rank (one table: the whole field).
    const problems: string[] = [];
    const seats: ({ name: string; stack: number } | null)[] = [];
    let mySeat: number | null = null;
    let handsEnded = 0;
    let toldAfter = 0;
    let awaiting = false;
    const me = authed(a).account.username;
    let tableId: string | null = null;
    const check = (m: ServerMessage) => {
      if (m.type === 'tournament.seat') tableId = m.tableId;
      if (m.type === 'table.snapshot' && m.tableId === tableId) {
        seats.splice(0, seats.length, ...m.table.seats.map((s) => (s ? { name: s.name, stack: s.stack } : null)));
        mySeat = m.table.you?.seat ?? null;
      }
      if (m.type === 'table.event' && m.tableId === tableId) {
        const e = m.event;
        if (e.type === 'seated' || e.type === 'seat') seats[e.seat] = { name: e.player.name, stack: e.player.stack };
        if (e.type === 'left') seats[e.seat] = null;
        if (e.type === 'handEnd') {
          handsEnded++;
          awaiting = true;
        }
        if (e.type === 'handStart' && awaiting) problems.push(`hand ${e.handNo} started before the standing of the last one`);
      }
      if (m.type === 'table.left') awaiting = false;
      if (m.type === 'tournament.state' && m.standing.state === 'running' && m.standing.you && awaiting) {
        awaiting = false;
        toldAfter++;
        const mine = seats[mySeat ?? -1];
        const stacks = seats.filter((s): s is { name: string; stack: number } => s !== null).map((s) => s.stack);
        if (!mine || mine.name !== me) problems.push('no seat of mine');
        else {
          if (m.standing.you.stack !== mine.stack) problems.push(`stack ${m.standing.you.stack} ≠ ${mine.stack}`);
          const rank = 1 + stacks.filter((s) => s > mine.stack).length;
          if (m.standing.you.rank !== rank) problems.push(`rank ${m.standing.you.rank} ≠ ${rank}`);
          if (m.standing.chips !== stacks.reduce((x, y) => x + y, 0)) problems.push(`chips ${m.standing.chips}`);
          if (m.standing.remaining !== stacks.length) problems.push(`remaining ${m.standing.remaining} ≠ ${stacks.length}`);
        }
      }
    };
    // Each client plays its seat (random legal moves); A's frames are checked too.
    const pa = new AutoPlayer(a, prng(3));
    const pb = new AutoPlayer(b, prng(4));
    const play = a.onMessage!;
    a.onMessage = (m) => {
      play(m);
      check(m);
    };

    // Registered: the standing follows at once (the field of one, the starting stack, first).
    expect(await a.request({ type: 'tournament.register', tournamentId: 'ko-3-1', version: ko.version })).toMatchObject({ type: 'tournament.registered' });
    const first = (await a.waitFor((m) => m.type === 'tournament.state', 5000, true)) as ServerMessageOf<'tournament.state'>;
    expect(first.standing).toEqual({
      state: 'registering',
      level: null,
      onBreak: false,
      nextChangeInMs: null,
      handForHand: false,
      entries: 1,
      remaining: 1,
      chips: 10_000,
      pool: 1000 - 200,
      paid: 1,
      you: { stack: 10_000, rank: 1, rebuy: false, addOn: false, bounties: 0 },
    });
    // Another registration: the first registrant is told of the field (throttled, once).
    const seatA = a.waitFor((m) => m.type === 'tournament.seat', 15_000);
    const grew = a.waitFor((m) => m.type === 'tournament.state' && m.standing.entries === 2, 5000);
    expect(await b.request({ type: 'tournament.register', tournamentId: 'ko-3-1', version: ko.version })).toMatchObject({ type: 'tournament.registered' });
    await grew;

    // The practice player fills it: the start's seat says why, the table names its tournament.
    const seat = (await seatA) as ServerMessageOf<'tournament.seat'>;
    expect(seat).toMatchObject({ tournamentId: 'ko-3-1', moved: false, why: 'start' });
    const snap = (await a.waitFor((m) => m.type === 'table.snapshot' && m.tableId === seat.tableId, 10_000, true)) as ServerMessageOf<'table.snapshot'>;
    expect(snap.table.tournament).toEqual({ tournamentId: 'ko-3-1' });
    const running = (await a.waitFor((m) => m.type === 'tournament.state' && m.standing.state === 'running', 10_000, true)) as ServerMessageOf<'tournament.state'>;
    expect(running.standing).toMatchObject({ level: 0, onBreak: false, entries: 3, remaining: 3, chips: 30_000, pool: 2400, paid: 1, you: { stack: 10_000, rank: 1, bounties: 0 } });
    expect(running.standing.nextChangeInMs).toBeGreaterThan(0);
    expect(running.standing.nextChangeInMs).toBeLessThanOrEqual(3 * 60_000);

    // Anyone may follow the table without a seat: its tournament named, no `you`, the hands as they go.
    expect(await watcher.request({ type: 'table.watch', tableId: seat.tableId })).toMatchObject({ type: 'ok' });
    const seen = (await watcher.waitFor((m) => m.type === 'table.snapshot' && m.tableId === seat.tableId, 5000, true)) as ServerMessageOf<'table.snapshot'>;
    expect(seen.table).toMatchObject({ tournament: { tournamentId: 'ko-3-1' }, you: null });
    await watcher.waitFor((m) => m.type === 'table.event' && m.tableId === seat.tableId && m.event.type === 'handStart', 10_000);
    const t = op.tournaments.get('ko-3-1')!;
    expect(t.liveTables()[0].isSeated(authed(watcher).account.id)).toBe(false);
    expect(t.entrant(authed(watcher).account.id)).toBeUndefined();

    const finished = (c: TestClient) => c.waitFor((m) => m.type === 'tournament.finished', 120_000, true) as Promise<ServerMessageOf<'tournament.finished'>>;
    const [fa, fb] = await Promise.all([finished(a), finished(b)]);
    await until('the end', () => t.state === 'finished');
    expect(pa.problems).toEqual([]);
    expect(pb.problems).toEqual([]);
    expect(problems).toEqual([]);
    expect(handsEnded).toBeGreaterThan(0);
    // Every hand A saw end was followed by its standing, before the next began; the last one (A out, or
    // the end) with no `you`.
    expect(toldAfter).toBe(handsEnded - 1);
    expect(a.invalid).toEqual([]);
    expect(watcher.invalid).toEqual([]);

    // The bounties each one won, as the POGAIN records have them.
    op.outbox.flush();
    for (const [c, f] of [[a, fa], [b, fb]] as const) {
      const gains = op.vault.byInscription(t.entrant(authed(c).account.id)!.inscription).filter((r) => r.kind === 'POGAIN');
      expect(f.bounties).toBe(gains.reduce((s, r) => s + Math.round(Number(/<SoldeMouvement>([^<]+)</.exec(r.xml)![1])), 0));
    }
    expect(t.all().reduce((s, e) => s + (e.won ?? 0), 0)).toBe(3 * 200);

    // The hands in A's history name the tournament and the level each was dealt at (its blinds say so).
    const h = await a.request({ type: 'history', cursor: null, limit: 50 });
    if (h.type !== 'history') throw new Error(h.type);
    expect(h.hands.length).toBeGreaterThan(0);
    for (const x of h.hands) {
      expect(x.tournament?.tournamentId).toBe('ko-3-1');
      const level = KO.structure.levels[x.tournament!.level];
      expect(level.kind === 'blinds' && level.bigBlind).toBe(x.record.rules.bigBlind);
    }

    // The results: this tournament, what it cost and paid; a bad cursor refused.
    const results = async (c: TestClient) => {
      const r = await c.request({ type: 'tournament.results', cursor: null, limit: 10 });
      if (r.type !== 'tournament.results') throw new Error(JSON.stringify(r));
      return r;
    };
    const ra = await results(a);
    expect(ra.next).toBeNull();
    expect(ra.results).toEqual([
      {
        tournamentId: 'ko-3-1',
        name: 'Trio KO',
        variant: 'THNL',
        money: 'play',
        format: 'sit-and-go',
        kinds: 'G',
        buyIn: 1000,
        fee: 100,
        entries: 3,
        startedAt: expect.any(Number) as number,
        endedAt: expect.any(Number) as number,
        place: fa.place,
        prize: fa.prize,
        bounties: fa.bounties,
        rebuys: 0,
        addOns: 0,
        reEntries: 0,
        spent: 1100,
      },
    ]);
    expect((await results(watcher)).results).toEqual([]);
    expect(await a.request({ type: 'tournament.results', cursor: 'not-a-cursor', limit: 10 })).toMatchObject({ type: 'error', code: 'BAD_CURSOR' });

    // The operator restarts: the results are still there.
    const token = authed(a).token!;
    await Promise.all([a.close(), b.close(), watcher.close()]);
    await op.close();
    op = await startOperator(options);
    const again = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.2' });
    await again.hello();
    expect(await again.request({ type: 'resume', token, tables: [] })).toMatchObject({ type: 'authed' });
    expect((await results(again)).results).toEqual(ra.results);
    await again.close();
  }, 180_000);
});

describe('table.watch', () => {
  it('a cash table followed without a seat: ok, the snapshot, the stream; at most 24; stopped by unwatch, a seat, the disconnection', async () => {
    const c = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.5' });
    const id = authed(c).account.id;
    expect(await c.request({ type: 'table.watch', tableId: 'nope' })).toMatchObject({ type: 'error', code: 'UNKNOWN_TABLE' });
    expect(await c.request({ type: 'table.watch', tableId: 'w-01' })).toMatchObject({ type: 'ok' });
    const snap = (await c.waitFor((m) => m.type === 'table.snapshot' && m.tableId === 'w-01', 5000, true)) as ServerMessageOf<'table.snapshot'>;
    expect(snap.table).toMatchObject({ tableId: 'w-01', you: null, tournament: null });
    // The stream, numbered from the snapshot's on.
    const ev = (await c.waitFor((m) => m.type === 'table.event' && m.tableId === 'w-01' && m.event.type === 'handEnd', 10_000)) as ServerMessageOf<'table.event'>;
    expect(ev.seq).toBeGreaterThan(snap.seq);
    // Up to 24 tables; watching one already watched again costs nothing; the 25th is refused.
    for (const t of CASH.slice(1, MAX_WATCHED)) expect(await c.request({ type: 'table.watch', tableId: t.id })).toMatchObject({ type: 'ok' });
    expect(await c.request({ type: 'table.watch', tableId: 'w-01' })).toMatchObject({ type: 'ok' });
    // Its own code, not the message rate's (RATE_LIMITED): the client says which limit was met.
    expect(await c.request({ type: 'table.watch', tableId: CASH[MAX_WATCHED].id })).toMatchObject({ type: 'error', code: 'WATCH_LIMIT', tableId: CASH[MAX_WATCHED].id });
    expect(op.manager.get(CASH[MAX_WATCHED].id)!.isWatching(id)).toBe(false);
    expect(await c.request({ type: 'table.unwatch', tableId: 'nope' })).toMatchObject({ type: 'error', code: 'UNKNOWN_TABLE' });

    // Unwatched: nothing more of it, while its hands go on.
    expect(await c.request({ type: 'table.unwatch', tableId: 'w-01' })).toMatchObject({ type: 'ok' });
    const after = c.received.length;
    const table = op.manager.get('w-01')!;
    const played = table.handsPlayed;
    await until('two more hands at w-01', () => table.handsPlayed >= played + 2);
    expect(c.received.slice(after).filter((m) => 'tableId' in m && m.tableId === 'w-01')).toEqual([]);
    // A slot is free again: the 25th table now.
    expect(await c.request({ type: 'table.watch', tableId: CASH[MAX_WATCHED].id })).toMatchObject({ type: 'ok' });

    // A seat taken at a watched table: the seat's stream replaces the watch; watching a seat's table is refused.
    expect(await c.join('w-02', 1000)).toMatchObject({ type: 'table.joined' });
    expect(op.manager.get('w-02')!.isWatching(id)).toBe(false);
    const own = (await c.waitFor((m) => m.type === 'table.snapshot' && m.tableId === 'w-02' && m.table.you !== null, 5000, true)) as ServerMessageOf<'table.snapshot'>;
    expect(own.table.you).not.toBeNull();
    expect(await c.request({ type: 'table.watch', tableId: 'w-02' })).toMatchObject({ type: 'error', code: 'ALREADY_SEATED' });
    // Watching never touched a seat: the account sits at w-02 only.
    expect(op.manager.tablesOf(id).map((t) => t.tableId)).toEqual(['w-02']);
    expect(op.manager.get('w-03')!.isWatching(id)).toBe(true);
    expect(c.invalid).toEqual([]);

    // The disconnection ends every watch.
    await c.close();
    await until('watches dropped', () => CASH.every((t) => !op.manager.get(t.id)!.isWatching(id)));
  }, 60_000);

  it('a player who connects again is told at once where each of their tournaments stands', async () => {
    const d = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.6' });
    const later = op.tournaments.get('later')!;
    expect(await d.request({ type: 'tournament.register', tournamentId: 'later', version: later.version })).toMatchObject({ type: 'tournament.registered' });
    const token = authed(d).token!;
    d.cut();
    const back = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.6' });
    await back.hello();
    const told = back.waitFor((m) => m.type === 'tournament.state', 5000);
    expect(await back.request({ type: 'resume', token, tables: [] })).toMatchObject({ type: 'authed' });
    expect(await told).toMatchObject({ tournamentId: 'later', standing: { state: 'registering', entries: 1, you: { stack: 10_000, rank: 1 } } });
    expect(await back.request({ type: 'tournament.unregister', tournamentId: 'later' })).toMatchObject({ type: 'tournament.unregistered', refunded: 1100 });
    await back.close();
  }, 30_000);
});
