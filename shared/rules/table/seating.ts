/**
 * The table around the hands (R-BUTTON, R-CASH, T 6-3 to 6-20): who sits where with how many chips,
 * who is present, who owes blinds, and where the button and blinds were last hand. Plain
 * serialisable data; every change returns a new state or a refusal value.
 *
 * Seats are numbered 0..n-1 clockwise (see clockwise.ts). Players are named by id. Seat choice is the
 * operator's (R-RANDSEAT; T 6-10 for balancing, see balancing.ts).
 */

/**
 * What a seated player is doing, for display and for the next plan:
 * - `active`: plays every hand (a player back from sitting out who owes blinds is `active` too, and
 *   posts them at the first hand the entry rules allow; see `missedBigBlind`);
 * - `new`: just sat down and has not been dealt in yet; in a cash game posts a big blind to come in,
 *   in a tournament is dealt in at once (T 6-16) save between the button and the small blind (T 6-12);
 * - `waiting-for-big-blind`: cash game, owes an entry (new, or missed blinds) and chose to wait until
 *   the big blind reaches them rather than post;
 * - `sitting-out`: away. Cash: not dealt in, misses the blinds that pass. Tournament: still dealt in
 *   and blinded (T 2-14, 2-15); the operator folds the hand.
 */
export type SeatStatus = 'active' | 'new' | 'waiting-for-big-blind' | 'sitting-out';

export interface SeatedPlayer {
  id: string;
  /** Chips on the table, an integer (R-NODEBT). */
  stack: number;
  status: SeatStatus;
  /**
   * Cash games: the player's choice when coming in (just seated, or back with missed blinds): wait
   * for the big blind (true) or post a big blind to be dealt in sooner (false). Ignored in tournaments.
   */
  waitForBigBlind: boolean;
  /** Dealt in at least once since sitting down at this table. */
  hasPlayed: boolean;
  /** Cash: the big blind passed this seat while the player sat out; owed (live) on return. */
  missedBigBlind: boolean;
  /** Cash: the player sat out when the small blind was theirs; owed (dead) on return. */
  missedSmallBlind: boolean;
}

/** Where the blinds and button were in the last hand played (blinds games), for the dead button. */
export interface LastPositions {
  /** The button's seat (possibly empty then, T 6-18). */
  button: number;
  /** The small blind's position, even when nobody posted it (T 6-17); the button's seat heads-up. */
  smallBlind: number;
  /** The big blind's seat. */
  bigBlind: number;
  /** Who posted that big blind (to tell a small blind missed by them from a newcomer in their seat). */
  bigBlindPlayer: string;
}

export interface Seating {
  /** One entry per seat (length = table size, R-SEATS); null = empty. */
  seats: (SeatedPlayer | null)[];
  /** null before the first hand with blinds at this table. */
  last: LastPositions | null;
  /** Hands finished at this table (afterHand calls). */
  handsPlayed: number;
}

export type TableRefusalReason =
  | 'seat-out-of-range'
  | 'seat-taken'
  | 'already-seated'
  | 'not-seated'
  | 'invalid-stack'
  | 'invalid-amount'
  | 'already-sitting-out'
  | 'not-sitting-out'
  | 'no-chips'
  | 'not-enough-players'
  | 'invalid-first-button'
  | 'outcome-mismatch';

/** A refusal as a value (CONVENTIONS.md): `reason` says what, `rule` cites the requirement. */
export interface TableRefusal {
  ok: false;
  reason: TableRefusalReason;
  rule: string;
  /** Details for a mismatch (which seat, which id). */
  detail?: string;
}

export type SeatingChange = { ok: true; seating: Seating } | TableRefusal;

/** Largest table of any variant (R-SEATS: Hold'em 10). */
export const MAX_SEATS = 10;

export function refuse(reason: TableRefusalReason, rule: string, detail?: string): TableRefusal {
  return detail === undefined ? { ok: false, reason, rule } : { ok: false, reason, rule, detail };
}

/** An empty table of `seatCount` seats (2..10, R-SEATS). A wrong size is a configuration bug. */
export function createSeating(seatCount: number): Seating {
  if (!Number.isInteger(seatCount) || seatCount < 2 || seatCount > MAX_SEATS) {
    throw new RangeError(`a table has 2 to ${MAX_SEATS} seats (R-SEATS), not ${seatCount}`);
  }
  return { seats: Array.from({ length: seatCount }, () => null), last: null, handsPlayed: 0 };
}

export function seatOf(seating: Seating, id: string): number | null {
  const i = seating.seats.findIndex((p) => p !== null && p.id === id);
  return i < 0 ? null : i;
}

export function freeSeats(seating: Seating): number[] {
  const out: number[] = [];
  seating.seats.forEach((p, i) => {
    if (p === null) out.push(i);
  });
  return out;
}

/** Whether a cash player must still pay to be dealt in: new here, or blinds missed while away (R-BUTTON). */
export function owesEntry(p: SeatedPlayer): boolean {
  return !p.hasPlayed || p.missedBigBlind || p.missedSmallBlind;
}

