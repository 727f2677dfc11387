/**
 * Each tournament rule with its worked example, on the machine alone (no tables, no timers): a table's
 * hand is two events, `handStarted` and `handEnded` with its stacks and busts.
 */
import { describe, expect, it } from 'vitest';
import { apply, init, legal } from './machine';
import { bubbles } from './pool';
import { readyStructure } from '../structure';
import { must, run, seatedAt, spec, who } from './test-support';
import type { Effect, MachineEvent, MachineSpec, MachineState, RoundRanking } from './types';
import { entrantIds, entrantOf, tableList, tableOf } from './buckets';

const rebuyRule = { untilLevel: 3, price: 1000, fee: 100, chips: 10_000, when: 'at-or-below-starting-stack' as const, max: null };

function started(sp: MachineSpec, players: number, ranking: RoundRanking = 'stack', seed = 7): { state: MachineState; effects: Effect[] } {
  const regs: MachineEvent[] = Array.from({ length: players }, (_, i) => ({ type: 'register', who: who(i + 1), inscription: `i${i + 1}` }));
  const s = run(init(sp, seed, { roundRanking: ranking, lateTables: 3 }), regs).state;
  return sp.format === 'sit-and-go' ? run(init(sp, seed, { roundRanking: ranking, lateTables: 3 }), regs) : run(s, [{ type: 'start' }]);
}

/** A hand at `table`: `busted` lose everything to `winner`, the others keep their stacks. */
function hand(s: MachineState, table: number, busted: number[], winner: number, bigBlind: number | null = null): { state: MachineState; effects: Effect[] } {
  const ids = seatedAt(s, table);
  const stacks = new Map(ids.map((id) => [id, entrantOf(s, id)!.stack]));
  for (const b of busted) {
    stacks.set(winner, stacks.get(winner)! + stacks.get(b)!);
    stacks.set(b, 0);
  }
  return run(s, [
    { type: 'handStarted', table, bigBlind },
    {
      type: 'handEnded',
      table,
      stacks: ids.map((id) => ({ accountId: id, stack: stacks.get(id)! })),
      busts: busted.length ? [busted.map((id) => ({ accountId: id, stackAtStart: entrantOf(s, id)!.stack, by: [winner] }))] : [],
    },
  ]);
}

const tableNos = (s: MachineState) => tableList(s).map((t) => t.no);
const seatEffects = (fx: readonly Effect[]) => fx.filter((e): e is Effect & { kind: 'seat' } => e.kind === 'seat');

