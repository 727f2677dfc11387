/**
 * The chips a cash-table seat may bring (R-INFO: the table's buy-in range, shown before the join;
 * R-NODEBT: never more than the balance). One rule for the join dialog, the top-up dialog, auto
 * top-up and the operator's check, so the screen never offers what the operator refuses.
 *
 * - A join: from the table's minimum to its maximum buy-in.
 * - A top-up: the stack (with top-ups already waiting for the hand's end) may grow up to the maximum
 *   buy-in; a seat below the minimum (a bust, a short stack) comes back to the minimum at least, as a
 *   buy-in would (a rebuy of 100 at a 2,000 minimum would seat a stack no join may bring).
 * - Both: within the balance when it is known (the operator leaves it to the wallet, R-NODEBT).
 */

/** The table's buy-in bounds, in the table's units (cents or play chips). */
export interface BuyInBounds {
  readonly min: number;
  readonly max: number;
}

/**
 * What may be brought: from `min` to `max` (whole units). `max` below `min`: nothing can be,
 * `reason` says why (`full`: the stack is at the maximum already; `balance`: the balance is short).
 */
export interface CashRange {
  min: number;
  max: number;
  reason: 'ok' | 'full' | 'balance';
}

/** No balance given: the operator's check, which leaves the balance to the wallet. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** R-INFO: a join brings between the table's minimum and maximum buy-in, within `balance` (R-NODEBT). */
export function joinRange(buyIn: BuyInBounds, balance: number = UNBOUNDED): CashRange {
  const most = Math.min(buyIn.max, balance);
  return { min: buyIn.min, max: most, reason: most < buyIn.min ? 'balance' : 'ok' };
}

/**
 * R-INFO, R-NODEBT: a top-up to a seat holding `stack`, with `pending` already waiting for the hand's
 * end: at least 1 and at least what brings the seat to the minimum buy-in; at most what brings it to
 * the maximum, and within `balance`.
 */
export function topUpRange(stack: number, pending: number, buyIn: BuyInBounds, balance: number = UNBOUNDED): CashRange {
  const least = Math.max(1, buyIn.min - stack - pending);
  const room = buyIn.max - stack - pending;
  if (room < 1) return { min: least, max: 0, reason: 'full' };
  const most = Math.min(room, balance);
  return { min: least, max: most, reason: most < least ? 'balance' : 'ok' };
}

/** An amount the range allows: a whole number of units from `min` to `max`. */
export function inRange(amount: number, r: CashRange): boolean {
  return r.reason === 'ok' && Number.isSafeInteger(amount) && amount >= r.min && amount <= r.max;
}
