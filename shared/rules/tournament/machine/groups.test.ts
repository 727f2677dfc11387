import { describe, expect, it } from 'vitest';
import { allGroups, GROUPS, groupAt, groupCount, groupsOf, withGroup } from './groups';
import type { MachineState } from './types';

/**
 * The order of eliminations in runs (groups.ts; R-ELIM, T 8-16): read as the flat list it stands
 * for, across several runs (a 100,000-entrant field's order spans about 98), and each state's order
 * left as it was by the next bust (states are values).
 */
describe('the busted groups in runs read as one order', () => {
  it('3,000 groups pushed one by one: each count, group and earlier order as the flat list says', () => {
    const flat: number[][] = [];
    let order: MachineState['busted'] = [];
    const states: { order: MachineState['busted']; count: number; last: readonly number[] | undefined }[] = [];
    for (let k = 0; k < 3 * GROUPS - 72; k++) {
      const g = k % 7 === 0 ? [k, k + 100_000] : [k];
      flat.push(g);
      states.push({ order, count: flat.length - 1, last: flat.at(-2) });
      order = withGroup(order, g);
      expect(groupCount(order)).toBe(flat.length);
      expect(groupAt(order, k)).toEqual(g);
    }
    expect(order).toHaveLength(3);
    expect(allGroups(order)).toEqual(flat);
    // The runs are a function of the order: made again from the flat list, the same value.
    expect(groupsOf(flat)).toEqual(order);
    // Every earlier state still holds its own order (nothing pushed in place).
    for (const s of states) {
      expect(groupCount(s.order)).toBe(s.count);
      if (s.count > 0) expect(groupAt(s.order, s.count - 1)).toEqual(s.last);
    }
  });

  it('an empty order counts no group and reads as an empty list', () => {
    expect(groupCount([])).toBe(0);
    expect(allGroups([])).toEqual([]);
    expect(groupsOf([])).toEqual([]);
    expect(withGroup([], [5])).toEqual([[[5]]]);
  });
});
