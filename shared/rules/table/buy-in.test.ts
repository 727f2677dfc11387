import { describe, expect, it } from 'vitest';
import { inRange, joinRange, topUpRange } from './buy-in';

// A table of 20 € to 100 € (in cents), as the operator's table tests seat it.
const table = { min: 2000, max: 10_000 };

describe('the buy-in and top-up range, one rule (R-INFO, R-NODEBT)', () => {
  it('a join brings the table minimum to maximum, within the balance', () => {
    expect(joinRange(table)).toEqual({ min: 2000, max: 10_000, reason: 'ok' });
    expect(joinRange(table, 4500)).toEqual({ min: 2000, max: 4500, reason: 'ok' });
    expect(joinRange(table, 1999)).toMatchObject({ reason: 'balance' });
    expect(inRange(1999, joinRange(table))).toBe(false);
    expect(inRange(2000, joinRange(table))).toBe(true);
    expect(inRange(10_001, joinRange(table))).toBe(false);
    expect(inRange(2000.5, joinRange(table))).toBe(false);
  });

  it('a top-up: to the minimum at least, to the maximum at most, counting what is pending', () => {
    // 1,200 left after a loss: 800 brings it to the 2,000 minimum; 8,800 to the 10,000 maximum.
    expect(topUpRange(1200, 0, table)).toEqual({ min: 800, max: 8800, reason: 'ok' });
    // 1,000 already waiting for the hand's end counts towards both bounds.
    expect(topUpRange(1200, 1000, table)).toEqual({ min: 1, max: 7800, reason: 'ok' });
    expect(topUpRange(9000, 1000, table)).toEqual({ min: 1, max: 0, reason: 'full' });
    expect(topUpRange(1200, 0, table, 500)).toEqual({ min: 800, max: 500, reason: 'balance' });
    expect(inRange(799, topUpRange(1200, 0, table))).toBe(false);
    expect(inRange(800, topUpRange(1200, 0, table))).toBe(true);
  });

  it('matches an independent statement of the rule: the stack after the top-up lies within the buy-in range', () => {
    // Independent computation: a top-up `a` is allowed when a ≥ 1, stack + pending + a ≤ max, and the seat
    // ends at the minimum at least, or was above it already (then any a ≥ 1 up to the maximum).
    const allowed = (stack: number, pending: number, a: number) => a >= 1 && stack + pending + a <= table.max && stack + pending + a >= table.min;
    for (const stack of [0, 1, 1999, 2000, 2001, 5000, 9999, 10_000])
      for (const pending of [0, 1, 1000, 8000])
        for (const a of [1, 799, 800, 1000, 2000, 7999, 8000, 10_000]) {
          expect(inRange(a, topUpRange(stack, pending, table)), `${stack}+${pending}+${a}`).toBe(allowed(stack, pending, a));
        }
  });
});
