/**
 * A large multi-table tournament through the operator's tournament engine (docs/tournaments.md "Speed"; DESIGN.md
 * §4: figures, never timed tests), in one process, no sockets:
 *
 * - `mtt-10000-hands-per-s:cercle`: a 10,000-entrant no-limit hold'em freezeout played to its winner by
 *   practice players: every hand on a `Table` in tournament mode (CSPRNG deal, every decision through
 *   the engine, the practice players' Monte Carlo hand strength, settlement), one POJEU per hand into
 *   the hash-chained vault, the tournament's state saved with each hand (crash safety), tables broken
 *   and balanced, hand-for-hand on the bubble, every prize paid through the ledger. Its peer is
 *   `operator-hands:cercle` (operator.bench.ts) in the same run; the bar is half of it.
 * - `mtt-10000-wall-s:cercle`: the wall time from the start to the winner.
 * - `mtt-10000-rss-mb:cercle`: the process's largest resident set while it plays.
 *
 * The clock runs 60 times faster (hyper-turbo: 3-minute levels of 3 s), so the blinds rise as they
 * would over the hands a real field plays; registration (10,000 ledger movements and POINSCRITs) is
 * not timed. Another field size, for the extrapolation, without making the default
 * run longer: `npm run bench -- operator tournament --mtt-field=30000` (or `CERCLE_BENCH_MTT_FIELD`);
 * its figures are named `mtt-30000-…`.
 */
import { performance } from 'node:perf_hooks';
import { registeredField } from './mtt-field';
import type { BenchResult } from './types';

export default async function tournamentBench(): Promise<BenchResult[]> {
  const flag = process.argv.find((x) => x.startsWith('--mtt-field='))?.slice('--mtt-field='.length);
  const field = Number(flag ?? process.env.CERCLE_BENCH_MTT_FIELD ?? 10_000);
  if (!Number.isSafeInteger(field) || field < 2 || field > 100_000) throw new RangeError(`--mtt-field: 2 to 100,000 players, not ${flag ?? process.env.CERCLE_BENCH_MTT_FIELD}`);
  const registerStart = performance.now();
  const { t, wallet, outbox, errors, close } = registeredField('mtt-bench', field);
  try {
    process.stderr.write(`  ${field} registered in ${((performance.now() - registerStart) / 1000).toFixed(1)} s\n`);
    let rss = process.memoryUsage().rss;
    const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 200);
    const t0 = performance.now();
    t.start();
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (errors.length > 0) {
          clearInterval(poll);
          reject(errors[0] as Error);
        } else if (t.state === 'finished') {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    const wall = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const hands = t.handsPlayed;
    process.stderr.write(`  ${hands} hands in ${wall.toFixed(1)} s, ${field} players, peak RSS ${(rss / 2 ** 20).toFixed(0)} MB\n`);
    if (!wallet.audit().ok) throw new Error('the books do not balance');
    outbox.flush();
    const label = field === 10_000 ? 'mtt-10000' : `mtt-${field}`;
    return [
      { name: `${label}-hands-per-s:cercle`, unit: 'hands/s', value: hands / wall },
      { name: `${label}-wall-s:cercle`, unit: 's', value: wall },
      { name: `${label}-rss-mb:cercle`, unit: 'MB', value: rss / 2 ** 20 },
    ];
  } finally {
    close();
  }
}
