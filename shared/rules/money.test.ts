import { describe, expect, it } from 'vitest';
import { centsText } from './money';

describe('centsText', () => {
  it('writes cents as an exact decimal, negative amounts and single cents included', () => {
    expect(centsText(1234)).toBe('12.34');
    expect(centsText(5)).toBe('0.05');
    expect(centsText(-4)).toBe('-0.04');
    expect(centsText(-1234)).toBe('-12.34');
    expect(centsText(0)).toBe('0.00');
    expect(centsText(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('agrees with an independent reading: the decimal read back by BigInt arithmetic is the amount', () => {
    // Outside reference: BigInt, not the function's own arithmetic; and the float way it replaces
    // ((n / 100).toFixed(2)) shown wrong for an amount it cannot hold.
    for (const n of [0, 1, 99, 100, 101, -1, -99, -101, 123_456_789, -987_654_321, 2 ** 53 - 1, -(2 ** 53 - 1)]) {
      const [whole, frac] = centsText(n).replace('-', '').split('.');
      const back = (BigInt(whole) * 100n + BigInt(frac)) * (n < 0 ? -1n : 1n);
      expect(back).toBe(BigInt(n));
    }
    expect(centsText(9_007_199_254_740_990)).toBe('90071992547409.90');
    expect((9_007_199_254_740_990 / 100).toFixed(2)).toBe('90071992547409.91');
  });

  it('refuses what is not an integer amount', () => {
    expect(() => centsText(1.5)).toThrow(RangeError);
    expect(() => centsText(Number.NaN)).toThrow(RangeError);
    expect(() => centsText(2 ** 53)).toThrow(RangeError);
  });
});
