/**
 * The order of eliminations (`MachineState.busted`; R-ELIM, T 8-16) as runs of `GROUPS` busted
 * groups: a bust copies the last run and the list of runs, never the whole order. As one flat list,
 * each bust of a 100,000-entrant freezeout copied every group before it (up to 100,000 of them, a
 * tenth of the CPU at 20,000 entrants); the state stays a value (JSON, compared and replayed as it
 * is: group `k` is always in run `k / GROUPS`, so every state of the same order has the same runs).
 */
import type { MachineState } from './types';

export const GROUPS = 1024;

type Order = MachineState['busted'];
type Group = readonly number[];

/** Busted groups so far. */
export function groupCount(b: Order): number {
  return b.length === 0 ? 0 : (b.length - 1) * GROUPS + b[b.length - 1].length;
}

/** Group `k` (0: the first out). */
export function groupAt(b: Order, k: number): Group {
  return b[Math.floor(k / GROUPS)][k % GROUPS];
}

/** The order with `g` after its last group: the last run and the list of runs copied, no other. */
export function withGroup(b: Order, g: Group): Order {
  const last = b.length === 0 ? undefined : b[b.length - 1];
  if (last === undefined || last.length === GROUPS) return [...b, [g]];
  const out = b.slice();
  out[out.length - 1] = [...last, g];
  return out;
}

/** The order of a flat list of groups (a store's rows, a rewritten order). */
export function groupsOf(groups: readonly Group[]): Order {
  const out: Group[][] = [];
  for (let k = 0; k < groups.length; k += GROUPS) out.push(groups.slice(k, k + GROUPS));
  return out;
}

/** Every group, the first out first. */
export function allGroups(b: Order): Group[] {
  return b.flat();
}
