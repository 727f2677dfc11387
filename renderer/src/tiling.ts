/**
 * How many columns and rows tile `n` tables in one window (up to 24, SPEC.md §5): as square as a wide
 * screen allows, columns first (1, 2×1, 2×2, 3×2, 4×2, 3×3, 4×3, 5×3, 4×4, 5×4, 6×4).
 */
export function gridFor(n: number): { cols: number; rows: number } {
  const cols = n <= 1 ? 1 : n <= 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n <= 9 ? 3 : n <= 12 ? 4 : n <= 15 ? 5 : n <= 16 ? 4 : n <= 20 ? 5 : 6;
  return { cols, rows: Math.max(1, Math.ceil(n / cols)) };
}

/**
 * The smallest tile a table is drawn in: below it names, log and cards would be
 * unreadable (7 px at 1280×720 with 4 tables before). Tables stack instead: fewer columns, and the
 * tiles scroll (Tab brings the next table waiting for the player into view).
 */
export const MIN_TILE = { width: 440, height: 280 };

/** The grid for `n` tables in a box `width` × `height` px: `gridFor`, with no column narrower and no row lower than MIN_TILE. */
export function tilesFor(n: number, width: number, height: number): { cols: number; rows: number; stacked: boolean } {
  const g = gridFor(n);
  const cols = Math.max(1, Math.min(g.cols, Math.floor((width + 6) / (MIN_TILE.width + 6))));
  const rows = Math.max(1, Math.ceil(n / cols));
  const fitRows = Math.max(1, Math.floor((height + 6) / (MIN_TILE.height + 6)));
  return { cols, rows, stacked: rows > fitRows };
}
