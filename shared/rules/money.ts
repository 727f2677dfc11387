/**
 * Money as text: integers in smallest units (cents of euro, or play chips) written with two decimals,
 * exactly, with no floating point ("Integers for money", CONVENTIONS.md). The one place that turns
 * cents into a decimal: the trace's amounts (A 1.4.3), the exchange formats, the client's display
 * (which hands this to `Intl` for the local way of writing it) and the operator's descriptions.
 */

/** `1234` → `12.34`, `-4` → `-0.04`, `5` → `0.05`. Throws on a non-integer: a bug, never rounded. */
export function centsText(units: number): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not an integer amount in cents: ${String(units)}`);
  const abs = Math.abs(units);
  return `${units < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
