/** The results graph's lines (R-RESULTS, docs/stats.md), in legend order, with their colours. */
export type LineKey = 'total' | 'showdown' | 'noShowdown' | 'allInAdjusted';
export const LINES: readonly { key: LineKey; color: string }[] = [
  { key: 'total', color: '#e3b341' },
  { key: 'showdown', color: '#4fa3ff' },
  { key: 'noShowdown', color: '#ff6b6b' },
  { key: 'allInAdjusted', color: '#b58cff' },
];