describe('the floor (T 6-6 to 6-11, T 1-4)', () => {
  it('a player balanced into a table in a hand takes the worst seat counted from the hand in play (T 6-10)', () => {
    let { state } = started(spec({ seats: 9 }), 14);
    const [a, b] = tableNos(state);
    // Both tables deal; B's hand busts three players while A is still in its hand: the move waits.
    state = run(state, [{ type: 'handStarted', table: a, bigBlind: 0 }]).state;
    const bIds = seatedAt(state, b);
    state = hand(state, b, bIds.slice(1, 4), bIds[0], 2).state;
    expect(seatedAt(state, b)).toHaveLength(4);
    // B deals its next hand, the big blind moved on from seat 2: the move is counted from this one.
    const bb = tableOf(state, b)!.seats.findIndex((x, i) => x !== null && i > 2);
    state = run(state, [{ type: 'handStarted', table: b, bigBlind: bb }]).state;
    const aIds = seatedAt(state, a);
    const r = must(state, { type: 'handEnded', table: a, stacks: aIds.map((id) => ({ accountId: id, stack: entrantOf(state, id)!.stack })), busts: [] });
    const moved = seatEffects(r.effects).find((e) => e.why === 'balance')!;
    expect(moved).toMatchObject({ table: b, from: a });
    const seats = tableOf(state, b)!.seats;
    let expected = -1;
    for (let k = 0; k < seats.length && expected < 0; k++) if (seats[(bb + k) % seats.length] === null) expected = (bb + k) % seats.length;
    expect(moved.seat).toBe(expected);
  });

  it('a balancing move comes from a table of the giver\'s size that a hand end freed, when the planned giver is in a hand (T 6-8)', () => {
    let { state } = started(spec({ seats: 9 }), 36);
    const [a, b, , d] = tableNos(state);
    expect(tableNos(state).map((no) => seatedAt(state, no).length)).toEqual([9, 9, 9, 9]);
    // Every table deals; the first loses three players: one must come to it, the plan says from the
    // last table (the largest, highest number), which is in its hand.
    for (const no of tableNos(state)) state = run(state, [{ type: 'handStarted', table: no, bigBlind: 0 }]).state;
    const aIds = seatedAt(state, a);
    const stacks = new Map(aIds.map((id) => [id, entrantOf(state, id)!.stack]));
    for (const id of aIds.slice(1, 4)) {
      stacks.set(aIds[0], stacks.get(aIds[0])! + stacks.get(id)!);
      stacks.set(id, 0);
    }
    const ended = must(state, { type: 'handEnded', table: a, stacks: aIds.map((id) => ({ accountId: id, stack: stacks.get(id)! })), busts: [aIds.slice(1, 4).map((id) => ({ accountId: id, stackAtStart: 1, by: [aIds[0]] }))] });
    expect(seatEffects(ended.effects).filter((e) => e.why === 'balance')).toEqual([]);
    state = ended.state;
    expect(tableOf(state, d)!.inHand).toBe(true);
    // The second table's hand ends, nobody out: it has the giver's size and is free, so it gives.
    const bIds = seatedAt(state, b);
    const r = must(state, { type: 'handEnded', table: b, stacks: bIds.map((id) => ({ accountId: id, stack: entrantOf(state, id)!.stack })), busts: [] });
    expect(seatEffects(r.effects).filter((e) => e.why === 'balance')).toEqual([expect.objectContaining({ from: b, table: a })]);
    expect(seatedAt(r.state, a)).toHaveLength(7);
  });

  it('a table to close: the highest-numbered one between hands closes, not waiting for one in a hand (T 6-6)', () => {
    let { state } = started(spec({ seats: 9 }), 20);
    const [a, b, c] = tableNos(state);
    for (const no of [a, b, c]) state = run(state, [{ type: 'handStarted', table: no, bigBlind: 0 }]).state;
    // The first table's hand busts two players: 18 left fit two tables of nine, so one table closes.
    // The highest number (c) is in its hand; the first table is the one between hands: it closes now.
    const aIds = seatedAt(state, a);
    const stacks = new Map(aIds.map((id) => [id, entrantOf(state, id)!.stack]));
    for (const id of aIds.slice(1, 3)) {
      stacks.set(aIds[0], stacks.get(aIds[0])! + stacks.get(id)!);
      stacks.set(id, 0);
    }
    const ended = must(state, { type: 'handEnded', table: a, stacks: aIds.map((id) => ({ accountId: id, stack: stacks.get(id)! })), busts: [aIds.slice(1, 3).map((id) => ({ accountId: id, stackAtStart: 1, by: [aIds[0]] }))] });
    const broken = seatEffects(ended.effects).filter((e) => e.why === 'broken');
    expect(broken.map((e) => e.accountId).sort((x, y) => x - y)).toEqual([aIds[0], ...aIds.slice(3)].sort((x, y) => x - y));
    expect(broken.every((e) => e.from === a && (e.table === b || e.table === c))).toBe(true);
    expect(ended.effects).toContainEqual({ kind: 'closeTable', table: a });
    expect(tableNos(ended.state)).toEqual([b, c]);
    expect([b, c].map((no) => seatedAt(ended.state, no).length)).toEqual([9, 9]);
    // Each went to the table with the fewest players at their turn (ties: the lower number), as fieldMoves sends them.
    const counts = new Map([b, c].map((no) => [no, seatedAt(state, no).length]));
    for (const e of broken) {
      const least = Math.min(...counts.values());
      expect(e.table).toBe([b, c].find((no) => counts.get(no) === least));
      counts.set(e.table, counts.get(e.table)! + 1);
    }
  });

  it('the player moved to balance is the next big blind (T 6-9)', () => {
    let { state } = started(spec({ seats: 9 }), 14);
    const [a, b] = tableNos(state);
    const t = tableOf(state, a)!;
    const bbSeat = t.seats.findIndex((x) => x !== null);
    const next = t.seats.find((x, i) => x !== null && i > bbSeat)!;
    // A is in its hand when B loses three players: A gives its player when that hand ends.
    state = run(state, [{ type: 'handStarted', table: a, bigBlind: bbSeat }]).state;
    const bIds = seatedAt(state, b);
    state = hand(state, b, bIds.slice(1, 4), bIds[0]).state;
    const aIds = seatedAt(state, a);
    const r = must(state, { type: 'handEnded', table: a, stacks: aIds.map((id) => ({ accountId: id, stack: entrantOf(state, id)!.stack })), busts: [] });
    expect(seatEffects(r.effects).find((e) => e.why === 'balance')).toMatchObject({ accountId: next, from: a, table: b });
  });

  it('the final table is drawn again when the last other table breaks (T 1-4)', () => {
    let { state } = started(spec({ seats: 9 }), 12);
    const [a, b] = tableNos(state);
    const aIds = seatedAt(state, a);
    const r = hand(state, a, aIds.slice(1, 4), aIds[0]);
    state = r.state;
    expect(tableNos(state)).toHaveLength(1);
    const finals = seatEffects(r.effects).filter((e) => e.why === 'final');
    expect(finals.map((e) => e.accountId).sort((x, y) => x - y)).toEqual(seatedAt(state, tableNos(state)[0]).sort((x, y) => x - y));
    expect(finals).toHaveLength(9);
    expect(state.finalDrawn).toBe(true);
    void b;
  });
});

