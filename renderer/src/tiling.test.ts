import { describe, expect, it } from 'vitest';
import { gridFor, MIN_TILE, tilesFor } from './tiling';

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

describe('tilesFor', () => {
  it('never draws a tile below the minimum: fewer columns, then the tiles stack and scroll', () => {
    // 1280×720: four tables fit 2×2; eight stack in two columns.
    expect(tilesFor(4, 1270, 600)).toEqual({ cols: 2, rows: 2, stacked: false });
    expect(tilesFor(8, 1270, 600)).toEqual({ cols: 2, rows: 4, stacked: true });
    // 1920×1080: eight fit 4×2.
    expect(tilesFor(8, 1910, 950)).toEqual({ cols: 4, rows: 2, stacked: false });
    for (let n = 1; n <= 24; n++) {
      for (const w of [500, 900, 1270, 1910, 2550]) {
        const g = tilesFor(n, w, 700);
        expect(g.cols * g.rows).toBeGreaterThanOrEqual(n);
        if (g.cols > 1) expect((w - 6 * (g.cols - 1)) / g.cols).toBeGreaterThanOrEqual(MIN_TILE.width);
      }
    }
  });
});
