/**
 * Self-set limits and the seven-day counts they are checked against (R-LIMITS, R-TIMELIMIT;
 * decree 2010-518 art. 16 and 16-1; ../shared/regulation/protection-des-joueurs.md). Pure functions
 * over plain data: the operator's store keeps the data, these decide. Times are milliseconds since
 * the Unix epoch; amounts are integers (cents, or milliseconds of playing time).
 *
 * One reading for the three limits (deposits, stakes, playing time):
 * - there is no default: until the player sets one, the operation it guards is refused
 *   (`LIMIT_NOT_SET`), never allowed with a value the operator chose (art. 16-1: "l'opérateur ne
 *   peut pas renseigner de valeur par défaut");
 * - a lower limit applies at once; a higher one 48 hours after it was asked for, shown meanwhile as a
 *   pending change with its time (art. 16); asking again replaces the pending change; asking for the
 *   value in force cancels it.
 */
import { DAY_MS, HOUR_MS } from '../../shared/rules/time';

export { DAY_MS, HOUR_MS };

/** The counting period of every limit: seven days (art. 16, 16-1). */
export const PERIOD_MS = 7 * DAY_MS;
/** A higher limit applies this long after it was asked for, at the earliest (art. 16). */
export const RAISE_DELAY_MS = 48 * HOUR_MS;

/** A limit the player set, with a raise waiting for its 48 hours. */
export interface SelfLimit {
  /** The value in force (cents for money, milliseconds for playing time). */
  readonly value: number;
  /** A higher value asked for, and when it applies. */
  readonly pending: { readonly value: number; readonly from: number } | null;
}

/** The limit as it stands at `now`: a pending raise whose time has come is in force. */
export function limitAt(limit: SelfLimit | null, now: number): SelfLimit | null {
  if (!limit || !limit.pending || now < limit.pending.from) return limit;
  return { value: limit.pending.value, pending: null };
}

/** The player asks for `value`: the first limit and any lower one at once, a higher one in 48 h. */
export function askLimit(limit: SelfLimit | null, value: number, now: number): SelfLimit {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`a limit is a positive integer, not ${value}`);
  const current = limitAt(limit, now);
  if (!current || value <= current.value) return { value, pending: null };
  return { value: current.value, pending: { value, from: now + RAISE_DELAY_MS } };
}

/** One counted movement (a deposit, a stake) or one stretch of playing time already cut to an amount. */
export interface Counted {
  readonly at: number;
  readonly amount: number;
}

/** Σ of the movements in the seven days that end at `now`: (now − 7 days, now]. */
export function usedInWindow(movements: readonly Counted[], now: number): number {
  let sum = 0;
  for (const m of movements) if (m.at > now - PERIOD_MS && m.at <= now) sum += m.amount;
  return sum;
}

/** Whether `amount` more fits under the limit now, and if not when it will (R-LIMITS: "refused with
 * the limit and when it frees up"). Deposits and stakes count over a sliding seven days: each
 * movement stops counting seven days after it was made. `freeAt` is null when the amount alone is
 * over the limit (only a higher limit would let it through). */
export type RoomCheck =
  | { readonly ok: true; readonly used: number; readonly limit: number }
  | { readonly ok: false; readonly used: number; readonly limit: number; readonly freeAt: number | null };

export function roomFor(movements: readonly Counted[], limit: number, amount: number, now: number): RoomCheck {
  const inWindow = movements.filter((m) => m.at > now - PERIOD_MS && m.at <= now).sort((a, b) => a.at - b.at);
  let used = 0;
  for (const m of inWindow) used += m.amount;
  if (used + amount <= limit) return { ok: true, used, limit };
  if (amount > limit) return { ok: false, used, limit, freeAt: null };
  // Walk the oldest movements out of the window until the amount fits.
  let remaining = used;
  for (const m of inWindow) {
    remaining -= m.amount;
    if (remaining + amount <= limit) return { ok: false, used, limit, freeAt: m.at + PERIOD_MS };
  }
  return { ok: false, used, limit, freeAt: null }; // unreachable: an empty window fits amount ≤ limit
}
