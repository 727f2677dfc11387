/**
 * A tournament run through the runner on a data folder, the same whatever the stops (the runner's
 * crash test, the bench): the next event is a function of the saved state and the count of events
 * applied only, so a runner resumed after a SIGKILL goes on exactly as a clean run does.
 */
import { join } from 'node:path';
import { Accounts } from '../../../operator/accounts';
import { MachineStore } from '../../../operator/tournaments/machine-store';
import { TournamentRunner, type RunnerDeps } from '../../../operator/tournaments/runner';
import { openOperatorDatabase } from '../../../operator/schema';
import { TraceOutbox } from '../../../operator/trace/outbox';
import { TraceVault } from '../../../operator/trace/vault';
import { Wallet } from '../../../operator/wallet';
import { apply, type MachineEvent, type MachineSpec, type MachineState } from '../../../shared/rules/tournament/machine';
import { randomHand, rngOf, spec, who } from '../../../shared/rules/tournament/machine/test-support';
import { entrantIds, entrantOf, tableList } from '../../../shared/rules/tournament/machine/buckets';

export const DRIVEN_ID = 'driven';

export function drivenSpec(players: number): MachineSpec {
  return spec(
    { id: DRIVEN_ID, seats: 6, bounty: 100, maxEntrants: players, minEntrants: 2 },
    { rebuy: { untilLevel: 2, price: 1000, fee: 100, chips: 10_000, when: 'at-or-below-starting-stack', max: null }, addOn: { price: 1000, fee: 100, chips: 15_000 } },
  );
}

export interface Folder {
  db: ReturnType<typeof openOperatorDatabase>;
  vault: TraceVault;
  outbox: TraceOutbox;
  wallet: Wallet;
  accounts: Accounts;
  store: MachineStore;
  deps: RunnerDeps;
  close(): void;
}

export function openFolder(dir: string, synchronous: 'FULL' | 'NORMAL' = 'FULL'): Folder {
  const db = openOperatorDatabase(join(dir, 'operator.sqlite'), { synchronous });
  const vault = TraceVault.open({ path: join(dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous });
  const outbox = new TraceOutbox(db, vault);
  const wallet = new Wallet(db);
  const accounts = new Accounts(db, { scrypt: { N: 1024, r: 8, p: 1 } });
  const store = new MachineStore(db);
  return {
    db,
    vault,
    outbox,
    wallet,
    accounts,
    store,
    deps: { db, wallet, outbox, store, clock: () => 0 },
    close: () => {
      outbox.close();
      vault.close();
      db.close();
    },
  };
}

/** Accounts 1..n with money, made once (the first run). */
export async function people(f: Folder, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    if (f.accounts.getAccount(i)) continue;
    const name = `joueur${'abcdefghij'[Math.floor(i / 10) % 10]}${'abcdefghij'[i % 10]}${'abcdefghij'[Math.floor(i / 100) % 10]}`;
    const r = await f.accounts.register(name, `${name} password`, { lastName: name, firstNames: 'Test', birthDate: '1990-01-01' });
    if (!r.ok || r.account.id !== i) throw new Error(`account ${i}: ${r.ok ? r.account.id : r.message}`);
    f.wallet.deposit(i, 1_000_000, { idempotencyKey: `d-${i}`, paymentRef: `ref-${i}` });
  }
}

/** The next event of the run: registrations, the start, then hands, rebuy decisions and the clock. */
export function nextEvent(s: MachineState, events: number, seed: number): MachineEvent {
  const rng = rngOf(seed * 1_000_003 + events);
  if (s.phase === 'registering') {
    const n = s.players + 1;
    return n <= s.spec.maxEntrants ? { type: 'register', who: who(n), inscription: `${s.spec.id}.${n}` } : { type: 'start' };
  }
  const deciding = entrantIds(s).filter((id) => entrantOf(s, id)!.status === 'deciding');
  if (deciding.length > 0) {
    const id = deciding[0];
    return rng() < 0.4 && apply(s, { type: 'rebuy', accountId: id }).ok ? { type: 'rebuy', accountId: id } : { type: 'declineRebuy', accountId: id };
  }
  const tables = tableList(s);
  const inHand = tables.filter((t) => t.inHand);
  const ready = tables.filter((t) => !t.inHand && apply(s, { type: 'handStarted', table: t.no, bigBlind: null }).ok);
  if (ready.length > 0 && (rng() < 0.6 || inHand.length === 0)) return randomHand(s, ready[Math.floor(rng() * ready.length)].no, rng).started;
  if (inHand.length > 0) return randomHand(s, inHand[Math.floor(rng() * inHand.length)].no, rng, 0.2).ended;
  return { type: 'tick', elapsed: s.elapsed + 60_000 };
}

/** Runs the tournament to its end (or `stopAfter` events of this process); true when it ended. */
export function drive(f: Folder, players: number, seed: number, stopAfter = Infinity): boolean {
  const runner = TournamentRunner.resume(DRIVEN_ID, f.deps) ?? TournamentRunner.create(drivenSpec(players), seed, f.deps);
  for (let n = 0; runner.state.phase === 'registering' || runner.state.phase === 'running'; ) {
    const ev = nextEvent(runner.state, runner.events, seed);
    const r = runner.dispatch(ev);
    if (!r.ok) throw new Error(`${ev.type} refused: ${r.code} ${r.message}`);
    if (++n >= stopAfter) return false;
  }
  while (f.outbox.pending() > 0) f.outbox.flush();
  return true;
}
