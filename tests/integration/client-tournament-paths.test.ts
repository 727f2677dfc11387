/**
 * Tournament paths of the client's main process that the first tests (client-tournament.test.ts) do
 * not take, against a real operator on loopback TLS (its tournaments, wallet and history in SQLite
 * files), the real link and a real local history:
 *
 * - a re-entry (T/M, within late registration): the entry paid twice (tracker, play), one local
 *   record of the tournament counting the re-entry, as the operator's own result counts it
 *   (tournament-records.ts upserts one record per tournament id; the operator's store.ts counts
 *   `reEntries` and the same cost, (1 + reEntries) entries);
 * - a tournament the operator cancels (a scheduled minimum field not met, R-TOURN-FORMATS): every
 *   registration refunded; each client's wallet, tracker and history agree with the operator's ledger,
 *   and the cancelled tournament is not counted as a tournament played (no loss);
 * - a level change in the middle of a hand (T 6-1): the hand keeps the level it started at, the next
 *   one gets the new one, in the stored history (HistoryHand.tournament.level) and in the blinds the
 *   hands' records carry.
 */
import { describe, expect, it } from 'vitest';
import type { TableState, TournamentPlay } from '../../shared/api';
import { handOf } from '../../shared/protocol/hand';
import { legalActions } from '../../shared/rules/engine';
import { readyStructure, tableRulesAt } from '../../shared/rules/tournament';
import type { TournamentSummary } from '../../shared/protocol/tournament';
import type { TournamentSpec } from '../../operator/tournaments/spec';
import { PLAY_TABLE, testOperator } from './operator-harness';
import { autoplay, testClients, until, type TestClient } from './client-tournament-env';

const BUY_IN = 1000;
const FEE = 100;
const ENTRY = BUY_IN + FEE;

function scheduled(id: string, startInMs: number, over: Partial<TournamentSpec> = {}, structure: Partial<TournamentSpec['structure']> = {}): TournamentSpec {
  return {
    id,
    name: `MTT ${id}`,
    variant: 'THNL',
    money: 'play',
    buyIn: BUY_IN,
    fee: FEE,
    format: 'scheduled',
    seats: 6,
    maxEntrants: 6,
    minEntrants: 2,
    startAt: Date.now() + startInMs,
    structure: { ...readyStructure('THNL', 'hyper-turbo'), ...structure },
    ...over,
  };
}

const client = testClients('cercle-client-tpaths-');

const lastPlay = (c: TestClient, id: string): TournamentPlay | undefined =>
  c.pushed.filter((p) => p.event === 'tournament' && (p.payload as TournamentPlay).tournamentId === id).at(-1)?.payload as TournamentPlay | undefined;

async function summaries(c: TestClient): Promise<TournamentSummary[]> {
  return (await c.call<{ ok: boolean; tournaments: TournamentSummary[] }>('tournaments')).tournaments;
}

