/**
 * Names on request hidden (a hand shown to someone else): each player becomes "Player n", numbered
 * in seat order, so a name never leaks through the order either. The caller translates the label.
 */
import type { HandRecord } from '../../../shared/rules/record';

/** Per seat of the table: the record's player name, or null for an empty seat. */
export function recordNames(record: Pick<HandRecord, 'seats' | 'tableSize'>): (string | null)[] {
  const out: (string | null)[] = Array.from({ length: record.tableSize }, () => null);
  for (const s of record.seats) out[s.seat] = s.player;
  return out;
}

/** Per seat: the number of the player (1, 2, … in seat order), null for an empty seat. */
export function playerNumbers(record: Pick<HandRecord, 'seats' | 'tableSize'>): (number | null)[] {
  const out: (number | null)[] = Array.from({ length: record.tableSize }, () => null);
  const seats = record.seats.map((s) => s.seat).sort((a, b) => a - b);
  seats.forEach((seat, k) => (out[seat] = k + 1));
  return out;
}

/** The names to show per seat: real ones, or `label(n)` for every player when hidden. */
export function shownNames(record: Pick<HandRecord, 'seats' | 'tableSize'>, hide: boolean, label: (n: number) => string): (string | null)[] {
  if (!hide) return recordNames(record);
  return playerNumbers(record).map((n) => (n === null ? null : label(n)));
}

