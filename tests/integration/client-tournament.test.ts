/**
 * Tournaments in the client's main process against a real operator on loopback
 * TLS (its tournaments, wallet and history in SQLite files), the real link and a real local history:
 * register, play a heads-up sit & go to its end against a practice player, follow the player's
 * TournamentPlay, the tables (tournament chips never in the tracker's cash), the hands stored with
 * their tournament and level, the money (entries, prizes, bounties) and the status bar's identity
 * (balance − session result = balance at the start); unregistering before the start refunds (a refunded
 * registration stored as such, in no result; registering again a new record); a move
 * between tables followed; and a second data folder finding the tournament after sign-in, once.
 */
import { describe, expect, it } from 'vitest';
import type { TableState, TournamentPlay } from '../../shared/api';
import type { HandMeta } from '../../electron/services/history/store';
import { readyStructure } from '../../shared/rules/tournament';
import type { TournamentDetails, TournamentSummary } from '../../shared/protocol/tournament';
import type { TournamentSpec } from '../../operator/tournaments/spec';
import { PLAY_TABLE, testOperator } from './operator-harness';
import { tournamentSpec } from '../support/operator/tournament-env';
import { autoplay, expectNoHiddenCard, testClients, until, type TestClient } from './client-tournament-env';

const BUY_IN = 1000;
const FEE = 100;
const BOUNTY = 200;

/** A play-money sit & go template (instances `<id>-1`, `-2`, …): short stacks so that it ends in a few hands. */
function sitAndGo(id: string, entrants: number, seats: number, over: Partial<TournamentSpec> = {}): TournamentSpec {
  return tournamentSpec({
    id,
    name: `SNG ${id}`,
    buyIn: BUY_IN,
    fee: FEE,
    seats,
    maxEntrants: entrants,
    minEntrants: entrants,
    structure: { ...readyStructure('THNL', 'hyper-turbo'), startingStack: 1500, lateRegistrationLevels: 0 },
    ...over,
  });
}

const client = testClients('cercle-client-tournament-');

const plays = (c: TestClient, id: string): TournamentPlay[] => c.pushed.filter((p) => p.event === 'tournament' && (p.payload as TournamentPlay).tournamentId === id).map((p) => p.payload as TournamentPlay);
const tableStates = (c: TestClient, id: string): TableState[] => c.pushed.filter((p) => p.event === 'table' && (p.payload as TableState).tournamentId === id).map((p) => p.payload as TableState);

/** The metas of hands the tracker stored (the real tracker, watched). */
function storedMetas(c: TestClient): HandMeta[] {
  const metas: HandMeta[] = [];
  const tracker = c.core.results.tracker;
  const handEnded = tracker.handEnded.bind(tracker);
  tracker.handEnded = (meta, record) => {
    const r = handEnded(meta, record);
    if (r.stored) metas.push(structuredClone(meta));
    return r;
  };
  return metas;
}

async function summaryOf(c: TestClient, id: string): Promise<TournamentSummary> {
  const r = await c.call<{ ok: boolean; tournaments: TournamentSummary[] }>('tournaments');
  expect(r.ok).toBe(true);
  const s = r.tournaments.find((t) => t.tournamentId === id);
  if (!s) throw new Error(`no tournament ${id} in the lobby`);
  return s;
}

