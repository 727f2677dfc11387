/**
 * Who plays the next hand and who posts what: the dead button (R-BUTTON, T 6-3 to 6-20), the
 * heads-up blinds (T 6-19, 6-20), newcomers and returning players (R-BUTTON, T 6-12 to 6-16), and
 * absent tournament players (T 2-14, 2-15).
 *
 * The dead button in one sentence (T 6-3): the big blind moves to the next seat with a player
 * (T 6-4), the small blind is posted from the seat where the big blind was (or is missing, T 6-17),
 * and the button sits where the small blind was (it is never taken from that player, T 6-5, and may
 * sit on an empty seat, T 6-18). So the button, small blind and big blind of a hand are the seats of
 * the big blinds of the two hands before and of this one.
 */
import type { HandPlan } from '../engine/types';
import { clockwiseFrom, firstAfter, firstBefore, onArc, strictlyBetween } from './clockwise';
import { owesEntry, refuse, type Seating, type SeatedPlayer, type TableRefusal } from './seating';

export type { HandPlan } from '../engine/types';

/** `blinds`: Hold'em, Omaha, Triple Draw (a button and two blinds). `stud`: antes and bring-in, no button. */
export type GameKind = 'blinds' | 'stud';

/** Cash games skip players who sit out; tournaments deal everyone in (T 2-15). */
export type TableMode = 'cash' | 'tournament';

export interface PlanOptions {
  game: GameKind;
  mode: TableMode;
  /**
   * The button's seat for the first hand at this table, drawn by the operator (T 2-1); if nobody
   * plays there, the next seat that does. Default seat 0. Not used once a hand has been played.
   */
  firstButton?: number;
}

/** A seat as the plan found it: who, with how many chips at the start of the hand. */
export interface SeatSnapshot {
  id: string;
  stack: number;
}

/**
 * The engine's HandPlan plus what the table needs to carry the hand forward. Pass the whole plan
 * to the engine (extra fields are harmless) and back to afterHand.
 */
export interface TablePlan extends HandPlan {
  ok: true;
  game: GameKind;
  mode: TableMode;
  /** Two players dealt in: the button posts the small blind (T 6-19). */
  headsUp: boolean;
  /**
   * The blinds start over: the first hand at the table, or a hand where the rotation cannot seat
   * the blinds (too few could be dealt in under the entry rules, or the table changed so much after
   * a heads-up hand that the big blind came round onto the button). Everybody present is dealt in,
   * nobody posts to come in, the big blind still advances (T 6-4).
   */
  newGame: boolean;
  /** The small blind's position even when nobody posts it (T 6-17); null in Stud. */
  smallBlindSeat: number | null;
  /** Cash: seats of players sitting out whom the big blind passed this hand; they owe it (afterHand). */
  missedBigBlinds: number[];
  /** Cash: the seat of last hand's big blind if that player sits out now: they owe a dead small blind. */
  missedSmallBlinds: number[];
  /** Per seat, who sat there with how many chips when the hand was planned; null = empty. */
  atStart: (SeatSnapshot | null)[];
}

/** Whether the player can be dealt in at all: chips, and (cash) present. */
export function isPlayable(p: SeatedPlayer | null, mode: TableMode): p is SeatedPlayer {
  return p !== null && p.stack > 0 && (mode === 'tournament' || p.status !== 'sitting-out');
}

