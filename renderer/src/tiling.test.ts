import { describe, expect, it } from 'vitest';
import { gridFor } from './tiling';

describe('gridFor', () => {
  it('tiles every count up to 24 with room for each table and no empty row', () => {
    for (let n = 1; n <= 24; n++) {
      const { cols, rows } = gridFor(n);
      expect(cols * rows).toBeGreaterThanOrEqual(n);
      expect(cols * (rows - 1)).toBeLessThan(n);
      expect(cols).toBeGreaterThanOrEqual(rows); // wide screens: never more rows than columns
    }
  });
  it('uses the usual layouts', () => {
    expect(gridFor(1)).toEqual({ cols: 1, rows: 1 });
    expect(gridFor(2)).toEqual({ cols: 2, rows: 1 });
    expect(gridFor(4)).toEqual({ cols: 2, rows: 2 });
    expect(gridFor(9)).toEqual({ cols: 3, rows: 3 });
    expect(gridFor(24)).toEqual({ cols: 6, rows: 4 });
  });
});
