/**
 * What the action bar offers when it is our turn (SPEC.md §5: "action buttons and bet sizing that only
 * offer legal actions"). Everything comes from the rules package's `legalActions` on the hand as our
 * seat sees it; nothing here decides what is legal.
 */
import type { TableState } from '../../../shared/api/contract';
import { decide, turnOf, type Move, type MoveRefusal } from '../../../shared/rules/decide';
import { tableHand } from './hand';
import type { BetBounds, HandState, LegalActions } from '../../../shared/rules/engine/types';
import { VARIANTS } from '../../../shared/rules/variants';

/** A bet, raise or completion the player may choose: TO amounts, inclusive. */
export interface BetOption extends BetBounds {
  /** Our whole stack as a TO amount (chips already in front + chips behind): all-in. */
  allInTo: number;
}

export interface ActionBarModel {
  seat: number;
  next: 'act' | 'draw' | 'show';
  fold: boolean;
  check: boolean;
  /** Chips a call adds, and whether it is our whole stack. */
  call: { amount: number; allIn: boolean } | null;
  bringIn: { amount: number; allIn: boolean } | null;
  bet: BetOption | null;
  /** Triple Draw: most cards we may discard. */
  draw: { max: number } | null;
  show: boolean;
  muck: boolean;
  /** Context for sizing (presets, guard): the level to call, our bet this round, the chips in the middle. */
  currentBet: number;
  ourBet: number;
  stack: number;
}

/** An i18n key of the `table` namespace and the amount it names (formatted by the component). */
export interface ActionLabel {
  key: string;
  amount: number | null;
}

/** Our seat at this table, or null when we are not seated. */
export function ourSeat(state: TableState): number | null {
  return state.view?.you?.seat ?? null;
}

/**
 * The legal actions of the hand when `seat` is to decide (act, draw or show), else null: the rules
 * package's `turnOf`, the first step of the one decision path (`decide`).
 */
export function ourLegal(hand: HandState | null, seat: number | null): LegalActions | null {
  const turn = turnOf(hand, seat);
  return turn.ok ? turn.legal : null;
}

/**
 * A move checked before it is sent, as the client's link and the operator check it (`decide`): null
 * when it may go, else the refusal with its rule and details, to show at once.
 */
export function refusedMove(hand: HandState | null, seat: number | null, move: Move): MoveRefusal | null {
  const d = decide(hand, seat, move);
  return d.ok ? null : d;
}

/** What the action bar shows now: null when it is not our decision (or the table is not live). */
export function actionBar(state: TableState): ActionBarModel | null {
  if (state.status !== 'live' || state.view === null) return null;
  const seat = ourSeat(state);
  const hand = tableHand(state);
  const legal = ourLegal(hand, seat);
  if (legal === null || hand === null || seat === null) return null;
  const p = hand.seats[seat];
  const stack = p.stack;
  return {
    seat,
    next: legal.next as ActionBarModel['next'],
    fold: legal.fold,
    check: legal.check,
    call: legal.call === null ? null : { amount: legal.call, allIn: legal.call >= stack },
    bringIn: legal.bringIn === null ? null : { amount: legal.bringIn, allIn: legal.bringIn >= stack },
    bet: legal.bet === null ? null : { ...legal.bet, allInTo: p.bet + stack },
    draw: legal.draw,
    show: legal.show,
    muck: legal.muck,
    currentBet: hand.currentBet,
    ourBet: p.bet,
    stack,
  };
}

/** The call button: "Suivre 40" or "Tapis 35" when the call takes the whole stack. */
export function callLabel(call: { amount: number; allIn: boolean }): ActionLabel {
  return { key: call.allIn ? 'table.callAllIn' : 'table.call', amount: call.amount };
}

export function bringInLabel(b: { amount: number; allIn: boolean }): ActionLabel {
  return { key: b.allIn ? 'table.bringInAllIn' : 'table.bringIn', amount: b.amount };
}

/** The bet button for a chosen TO amount: bet, raise, complete (Stud) or all-in. */
export function betLabel(bet: BetOption, to: number): ActionLabel {
  if (to >= bet.allInTo) return { key: 'table.allIn', amount: to };
  if (bet.kind === 'complete') return { key: 'table.complete', amount: to };
  return { key: bet.kind === 'raise' ? 'table.raiseTo' : 'table.bet', amount: to };
}

/**
 * A typed amount as the bet button shows it and sends it: the button follows
 * what is typed; more than the stack (or the pot-limit maximum) is the maximum, all-in when that is
 * the stack, as PokerStars does, rather than an error; less than the minimum is shown and refused.
 */
export function typedBet(bet: BetBounds, value: number): { to: number; ok: boolean } {
  if (value >= bet.max) return { to: bet.max, ok: true };
  if (bet.exact) return { to: value, ok: value === bet.min };
  return { to: value, ok: value >= bet.min };
}

/** The draw button: "Tirer 2" or "Servi" (stand pat) when nothing is discarded. */
export function drawLabel(discards: number): ActionLabel {
  return discards === 0 ? { key: 'table.standPat', amount: null } : { key: 'table.drawN', amount: discards };
}

/** True when the table's first betting street is in progress in a board game (Hold'em, Omaha). */
export function isBoardPreflop(hand: HandState): boolean {
  const family = VARIANTS[hand.variant].family;
  return (family === 'holdem' || family === 'omaha') && hand.street === 0;
}

/** Clamp a TO amount into the bounds; limit games with two choices snap to the nearer one. */
export function clampBet(bet: BetBounds, to: number): number {
  const x = Number.isFinite(to) ? Math.round(to) : bet.min;
  if (bet.exact) return x >= bet.max ? bet.max : x <= bet.min ? bet.min : x - bet.min < bet.max - x ? bet.min : bet.max;
  return x < bet.min ? bet.min : x > bet.max ? bet.max : x;
}
