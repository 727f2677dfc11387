/** Copy-on-write of a seat: an explicit literal (one fixed shape, copied faster than a spread). */
import type { SeatState } from './types';

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

// Shared, frozen face flags for the common deals (all down, or all up): no allocation per deal.
function frozenFlags(value: boolean): boolean[][] {
  const out: boolean[][] = [];
  for (let k = 0; k <= 7; k++) out.push(Object.freeze(new Array<boolean>(k).fill(value)) as boolean[]);
  return out;
}
export const ALL_DOWN: readonly boolean[][] = frozenFlags(false);
export const ALL_UP: readonly boolean[][] = frozenFlags(true);