describe('tournament paths in the client', () => {
  it('a re-entry after busting within late registration: the entry paid twice, one record counting the re-entry, the same as the operator’s result', async () => {
    // Three scheduled tournaments at once (late registration through level 2, one re-entry), each
    // brought to 4 by practice players; we go all in every hand, so we bust in one of them while it is
    // still open to re-entry; then we play all three to their end.
    const ids = ['re-a', 're-b', 're-c'];
    const op = await testOperator('0096', [PLAY_TABLE], {
      // The clock 10 times faster: late registration (two 3-minute levels) closes 36 s after the start.
      tournaments: { specs: ids.map((id) => scheduled(id, 2500, {}, { startingStack: 1500, lateRegistrationLevels: 2, reEntries: 1 })), practiceFillMs: 100, practiceField: 4, clockRate: 10 },
      table: { practiceDelayMs: [0, 5], betweenHandsMs: 30 },
    });
    const c = await client(op, 'rita');
    const start = c.core.session.view().balances!.play;
    const player = autoplay(c, 'shove');
    let busted: string | undefined;
    try {
      for (const s of (await summaries(c)).filter((t) => ids.includes(t.tournamentId))) expect(await c.call('tournamentRegister', { tournamentId: s.tournamentId, version: s.version })).toEqual({ ok: true });
      expect(c.core.results.trackerView().session.play.entries).toBe(3 * ENTRY);
      // Out, with no place yet (the field is not final: T/M), told by a standing without us.
      const out = (id: string) => {
        const p = lastPlay(c, id);
        return p?.status === 'playing' && p.standing?.state === 'running' && p.standing.you === null && p.finished === null;
      };
      await until(() => (busted = ids.find(out)) !== undefined, 30_000, 'busted in one of the tournaments');
    } finally {
      await player.stop();
    }
    const id = busted!;
    const entriesBefore = c.core.results.trackerView().session.play.entries;
    const s = (await summaries(c)).find((t) => t.tournamentId === id)!;
    expect(await c.call('tournamentRegister', { tournamentId: id, version: s.version })).toEqual({ ok: true });
    // The re-entry is a whole entry, paid now (R-TRACKER), and we are seated again ('back').
    expect(c.core.results.trackerView().session.play.entries).toBe(entriesBefore + ENTRY);
    await until(() => lastPlay(c, id)?.seat !== null && lastPlay(c, id)?.status === 'playing', 10_000, 'seated again');
    expect(lastPlay(c, id)).toMatchObject({ spent: 2 * ENTRY, finished: null });
    const me = op.accounts.findByUsername('rita')!.id;
    await until(() => c.core.session.view().balances!.play === op.wallet.balance(me, 'play'), 5_000, 'the balance read again');
    // One local record of the tournament: both entries in what it cost, the re-entry counted.
    const record = c.core.history.store.tournament(id)!;
    expect(record).toMatchObject({ tournamentId: id, spent: 2 * ENTRY, reEntries: 1, place: null, endedAt: null });
    const listed = (await c.call<{ tournaments: { tournamentId: string }[] }>('tournamentHistory', { filter: {}, limit: 50, cursor: null })).tournaments;
    expect(listed.filter((t) => t.tournamentId === id)).toHaveLength(1);
    // The operator's ledger: two entries of ours into the tournament's fund, and its entrant re-entered once.
    const ours = op.wallet.tableEntries(`tournament:${id}`).filter((e) => e.accountId === me && e.reason === 'buy-in');
    expect(ours.map((e) => e.amount)).toEqual([ENTRY, ENTRY]);
    expect(start - c.core.session.view().balances!.play).toBe(c.core.results.trackerView().session.play.entries - c.core.results.trackerView().session.play.prizes);

    // To the end of all three: the record, finished, is the operator's result for us (what another
    // data folder of ours reads from it after signing in).
    const again = autoplay(c, 'shove');
    try {
      await until(() => ids.every((t) => lastPlay(c, t)?.status === 'finished'), 120_000, 'the three tournaments over for us');
      await c.core.tournaments.settled();
    } finally {
      await again.stop();
    }
    const finished = c.core.history.store.tournament(id)!;
    const { place, prize, bounties } = lastPlay(c, id)!.finished!;
    expect(finished).toMatchObject({ spent: 2 * ENTRY, reEntries: 1, place, prize, bounties });
    // Each table we leave (out, moved, the end) is pushed a last time with its last view: the hand
    // over (its record as the last hand, someone's chips all gone when it was our bust or the end),
    // no turn. Before, that push had no view, and the tile kept a state from before the hand ran out.
    const gone = c.pushed.map((p) => p.payload as TableState).filter((t, i) => c.pushed[i].event === 'table' && t.status === 'gone' && ids.includes(t.tournamentId ?? ''));
    expect(gone.length).toBeGreaterThanOrEqual(ids.length);
    for (const t of gone) {
      expect(t.view, t.tableId).not.toBeNull();
      expect(t.view!.turn).toBeNull();
      expect(t.view!.hand).toBeNull();
      expect(t.pending).toBeNull();
    }
    // Our two busts at least (one before the re-entry): the last hand pushed with the table is the one we lost all in.
    const busts = gone.filter((t) => t.lastHand?.record.seats.some((seat) => seat.player === 'rita' && seat.stackAfter === 0));
    expect(busts.length).toBeGreaterThanOrEqual(1);
    const other = await client(op, 'rita', false);
    await until(() => other.core.history.jobList().some((j) => j.kind === 'sync' && j.state === 'done'), 20_000, 'the sync after sign-in');
    const synced = other.core.history.store.tournament(id)!;
    for (const k of ['spent', 'reEntries', 'rebuys', 'addOns', 'place', 'prize', 'bounties', 'buyIn', 'fee'] as const) expect(synced[k], k).toBe(finished[k]);
    const money = c.core.results.trackerView().session.play;
    expect(start - c.core.session.view().balances!.play).toBe(money.entries - money.prizes);
    expect(c.invalid).toEqual([]);
    expect(op.wallet.audit().problems).toEqual([]);
  }, 200_000);

  it('a tournament the operator cancels refunds every registration: wallets, trackers and histories agree with its ledger, and it is no loss', async () => {
    // A scheduled tournament that needs three players; two register, so the operator cancels it at its
    // start (R-TOURN-FORMATS: a minimum field not met) and refunds both.
    const op = await testOperator('0097', [PLAY_TABLE], {
      tournaments: { specs: [scheduled('cx', 3000, { minEntrants: 3 })], practiceFillMs: null },
    });
    const people = [await client(op, 'alice'), await client(op, 'bob')];
    const starts = people.map((c) => c.core.session.view().balances!.play);
    for (const c of people) {
      const s = (await summaries(c)).find((t) => t.tournamentId === 'cx')!;
      expect(await c.call('tournamentRegister', { tournamentId: 'cx', version: s.version })).toEqual({ ok: true });
      expect(c.core.results.trackerView().session.play).toMatchObject({ entries: ENTRY, result: -ENTRY });
    }
    await until(() => people.every((c) => lastPlay(c, 'cx')?.status === 'cancelled'), 20_000, 'cancelled, told to both');
    for (const [i, c] of people.entries()) {
      await c.core.tournaments.settled();
      const me = op.accounts.findByUsername(i === 0 ? 'alice' : 'bob')!.id;
      // The operator's ledger: the entry in, the whole entry back out, nothing left in the fund.
      const rows = op.wallet.tableEntries('tournament:cx').filter((e) => e.accountId === me);
      expect(rows.map((e) => [e.reason, e.amount])).toEqual([
        ['buy-in', ENTRY],
        ['cash-out', ENTRY],
      ]);
      expect(op.wallet.balance(me, 'play')).toBe(starts[i]);
      // The client: the balance back, the tracker without the entry, the play without cost.
      await until(() => c.core.session.view().balances!.play === starts[i], 5_000, 'the refund in the balance');
      expect(c.core.results.trackerView().session.play).toMatchObject({ entries: 0, prizes: 0, result: 0 });
      expect(lastPlay(c, 'cx')).toMatchObject({ status: 'cancelled', spent: 0, finished: null });
      // Its history: nothing spent, no place, ended; not a tournament played, so no loss in the results.
      expect(c.core.history.store.tournament('cx')).toMatchObject({ spent: 0, place: null, prize: 0 });
      expect(c.core.history.store.tournament('cx')!.endedAt).not.toBeNull();
      // Stored as refunded (branch results: its own state, in no result).
      expect(c.core.history.store.tournament('cx')!.refundedAt).not.toBeNull();
      const results = await c.call<{ play: { count: number; spent: number; net: number } }>('tournamentResults', { filter: {}, groupBy: 'format' });
      expect(results.play).toMatchObject({ count: 0, spent: 0, net: 0 });
      expect(c.invalid).toEqual([]);
    }
    expect(op.wallet.tableHeld('tournament:cx')?.held ?? 0).toBe(0);
    expect(op.wallet.audit().problems).toEqual([]);
  }, 60_000);

  it('a level that changes in the middle of a hand: that hand keeps its level, the next one gets the new one, in the stored history', async () => {
    // A heads-up sit & go whose clock runs 20 times faster (1-minute levels of 3 s); our seat holds
    // each decision until the level has changed, so a hand straddles the change.
    const structure = { ...readyStructure('THNL', 'hyper-turbo'), levelMinutes: 1, lateRegistrationLevels: 0 };
    const op = await testOperator('0098', [PLAY_TABLE], {
      tournaments: {
        specs: [{ ...scheduled('lv', 0), id: 'lv', format: 'sit-and-go', startAt: null, seats: 2, maxEntrants: 2, minEntrants: 2, structure }],
        practiceFillMs: 50,
        clockRate: 20,
      },
      table: { practiceDelayMs: [0, 5], betweenHandsMs: 30 },
    });
    const c = await client(op, 'lena');
    const s = (await summaries(c)).find((t) => t.tournamentId === 'lv-1')!;
    expect(await c.call('tournamentRegister', { tournamentId: 'lv-1', version: s.version })).toEqual({ ok: true });
    // Our seat: at each of our turns, wait for the level to move on from the one the hand started at.
    const straddled: string[] = [];
    const startLevel = new Map<string, number>();
    let n = 0;
    for (const end = Date.now() + 40_000; straddled.length < 2 && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 10));
      for (const st of c.core.tables.list()) {
        const v = st.view;
        if (st.status !== 'live' || !v?.hand || !v.you || st.pending !== null) continue;
        const level = c.core.tournaments.levelOf('lv-1');
        if (level === null) continue;
        const hid = v.hand.handId;
        if (hid === null) continue;
        if (!startLevel.has(hid)) startLevel.set(hid, level);
        const legal = legalActions(handOf(v.hand));
        if (legal.seat !== v.you.seat || legal.next === 'deal' || legal.next === 'done') continue;
        if (level === startLevel.get(hid)) continue;
        if (!straddled.includes(hid)) straddled.push(hid);
        await c.call('act', { tableId: st.tableId, actionId: `lv-${++n}`, move: legal.next === 'show' ? { type: 'show' } : legal.check ? { type: 'check' } : { type: 'fold' } });
      }
    }
    expect(straddled.length).toBeGreaterThan(0);
    // The straddling hand and the one after it, stored (the tournament may end meanwhile: the first one is enough).
    const page = async () =>
      (await c.call<{ hands: { handId: string; tournament: { tournamentId: string; level: number } | null }[] }>('historyPage', { filter: { kind: 'tournament' }, sort: 'time', dir: 'asc', limit: 200, cursor: null })).hands;
    const handId = straddled[0];
    let stored = await page();
    for (const end = Date.now() + 10_000; Date.now() < end; stored = await page()) {
      const at = stored.findIndex((h) => h.handId === handId);
      if (at >= 0 && (at + 1 < stored.length || lastPlay(c, 'lv-1')?.status === 'finished')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const i = stored.findIndex((h) => h.handId === handId);
    expect(i).toBeGreaterThanOrEqual(0);
    const level = stored[i].tournament!.level;
    // It kept the level it started at (T 6-1)...
    expect(level).toBe(startLevel.get(handId));
    // ...which its blinds were (the operator's record of the hand: its table rules at its start).
    const operatorHands = () => {
      const r = op.history.page(op.accounts.findByUsername('lena')!.id, null, 500);
      if (!r.ok) throw new Error(r.code);
      return r.hands;
    };
    const blinds = (r: { smallBlind: number; bigBlind: number; ante: number }) => [r.smallBlind, r.bigBlind, r.ante];
    const opHand = operatorHands().find((h) => h.handId === handId)!;
    expect(opHand.tournament?.level).toBe(level);
    expect(blinds(opHand.record.rules)).toEqual(blinds(tableRulesAt('THNL', structure, level)));
    // The next hand, when there is one, started at a later level with its blinds.
    const next = stored[i + 1];
    if (next) {
      expect(next.tournament!.level).toBeGreaterThan(level);
      const opNext = operatorHands().find((h) => h.handId === next.handId)!;
      expect(blinds(opNext.record.rules)).toEqual(blinds(tableRulesAt('THNL', structure, next.tournament!.level)));
    }
    // Every hand stored here has the level the operator dealt it at (the new level is told
    // before the first hand dealt at it, even when the clock's timer fires late).
    const dealtAt = new Map(operatorHands().map((h) => [h.handId, h.tournament?.level]));
    for (const h of stored) if (dealtAt.has(h.handId)) expect(h.tournament?.level, h.handId).toBe(dealtAt.get(h.handId));
    // Another data folder of ours reads the operator's history (HistoryHand.tournament.level): the same levels.
    const other = await client(op, 'lena', false);
    await until(() => other.core.history.jobList().some((j) => j.kind === 'sync' && j.state === 'done'), 20_000, 'the sync after sign-in');
    const synced = new Map(
      (await other.call<{ hands: { handId: string; tournament: { level: number } | null }[] }>('historyPage', { filter: { kind: 'tournament' }, sort: 'time', dir: 'asc', limit: 200, cursor: null })).hands.map((h) => [h.handId, h.tournament?.level]),
    );
    expect(synced.get(handId)).toBe(level);
    if (next) expect(synced.get(next.handId)).toBe(next.tournament!.level);
    expect(c.invalid).toEqual([]);
  }, 90_000);
});
