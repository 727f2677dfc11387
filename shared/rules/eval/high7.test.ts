import { describe, expect, it } from 'vitest';
import * as high from './high';

// local constants: the loop below makes 133,784,560 calls
const evalHigh7 = high.evalHigh7;
const { HIGH_MAX, highCategoryOf } = high;

describe('every 7-card hand (R-HIGH: the best five of seven)', () => {
  it('has the textbook category counts over 133,784,560 hands and 4,824 distinct best values', () => {
    const perValue = new Float64Array(HIGH_MAX + 1);
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++)
          for (let d = c + 1; d < 52; d++)
            for (let e = d + 1; e < 52; e++)
              for (let f = e + 1; f < 52; f++)
                for (let g = f + 1; g < 52; g++) perValue[evalHigh7(a, b, c, d, e, f, g)]++;
    const byCategory: Record<string, number> = {};
    let distinct = 0;
    let total = 0;
    for (let v = 1; v <= HIGH_MAX; v++) {
      if (perValue[v] === 0) continue;
      distinct++;
      total += perValue[v];
      const cat = highCategoryOf(v);
      byCategory[cat] = (byCategory[cat] ?? 0) + perValue[v];
    }
    expect(perValue[0]).toBe(0);
    expect(total).toBe(133_784_560);
    expect(byCategory).toEqual({
      'straight-flush': 41_584,
      'four-of-a-kind': 224_848,
      'full-house': 3_473_184,
      flush: 4_047_644,
      straight: 6_180_020,
      'three-of-a-kind': 6_461_620,
      'two-pair': 31_433_400,
      pair: 58_627_800,
      'high-card': 23_294_460,
    });
    expect(distinct).toBe(4_824);
  });
});
