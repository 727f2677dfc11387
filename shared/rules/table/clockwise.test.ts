import { describe, expect, it } from 'vitest';
import { clockwiseFrom, firstAfter, firstBefore, onArc, stepsClockwise, strictlyBetween } from './clockwise';

describe('clockwise seat arithmetic', () => {
  it('counts steps clockwise with wrap-around', () => {
    expect(stepsClockwise(2, 5, 6)).toBe(3);
    expect(stepsClockwise(5, 1, 6)).toBe(2);
    expect(stepsClockwise(3, 3, 6)).toBe(0);
  });

  it('tells seats strictly between two others, and on the closed arc', () => {
    expect([0, 1, 2, 3, 4, 5].filter((s) => strictlyBetween(4, 1, s, 6))).toEqual([0, 5]);
    expect([0, 1, 2, 3, 4, 5].filter((s) => strictlyBetween(2, 2, s, 6))).toEqual([0, 1, 3, 4, 5]);
    expect([0, 1, 2, 3, 4, 5].filter((s) => onArc(4, 1, s, 6))).toEqual([0, 1, 4, 5]);
  });

  it('finds the next and previous seat of a set, wrapping round', () => {
    expect(firstAfter(5, [1, 3, 5], 6)).toBe(1);
    expect(firstAfter(1, [1, 3, 5], 6)).toBe(3);
    expect(firstAfter(2, [2], 6)).toBe(2);
    expect(firstAfter(2, [], 6)).toBeNull();
    expect(firstBefore(1, [1, 3, 5], 6)).toBe(5);
    expect(firstBefore(4, [1, 3, 5], 6)).toBe(3);
  });

  it('orders seats clockwise from the left of a given seat', () => {
    expect(clockwiseFrom(3, [0, 1, 3, 4, 5], 6)).toEqual([4, 5, 0, 1, 3]);
  });
});
