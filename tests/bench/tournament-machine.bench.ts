/**
 * A large multi-table tournament through the pure tournament machine, its runner and the floor driver
 * (DESIGN.md §4 "tournaments": figures, never timed tests), in one process, no sockets:
 *
 * - `mtt-100000-hands-per-s:cercle-machine`: a 100,000-entrant no-limit hold'em freezeout played to its winner
 *   by practice players: every event through `apply` and booked by the runner in one SQLite
 *   transaction (ledger, trace outbox, the state's changed rows), every hand at an operator `Table` in
 *   tournament mode (CSPRNG deal, every decision through the engine, the practice players' Monte Carlo
 *   hand strength), one POJEU per hand into the hash-chained vault, tables broken and balanced,
 *   hand-for-hand on the bubble, every prize paid through the ledger. Its peer is
 *   `operator-hands:cercle` (operator.bench.ts) in the same run; the bar is half of it.
 * - `mtt-100000-wall-s:cercle-machine`: the wall time from the start to the winner.
 * - `mtt-100000-rss-mb:cercle-machine`: the process's largest resident set while it plays (bar: 2 GB).
 *
 * The clock runs 60 times faster (hyper-turbo: 3-minute levels of 3 s); registration (the ledger
 * movements and POINSCRITs) is not timed. Another field size:
 * `npm run bench -- tournament-machine --machine-field=10000` (or `CERCLE_BENCH_MACHINE_FIELD`); its
 * figures are named `mtt-10000-…:cercle-machine` (the old class's bench, `…:cercle`, went with it).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Accounts } from '../../operator/accounts';
import { PracticeBrain } from '../../operator/practice/strategy';
import { openOperatorDatabase } from '../../operator/schema';
import { scaledTimers } from '../../operator/tables/timers';
import { FloorDriver } from '../../operator/tournaments/floor-driver';
import { MachineStore } from '../../operator/tournaments/machine-store';
import { TournamentRunner } from '../../operator/tournaments/runner';
import { TraceOutbox } from '../../operator/trace/outbox';
import { TraceVault } from '../../operator/trace/vault';
import { Wallet } from '../../operator/wallet';
import { readyStructure } from '../../shared/rules/tournament/structure';
import { tempDir } from '../support/operator/temp-dir';
import type { BenchResult } from './types';

/** Players left and the tables open against the fewest that seat them: the floor's surplus (T 6-6). */
function progress(state: { sizes: readonly number[]; remaining: number }, seats: number): string {
  const open = state.sizes.reduce((a, n) => a + n, 0);
  return `${state.remaining} players left, ${open} tables (${Math.ceil(state.remaining / seats)} needed)`;
}

export default async function tournamentMachineBench(): Promise<BenchResult[]> {
  const flag = process.argv.find((x) => x.startsWith('--machine-field='))?.slice('--machine-field='.length);
  const field = Number(flag ?? process.env.CERCLE_BENCH_MACHINE_FIELD ?? 100_000);
  if (!Number.isSafeInteger(field) || field < 2 || field > 100_000) throw new RangeError(`--machine-field: 2 to 100,000 players, not ${flag ?? process.env.CERCLE_BENCH_MACHINE_FIELD}`);
  const dir = tempDir('cercle-bench-machine-');
  const db = openOperatorDatabase(join(dir.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(dir.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  const outbox = new TraceOutbox(db, vault);
  const wallet = new Wallet(db);
  const accounts = new Accounts(db);
  const timers = scaledTimers(60);
  const errors: unknown[] = [];
  const brain = new PracticeBrain();
  const driver = new FloorDriver({
    db,
    outbox,
    timers,
    idOper: '0099',
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    // A practice brain keeps no state between decisions: one serves every seat.
    brainFor: () => brain,
    error: (e) => errors.push(e),
  });
  const spec = {
    id: 'mtt-machine-bench',
    name: 'Bench',
    variant: 'THNL' as const,
    money: 'play' as const,
    buyIn: 1000,
    fee: 100,
    format: 'scheduled' as const,
    seats: 9,
    maxEntrants: 100_000,
    minEntrants: 2,
    structure: { ...readyStructure('THNL', 'hyper-turbo'), lateRegistrationLevels: 0 },
  };
  const runner = TournamentRunner.create(spec, 20_261_202, { db, wallet, outbox, store: new MachineStore(db), clock: () => timers.now(), act: driver.act });
  driver.attach(runner);
  try {
    const registerStart = performance.now();
    for (let n = 0; n < field; n++) {
      const a = accounts.createPracticeAccount(`practice-m${n}`);
      if (!a.ok) throw new Error(a.code);
      wallet.grantPlay(a.account.id, 1100, { idempotencyKey: `bench:${n}` });
      const who = { accountId: a.account.id, name: a.account.username, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
      const r = driver.send({ type: 'register', who, inscription: `${spec.id}.${n}`, auto: true });
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    }
    process.stderr.write(`  ${field} registered in ${((performance.now() - registerStart) / 1000).toFixed(1)} s\n`);
    let rss = process.memoryUsage().rss;
    const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 200);
    const t0 = performance.now();
    let last = t0;
    const started = driver.send({ type: 'start' });
    if (!started.ok) throw new Error(`start: ${started.code}`);
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (errors.length > 0) {
          clearInterval(poll);
          reject(errors[0]);
        } else if (runner.state.phase === 'finished') {
          clearInterval(poll);
          resolve();
        } else if (performance.now() - last > 10_000) {
          last = performance.now();
          process.stderr.write(`  … ${driver.hands} hands, ${progress(runner.state, spec.seats)}, ${((last - t0) / 1000).toFixed(0)} s\n`);
        }
      }, 50);
    });
    const wall = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const hands = driver.hands;
    process.stderr.write(`  ${hands} hands in ${wall.toFixed(1)} s, ${field} players, ${runner.events} events, peak RSS ${(rss / 2 ** 20).toFixed(0)} MB\n`);
    if (!wallet.audit().ok) throw new Error('the books do not balance');
    outbox.flush();
    const label = `mtt-${field}`;
    return [
      { name: `${label}-hands-per-s:cercle-machine`, unit: 'hands/s', value: hands / wall },
      { name: `${label}-wall-s:cercle-machine`, unit: 's', value: wall },
      { name: `${label}-rss-mb:cercle-machine`, unit: 'MB', value: rss / 2 ** 20 },
    ];
  } finally {
    driver.close();
    outbox.close();
    vault.close();
    db.close();
    dir.cleanup();
  }
}
