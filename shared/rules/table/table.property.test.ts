import { describe, expect, it } from 'vitest';
import { afterHand } from './after-hand';
import { strictlyBetween } from './clockwise';
import { planNextHand, type GameKind, type TableMode, type TablePlan } from './plan';
import {
  addChips,
  createSeating,
  leave,
  seatPlayer,
  setWaitForBigBlind,
  sitIn,
  sitOut,
  type Seating,
  type SeatingChange,
} from './seating';
import { mulberry32 } from '../prng';

/** mulberry32: a small seeded generator, so that every run replays the same sequences. */
const prng = mulberry32;

const SEQUENCES = 250;
const HANDS = 50;

interface Counters {
  regular: number;
  headsUp: number;
  newGame: number;
  refused: number;
  extraBigBlinds: number;
  deadSmallBlinds: number;
  deadSmallBlindOnly: number;
  missedBigBlinds: number;
  waitingNewcomers: number;
  deadButtons: number;
  missingSmallBlinds: number;
  eliminations: number;
}

/** Whether the test (not the module) thinks the player can be dealt in at all. */
function canPlay(s: Seating, seat: number, mode: TableMode): boolean {
  const p = s.seats[seat];
  return p !== null && p.stack > 0 && (mode === 'tournament' || p.status !== 'sitting-out');
}

