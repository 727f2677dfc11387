/** Seat helpers: copy-on-write of a seat, appending to its card arrays, shared face flags. */
import type { Card } from '../cards';
import type { SeatState } from './types';

/** Copy-on-write of a seat: an explicit literal (one fixed shape, copied faster than a spread). */
export function cloneSeat(p: SeatState): SeatState {
  return {
    status: p.status,
    stack: p.stack,
    bet: p.bet,
    committed: p.committed,
    hole: p.hole,
    up: p.up,
    owed: p.owed,
    acted: p.acted,
    reopenAt: p.reopenAt,
    drew: p.drew,
    discards: p.discards,
    shown: p.shown,
    mucked: p.mucked,
  };
}

/**
 * `a` followed by `b`, as a new exact-size array. `Array.prototype.concat` checks every argument for
 * `Symbol.isConcatSpreadable` and falls off its fast path on the frozen flag arrays below; a plain
 * loop into a preallocated array is several times faster for the handful of cards of a deal.
 *
 * Two copies of the same loop, one for cards and one for face flags: V8 keeps type feedback per
 * function, so a single generic `append` would see numbers, booleans and frozen arrays at once and
 * compile to slower polymorphic element accesses.
 */
export function appendCards(a: readonly (Card | null)[], b: readonly (Card | null)[]): (Card | null)[] {
  const na = a.length;
  const nb = b.length;
  const out = new Array<Card | null>(na + nb);
  for (let i = 0; i < na; i++) out[i] = a[i];
  for (let i = 0; i < nb; i++) out[na + i] = b[i];
  return out;
}

export function appendFlags(a: readonly boolean[], b: readonly boolean[]): boolean[] {
  const na = a.length;
  const nb = b.length;
  const out = new Array<boolean>(na + nb);
  for (let i = 0; i < na; i++) out[i] = a[i];
  for (let i = 0; i < nb; i++) out[na + i] = b[i];
  return out;
}

// Shared, frozen face flags for the common deals (all down, or all up): no allocation per deal.
function frozenFlags(value: boolean): boolean[][] {
  const out: boolean[][] = [];
  for (let k = 0; k <= 7; k++) out.push(Object.freeze(new Array<boolean>(k).fill(value)) as boolean[]);
  return out;
}
export const ALL_DOWN: readonly boolean[][] = frozenFlags(false);
export const ALL_UP: readonly boolean[][] = frozenFlags(true);