/** Busts one player per hand (the smallest stack of a dealable table) until the field reaches `left`. */
function downTo(state: MachineState, left: number): MachineState {
  for (let guard = 0; guard < 1000; guard++) {
    const remaining = entrantIds(state).filter((id) => entrantOf(state, id)!.status !== 'out').length;
    if (remaining <= left) return state;
    const no = tableNos(state).find((n) => apply(state, { type: 'handStarted', table: n, bigBlind: null }).ok)!;
    const ids = seatedAt(state, no).sort((x, y) => entrantOf(state, x)!.stack - entrantOf(state, y)!.stack);
    state = hand(state, no, [ids[0]], ids[ids.length - 1]).state;
  }
  throw new Error('the field did not shrink');
}

describe('hand-for-hand (R-TOURN-RUN, T 8-16)', () => {
  for (const ranking of ['stack', 'split'] as const) {
    it(`busts at two tables in one hand-for-hand hand: ranked by ${ranking === 'stack' ? 'their starting stacks (Cercle, online practice)' : 'splitting their places (the TDA)'}`, () => {
      // 8 players at tables of 2, 3 places paid: hand-for-hand at 4 left, on two tables.
      let { state } = started(spec({ seats: 2 }), 8, ranking);
      state = downTo(state, 4);
      expect(state.poolFinal && bubbles(state)).toEqual([4]);
      const [t1, t2] = tableNos(state);
      // Different starting stacks at the two tables: chips moved by a hand first (no bust).
      const p1 = seatedAt(state, t1);
      const p2 = seatedAt(state, t2);
      expect(legal(state, p1[0]).rebuy).toBe(false);
      state = run(state, [{ type: 'handStarted', table: t1, bigBlind: null }]).state;
      // In the round, the other table may deal its hand; no table deals twice.
      expect(apply(state, { type: 'handStarted', table: t1, bigBlind: null }).ok).toBe(false);
      state = run(state, [{ type: 'handStarted', table: t2, bigBlind: null }]).state;
      const lo = entrantOf(state, p1[0])!.stack <= entrantOf(state, p1[1])!.stack ? p1[0] : p1[1];
      const hi = entrantOf(state, p2[0])!.stack >= entrantOf(state, p2[1])!.stack ? p2[0] : p2[1];
      const loW = p1.find((x) => x !== lo)!;
      const hiW = p2.find((x) => x !== hi)!;
      const loStack = entrantOf(state, lo)!.stack;
      const hiStack = entrantOf(state, hi)!.stack;
      const end = (s: MachineState, t: number, b: number, w: number) =>
        must(s, { type: 'handEnded', table: t, stacks: [{ accountId: b, stack: 0 }, { accountId: w, stack: entrantOf(s, w)!.stack + entrantOf(s, b)!.stack }], busts: [[{ accountId: b, stackAtStart: entrantOf(s, b)!.stack, by: [w] }]] }).state;
      state = end(state, t1, lo, loW);
      // The first table's bust waits for the round's end.
      expect(entrantOf(state, lo)!.place).toBeNull();
      state = end(state, t2, hi, hiW);
      const prizes = state.prizes;
      if (ranking === 'stack' && loStack !== hiStack) {
        expect(entrantOf(state, hi)!.place).toBe(3);
        expect(entrantOf(state, lo)!.place).toBe(4);
        expect(entrantOf(state, hi)!.prize).toBe(prizes[2]);
        expect(entrantOf(state, lo)!.prize).toBe(0);
      } else {
        expect(entrantOf(state, hi)!.place).toBe(3);
        expect(entrantOf(state, lo)!.place).toBe(3);
        expect(entrantOf(state, hi)!.prize! + entrantOf(state, lo)!.prize!).toBe(prizes[2]);
      }
    });
  }

  it("a satellite plays its seat bubble hand-for-hand, and its cash place's bubble (T 1-5)", () => {
    // 10 entries of 1,000: two seats of 4,400 and 1,200 in cash: bubbles at 4 (the cash) and 3 (the seats).
    let { state } = started(spec({ seats: 2, satellite: { target: 'main', seatValue: 4400 } }), 10);
    expect(state.prizes).toEqual([4400, 4400, 1200]);
    expect(bubbles(state).sort()).toEqual([3, 4]);
    state = downTo(state, 3);
    expect(tableNos(state).length).toBe(2);
    // At 3 left (the seat bubble) a round is on: only its table deals, once per round.
    const r = apply(state, { type: 'tick', elapsed: state.elapsed });
    expect(r.ok && r.state.round.on).toBe(true);
  });
});