describe('tournaments in the client', () => {
  it('a heads-up sit & go played to its end: plays pushed, tables without cash, hands with their level, entries and prizes, the balance identity', async () => {
    const op = await testOperator('0091', [PLAY_TABLE], {
      tournaments: { specs: [sitAndGo('hu', 2, 2, { bounty: BOUNTY })], practiceFillMs: 100 },
      table: { practiceDelayMs: [0, 5], betweenHandsMs: 30 },
    });
    const c = await client(op, 'alice');
    const metas = storedMetas(c);
    const start = c.core.session.view().balances!.play;
    const id = 'hu-1';
    const summary = await summaryOf(c, id);
    expect(summary).toMatchObject({ buyIn: BUY_IN, fee: FEE, bounty: BOUNTY, format: 'sit-and-go', state: 'registering' });
    const details = await c.call<{ ok: boolean; details: TournamentDetails }>('tournamentDetails', { tournamentId: id });
    expect(details.ok).toBe(true);
    expect(details.details.structure.startingStack).toBe(1500);

    // R-INFO: a version other than the one shown is refused, nothing paid.
    expect(await c.call('tournamentRegister', { tournamentId: id, version: 'ffffffffffffff' })).toMatchObject({ ok: false, code: 'RULES_CHANGED' });
    expect(c.core.results.trackerView().session.play.entries).toBe(0);

    const player = autoplay(c, 'shove');
    try {
      expect(await c.call('tournamentRegister', { tournamentId: id, version: summary.version })).toEqual({ ok: true });
      // The entry (buy-in + fee) counts as paid at once (R-TRACKER).
      expect(c.core.results.trackerView().session.play).toMatchObject({ entries: BUY_IN + FEE, prizes: 0, result: -(BUY_IN + FEE) });
      expect(plays(c, id)[0]).toMatchObject({ status: 'registered', spent: BUY_IN + FEE, seat: null, finished: null });
      await until(() => c.core.session.view().balances!.play === start - BUY_IN - FEE, 5_000, 'the entry taken from the balance');
      // Running (or just over: the same holds then), its entry already in today, the tournament results and
      // the graph: as the session says.
      const live = c.core.results.trackerView();
      expect(live.today!.play).toMatchObject({ entries: live.session.play.entries, prizes: live.session.play.prizes });
      const resultBefore = c.core.results.trackerView().session.play.result;
      const running = await c.call<{ play: { running: number; count: number; net: number } }>('tournamentResults', { filter: {}, groupBy: 'format' });
      expect(running.play.running + running.play.count).toBe(1);
      // Read between the two (a prize may come meanwhile).
      expect([resultBefore, c.core.results.trackerView().session.play.result]).toContain(running.play.net);

      // The practice player fills it, it starts, we play it to its end.
      await until(() => plays(c, id).some((p) => p.status === 'finished'), 90_000, 'the sit & go finished');
      await c.core.tournaments.settled();
    } finally {
      await player.stop();
    }
    const seen = plays(c, id);
    const last = seen.at(-1)!;
    expect(last.status).toBe('finished');
    // Seated at the start, then the standing with its clock, then the finish.
    const seated = seen.find((p) => p.seat !== null)!;
    expect(seated.status).toBe('playing');
    expect(seated.seat!.tableId).toBe(`${id}-t1`);
    const standing = seen.find((p) => p.standing?.state === 'running' && p.standing.you !== null)!;
    expect(standing.standingAt).not.toBeNull();
    expect(standing.standing!.level).toBeGreaterThanOrEqual(0);
    expect(standing.standing!.remaining).toBeLessThanOrEqual(2);
    // Heads-up: the winner takes the pool (2 × (buy-in − bounty)), the loser's bounty and keeps their own.
    const won = last.finished!.place === 1;
    expect(last.finished).toEqual(won ? { place: 1, tied: 1, prize: 2 * (BUY_IN - BOUNTY), bounties: 2 * BOUNTY } : { place: 2, tied: 1, prize: 0, bounties: 0 });
    expect(last.spent).toBe(BUY_IN + FEE);

    // The tournament's table: pushed with its tournament, never watched, and gone without a cash-out.
    const states = tableStates(c, id);
    expect(states.some((s) => s.status === 'live' && s.view?.tournament?.tournamentId === id && !s.watching)).toBe(true);
    await until(() => c.core.tables.list().length === 0, 10_000, 'the tournament table gone');
    const gone = c.pushed.filter((p) => p.event === 'table' && (p.payload as TableState).status === 'gone').map((p) => p.payload as TableState);
    expect(gone).toHaveLength(1);
    expect(gone[0]).toMatchObject({ tableId: `${id}-t1`, tournamentId: id, cashedOut: null });

    // Its hands: stored with the tournament and the level at their start; none counted as cash.
    expect(metas.length).toBeGreaterThan(0);
    for (const m of metas) expect(m.tournament).toMatchObject({ tournamentId: id });
    for (const m of metas) expect(m.tournament!.level).toBeGreaterThanOrEqual(0);
    const money = c.core.results.trackerView().session.play;
    expect(money).toMatchObject({ hands: 0, net: 0, inPlay: 0, bought: 0, cashedOut: 0, onTables: 0, entries: BUY_IN + FEE });
    expect(money.prizes).toBe(last.finished!.prize + last.finished!.bounties);
    expect(money.result).toBe(money.prizes - money.entries);
    // The status bar's identity through a whole sit & go: balance − session result = balance at the start.
    await until(() => c.core.session.view().balances!.play - c.core.results.trackerView().session.play.result === start, 10_000, 'balance − result = start');
    // Today counts the same entries and prizes (its hands' totals are the store's: tournament hands are
    // kept out of them by the history's side of the issue, branch chist).
    const today = c.core.results.trackerView().today!.play;
    expect(today).toMatchObject({ entries: BUY_IN + FEE, prizes: money.prizes });
    expect(today.result).toBe(today.net + today.inPlay + today.prizes - today.entries);

    // What the pages were pushed: valid, and no opponent's hidden card.
    expect(c.invalid).toEqual([]);
    expect(expectNoHiddenCard(c.pushed) + player.checked()).toBeGreaterThan(0);
    expect(op.wallet.audit().problems).toEqual([]);

    // The local record: stored at registration, completed at the finish.
    const record = c.core.history.store.tournament(id)!;
    expect(record).toMatchObject({ tournamentId: id, name: summary.name, buyIn: BUY_IN, fee: FEE, spent: BUY_IN + FEE, entries: 2, place: last.finished!.place, prize: last.finished!.prize, bounties: last.finished!.bounties, rebuys: 0, addOns: 0 });
    expect(record.registeredAt).toBeLessThanOrEqual(record.startedAt!);
    expect(record.startedAt).toBeLessThanOrEqual(record.endedAt!);
    expect(record.hands).toBe(metas.length);
    // Its hands, in the history as the tournament's (the list's filter), none among the cash hands.
    const page = await c.call<{ ok: boolean; hands: { handId: string; tournament: { tournamentId: string } | null }[] }>('historyPage', { filter: { kind: 'tournament' }, sort: 'time', dir: 'desc', limit: 200, cursor: null });
    expect(page.hands).toHaveLength(metas.length);
    for (const h of page.hands) expect(h.tournament?.tournamentId).toBe(id);
    expect((await c.call<{ hands: unknown[] }>('historyPage', { filter: { kind: 'cash' }, sort: 'time', dir: 'desc', limit: 200, cursor: null })).hands).toEqual([]);
    // Today now equals the session: its hands' totals leave tournament hands out.
    expect(c.core.results.trackerView().today!.play).toMatchObject({ hands: 0, net: 0, result: money.result });
    // Ended: the tournament results and the graph end on the same net, counted once.
    const ended = await c.call<{ play: { count: number; running: number; net: number } }>('tournamentResults', { filter: {}, groupBy: 'format' });
    expect(ended.play).toMatchObject({ count: 1, running: 0, net: money.result });
    const graph = await c.call<{ total: number[]; hands: number[] }>('resultsSeries', { filter: { kind: 'tournament', money: 'play' }, maxPoints: 100 });
    expect(graph.total.at(-1)).toBe(money.result);
    expect(graph.hands.at(-1)).toBe(1);

    // Synced: another data folder signed in to the same account finds the tournament and its hands, once.
    const other = await client(op, 'alice', false);
    const syncs = () => other.core.history.jobList().filter((j) => j.kind === 'sync' && j.state === 'done').length;
    await until(() => syncs() >= 1, 20_000, 'the sync after sign-in');
    const list = async () => (await other.call<{ ok: boolean; tournaments: { tournamentId: string }[] }>('tournamentHistory', { filter: {}, limit: 50, cursor: null })).tournaments;
    expect((await list()).map((t) => t.tournamentId)).toEqual([id]);
    expect(other.core.history.store.tournament(id)).toMatchObject({ place: last.finished!.place, prize: last.finished!.prize, bounties: last.finished!.bounties, spent: BUY_IN + FEE, buyIn: BUY_IN, fee: FEE, entries: 2, hands: metas.length });
    const synced = await other.call<{ hands: { tournament: { tournamentId: string } | null }[] }>('historyPage', { filter: { kind: 'tournament' }, sort: 'time', dir: 'desc', limit: 200, cursor: null });
    expect(synced.hands).toHaveLength(metas.length);
    // Signing in again reads the results again: still once.
    expect(await other.call('reconnect')).toEqual({ ok: true });
    await until(() => syncs() >= 2, 20_000, 'the sync after signing in again');
    expect((await list()).map((t) => t.tournamentId)).toEqual([id]);
    const results = await other.call<{ play: { count: number; spent: number; net: number } }>('tournamentResults', { filter: {}, groupBy: 'format' });
    expect(results.play).toMatchObject({ count: 1, spent: BUY_IN + FEE, net: last.finished!.prize + last.finished!.bounties - BUY_IN - FEE });
    expect(other.invalid).toEqual([]);
  }, 120_000);

  it('unregistering before the start refunds the whole entry: the tracker takes it off, the balance is back', async () => {
    const op = await testOperator('0092', [PLAY_TABLE], {
      // Six seats and no practice fill: it waits for players, so we unregister before its start.
      tournaments: { specs: [sitAndGo('six', 6, 6)], practiceFillMs: null },
    });
    const c = await client(op, 'bob');
    const start = c.core.session.view().balances!.play;
    const s = await summaryOf(c, 'six-1');
    expect(await c.call('tournamentRegister', { tournamentId: 'six-1', version: s.version })).toEqual({ ok: true });
    await until(() => c.core.session.view().balances!.play === start - BUY_IN - FEE, 5_000, 'the entry paid');
    expect(await c.call('myTournaments')).toMatchObject([{ tournamentId: 'six-1', status: 'registered', spent: BUY_IN + FEE }]);
    expect(await c.call('tournamentUnregister', { tournamentId: 'six-1' })).toEqual({ ok: true, refunded: BUY_IN + FEE });
    expect(await c.call('myTournaments')).toMatchObject([{ tournamentId: 'six-1', status: 'unregistered', spent: 0 }]);
    expect(c.core.results.trackerView().session.play).toMatchObject({ entries: 0, prizes: 0, result: 0 });
    await until(() => c.core.session.view().balances!.play === start, 5_000, 'the refund in the balance');
    // Its record ends without a place and with nothing spent: not a tournament played (no result).
    expect(c.core.history.store.tournament('six-1')).toMatchObject({ spent: 0, place: null, prize: 0 });
    expect(c.core.history.store.tournament('six-1')!.endedAt).not.toBeNull();
    expect((await c.call<{ play: { count: number } }>('tournamentResults', { filter: {}, groupBy: 'format' })).play.count).toBe(0);
    // Unregistering twice: the operator's refusal, unchanged.
    expect(await c.call('tournamentUnregister', { tournamentId: 'six-1' })).toMatchObject({ ok: false, code: 'NOT_REGISTERED' });
    expect(c.invalid).toEqual([]);
  }, 30_000);

  it('a refunded registration is stored as refunded, listed so and in no result; registering again is a new record counted from its entry', async () => {
    const op = await testOperator('0092', [PLAY_TABLE], {
      // Six seats and no practice fill: it waits for players, so we unregister before its start.
      tournaments: { specs: [sitAndGo('six', 6, 6)], practiceFillMs: null },
    });
    const c = await client(op, 'bob');
    const s = await summaryOf(c, 'six-1');
    type Record = { tournamentId: string; spent: number; refundedAt?: number; registeredAt: number; endedAt: number | null };
    type Totals = { count: number; running: number; spent: number; net: number };
    const list = async () => (await c.call<{ ok: boolean; tournaments: Record[] }>('tournamentHistory', { filter: {}, limit: 50, cursor: null })).tournaments;
    const results = async () => (await c.call<{ play: Totals }>('tournamentResults', { filter: {}, groupBy: 'format' })).play;
    const line = async () => (await c.call<{ total: number[] }>('resultsSeries', { filter: { kind: 'tournament', money: 'play' }, maxPoints: 100 })).total;
    // The history's today and its tournament figures equal the tracker's session at every step (R-TRACKER).
    const same = async (why: string): Promise<void> => {
      const v = c.core.results.trackerView();
      expect({ entries: v.today!.play.entries, prizes: v.today!.play.prizes, result: v.today!.play.result }, why).toEqual({ entries: v.session.play.entries, prizes: v.session.play.prizes, result: v.session.play.result });
      expect((await results()).net, why).toBe(v.session.play.result);
      expect((await line()).at(-1) ?? 0, why).toBe(v.session.play.result);
    };

    expect(await c.call('tournamentRegister', { tournamentId: 'six-1', version: s.version })).toEqual({ ok: true });
    // Registered, not started: the entry is already lost until a prize comes.
    expect(await results()).toMatchObject({ count: 0, running: 1, spent: BUY_IN + FEE, net: -(BUY_IN + FEE) });
    await same('registered');
    expect(await c.call('tournamentUnregister', { tournamentId: 'six-1' })).toEqual({ ok: true, refunded: BUY_IN + FEE });
    const refunded = c.core.history.store.tournament('six-1')!;
    expect(refunded).toMatchObject({ spent: 0, place: null });
    expect(refunded.refundedAt).toBe(refunded.endedAt);
    expect(await list()).toMatchObject([{ tournamentId: 'six-1', refundedAt: refunded.refundedAt }]);
    expect(await results()).toMatchObject({ count: 0, running: 0, spent: 0, net: 0 });
    expect(await line()).toEqual([]);
    await same('refunded');

    // Registered again: a new record, counted from its entry; the refunded one still listed, as refunded.
    expect(await c.call('tournamentRegister', { tournamentId: 'six-1', version: s.version })).toEqual({ ok: true });
    expect(await c.call('myTournaments')).toMatchObject([{ tournamentId: 'six-1', status: 'registered', spent: BUY_IN + FEE, rebuys: 0 }]);
    const now = c.core.history.store.tournament('six-1')!;
    expect(now.refundedAt).toBeUndefined();
    expect(now).toMatchObject({ spent: BUY_IN + FEE, endedAt: null, place: null, reEntries: 0 });
    expect(now.registeredAt).toBeGreaterThanOrEqual(refunded.refundedAt!);
    const two = await list();
    expect(two).toHaveLength(2);
    // (The field's size may move between reads: the lobby's news.)
    expect({ ...two[0], entries: 0 }).toEqual({ ...now, entries: 0 });
    expect({ ...two[1], entries: 0 }).toEqual({ ...refunded, entries: 0 });
    expect(await results()).toMatchObject({ count: 0, running: 1, spent: BUY_IN + FEE, net: -(BUY_IN + FEE) });
    await same('registered again');
    // Refunded again: both kept as refunded, none in the results.
    expect(await c.call('tournamentUnregister', { tournamentId: 'six-1' })).toEqual({ ok: true, refunded: BUY_IN + FEE });
    expect((await list()).map((t) => [t.tournamentId, t.spent, typeof t.refundedAt])).toEqual([
      ['six-1', 0, 'number'],
      ['six-1', 0, 'number'],
    ]);
    expect(await results()).toMatchObject({ count: 0, running: 0, spent: 0, net: 0 });
    await same('refunded twice');
    expect(c.invalid).toEqual([]);
  }, 30_000);

  it('a move to another table is followed: the new table live, the old one gone without a cash-out, and why', async () => {
    // Four players on tables of three: two tables of two; after the first bust the three left fit one
    // table, so table 2 breaks and its players move to table 1 (T 6-6, 6-11). Seated at table 1 (drawn
    // at random), we forfeit (R-TOURN-LEAVE) and enter the next instance, a few times at most.
    const op = await testOperator('0093', [PLAY_TABLE], {
      tournaments: { specs: [sitAndGo('mv', 4, 3)], practiceFillMs: 50 },
      table: { practiceDelayMs: [0, 5], betweenHandsMs: 30 },
    });
    const c = await client(op, 'carol');
    const player = autoplay(c, 'passive');
    let moved: TournamentPlay | undefined;
    let id = '';
    try {
      for (let n = 1; n <= 12 && !moved; n++) {
        id = `mv-${n}`;
        const s = await summaryOf(c, id);
        expect(await c.call('tournamentRegister', { tournamentId: id, version: s.version })).toEqual({ ok: true });
        await until(() => plays(c, id).some((p) => p.seat !== null), 20_000, `seated in ${id}`);
        if (plays(c, id).find((p) => p.seat !== null)!.seat!.tableId === `${id}-t1`) {
          expect(await c.call('tournamentUnregister', { tournamentId: id })).toEqual({ ok: true, refunded: null }); // a forfeit
          continue;
        }
        await until(() => plays(c, id).some((p) => p.move !== null || p.status === 'finished'), 60_000, `moved or out in ${id}`);
        moved = plays(c, id).find((p) => p.move !== null);
      }
    } finally {
      await player.stop();
    }
    if (!moved) throw new Error('never moved in 12 sit & go’s (each time at table 1, or out first)');
    expect(moved.move).toMatchObject({ from: `${id}-t2`, to: `${id}-t1`, why: 'broken' });
    expect(moved.seat!.tableId).toBe(`${id}-t1`);
    // The new table is followed live; the old one ended without a cash-out (tournament chips are not money).
    await until(() => c.core.tables.list().some((t) => t.tableId === `${id}-t1` && t.status === 'live' && t.view?.you !== null), 10_000, 'the new table live');
    expect(c.core.tables.list().some((t) => t.tableId === `${id}-t2`)).toBe(false);
    const states = tableStates(c, id);
    const old = states.filter((t) => t.tableId === `${id}-t2`);
    expect(old.at(-1)).toMatchObject({ status: 'gone', cashedOut: null, tournamentId: id, watching: false });
    expect(old.filter((t) => t.status === 'gone')).toHaveLength(1);
    const money = c.core.results.trackerView().session.play;
    expect(money).toMatchObject({ hands: 0, net: 0, bought: 0, cashedOut: 0, onTables: 0, inPlay: 0 });
    expect(c.invalid).toEqual([]);
    // The pushed states and those our seat decided on (pushes may all fall between hands under load: seen in CI).
    expect(expectNoHiddenCard(c.pushed) + player.checked()).toBeGreaterThan(0);
  }, 240_000);

  it('a tournament table resumed after a dropped connection like a cash table; another player watches it, without a seat, and stops', async () => {
    const op = await testOperator('0094', [PLAY_TABLE], {
      // Full stacks: the sit & go lasts while we look.
      tournaments: { specs: [sitAndGo('six', 6, 6, { structure: { ...readyStructure('THNL', 'hyper-turbo'), lateRegistrationLevels: 0 } })], practiceFillMs: 50 },
      table: { practiceDelayMs: [0, 5], betweenHandsMs: 30 },
    });
    const alice = await client(op, 'alice');
    const metas = storedMetas(alice);
    const s = await summaryOf(alice, 'six-1');
    const player = autoplay(alice, 'passive');
    const tableId = 'six-1-t1';
    try {
      expect(await alice.call('tournamentRegister', { tournamentId: 'six-1', version: s.version })).toEqual({ ok: true });
      await until(() => metas.length >= 2, 30_000, 'two hands of the sit & go stored');

      // Another player watches the table: its stream without a seat, nothing of it stored.
      const dave = await client(op, 'dave');
      expect(await dave.call('watchTable', { tableId, watch: true })).toEqual({ ok: true });
      const watchedHands = () => new Set(tableStates(dave, 'six-1').flatMap((t) => (t.lastHand ? [t.lastHand.handId] : [])));
      await until(() => watchedHands().size >= 2, 30_000, 'two hands watched');
      expect(dave.core.tables.list()).toMatchObject([{ tableId, status: 'live', watching: true, tournamentId: 'six-1', view: { you: null } }]);

      // Alice's connection drops: the link resumes the session and the table's stream, as for a cash table.
      const storedBefore = metas.length;
      op.context.byAccount.get(op.accounts.findByUsername('alice')!.id)!.ws.terminate();
      await until(() => alice.core.session.view().link.state !== 'connected', 10_000, 'alice sees the drop');
      await until(() => alice.core.session.view().link.state === 'connected', 20_000, 'alice back');
      await until(() => metas.length >= storedBefore + 2, 30_000, 'hands stored after the resume');
      expect(new Set(metas.map((m) => `${m.tableId}`))).toEqual(new Set([tableId]));
      expect(alice.pushed.some((p) => p.event === 'table' && (p.payload as TableState).status === 'gone')).toBe(false);
      expect(alice.core.tables.list()).toMatchObject([{ tableId, status: 'live', watching: false, tournamentId: 'six-1' }]);

      // Dave's drops too: the table is watched again (the resume's fresh snapshot), then he stops watching.
      const seenBefore = watchedHands().size;
      op.context.byAccount.get(op.accounts.findByUsername('dave')!.id)!.ws.terminate();
      await until(() => dave.core.session.view().link.state !== 'connected', 10_000, 'dave sees the drop');
      await until(() => dave.core.session.view().link.state === 'connected', 20_000, 'dave back');
      await until(() => watchedHands().size >= seenBefore + 2, 30_000, 'watching again after the drop');
      expect(dave.core.tables.list()).toMatchObject([{ tableId, status: 'live', watching: true }]);
      expect(await dave.call('watchTable', { tableId, watch: false })).toEqual({ ok: true });
      expect(dave.core.tables.list()).toEqual([]);
      expect(tableStates(dave, 'six-1').at(-1)).toMatchObject({ status: 'gone', cashedOut: null, watching: false });
      expect(dave.core.history.store.count()).toBe(0);
      expect(dave.core.results.trackerView().session.play).toMatchObject({ hands: 0, bought: 0, entries: 0 });
      expect(dave.invalid).toEqual([]);
      // A watcher sees no hole card but those shown (R-HIDDEN).
      expect(expectNoHiddenCard(dave.pushed)).toBeGreaterThan(0);
    } finally {
      await player.stop();
    }
    // Its hands are the tournament's; none of them money.
    expect(new Set(metas.map((m) => m.tournament?.tournamentId))).toEqual(new Set(['six-1']));
    expect(alice.core.results.trackerView().session.play).toMatchObject({ hands: 0, net: 0, bought: 0, cashedOut: 0, entries: BUY_IN + FEE });
    expect(alice.invalid).toEqual([]);
    expect(expectNoHiddenCard(alice.pushed) + player.checked()).toBeGreaterThan(0);
  }, 180_000);

  it('a rebuy is paid as it is bought (tracker, play, record); an add-on refused before its time moves nothing', async () => {
    const REBUY = { price: 1000, fee: 100 };
    const op = await testOperator('0095', [PLAY_TABLE], {
      tournaments: { specs: [sitAndGo('rb', 2, 2, { structure: { ...readyStructure('THNL', 'hyper-turbo', { rebuys: REBUY }), lateRegistrationLevels: 0 } })], practiceFillMs: 50 },
      // Slow practice players: the sit & go is still on when we rebuy.
      table: { practiceDelayMs: [2000, 2000], betweenHandsMs: 30 },
    });
    const c = await client(op, 'erin');
    const start = c.core.session.view().balances!.play;
    const s = await summaryOf(c, 'rb-1');
    expect(s.kinds).toContain('A');
    expect(await c.call('tournamentRegister', { tournamentId: 'rb-1', version: s.version })).toEqual({ ok: true });
    await until(() => plays(c, 'rb-1').some((p) => p.seat !== null), 20_000, 'seated');
    // At the starting stack, in the rebuy period: a rebuy is allowed (T 5-2).
    expect(await c.call('tournamentRebuy', { tournamentId: 'rb-1' })).toEqual({ ok: true });
    const paid = BUY_IN + FEE + REBUY.price + REBUY.fee;
    expect(c.core.results.trackerView().session.play).toMatchObject({ entries: paid, result: -paid });
    expect(plays(c, 'rb-1').at(-1)).toMatchObject({ rebuys: 1, spent: paid });
    expect(c.core.history.store.tournament('rb-1')).toMatchObject({ rebuys: 1, spent: paid });
    // The add-on comes at the end of the rebuy period (T 5-4): refused now, with its rule; nothing paid.
    expect(await c.call('tournamentAddOn', { tournamentId: 'rb-1' })).toMatchObject({ ok: false, rule: 'T 5-4' });
    expect(c.core.results.trackerView().session.play.entries).toBe(paid);
    await until(() => c.core.session.view().balances!.play === start - paid, 5_000, 'the balance after the rebuy');
    expect(c.invalid).toEqual([]);
  }, 60_000);
});
