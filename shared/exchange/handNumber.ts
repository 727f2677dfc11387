/**
 * Stable hand numbers for the formats that number hands (PokerStars `Hand #n`, POJEU `IDEvt`):
 * a hand id that is a plain decimal number (no leading zero, a safe integer) is its own number;
 * any other id, or a record without one, is numbered by a 53-bit hash (cyrb53) of the id, or of the
 * hand's seats and actions. The same hand always gets the same number; two different ids get the
 * same number with a chance of about one in 2^53 per pair. docs/exchange.md.
 */
import type { HandRecord } from '../rules/record';
import { hash53 } from '../validate/hash53';

// Re-exported: the history's hand numbers use it too (electron/services/history/model.ts).
export { hash53 };

/**
 * Whether a hand id is written as its own number: a plain safe integer (no leading zero). Every
 * hash53 value is one, so a hand read back from PokerStars text (its id is the number) keeps the
 * number it was written with: `handNumber` is the same through any number of round trips (a 16-digit hash was
 * hashed again and the hand came back as another one).
 */
export function isNumericHandId(id: string | null): id is string {
  return id !== null && /^(0|[1-9][0-9]{0,15})$/.test(id) && Number.isSafeInteger(Number(id));
}

export function handNumber(record: HandRecord): number {
  const id = record.handId;
  if (isNumericHandId(id)) return Number(id);
  return hash53(id ?? JSON.stringify([record.variant, record.seats.map((s) => [s.seat, s.player, s.stackBefore]), record.actions]));
}

/**
 * A tournament's number in PokerStars text (`Tournament #n`), as hand numbers are
 * made: an id that is a plain number is its own number, any other id its 53-bit hash. Read back, the
 * number becomes the tournament id `String(n)`, which is numbered `n` again: the same tournament has
 * the same number through any number of round trips (docs/exchange.md).
 */
export function tournamentNumber(tournamentId: string): number {
  return isNumericHandId(tournamentId) ? Number(tournamentId) : hash53(tournamentId);
}