describe('rebuys and add-ons (T 5-2 to 5-5)', () => {
  const hu = () => spec({ format: 'sit-and-go', maxEntrants: 2, minEntrants: 2, seats: 2, bounty: 200 }, { rebuy: rebuyRule, addOn: null });

  it('a busted player decides in the hand break, keeping their seat; the chips are in front of them (T 5-3)', () => {
    let { state } = started(hu(), 2);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    const seat = entrantOf(state, x)!.seat;
    state = hand(state, t, [x], y).state;
    expect(entrantOf(state, x)!).toMatchObject({ status: 'deciding', table: t, seat });
    expect(state.phase).toBe('running');
    // The table waits for the decision (no deal), then the player is back with a new bounty on their head.
    expect(apply(state, { type: 'handStarted', table: t, bigBlind: null }).ok).toBe(false);
    const r = must(state, { type: 'rebuy', accountId: x });
    expect(entrantOf(r.state, x)!).toMatchObject({ status: 'in', stack: 10_000, seat, table: t, bounty: 200 });
    expect(r.effects).toContainEqual(expect.objectContaining({ kind: 'chips', accountId: x, chips: 10_000 }));
    expect(r.effects).toContainEqual(expect.objectContaining({ kind: 'money', key: 't-rebuy:i' + x + ':1', record: 'POACHAT' }));
  });

  it('a heads-up rebuy sit & go ends as soon as the loser declines: no 35-minute stall', () => {
    let { state } = started(hu(), 2);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    state = hand(state, t, [x], y).state;
    const r = must(state, { type: 'declineRebuy', accountId: x });
    expect(r.state.phase).toBe('finished');
    expect(entrantOf(r.state, y)!.place).toBe(1);
    expect(entrantOf(r.state, x)!.place).toBe(2);
    // No rebuy at a later level after the bust: the decision was the hand break's.
    expect(legal(r.state, x).rebuy).toBe(false);
  });

  it('a rebuy during a hand is in front of the player and reaches the stack when the hand ends (T 5-3)', () => {
    let { state } = started(spec({ seats: 9 }, { rebuy: rebuyRule }), 6);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    state = run(state, [{ type: 'handStarted', table: t, bigBlind: null }, { type: 'rebuy', accountId: x }]).state;
    expect(entrantOf(state, x)!).toMatchObject({ stack: 10_000, pending: 10_000 });
    // The hand busts them (its 10,000 lost): the chips in front keep them in.
    const ids = seatedAt(state, t);
    const r = must(state, {
      type: 'handEnded',
      table: t,
      stacks: ids.map((id) => ({ accountId: id, stack: id === x ? 0 : id === y ? 20_000 : 10_000 })),
      busts: [[{ accountId: x, stackAtStart: 10_000, by: [y] }]],
    });
    expect(entrantOf(r.state, x)!).toMatchObject({ status: 'in', stack: 10_000, pending: 0 });
  });
});

