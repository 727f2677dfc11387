/**
 * The 10,000-entrant freezeout the standing benchmark reads (standing.bench.ts):
 * an operator's database, ledger and trace vault in a temporary folder, a scheduled no-limit hold'em
 * tournament on the hyper-turbo structure with the clock 60 times faster, and `field` practice players
 * registered (ledger movements and POINSCRITs: not timed by the benchmarks). Started by the caller.
 */
import { join } from 'node:path';
import { Accounts } from '../../operator/accounts';
import { PracticeBrain } from '../../operator/practice/strategy';
import { openOperatorDatabase } from '../../operator/schema';
import { scaledTimers } from '../../operator/tables/timers';
import { LiveTournament, type LiveDeps } from '../../operator/tournaments/live';
import { MachineStore } from '../../operator/tournaments/machine-store';
import { TraceOutbox } from '../../operator/trace/outbox';
import { TraceVault } from '../../operator/trace/vault';
import { Wallet } from '../../operator/wallet';
import { tempDir } from '../support/operator/temp-dir';
import { tournamentSpec } from '../support/operator/tournament-spec';

export interface BenchField {
  t: LiveTournament;
  deps: LiveDeps;
  accounts: Accounts;
  wallet: Wallet;
  outbox: TraceOutbox;
  /** Faults the tournament reported (a benchmark stops at the first). */
  errors: unknown[];
  /** Stops the tournament and removes its folder. */
  close(): void;
}

export function registeredField(id: string, field: number): BenchField {
  const dir = tempDir(`cercle-bench-${id}-`);
  const db = openOperatorDatabase(join(dir.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(dir.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  const wallet = new Wallet(db);
  const accounts = new Accounts(db);
  const outbox = new TraceOutbox(db, vault);
  const timers = scaledTimers(60);
  const errors: unknown[] = [];
  const deps: LiveDeps = {
    wallet,
    db,
    outbox,
    timers,
    idOper: '0099',
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    error: (e) => errors.push(e),
    store: new MachineStore(db),
    notify: () => undefined,
    directory: () => undefined,
    brain: () => new PracticeBrain(),
  };
  const close = () => {
    vault.close();
    db.close();
    dir.cleanup();
  };
  try {
    const t = LiveTournament.create(
      tournamentSpec({
        id,
        name: 'Bench',
        format: 'scheduled',
        seats: 9,
        maxEntrants: 100_000,
        minEntrants: 2,
        startAt: timers.now() + 365 * 86_400_000, // started by the caller, once everyone is registered
      }),
      deps,
    );
    for (let n = 0; n < field; n++) {
      const a = accounts.createPracticeAccount(`practice-m${n}`);
      if (!a.ok) throw new Error(a.code);
      wallet.grantPlay(a.account.id, 1100, { idempotencyKey: `bench:${n}` });
      const r = t.register({ accountId: a.account.id, name: a.account.username, practice: true, ip: '127.0.0.1', sessionId: 'practice' }, t.version);
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    }
    return {
      t,
      deps,
      accounts,
      wallet,
      outbox,
      errors,
      close: () => {
        t.close();
        close();
      },
    };
  } catch (e) {
    close();
    throw e;
  }
}
