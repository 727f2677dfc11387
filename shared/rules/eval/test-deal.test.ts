import { describe, expect, it } from 'vitest';
import { dealHands, seededRandom } from './test-deal';

describe('seeded test deals', () => {
  it('deals the same distinct cards for the same seed', () => {
    const a = dealHands(1000, 9, 42);
    const b = dealHands(1000, 9, 42);
    expect(a).toEqual(b);
    for (const hand of a) {
      expect(new Set(hand).size).toBe(9);
      for (const c of hand) expect(c >= 0 && c < 52).toBe(true);
    }
  });

  it('spreads cards over the whole deck', () => {
    const seen = new Int32Array(52);
    for (const hand of dealHands(5200, 1, 7)) seen[hand[0]]++;
    for (const n of seen) expect(n).toBeGreaterThan(50);
    const r = seededRandom(1)();
    expect(r >= 0 && r < 1).toBe(true);
  });
});
