/**
 * The protection duties at a real-money tournament (R-LIMITS, R-TIMELIMIT, R-EXCLUDE;
 * docs/protection.md): an entry is a stake (the wallet's stake guard sees the entry's buy-in to the
 * tournament's fund), so a player at their playing-time limit, over their stake limit or
 * self-excluded cannot enter another tournament (art. 16-1), while one already in plays it out.
 * Real parts: the operator's SQLite, wallet, trace vault and protection service.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { tournamentSpec } from '../../tests/support/operator/tournament-env';
import { Accounts } from '../accounts';
import type { Db } from '../../shared/node/sqlite';
import { HOUR_MS } from '../protection/limits';
import { Protection } from '../protection/service';
import { openOperatorDatabase } from '../schema';
import { ManualTimers } from '../tables/timers';
import type { TablePlayer } from '../tables/types';
import { TraceOutbox } from '../trace/outbox';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { LiveTournament, type LiveTournament as Tournament } from './live';
import { MachineStore } from './machine-store';
import { PracticeBrain } from '../practice/strategy';

describe('real-money tournament entries are stakes (R-LIMITS, R-TIMELIMIT, R-EXCLUDE)', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Db;
  let vault: TraceVault;
  let timers: ManualTimers;
  let protection: Protection;
  let wallet: Wallet;
  let accounts: Accounts;
  let ips = 0;

  beforeEach(() => {
    dir = tempDir();
    db = openOperatorDatabase(join(dir.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
    vault = TraceVault.open({ path: join(dir.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
    timers = new ManualTimers(Date.UTC(2026, 10, 25, 12));
    protection = new Protection(db, { clock: () => timers.now() });
    wallet = new Wallet(db, { clock: () => timers.now(), stakeGuard: (id, amount, at) => protection.stakeCheck(id, amount, at) });
    accounts = new Accounts(db, { clock: () => timers.now(), scrypt: { N: 1 << 10, r: 8, p: 1 } });
  });
  afterEach(() => {
    vault.close();
    db.close();
    dir.cleanup();
  });

  function tournament(id: string): Tournament {
    // A real-money sit & go: its entry is a stake (R-LIMITS).
    return LiveTournament.create(tournamentSpec({ id, name: id, money: 'real' }), {
      wallet,
      db,
      outbox: new TraceOutbox(db, vault),
      store: new MachineStore(db),
      timers,
      idOper: '0099',
      error: (e) => {
        throw e;
      },
      notify: () => undefined,
      directory: () => undefined,
      brain: () => new PracticeBrain({ samples: 2 }),
    });
  }

  async function player(name: string, limits: { stake?: number; time?: number }): Promise<TablePlayer> {
    const r = await accounts.register(name, `${name} password`, { lastName: name, firstNames: 'Test', birthDate: '1990-01-01' });
    if (!r.ok) throw new Error(r.message);
    const id = r.account.id;
    expect(wallet.deposit(id, 50_000, { idempotencyKey: `d-${id}`, paymentRef: `ref-${id}` }).ok).toBe(true);
    if (limits.stake !== undefined) protection.setLimit(id, 'stake', limits.stake);
    if (limits.time !== undefined) protection.setLimit(id, 'time', limits.time);
    return { accountId: id, name, practice: false, ip: `203.0.113.${++ips}`, sessionId: `s-${id}` };
  }

  it('no entry without both limits set, none over the stake limit, and the refusal says when room frees up', async () => {
    const t = tournament('sng-a');
    const unset = await player('unset', {});
    expect(t.register(unset, t.version)).toMatchObject({ ok: false, code: 'LIMIT_NOT_SET' });
    const small = await player('small', { stake: 1500, time: 10 * HOUR_MS });
    expect(t.register(small, t.version)).toMatchObject({ ok: true });
    const other = tournament('sng-b');
    // 1,100 already staked this week (buy-in + fee); another 1,100 is over 1,500.
    expect(other.register(small, other.version)).toMatchObject({ ok: false, code: 'STAKE_LIMIT' });
    expect(wallet.audit().problems).toEqual([]);
  });

  it('at the playing-time limit, or self-excluded, no entry to another tournament', async () => {
    const tired = await player('tired', { stake: 100_000, time: HOUR_MS });
    // An hour at a real-money table this period (art. 16-1: effective playing time).
    protection.startStretch(tired.accountId, 'cash-1', timers.now());
    timers.advance(HOUR_MS);
    protection.endStretch(tired.accountId, 'cash-1', timers.now());
    const t = tournament('sng-c');
    expect(t.register(tired, t.version)).toMatchObject({ ok: false, code: 'TIME_LIMIT_REACHED' });

    const leaving = await player('leaving', { stake: 100_000, time: 10 * HOUR_MS });
    expect(protection.exclude(leaving.accountId, { kind: 'days', days: 7 }, timers.now())).toMatchObject({ ok: true });
    expect(t.register(leaving, t.version)).toMatchObject({ ok: false, code: 'SELF_EXCLUDED' });
    // Nothing moved for either refusal (R-CASHIER: a refused stake moves nothing).
    expect(wallet.balance(tired.accountId, 'real')).toBe(50_000);
    expect(wallet.balance(leaving.accountId, 'real')).toBe(50_000);
  });
});
