/** One figure of `npm run bench`: `--json` prints an array of these. */
export interface BenchResult {
  /** `<what>:<who>`, e.g. `eval7-high:cercle` or `eval7-high:phe` (a peer measured in the same run). */
  name: string;
  /** e.g. `evals/s`, `hands/s`, `ms`, `bytes`. */
  unit: string;
  value: number;
}

/**
 * A benchmark module is `tests/bench/<topic>.bench.ts` whose default export runs its measurements
 * and returns its figures. It reports progress on stderr only: stdout belongs to the runner.
 */
export type BenchModule = { default: () => Promise<BenchResult[]> | BenchResult[] };

/** Runs `fn` repeatedly for about `ms` milliseconds of wall time and returns operations per second. */
export function opsPerSecond(fn: () => number, ms = 1000): number {
  // warm-up so that the JIT has compiled the hot path before we measure
  let sink = 0;
  const warmUntil = performance.now() + Math.min(300, ms / 3);
  while (performance.now() < warmUntil) sink += fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    ops += fn();
    now = performance.now();
  }
  if (sink === -1) console.error(''); // keep `sink` observable so the warm-up is not optimised away
  return (ops * 1000) / (now - start);
}