describe('the trace (A 1.3.6.b, 1.3.6.c.1)', () => {
  it('a re-entry is a new inscription with its POINSCRIT; the busted entry gets its POBILAN dated at the bust', () => {
    let { state } = started(spec({ seats: 9 }, { lateRegistrationLevels: 3, reEntries: 1 }), 6);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    state = run(state, [{ type: 'tick', elapsed: 120_000 }]).state;
    state = hand(state, t, [x], y).state;
    expect(entrantOf(state, x)!.status).toBe('out');
    state = run(state, [{ type: 'tick', elapsed: 300_000 }]).state;
    const r = must(state, { type: 're-enter', accountId: x, inscription: 'i1-b' });
    const money = r.effects.filter((e): e is Effect & { kind: 'money' } => e.kind === 'money');
    expect(money[0]).toMatchObject({ record: 'POBILAN', inscription: `i${x}`, amount: 0, at: 120_000 });
    expect(money[1]).toMatchObject({ record: 'POINSCRIT', inscription: 'i1-b', key: 't-entry:i1-b', amount: 1100 });
    expect(r.effects).toContainEqual({ kind: 'fee', amount: 100, key: 't-fee:i1-b' });
    expect(entrantOf(r.state, x)!).toMatchObject({ inscription: 'i1-b', status: 'in', reEntries: 1 });
    expect(r.state.entries).toBe(7);
  });
});

describe('exclusion (R-EXCLUDE, R-BANNED, T 13-1)', () => {
  it('a player excluded during a hand leaves at its end, chips removed, ranked as a bust then', () => {
    let { state } = started(spec({ seats: 9 }), 4);
    const [t] = tableNos(state);
    const [x] = seatedAt(state, t);
    state = run(state, [{ type: 'handStarted', table: t, bigBlind: null }, { type: 'exclude', accountId: x, why: 'banned' }]).state;
    expect(entrantOf(state, x)!.status).toBe('in');
    expect(legal(state, x).rebuy).toBe(false);
    const r = must(state, { type: 'handEnded', table: t, stacks: seatedAt(state, t).map((id) => ({ accountId: id, stack: 10_000 })), busts: [] });
    expect(entrantOf(r.state, x)!).toMatchObject({ status: 'out', place: 4, table: null });
    expect(r.state.removed).toBe(10_000);
    expect(r.effects).toContainEqual({ kind: 'notice', notice: { type: 'removed', accountId: x, why: 'banned' } });
  });

  it('before the start the entry is refunded with its POANNUL', () => {
    const s = run(init(spec(), 1), [{ type: 'register', who: who(1), inscription: 'i1' }]).state;
    const r = must(s, { type: 'exclude', accountId: 1, why: 'closed' });
    expect(r.effects[0]).toMatchObject({ kind: 'money', way: 'out', key: 't-refund:i1', record: 'POANNUL', amount: 1100 });
    expect(entrantIds(r.state)).toEqual([]);
  });
});

