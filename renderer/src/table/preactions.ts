/**
 * Pre-actions: what the player ticks while others decide, sent by itself when our turn comes.
 *
 * - `checkFold`: check if we may, else fold. Kept through bets (that is its point); cleared on a new
 *   street or hand.
 * - `check`: cleared as soon as there is something to call (a new bet), a new street or hand.
 * - `call`: call this exact amount; cleared when the amount to call changes, a new street or hand.
 * - `callAny`: call whatever is bet (or check when nothing is), cleared on a new street or hand.
 *
 * Betting rounds only: a draw, a showdown decision or a bring-in is never made in advance.
 */
import type { Move } from '../../../shared/protocol/messages';
import type { HandState, LegalActions } from '../../../shared/rules/engine/types';

export type PreActionKind = 'checkFold' | 'check' | 'call' | 'callAny';

/** Where the hand stands for us: pre-actions are tied to it. */
export interface Situation {
  /** The hand (its id, else the table's hand number). */
  hand: string;
  street: number;
  /** Chips we would add to call now (0: we could check). Capped at our stack. */
  toCall: number;
}

export interface PreAction {
  kind: PreActionKind;
  /** `call`: the amount ticked. */
  amount: number;
  /** The situation when it was ticked. */
  at: Situation;
}

/** The pre-actions offered now (our seat still in the hand, someone else to act in a betting round). */
export interface PreActionOptions {
  checkFold: boolean;
  check: boolean;
  /** Call this amount (null when there is nothing to call). */
  call: number | null;
  callAny: boolean;
}

/**
 * Our situation in a betting round where we may still act, or null (no hand, folded, all-in, between
 * streets, a draw or showdown, or the bring-in still due).
 */
export function situationOf(hand: HandState | null, seat: number | null, handNo: number): Situation | null {
  if (hand === null || seat === null) return null;
  if (hand.phase !== 'bet' || hand.bringInDue) return null;
  const p = hand.seats[seat];
  if (p === undefined || p.status !== 'in') return null;
  const owed = hand.currentBet - p.bet;
  return { hand: hand.handId ?? `#${handNo}`, street: hand.street, toCall: owed <= 0 ? 0 : owed < p.stack ? owed : p.stack };
}

/** What may be ticked in this situation (null situation: nothing). */
export function preActionOptions(sit: Situation | null): PreActionOptions | null {
  if (sit === null) return null;
  return { checkFold: true, check: sit.toCall === 0, call: sit.toCall > 0 ? sit.toCall : null, callAny: true };
}

export function makePreAction(kind: PreActionKind, sit: Situation): PreAction {
  return { kind, amount: kind === 'call' ? sit.toCall : 0, at: sit };
}

/** The pre-action still standing in the situation now, or null once the situation cleared it. */
export function stillValid(pre: PreAction | null, sit: Situation | null): PreAction | null {
  if (pre === null || sit === null) return null;
  if (sit.hand !== pre.at.hand || sit.street !== pre.at.street) return null;
  switch (pre.kind) {
    case 'checkFold':
    case 'callAny':
      return pre;
    case 'check':
      return sit.toCall === 0 ? pre : null;
    case 'call':
      return sit.toCall === pre.amount ? pre : null;
  }
}

/**
 * The move to send by itself now that our turn has come (`legal` is our decision), or null when the
 * pre-action does not apply (then the player decides).
 */
export function autoMove(pre: PreAction | null, legal: LegalActions | null, sit: Situation | null): Move | null {
  if (pre === null || legal === null || legal.next !== 'act' || legal.bringIn !== null) return null;
  if (stillValid(pre, sit) === null) return null;
  switch (pre.kind) {
    case 'checkFold':
      return legal.check ? { type: 'check' } : legal.fold ? { type: 'fold' } : null;
    case 'check':
      return legal.check ? { type: 'check' } : null;
    case 'call':
      return legal.call !== null && legal.call === pre.amount ? { type: 'call' } : null;
    case 'callAny':
      return legal.call !== null ? { type: 'call' } : legal.check ? { type: 'check' } : null;
  }
}
