/**
 * The tournament tests' environment: a real operator database, trace vault and wallet in a
 * temporary folder, the operator's clock by hand, guests and practice players with play money, and
 * the checks every tournament ends with (the books, the places). Shared by the tournament test files.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { Accounts } from '../../../operator/accounts';
import type { Db } from '../../../shared/node/sqlite';
import { openOperatorDatabase } from '../../../operator/schema';
import { tempDir } from './temp-dir';
import { TraceOutbox } from '../../../operator/trace/outbox';
import { TraceVault } from '../../../operator/trace/vault';
import { ManualTimers } from '../../../operator/tables/timers';
import type { TablePlayer } from '../../../operator/tables/types';
import { Wallet } from '../../../operator/wallet';
import { tournamentAudit } from '../../../operator/tournaments/audit';
import { placesProblem } from '../../../operator/tournaments/places';
import type { TournamentSpec } from '../../../operator/tournaments/spec';
import { LiveTournament, type TournamentNotice } from '../../../operator/tournaments/live';
import { MachineStore } from '../../../operator/tournaments/machine-store';
import { PracticeBrain } from '../../../operator/practice/strategy';

import { seeded } from './shover';
import { tournamentSpec } from './tournament-spec';

export { seeded, Shover } from './shover';
export { tournamentSpec } from './tournament-spec';

export interface Env {
  db: Db;
  wallet: Wallet;
  vault: TraceVault;
  outbox: TraceOutbox;
  accounts: Accounts;
  timers: ManualTimers;
  errors: unknown[];
  notices: TournamentNotice[];
  cleanup: () => void;
}

const envs: Env[] = [];
/** For afterEach: every environment made by the test closed and its folder removed. */
export function cleanupEnvs(): void {
  for (const e of envs.splice(0)) e.cleanup();
}

export function env(): Env {
  const t = tempDir();
  const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(t.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  const timers = new ManualTimers();
  const e: Env = {
    db,
    wallet: new Wallet(db),
    vault,
    outbox: new TraceOutbox(db, vault),
    accounts: new Accounts(db),
    timers,
    errors: [],
    notices: [],
    cleanup: () => {
      vault.close();
      db.close();
      t.cleanup();
    },
  };
  envs.push(e);
  return e;
}

/** `deal`: a seeded deal too (TableOptions.dealRandom; the operator deals with crypto, R-DEAL), for a run that replays. */
export function tournament(e: Env, over: Partial<TournamentSpec> = {}, seed = 1, opts: { deal?: boolean; clockRate?: number; thinkMs?: number } = {}): LiveTournament {
  return LiveTournament.create(tournamentSpec(over), {
    wallet: e.wallet,
    db: e.db,
    outbox: e.outbox,
    store: new MachineStore(e.db),
    timers: e.timers,
    ...(opts.clockRate !== undefined ? { clockRate: opts.clockRate } : {}),
    idOper: '0099',
    seed,
    // Seeded: the machine's draws and each table's first button; `deal`, the cards too (a run that replays).
    table: { betweenHandsMs: 1000, practiceDelayMs: [opts.thinkMs ?? 0, opts.thinkMs ?? 0], random: seeded(seed * 13 + 5), ...(opts.deal ? { dealRandom: seeded(seed * 31 + 7) } : {}) },
    error: (x) => e.errors.push(x),
    notify: (n) => e.notices.push(n),
    directory: () => undefined,
    brain: () => new PracticeBrain({ samples: 4 }),
  });
}

let ips = 0;
export function person(e: Env, chips = 10_000): TablePlayer {
  const ip = `10.0.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;
  const g = e.accounts.createGuest({ ip });
  if (!g.ok) throw new Error('guest');
  e.wallet.grantPlay(g.account.id, chips, { idempotencyKey: `g-${g.account.id}` });
  return { accountId: g.account.id, name: g.account.username, practice: false, ip, sessionId: g.session.sessionId };
}

let practices = 0;
export function practice(e: Env, chips = 10_000): TablePlayer {
  const r = e.accounts.createPracticeAccount(`practice-${String(++practices).padStart(4, '0')}`);
  if (!r.ok) throw new Error(r.code);
  e.wallet.grantPlay(r.account.id, chips, { idempotencyKey: `g-${r.account.id}` });
  return { accountId: r.account.id, name: r.account.username, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
}

/** Runs the operator's time until the tournament ends: due work first, then the clock moves a second. */
export function playOut(e: Env, t: LiveTournament, each: () => void = () => undefined, limit = 400_000): void {
  for (let i = 0; i < limit && t.state === 'running'; i++) {
    if (e.timers.runDue(1) === 0) e.timers.advance(1000);
    each();
  }
  expect(t.state).toBe('finished');
}

/**
 * The books: the wallet's conservation, and the tournament's part of it (wallets + tables +
 * tournaments + fees + rake = money in: deposits and grants, the operator's overlays, less withdrawals).
 */
export function books(e: Env): void {
  expect(e.wallet.audit().problems).toEqual([]);
  const a = tournamentAudit(e.db);
  for (const k of ['real', 'play'] as const) {
    const x = a[k];
    expect(x.wallets + x.tables + x.tournaments + x.fees + x.rake).toBe(x.cameIn);
  }
}

/** Every place from 1 to N covered exactly once (R-ELIM; ties share, T 8-16). */
export function expectRankedOnce(t: LiveTournament): void {
  expect(placesProblem(t.all().map((x) => x.place))).toBeNull();
}