describe('legal (what a person may do now)', () => {
  it('registration, unregistration, rebuy, add-on and re-entry follow the clock and the player', () => {
    const sp = spec({ seats: 9 }, { lateRegistrationLevels: 2, reEntries: 1, rebuy: { ...rebuyRule, untilLevel: 2 }, addOn: { price: 1000, fee: 100, chips: 15_000 } });
    let state = run(init(sp, 1), [{ type: 'register', who: who(1), inscription: 'i1' }]).state;
    expect(legal(state, 1)).toEqual({ register: false, unregister: true, rebuy: false, addOn: false, reEnter: false });
    expect(legal(state, 2).register).toBe(true);
    state = run(state, [{ type: 'register', who: who(2), inscription: 'i2' }, { type: 'start' }]).state;
    // At the starting stack a rebuy is open (at or below it, T 5-2); the add-on waits for the period's end (T 5-4).
    expect(legal(state, 1)).toMatchObject({ rebuy: true, addOn: false, reEnter: false });
    expect(legal(state, 3).register).toBe(true);
    state = run(state, [{ type: 'tick', elapsed: 20 * 60_000 }]).state;
    expect(legal(state, 1)).toMatchObject({ rebuy: false, addOn: true });
    expect(legal(state, 3).register).toBe(false);
    // Every legal request is accepted, every other refused with its rule.
    expect(apply(state, { type: 'addOn', accountId: 1 }).ok).toBe(true);
    expect(apply(state, { type: 'rebuy', accountId: 1 })).toMatchObject({ ok: false, rule: 'T 5-2' });
  });
});

describe('stud balancing by position (T 6-9, 6-10 without blinds; TDA: stud-only events move by position)', () => {
  const stud = () => spec({ variant: '7SHL', seats: 7 }, { ...readyStructure('7SHL', 'regular'), lateRegistrationLevels: 0 });

  it('the seat filled is the last to open at the short table; the player moved sits in that position at the long one', () => {
    let { state } = started(stud(), 12, 'stack', 3);
    const [a, b] = tableNos(state);
    expect([seatedAt(state, a).length, seatedAt(state, b).length]).toEqual([6, 6]);
    // A is in a hand (no big blind in Stud) while B loses a player in each of two hands.
    state = run(state, [{ type: 'handStarted', table: a, bigBlind: null }]).state;
    const seatsB = tableOf(state, b)!.seats;
    const [x1, x2] = seatedAt(state, b).slice(-2).reverse();
    const winner = seatedAt(state, b)[0];
    state = hand(state, b, [x1], winner).state;
    state = hand(state, b, [x2], winner).state;
    const opened = seatsB.indexOf(x2);
    const seatsA = tableOf(state, a)!.seats;
    let mover: number | null = null;
    for (let k = 0; k < seatsA.length && mover === null; k++) mover = seatsA[(opened + k) % seatsA.length];
    const r = must(state, { type: 'handEnded', table: a, stacks: seatedAt(state, a).map((id) => ({ accountId: id, stack: entrantOf(state, id)!.stack })), busts: [] });
    expect(seatEffects(r.effects).find((e) => e.why === 'balance')).toMatchObject({ accountId: mover, from: a, table: b, seat: opened });
  });
});

