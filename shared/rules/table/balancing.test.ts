import { describe, expect, it } from 'vitest';
import { playerToMoveForBalancing, seatForBalancing } from './balancing';
import { CASH, TOURNAMENT, play, table } from './test-support';

// The rule cases (T 6-9, T 6-10) are in plan.test.ts with the other T 6 rules.
describe('balancing helpers', () => {
  it('names nobody to move when no hand can be dealt', () => {
    expect(playerToMoveForBalancing(table(6, { 2: 'A' }))).toBeNull();
  });

  it('before any hand, names the first big blind and offers the first free seat', () => {
    const s = table(6, { 0: 'A', 2: 'B', 3: 'C' });
    expect(playerToMoveForBalancing(s)).toEqual({ seat: 3, id: 'C' });
    expect(seatForBalancing(s)).toBe(1);
  });

  it('offers no seat at a full table, and the small blind seat when it is the only one free', () => {
    expect(seatForBalancing(table(2, { 0: 'A', 1: 'B' }))).toBeNull();
    const { seating } = play(table(4, { 0: 'A', 1: 'B', 2: 'C', 3: 'D' }), TOURNAMENT, ['C']);
    expect(seatForBalancing(seating)).toBe(2);
  });

  it('follows the cash rotation when asked (sitting-out players are skipped)', () => {
    const s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating;
    expect(playerToMoveForBalancing(s, { mode: 'cash' })).toEqual({ seat: 3, id: 'D' });
  });
});
