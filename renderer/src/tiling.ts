/**
 * How many columns and rows tile `n` tables in one window (up to 24, SPEC.md §5): as square as a wide
 * screen allows, columns first (1, 2×1, 2×2, 3×2, 4×2, 3×3, 4×3, 5×3, 4×4, 5×4, 6×4).
 */
export function gridFor(n: number): { cols: number; rows: number } {
  const cols = n <= 1 ? 1 : n <= 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n <= 9 ? 3 : n <= 12 ? 4 : n <= 15 ? 5 : n <= 16 ? 4 : n <= 20 ? 5 : 6;
  return { cols, rows: Math.max(1, Math.ceil(n / cols)) };
}