function firstPlayableAfter(s: Seating, from: number, mode: TableMode): number {
  const n = s.seats.length;
  for (let k = 1; k <= n; k++) {
    const seat = (from + k) % n;
    if (canPlay(s, seat, mode)) return seat;
  }
  throw new Error('nobody can play');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function runSequence(seed: number, c: Counters): void {
  const rnd = prng(seed);
  const int = (k: number) => Math.floor(rnd() * k);
  const n = 2 + int(9);
  const mode: TableMode = rnd() < 0.5 ? 'cash' : 'tournament';
  const game: GameKind = rnd() < 0.85 ? 'blinds' : 'stud';
  let seating = createSeating(n);
  let nextId = 0;
  // The test's own ledger of entries owed (cash), kept from the plans alone, not from the module's flags.
  const owesBig = new Set<string>();
  const owesSmall = new Set<string>();
  let previous: TablePlan | null = null; // the last blinds hand played

  const apply = (change: SeatingChange) => {
    if (change.ok) seating = change.seating;
  };
  const occupied = () => seating.seats.flatMap((p, i) => (p ? [i] : []));
  const join = () => {
    const free = seating.seats.flatMap((p, i) => (p ? [] : [i]));
    if (free.length === 0) return;
    const id = `p${nextId++}`; // ids are never reused: a player who leaves and comes back is someone new
    apply(seatPlayer(seating, { id, seat: free[int(free.length)], stack: 1 + int(2000), waitForBigBlind: rnd() < 0.4 }));
    if (mode === 'cash') owesBig.add(id);
  };
  const randomPlayer = () => {
    const o = occupied();
    return o.length === 0 ? null : seating.seats[o[int(o.length)]]!;
  };

  for (let i = 2 + int(n - 1); i > 0; i--) join();

  let hand = 0;
  const check = (cond: boolean, what: string) => {
    if (!cond) throw new Error(`seed ${seed}, hand ${hand} (${mode}, ${game}, ${n} seats): ${what}`);
  };
  for (; hand < HANDS; hand++) {
    for (let e = int(4); e > 0; e--) {
      const r = rnd();
      const p = randomPlayer();
      if (r < 0.35) join();
      else if (p === null) continue;
      else if (r < 0.43) apply(leave(seating, p.id));
      else if (r < 0.6) apply(sitOut(seating, p.id));
      else if (r < 0.85) {
        if (p.stack === 0) apply(addChips(seating, p.id, 1 + int(1000)));
        apply(sitIn(seating, p.id, { waitForBigBlind: rnd() < 0.4 }));
      } else apply(setWaitForBigBlind(seating, p.id, rnd() < 0.5));
    }

    const before = seating;
    const playable = before.seats.flatMap((_, i) => (canPlay(before, i, mode) ? [i] : []));
    const result = planNextHand(before, { game, mode, firstButton: int(n) });
    if (!result.ok) {
      check(result.reason === 'not-enough-players', 'refused for another reason');
      check(playable.length < 2, 'refused with two players who can play');
      c.refused++;
      join();
      continue;
    }
    const plan = result;
    check(playable.length >= 2, 'planned with fewer than two players');
    const id = (seat: number) => before.seats[seat]!.id;
    const dealt = new Set(plan.dealtIn);

    // Dealt in: each seat once, only players who can play.
    check(dealt.size === plan.dealtIn.length, 'a seat dealt in twice');
    check(plan.dealtIn.every((s) => canPlay(before, s, mode)), 'dealt in a player who cannot play');
    check(same(plan.atStart, before.seats.map((p) => (p ? { id: p.id, stack: p.stack } : null))), 'atStart');

    if (game === 'stud') {
      check(plan.button === null && plan.smallBlind === null && plan.bigBlind === null, 'Stud has no button or blinds');
      check(plan.extraBigBlinds.length + plan.deadSmallBlinds.length === 0, 'Stud has no entry posts');
      check(same(plan.dealtIn, playable), 'Stud deals everyone present from seat 0');
    } else {
      const bb = plan.bigBlind!;
      const button = plan.button!;
      // Blinds on seats dealt in.
      check(dealt.has(bb), 'big blind not dealt in');
      if (plan.smallBlind !== null) check(dealt.has(plan.smallBlind) && plan.smallBlind !== bb, 'small blind');
      check(plan.headsUp === (plan.dealtIn.length === 2), 'heads-up flag');
      if (plan.headsUp) check(plan.smallBlind === button, 'heads-up: the button posts the small blind (T 6-19)');
      // The blinds are the first players left of the button: small blind (if any) then big blind;
      // heads-up, the big blind then the button (T 6-19).
      const expectedStart = plan.headsUp ? [bb, button] : plan.smallBlind === null ? [bb] : [plan.smallBlind, bb];
      check(same(plan.dealtIn.slice(0, expectedStart.length), expectedStart), 'blinds are not the first left of the button');
      if (!plan.headsUp) check(button !== bb, 'the big blind on the button');
      // Clockwise from the left of the button.
      const steps = plan.dealtIn.map((s) => (s - button - 1 + 2 * n) % n);
      check(same(steps, [...steps].sort((a, b) => a - b)), 'dealtIn not clockwise from the left of the button');
      // Posts only by players dealt in other than the blinds; none in tournaments, heads-up or a new game.
      for (const s of [...plan.extraBigBlinds, ...plan.deadSmallBlinds]) {
        check(dealt.has(s) && s !== bb && s !== plan.smallBlind, 'entry post by a blind or a player not dealt in');
      }
      if (mode === 'tournament' || plan.headsUp || plan.newGame) {
        check(plan.extraBigBlinds.length + plan.deadSmallBlinds.length === 0, 'entry posts where none are due');
      }

      if (previous === null) {
        check(plan.newGame, 'first hand is a new game');
      } else {
        check(before.last?.bigBlind === previous.bigBlind, 'last big blind recorded');
        const prevBB = previous.bigBlind!;
        const prevBBPlayer = previous.atStart[prevBB]!.id;
        // The big blind advances every hand to the next seat whose player can play (T 6-4) ...
        check(bb === firstPlayableAfter(before, prevBB, mode), 'the big blind did not advance to the next player (T 6-4)');
        // ... so nobody posts the big blind twice in a row.
        check(id(bb) !== prevBBPlayer, 'big blind twice in a row');
        // It passes only cash players sitting out, who then owe it; in a tournament it passes nobody.
        const passed = before.seats.flatMap((p, s) => (p && strictlyBetween(prevBB, bb, s, n) ? [s] : []));
        if (mode === 'tournament') check(passed.length === 0, 'a tournament big blind passed a player');
        check(same(plan.missedBigBlinds, mode === 'cash' ? passed : []), 'missed big blinds');
        check(passed.every((s) => !canPlay(before, s, mode)), 'the big blind passed a player who can play');

        if (!plan.newGame && !plan.headsUp) {
          // Dead button (T 6-3): button on last hand's small blind position, small blind from last
          // hand's big blind seat or missing (T 6-17).
          check(button === previous.smallBlindSeat, 'button not on the last small blind position (T 6-3)');
          check(plan.smallBlindSeat === prevBB, 'small blind position');
          check(plan.smallBlind === null || plan.smallBlind === prevBB, 'small blind not from the last big blind seat');
          // T 6-5: last hand's small blind, if dealt in, is on the button.
          if (previous.smallBlind !== null) {
            const sbPlayer = previous.atStart[previous.smallBlind]!.id;
            const now = before.seats.findIndex((p) => p?.id === sbPlayer);
            if (now >= 0 && dealt.has(now)) check(button === now, 'last small blind denied the button (T 6-5)');
          }
          if (plan.atStart[button] === null || !dealt.has(button)) c.deadButtons++;
          if (plan.smallBlind === null) c.missingSmallBlinds++;
        }

        // Cash: last hand's big blind, away now, owes the small blind (test ledger).
        if (mode === 'cash') {
          const prevBBNow = before.seats.findIndex((p) => p?.id === prevBBPlayer);
          if (prevBBNow >= 0 && !dealt.has(prevBBNow)) owesSmall.add(prevBBPlayer);
        }
        if (mode === 'cash') for (const s of passed) owesBig.add(id(s));
      }

      // Everybody who can play and owes nothing is dealt in.
      for (const s of playable) {
        const p = before.seats[s]!;
        if (dealt.has(s)) continue;
        if (mode === 'tournament') {
          // T 6-12: only a newcomer strictly between the button and the small blind sits a hand out.
          check(!p.hasPlayed && !plan.newGame && before.last !== null, 'tournament player left out');
          check(strictlyBetween(before.last!.smallBlind, before.last!.bigBlind, s, n), 'newcomer left out outside T 6-12');
          c.waitingNewcomers++;
        } else {
          check(!(p.hasPlayed && !p.missedBigBlind && !p.missedSmallBlind), 'a regular owing nothing left out');
          check(owesBig.has(p.id) || owesSmall.has(p.id), 'left out without owing an entry (ledger)');
        }
      }

      // Cash: nobody skips the big blind of an orbit without owing it, and nobody pays to come in
      // without owing (test ledger). Posting never happens between the button and the big blind,
      // nor from the seat whose big blind is next.
      if (mode === 'cash') {
        const nextBB = firstPlayableAfter(before, bb, mode);
        for (const s of plan.dealtIn) {
          const pid = id(s);
          const exempt = s === bb || plan.headsUp || plan.newGame;
          if (owesBig.has(pid) && !exempt) check(plan.extraBigBlinds.includes(s), 'skipped a big blind without posting it');
          if (owesSmall.has(pid) && !exempt) check(plan.deadSmallBlinds.includes(s), 'skipped a small blind without posting it');
          if (plan.extraBigBlinds.includes(s)) check(owesBig.has(pid), 'posts a big blind not owed');
          if (plan.deadSmallBlinds.includes(s)) check(owesSmall.has(pid), 'posts a small blind not owed');
          const waits = before.seats[s]!.waitForBigBlind && (owesBig.has(pid) || owesSmall.has(pid));
          if (waits) check(exempt, 'a player waiting for the big blind came in before it');
        }
        for (const s of plan.extraBigBlinds) {
          check(!strictlyBetween(button, bb, s, n), 'posted between the button and the big blind');
          check(s !== nextBB, 'posted with the big blind due next hand');
        }
        for (const s of plan.dealtIn) {
          owesBig.delete(id(s));
          owesSmall.delete(id(s));
        }
      }

      if (plan.newGame) c.newGame++;
      else if (plan.headsUp) c.headsUp++;
      else c.regular++;
      c.extraBigBlinds += plan.extraBigBlinds.length;
      c.deadSmallBlinds += plan.deadSmallBlinds.length;
      c.deadSmallBlindOnly += plan.deadSmallBlinds.filter((s) => !plan.extraBigBlinds.includes(s)).length;
      c.missedBigBlinds += plan.missedBigBlinds.length;
    }

    // Play the hand: chips move between players dealt in, some bust, some rebuy.
    const stacks = new Map(plan.dealtIn.map((s) => [s, plan.atStart[s]!.stack]));
    const survivor = plan.dealtIn[int(plan.dealtIn.length)];
    for (const s of plan.dealtIn) {
      if (s === survivor) continue;
      const moved = rnd() < 0.05 ? stacks.get(s)! : int(stacks.get(s)! + 1);
      stacks.set(s, stacks.get(s)! - moved);
      stacks.set(survivor, stacks.get(survivor)! + moved);
    }
    const topUps = plan.dealtIn
      .filter((s) => stacks.get(s) === 0 && rnd() < 0.3)
      .map((s) => ({ id: id(s), chips: 1 + int(500) }));
    const after = afterHand(before, {
      plan,
      finalStacks: [...stacks].map(([seat, stack]) => ({ seat, stack })),
      topUps,
    });
    if (!after.ok) throw new Error(`afterHand refused: ${after.reason}`);
    const bustedIds = plan.dealtIn.filter((s) => stacks.get(s) === 0 && !topUps.some((t) => t.id === id(s))).map(id);
    if (mode === 'tournament') {
      // R-ELIM, T 8-16: larger starting stacks rank higher; equal ones tie.
      check(same(after.eliminated.flat().sort(), [...bustedIds].sort()), 'eliminated players');
      const startOf = (pid: string) => plan.atStart.find((x) => x?.id === pid)!.stack;
      for (let g = 0; g < after.eliminated.length; g++) {
        for (const pid of after.eliminated[g]) check(startOf(pid) === startOf(after.eliminated[g][0]), 'tie group (T 8-16)');
        if (g > 0) check(startOf(after.eliminated[g - 1][0]) > startOf(after.eliminated[g][0]), 'elimination order (T 8-16)');
      }
      check(bustedIds.every((pid) => !after.seating.seats.some((p) => p?.id === pid)), 'eliminated player still seated (T 8-15)');
      c.eliminations += bustedIds.length;
    } else {
      check(after.eliminated.length === 0, 'cash eliminations');
    }
    for (const s of plan.dealtIn) {
      const p = after.seating.seats[s];
      if (p === null) continue;
      const topUp = topUps.find((t) => t.id === p.id)?.chips ?? 0;
      check(p.stack === stacks.get(s)! + topUp, 'final stack');
      check(p.hasPlayed && !p.missedBigBlind && !p.missedSmallBlind, 'debts left after being dealt in');
      if (p.stack === 0) check(p.status === 'sitting-out', 'cash player at zero not sat out');
    }
    if (game === 'blinds') {
      check(after.seating.last?.bigBlind === plan.bigBlind, 'big blind recorded');
      previous = plan;
    }
    seating = after.seating;
  }
}

describe('table property: random joins, leaves, absences and busts', () => {
  it('every plan is valid and the blinds go round as the rules say, over many seeded sequences', () => {
    const c: Counters = {
      regular: 0,
      headsUp: 0,
      newGame: 0,
      refused: 0,
      extraBigBlinds: 0,
      deadSmallBlinds: 0,
      deadSmallBlindOnly: 0,
      missedBigBlinds: 0,
      waitingNewcomers: 0,
      deadButtons: 0,
      missingSmallBlinds: 0,
      eliminations: 0,
    };
    for (let seed = 1; seed <= SEQUENCES; seed++) runSequence(seed, c);
    // The sequences reach every kind of hand and entry, so the checks above are not vacuous.
    for (const [name, count] of Object.entries(c)) expect({ name, count: count > 0 }).toEqual({ name, count: true });
    expect(c.regular).toBeGreaterThan(c.newGame);
  });
});