/** The status that follows from the player's flags, `present` saying whether they sit in. */
export function settleStatus(p: SeatedPlayer, present: boolean): SeatedPlayer {
  let status: SeatStatus;
  if (!present) status = 'sitting-out';
  else if (!owesEntry(p)) status = 'active';
  else if (p.waitForBigBlind) status = 'waiting-for-big-blind';
  else status = p.hasPlayed ? 'active' : 'new';
  return status === p.status ? p : { ...p, status };
}

function withSeat(seating: Seating, seat: number, player: SeatedPlayer | null): Seating {
  const seats = seating.seats.slice();
  seats[seat] = player;
  return { ...seating, seats };
}

function isChipCount(x: number): boolean {
  return Number.isSafeInteger(x) && x > 0;
}

export interface SeatRequest {
  id: string;
  /** Chosen by the operator (R-RANDSEAT), or by T 6-10 for a player moved to balance tables. */
  seat: number;
  /** Chips brought to the table (cash: the buy-in; tournament: the player's stack), integer > 0. */
  stack: number;
  /** Cash: wait for the big blind instead of posting one to come in. Default false. */
  waitForBigBlind?: boolean;
}

/** A player sits down. They play from the next hand the entry rules allow (see plan.ts). */
export function seatPlayer(seating: Seating, req: SeatRequest): SeatingChange {
  if (!Number.isInteger(req.seat) || req.seat < 0 || req.seat >= seating.seats.length) {
    return refuse('seat-out-of-range', 'R-SEATS');
  }
  if (seating.seats[req.seat] !== null) return refuse('seat-taken', 'R-ONEHAND');
  if (seatOf(seating, req.id) !== null) return refuse('already-seated', 'R-ONEHAND');
  if (!isChipCount(req.stack)) return refuse('invalid-stack', 'R-NODEBT');
  const player = settleStatus(
    {
      id: req.id,
      stack: req.stack,
      status: 'new',
      waitForBigBlind: req.waitForBigBlind ?? false,
      hasPlayed: false,
      missedBigBlind: false,
      missedSmallBlind: false,
    },
    true,
  );
  return { ok: true, seating: withSeat(seating, req.seat, player) };
}

/**
 * The player steps away. Cash: not dealt in from the next plan, and charged the blinds that pass
 * (afterHand). Tournament: still dealt in and blinded (T 2-15); the operator folds the hand.
 */
export function sitOut(seating: Seating, id: string): SeatingChange {
  const seat = seatOf(seating, id);
  if (seat === null) return refuse('not-seated', 'R-CASH');
  const p = seating.seats[seat]!;
  if (p.status === 'sitting-out') return refuse('already-sitting-out', 'R-CASH');
  return { ok: true, seating: withSeat(seating, seat, settleStatus(p, false)) };
}

/**
 * The player is back. With nothing owed they play the next hand; with missed blinds (cash) they
 * post them or wait for the big blind, as `waitForBigBlind` says (default: their earlier choice).
 */
export function sitIn(seating: Seating, id: string, choice: { waitForBigBlind?: boolean } = {}): SeatingChange {
  const seat = seatOf(seating, id);
  if (seat === null) return refuse('not-seated', 'R-CASH');
  const p = seating.seats[seat]!;
  if (p.status !== 'sitting-out') return refuse('not-sitting-out', 'R-CASH');
  if (p.stack <= 0) return refuse('no-chips', 'R-NODEBT');
  const next = { ...p, waitForBigBlind: choice.waitForBigBlind ?? p.waitForBigBlind };
  return { ok: true, seating: withSeat(seating, seat, settleStatus(next, true)) };
}

/** Cash: change one's mind while owing an entry: wait for the big blind, or post to come in sooner. */
export function setWaitForBigBlind(seating: Seating, id: string, waitForBigBlind: boolean): SeatingChange {
  const seat = seatOf(seating, id);
  if (seat === null) return refuse('not-seated', 'R-BUTTON');
  const p = seating.seats[seat]!;
  return {
    ok: true,
    seating: withSeat(seating, seat, settleStatus({ ...p, waitForBigBlind }, p.status !== 'sitting-out')),
  };
}

/**
 * The player leaves the seat (R-CASH; a tournament player moved to another table, or eliminated,
 * T 8-15). The seat keeps its place in the dead-button rotation: the blinds and button may fall on
 * it empty (T 6-17, 6-18). Between hands only: mid-hand, fold first and leave after afterHand.
 */
export function leave(seating: Seating, id: string): SeatingChange {
  const seat = seatOf(seating, id);
  if (seat === null) return refuse('not-seated', 'R-CASH');
  return { ok: true, seating: withSeat(seating, seat, null) };
}

/**
 * Chips added between hands: a cash top-up or rebuy, a tournament rebuy or add-on (T 5-2, 5-4).
 * A player at zero who was sat out stays out until sitIn.
 */
export function addChips(seating: Seating, id: string, chips: number): SeatingChange {
  const seat = seatOf(seating, id);
  if (seat === null) return refuse('not-seated', 'R-NODEBT');
  if (!isChipCount(chips)) return refuse('invalid-amount', 'R-NODEBT');
  const p = seating.seats[seat]!;
  return { ok: true, seating: withSeat(seating, seat, { ...p, stack: p.stack + chips }) };
}
