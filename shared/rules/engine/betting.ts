/**
 * Betting bounds: how much a call costs, what a bet or raise may be, and why a raise is refused
 * (R-LIMIT, R-PL, R-NL, R-MINRAISE, R-ALLIN, T 7-7 to 7-19).
 *
 * Amounts are "TO" amounts: the player's total bet for the round after the action (T 7-9).
 */
import type { BetBounds, HandState, SeatState } from './types';
import { variantOf } from './variant';

export interface RaiseBlock {
  rule: string;
  message: string;
}

/**
 * The bet size of the current limit round: small or big bet (R-LIMIT); `limitMax` is the largest
 * when two sizes are allowed. Two functions rather than one returning `{ min, max }`: they run for
 * every limit decision, and the pair would be an allocation each time.
 */
function limitMin(state: HandState): number {
  const r = state.rules;
  if (variantOf(state.variant).streets[state.street].bigBet) return r.bigBet;
  // Stud 4th street with an open pair: small or big bet; once a big bet is made, big (R-LIMIT).
  if (state.bigBetAllowed) return r.smallBet > state.lastIncrement ? r.smallBet : state.lastIncrement;
  return r.smallBet;
}

function limitMax(state: HandState): number {
  const r = state.rules;
  if (variantOf(state.variant).streets[state.street].bigBet || state.bigBetAllowed) return r.bigBet;
  return r.smallBet;
}

/**
 * The smallest TO amount that is a full bet or raise (R-MINRAISE). Below it, only an all-in is
 * accepted, and it does not reopen the betting (R-ALLIN).
 *
 * - Limit: the bet size over the current bet; the first full bet of a round is the bet size from
 *   zero (Stud: completing the bring-in, or over a short all-in).
 * - No limit / pot limit, nothing bet yet: the big blind (T 7-7).
 * - `increment`: the current bet plus the largest full increment of the round, at least the big
 *   blind (T 7-12: 130 all-in → 230; T 7-13: 30 → 130).
 * - `double`: also at least twice the last full bet level (T 7-10: 100, 200, 400).
 */
export function fullRaiseTo(state: HandState): number {
  const r = state.rules;
  if (r.structure === 'limit') {
    const base = state.fullBets === 0 ? 0 : state.currentBet;
    return base + limitMin(state);
  }
  if (state.currentBet === 0) return r.bigBlind;
  let to = state.currentBet + Math.max(state.lastIncrement, r.bigBlind);
  if (r.minRaise === 'double' && 2 * state.lastFullLevel > to) to = 2 * state.lastFullLevel;
  return to;
}

/** Chips in the middle: the gathered pot plus every bet of the round. */
export function potTotal(state: HandState): number {
  let t = state.pot;
  const seats = state.seats;
  for (let i = 0; i < seats.length; i++) t += seats[i].bet;
  return t;
}

/** Players still in the hand (not folded). */
export function liveCount(state: HandState): number {
  let n = 0;
  const seats = state.seats;
  for (let i = 0; i < seats.length; i++) {
    const st = seats[i].status;
    if (st === 'in' || st === 'allin') n++;
  }
  return n;
}

/** The cap applies now (R-LIMIT): limit, a cap set, and not heads-up (unless the table says so). */
export function capReached(state: HandState): boolean {
  const r = state.rules;
  if (r.structure !== 'limit' || r.cap === null || state.fullBets < r.cap) return false;
  if (!r.capHeadsUp && !state.capLocked && liveCount(state) === 2) return false;
  return true;
}

function otherCanRespond(state: HandState, seat: number): boolean {
  const seats = state.seats;
  for (let i = 0; i < seats.length; i++) if (i !== seat && seats[i].status === 'in') return true;
  return false;
}

/** The kind of a bet action: opening bet, raise, or (Stud) completion of the bring-in. */
export function betKind(state: HandState): 'bet' | 'raise' | 'complete' {
  if (state.currentBet === 0) return 'bet';
  if (state.fullBets === 0 && variantOf(state.variant).family === 'stud') return 'complete';
  return 'raise';
}

// The blocks that do not depend on the state, allocated once (frozen: shared by every caller).
const NO_CHIPS: RaiseBlock = Object.freeze({ rule: 'R-NODEBT', message: 'no chips beyond the call: call or fold' });
const NO_COMPLETE: RaiseBlock = Object.freeze({ rule: 'R-FORCED', message: 'the bring-in cannot be completed here: post the bring-in' });
const NOT_REOPENED: RaiseBlock = Object.freeze({
  rule: 'R-ALLIN',
  message: 'an all-in for less than a full raise does not reopen the betting for a player who already acted (T 7-19)',
});
const NO_ONE_TO_CALL: RaiseBlock = Object.freeze({
  rule: 'R-ALLIN',
  message: 'every other player is all-in or folded: no one could call a raise',
});

/**
 * The bet/raise bounds of `seat` (the player to act), or why none is possible. Assumes the player
 * is to act in a betting round.
 */
export function betBounds(state: HandState, seat: number): BetBounds | RaiseBlock {
  const p: SeatState = state.seats[seat];
  const r = state.rules;
  const allInTo = p.bet + p.stack;
  if (allInTo <= state.currentBet) return NO_CHIPS;
  if (state.bringInDue) {
    // R-FORCED: the bring-in may complete to the small bet instead of posting the bring-in.
    if (r.bringIn >= r.smallBet || p.stack <= r.bringIn) return NO_COMPLETE;
    const to = Math.min(r.smallBet, allInTo);
    return { kind: 'complete', min: to, max: to, exact: true };
  }
  if (p.acted && state.currentBet < p.reopenAt) return NOT_REOPENED;
  if (capReached(state)) return { rule: 'R-LIMIT', message: `the cap of ${String(r.cap)} bets is reached this round` };
  if (!otherCanRespond(state, seat)) return NO_ONE_TO_CALL;
  const kind = betKind(state);
  const minTo = fullRaiseTo(state);
  let maxTo: number;
  let exact = false;
  if (r.structure === 'limit') {
    const base = state.fullBets === 0 ? 0 : state.currentBet;
    maxTo = base + limitMax(state);
    exact = true;
  } else if (r.structure === 'pot-limit') {
    // R-PL, D art. 7 I 2°: at most the pot after the raiser's call.
    const toCall = state.currentBet - p.bet;
    maxTo = state.currentBet + potTotal(state) + toCall;
  } else {
    maxTo = allInTo; // R-NL: at most the stack
  }
  if (allInTo < minTo) return { kind, min: allInTo, max: allInTo, exact: true }; // R-ALLIN: all-in for less
  if (maxTo > allInTo) maxTo = allInTo;
  if (maxTo < minTo) maxTo = minTo;
  return { kind, min: minTo, max: maxTo, exact };
}

export function isBlock(x: BetBounds | RaiseBlock): x is RaiseBlock {
  return (x as RaiseBlock).rule !== undefined;
}
