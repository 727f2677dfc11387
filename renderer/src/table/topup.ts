/**
 * What a seat may add: the operator's rule, one function (shared/rules/table/buy-in.ts `topUpRange`,
 * R-INFO, R-NODEBT), here within the player's balance.
 */
import { topUpRange, type CashRange } from '../../../shared/rules/table/buy-in';

export { topUpRange };
export type TopUpRange = CashRange;

/** A typed amount checked against the range: null when fine, else why (an i18n key under `topUp.`). */
export function topUpProblem(amount: number, r: TopUpRange): 'notAmount' | 'tooLow' | 'tooHigh' | 'full' | 'balance' | null {
  if (r.reason !== 'ok') return r.reason;
  if (!Number.isSafeInteger(amount) || amount < 1) return 'notAmount';
  if (amount < r.min) return 'tooLow';
  if (amount > r.max) return 'tooHigh';
  return null;
}

/** The seat is out of chips with nothing on the way: offer a rebuy rather than "Revenir". */
export function needsRebuy(stack: number | null, pending: number, handRunning: boolean): boolean {
  return stack === 0 && pending === 0 && !handRunning;
}

/**
 * Auto-rebuy and auto top-up: between hands, a seat below the chosen level (the
 * table's minimum or maximum buy-in) gets the chips that bring it back there, within the balance and
 * the operator's range (`topUpRange`); null when nothing is to be added.
 */
export function autoTopUpAmount(mode: 'off' | 'min' | 'max', stack: number, pending: number, buyIn: { min: number; max: number }, balance: number, handRunning: boolean): number | null {
  if (mode === 'off' || handRunning || pending > 0) return null;
  const target = mode === 'min' ? buyIn.min : buyIn.max;
  if (stack >= target) return null;
  const r = topUpRange(stack, pending, buyIn, balance);
  if (r.reason !== 'ok') return null;
  const want = Math.min(target - stack, r.max);
  return want >= r.min ? want : null;
}