/**
 * Plans the next hand, or refuses with `not-enough-players` (fewer than two can play).
 *
 * Cash-game entry (R-BUTTON; Robert's Rules of Poker, as real cash tables do). A player who owes an
 * entry (new at the table, or blinds missed while sitting out) is dealt in:
 * - at once if the big blind falls on them: they post it and owe nothing more;
 * - otherwise, if they chose to wait for the big blind, not before it reaches them;
 * - otherwise by posting: a big blind, live, if they are new or missed the big blind (extraBigBlinds),
 *   plus the small blind, dead, if they missed it (deadSmallBlinds; a player who missed only the
 *   small blind posts only that); but never from a seat strictly between the button and the big
 *   blind (the small blind's seat, or a gap left of the button: wait until the button passes, T 6-12),
 *   and not when the big blind is theirs next hand (they wait one hand rather than post twice in a row).
 *
 * Tournament entry: everybody is dealt in, absent or not (T 2-14, 2-15), newcomers at once (T 6-16),
 * save a newcomer strictly between the button and the small blind, who sits out one hand (T 6-12).
 *
 * Heads-up (T 6-19, 6-20): the big blind advances as always and the other player is the button and
 * posts the small blind; nobody posts to come in (the big blind is theirs next hand).
 */
export function planNextHand(seating: Seating, options: PlanOptions): TablePlan | TableRefusal {
  const n = seating.seats.length;
  const { game, mode } = options;
  const playable: number[] = [];
  seating.seats.forEach((p, s) => {
    if (isPlayable(p, mode)) playable.push(s);
  });
  if (playable.length < 2) return refuse('not-enough-players', 'R-BUTTON');
  const atStart = seating.seats.map((p) => (p === null ? null : { id: p.id, stack: p.stack }));
  const base = { ok: true as const, game, mode, atStart };

  if (game === 'stud') {
    // No button in Stud (R-FORCED: antes and bring-in): everybody who can play is dealt in, from seat 0.
    return {
      ...base,
      button: null,
      smallBlind: null,
      bigBlind: null,
      smallBlindSeat: null,
      extraBigBlinds: [],
      deadSmallBlinds: [],
      dealtIn: playable,
      headsUp: playable.length === 2,
      newGame: false,
      missedBigBlinds: [],
      missedSmallBlinds: [],
    };
  }

  const last = seating.last;
  if (last === null) {
    // First hand (T 2-1): the button where the operator drew it, the blinds on the next two players.
    const first = options.firstButton ?? 0;
    if (!Number.isInteger(first) || first < 0 || first >= n) return refuse('invalid-first-button', 'R-BUTTON');
    const button = firstAfter((first - 1 + n) % n, playable, n)!;
    if (playable.length === 2) {
      const bb = firstAfter(button, playable, n)!;
      return { ...base, ...headsUpPositions(bb, button, n), newGame: true, missedBigBlinds: [], missedSmallBlinds: [] };
    }
    const sb = firstAfter(button, playable, n)!;
    const bb = firstAfter(sb, playable, n)!;
    return {
      ...base,
      button,
      smallBlind: sb,
      bigBlind: bb,
      smallBlindSeat: sb,
      extraBigBlinds: [],
      deadSmallBlinds: [],
      dealtIn: clockwiseFrom(button, playable, n),
      headsUp: false,
      newGame: true,
      missedBigBlinds: [],
      missedSmallBlinds: [],
    };
  }

  // T 6-4: the big blind moves to the next seat clockwise whose player can play; in a cash game it
  // skips players sitting out, who owe it (R-BUTTON). In a tournament nobody is skipped (T 2-15).
  const bb = firstAfter(last.bigBlind, playable, n)!;
  // T 6-3, 6-5: the small blind comes from last hand's big blind seat, the button from last hand's
  // small blind position.
  const sbPos = last.bigBlind;
  const btnPos = last.smallBlind;

  const missedBigBlinds: number[] = [];
  const missedSmallBlinds: number[] = [];
  if (mode === 'cash') {
    seating.seats.forEach((p, s) => {
      if (p !== null && strictlyBetween(last.bigBlind, bb, s, n)) missedBigBlinds.push(s);
    });
    const sbOccupant = seating.seats[sbPos];
    if (sbOccupant && sbOccupant.id === last.bigBlindPlayer && !isPlayable(sbOccupant, mode)) {
      missedSmallBlinds.push(sbPos);
    }
  }
  const charges = { missedBigBlinds, missedSmallBlinds };

  const nextBigBlind = firstAfter(bb, playable, n);
  const dealt: number[] = [];
  const extraBigBlinds: number[] = [];
  const deadSmallBlinds: number[] = [];
  for (const s of playable) {
    const p = seating.seats[s]!;
    if (s === bb) {
      dealt.push(s);
    } else if (mode === 'tournament') {
      // T 6-16 (dealt in at once) save T 6-12 (a newcomer between the button and the small blind).
      if (!p.hasPlayed && strictlyBetween(btnPos, sbPos, s, n)) continue;
      dealt.push(s);
    } else if (!owesEntry(p)) {
      dealt.push(s);
    } else {
      if (p.waitForBigBlind) continue;
      if (strictlyBetween(btnPos, bb, s, n)) continue; // wait until the button passes (T 6-12)
      if (s === nextBigBlind) continue; // the big blind is theirs next hand
      dealt.push(s);
      if (!p.hasPlayed || p.missedBigBlind) extraBigBlinds.push(s);
      if (p.missedSmallBlind) deadSmallBlinds.push(s);
    }
  }

  if (dealt.length < 2) return restart(seating, bb, playable, base, charges);
  if (dealt.length === 2) {
    const other = dealt[0] === bb ? dealt[1] : dealt[0];
    return { ...base, ...headsUpPositions(bb, other, n), newGame: false, ...charges };
  }
  // The rotation holds when the big blind has not come round onto the button (T 6-3) and nobody
  // dealt in sits between the button and the small blind. It can break only after a heads-up hand
  // (whose positions do not follow the rotation) when players come back around the two.
  const consistent = !onArc(btnPos, sbPos, bb, n) && dealt.every((s) => !strictlyBetween(btnPos, sbPos, s, n));
  if (!consistent) return restart(seating, bb, playable, base, charges);
  return {
    ...base,
    button: btnPos,
    smallBlind: dealt.includes(sbPos) ? sbPos : null, // T 6-17: missing small blind
    bigBlind: bb,
    smallBlindSeat: sbPos,
    extraBigBlinds: clockwiseFrom(btnPos, extraBigBlinds, n),
    deadSmallBlinds: clockwiseFrom(btnPos, deadSmallBlinds, n),
    dealtIn: clockwiseFrom(btnPos, dealt, n),
    headsUp: false,
    newGame: false,
    ...charges,
  };
}