describe('the time bank follows the player (a move, a broken table, the final draw)', () => {
  it("a balanced player's seat carries the time bank their last hand left them", () => {
    let { state } = started(spec({ seats: 9 }), 14);
    const [a, b] = tableNos(state);
    const bbSeat = tableOf(state, a)!.seats.findIndex((x) => x !== null);
    state = run(state, [{ type: 'handStarted', table: a, bigBlind: bbSeat }]).state;
    const bIds = seatedAt(state, b);
    state = hand(state, b, bIds.slice(1, 4), bIds[0]).state;
    const aIds = seatedAt(state, a);
    const r = must(state, { type: 'handEnded', table: a, stacks: aIds.map((id) => ({ accountId: id, stack: entrantOf(state, id)!.stack, timeBank: 1000 * id })), busts: [] });
    const moved = seatEffects(r.effects).find((e) => e.why === 'balance')!;
    expect(moved.timeBank).toBe(1000 * moved.accountId);
    expect(entrantOf(r.state, moved.accountId)!.timeBank).toBe(1000 * moved.accountId);
  });
});

describe('odd units of a bounty (R-ODDCHIP, T 8-13)', () => {
  it("go to the pot's winners in the order the table gives (`Bust.by`: the engine's odd-chip order)", () => {
    const sp = spec({ seats: 9, bounty: 301 });
    const { state } = started(sp, 4);
    const [t] = tableNos(state);
    const [x, y, z] = seatedAt(state, t);
    const ids = seatedAt(state, t);
    const r = must(run(state, [{ type: 'handStarted', table: t, bigBlind: null }]).state, {
      type: 'handEnded',
      table: t,
      stacks: ids.map((id) => ({ accountId: id, stack: id === x ? 0 : id === z ? 15_000 : id === y ? 15_000 : 10_000 })),
      busts: [[{ accountId: x, stackAtStart: 10_000, by: [z, y] }]],
    });
    const gains = r.effects.filter((e): e is Effect & { kind: 'money' } => e.kind === 'money' && e.record === 'POGAIN');
    expect(gains.map((g) => [g.who.accountId, g.amount])).toEqual([
      [z, 151],
      [y, 150],
    ]);
  });
});

describe('absent players (T 2-15)', () => {
  const freeroll = (over: Partial<MachineSpec> = {}) => spec({ seats: 9, buyIn: 0, fee: 0, guarantee: 10_000, absenceDelay: 5 * 60_000, ...over });

  it('in a freeroll, an absent player past the delay has their chips taken out of the tournament', () => {
    let { state } = started(freeroll(), 4);
    const [t] = tableNos(state);
    const [x] = seatedAt(state, t);
    state = run(state, [{ type: 'tick', elapsed: 60_000 }, { type: 'absent', accountId: x, absent: true }]).state;
    // Within the delay (counted from when they went absent): still in, blinded.
    state = run(state, [{ type: 'tick', elapsed: 5 * 60_000 }]).state;
    expect(entrantOf(state, x)!.status).toBe('in');
    const r = must(state, { type: 'tick', elapsed: 6 * 60_000 });
    expect(entrantOf(r.state, x)!).toMatchObject({ status: 'out', place: 4, table: null });
    expect(r.state.removed).toBe(10_000);
    expect(r.effects).toContainEqual({ kind: 'stand', accountId: x, table: t, why: 'absent' });
  });

  it('in a freeroll, an absent player in a hand when the delay runs out leaves at its end', () => {
    let { state } = started(freeroll(), 4);
    const [t] = tableNos(state);
    const [x] = seatedAt(state, t);
    state = run(state, [{ type: 'absent', accountId: x, absent: true }, { type: 'handStarted', table: t, bigBlind: null }, { type: 'tick', elapsed: 6 * 60_000 }]).state;
    expect(entrantOf(state, x)!.status).toBe('in');
    const r = must(state, { type: 'handEnded', table: t, stacks: seatedAt(state, t).map((id) => ({ accountId: id, stack: id === x ? 9_000 : 10_000 })), busts: [] });
    expect(entrantOf(r.state, x)!).toMatchObject({ status: 'out', place: 4 });
    expect(r.state.removed).toBe(9_000);
  });

  it('with an entry paid in advance, the absent player is blinded until they come back or their stack is gone', () => {
    let { state } = started(spec({ seats: 9, absenceDelay: 5 * 60_000 }), 4);
    const [t] = tableNos(state);
    const [x] = seatedAt(state, t);
    state = run(state, [{ type: 'absent', accountId: x, absent: true }, { type: 'tick', elapsed: 20 * 60_000 }]).state;
    expect(entrantOf(state, x)!).toMatchObject({ status: 'in', absent: true, table: t });
    expect(state.removed).toBe(0);
  });
});

describe('the trace: dates and supervision (A 1.3.6.b, 1.3.6.c)', () => {
  it('a bust during late registration placed when it closes: its POBILAN carries the bust time', () => {
    let { state } = started(spec({ seats: 9 }, { lateRegistrationLevels: 3, reEntries: 1 }), 6);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    state = run(state, [{ type: 'tick', elapsed: 120_000 }]).state;
    state = hand(state, t, [x], y).state;
    const r = must(state, { type: 'tick', elapsed: 31 * 60_000 });
    expect(r.state.poolFinal).toBe(true);
    const bilan = r.effects.find((e): e is Effect & { kind: 'money' } => e.kind === 'money' && e.record === 'POBILAN')!;
    expect(bilan).toMatchObject({ inscription: `i${x}`, at: 120_000 });
  });

  it('the re-entered entry, busted again during late registration: each POBILAN at its own bust', () => {
    let { state } = started(spec({ seats: 9 }, { lateRegistrationLevels: 3, reEntries: 1 }), 6);
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    state = run(state, [{ type: 'tick', elapsed: 60_000 }]).state;
    state = hand(state, t, [x], y).state;
    state = run(state, [{ type: 'tick', elapsed: 120_000 }, { type: 're-enter', accountId: x, inscription: 'i1-b' }, { type: 'tick', elapsed: 240_000 }]).state;
    const t2 = entrantOf(state, x)!.table!;
    state = hand(state, t2, [x], seatedAt(state, t2).find((id) => id !== x)!).state;
    const r = must(state, { type: 'tick', elapsed: 31 * 60_000 });
    const bilan = r.effects.find((e): e is Effect & { kind: 'money' } => e.kind === 'money' && e.record === 'POBILAN' && e.who.accountId === x)!;
    expect(bilan).toMatchObject({ inscription: 'i1-b', at: 240_000 });
  });

  it('supervision: set on what the player did not do (the operator, a practice player, an absent player)', () => {
    const sp = spec({ seats: 9, bounty: 100 });
    const begun = started(sp, 3);
    let state = begun.state;
    const effects = begun.effects;
    const [t] = tableNos(state);
    const [x, y] = seatedAt(state, t);
    const money = (fx: readonly Effect[]) => fx.filter((e): e is Effect & { kind: 'money' } => e.kind === 'money');
    // Registrations: the player's own.
    expect(money(effects).every((e) => !e.supervision)).toBe(true);
    // A bounty won and a place reached in a hand the player played: theirs too.
    const r = hand(state, t, [x], y);
    expect(money(r.effects).map((e) => [e.record, e.supervision])).toEqual([
      ['POGAIN', false],
      ['POBILAN', false],
    ]);
    // An absent player's place: the operator's.
    state = run(r.state, [{ type: 'absent', accountId: y, absent: true }]).state;
    const z = seatedAt(state, t).find((id) => id !== y)!;
    const end = hand(state, t, [y], z);
    expect(money(end.effects).filter((e) => e.who.accountId === y).map((e) => [e.record, e.supervision])).toEqual([['POBILAN', true]]);
    // A cancellation: the operator's.
    const c = must(run(init(spec(), 1), [{ type: 'register', who: who(1), inscription: 'i1' }]).state, { type: 'cancel' });
    expect(money(c.effects).map((e) => e.supervision)).toEqual([true]);
  });
});