/** T 6-19: heads-up, the button posts the small blind; the other player the big blind. */
function headsUpPositions(bb: number, button: number, n: number) {
  return {
    button,
    smallBlind: button,
    bigBlind: bb,
    smallBlindSeat: button,
    extraBigBlinds: [] as number[],
    deadSmallBlinds: [] as number[],
    dealtIn: clockwiseFrom(button, [bb, button], n),
    headsUp: true,
  };
}

/**
 * The blinds start over (see TablePlan.newGame): everybody who can play is dealt in; the big blind
 * is still the next seat (T 6-4), the small blind and the button the players on its right.
 */
function restart(
  seating: Seating,
  bb: number,
  playable: number[],
  base: { ok: true; game: GameKind; mode: TableMode; atStart: (SeatSnapshot | null)[] },
  charges: { missedBigBlinds: number[]; missedSmallBlinds: number[] },
): TablePlan {
  const n = seating.seats.length;
  if (playable.length === 2) {
    const other = playable[0] === bb ? playable[1] : playable[0];
    return { ...base, ...headsUpPositions(bb, other, n), newGame: true, ...charges };
  }
  const sb = firstBefore(bb, playable, n)!;
  const button = firstBefore(sb, playable, n)!;
  return {
    ...base,
    button,
    smallBlind: sb,
    bigBlind: bb,
    smallBlindSeat: sb,
    extraBigBlinds: [],
    deadSmallBlinds: [],
    dealtIn: clockwiseFrom(button, playable, n),
    headsUp: false,
    newGame: true,
    ...charges,
  };
}
