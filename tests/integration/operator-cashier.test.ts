/**
 * The cashier and the protection duties over the wire: a real operator on loopback, real
 * TLS with the pinned key, real SQLite files, through every refusal with its code, rule and details;
 * and an operator process killed with SIGKILL while a payment is pending, whose late confirmation
 * lands once after the restart.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import type { OperatorConfig } from '../../operator/config/config';
import { TEST_CARDS } from '../../operator/cashier/provider';
import { replaceBanFile } from '../../operator/protection/bans';
import { BAN_FILE_HEADER, identityHash } from '../../operator/protection/identity';
import { openOperatorDatabase } from '../../operator/schema';
import { TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { Wallet } from '../../operator/wallet';
import { testOperator } from './operator-harness';
import { killProcess, startOperatorProcess } from './operator-process';

const CASH = { id: 'cash', name: 'Cash', variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 2000 } } as const;
const ADULT = { lastName: 'Lefèvre', firstNames: 'Zoé Anne', birthDate: '1990-05-04' };
const HOUR = 3_600_000;

type Msg<K extends ServerMessage['type']> = Extract<ServerMessage, { type: K }>;

async function registered(url: string, pin: string, username: string, identity?: typeof ADULT, address = '127.0.0.1'): Promise<{ c: TestClient; r: ServerMessage }> {
  const c = await TestClient.connect(url, pin, { localAddress: address });
  await c.hello();
  const r = await c.request(identity ? { type: 'register', username, password: `${username}-password`, identity } : { type: 'register', username, password: `${username}-password` });
  return { c, r };
}

describe('cashier and protection on the wire', () => {
  it('goes through every refusal with its code and details; the books balance to the cent', async () => {
    const t = tempDir();
    const op = await testOperator('0181', [CASH], { dataDir: t.dir, paymentTimeoutMs: 50 });
    const { url, pin } = op;

    // R-AGE: under 18 today in France, and a date that does not exist.
    const young = await registered(url, pin, 'young', { ...ADULT, birthDate: '2015-01-01' });
    expect(young.r).toMatchObject({ type: 'error', code: 'UNDER_AGE', rule: 'R-AGE' });
    expect(await young.c.request({ type: 'register', username: 'young', password: 'young-password', identity: { ...ADULT, birthDate: '1990-02-30' } })).toMatchObject({ code: 'INVALID_IDENTITY' });
    // R-BANNED: an identity on the operator's copy of the ban file.
    replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${identityHash('Durand', 'Paul', '1980-01-01')}\n`);
    expect(await young.c.request({ type: 'register', username: 'paul', password: 'paul-password', identity: { lastName: 'Durand', firstNames: 'Paul', birthDate: '1980-01-01' } })).toMatchObject({
      code: 'BANNED',
      rule: 'R-BANNED',
    });
    await young.c.close();

    // Guests and accounts without an identity stay play money.
    const guest = await TestClient.guest(url, pin);
    expect(await guest.request({ type: 'cashier.deposit', requestId: 'g', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'REAL_MONEY_FORBIDDEN' });
    await guest.close();
    const plain = await registered(url, pin, 'plain');
    expect(await plain.c.request({ type: 'cashier.deposit', requestId: 'p', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'IDENTITY_REQUIRED' });
    await plain.c.close();

    const { c, r } = await registered(url, pin, 'zoe', ADULT);
    expect(r).toMatchObject({ type: 'authed', balances: { real: 0 } });
    const id = (r as Msg<'authed'>).account.id;
    // No default: every limit is unset until the player sets it.
    expect(await c.request({ type: 'protection.get' })).toMatchObject({
      type: 'protection',
      protection: { limits: { deposit: null, stake: null, time: null }, counters: { deposits: 0, stakes: 0, timeUsedMs: 0, period: null }, exclusion: null, closed: null, identified: true },
    });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd0', amount: 6_000, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'LIMIT_NOT_SET', details: { limitKind: 'deposit' } });
    expect(await c.request({ type: 'protection.setLimit', limit: 'deposit', value: 10_000 })).toMatchObject({ protection: { limits: { deposit: { value: 10_000, pending: null } } } });

    // Declined, timed out: failed, nothing moved. The card that succeeds: confirmed, with references.
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd1', amount: 6_000, card: TEST_CARDS.declined })).toMatchObject({ payment: { state: 'failed' }, balances: { real: 0 } });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd2', amount: 6_000, card: TEST_CARDS.timesOut })).toMatchObject({ payment: { state: 'failed', failure: 'timeout' }, balances: { real: 0 } });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd3', amount: 6_000, card: '4242-4242-4242-4242' })).toMatchObject({
      payment: { state: 'confirmed', paymentId: 'cercle-3', providerRef: 'test-deposit-cercle-3', cardLast4: '4242' },
      balances: { real: 6_000 },
      withdrawable: 6_000,
    });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd3', amount: 6_000, card: TEST_CARDS.succeeds })).toMatchObject({ replayed: true, balances: { real: 6_000 } });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd4', amount: 1, card: '4242424242424241' })).toMatchObject({ code: 'INVALID_CARD' });
    const over = (await c.request({ type: 'cashier.deposit', requestId: 'd4', amount: 5_000, card: TEST_CARDS.succeeds })) as Msg<'error'>;
    expect(over).toMatchObject({ code: 'DEPOSIT_LIMIT', rule: 'R-LIMITS', details: { limit: 10_000, used: 6_000 } });
    expect(over.details!.freeAt).toBeGreaterThan(Date.now() + 6 * 24 * HOUR);
    // A raise is shown pending with its time, 48 hours on.
    const raised = (await c.request({ type: 'protection.setLimit', limit: 'deposit', value: 50_000 })) as Msg<'protection'>;
    expect(raised.protection.limits.deposit).toMatchObject({ value: 10_000, pending: { value: 50_000 } });
    expect(raised.protection.limits.deposit!.pending!.from - raised.protection.at).toBe(48 * HOUR);

    // A stake needs the stake and the playing-time limits (art. 16, 16-1).
    expect(await c.join('cash', 2_000)).toMatchObject({ code: 'LIMIT_NOT_SET', details: { limitKind: 'stake' }, tableId: 'cash' });
    await c.request({ type: 'protection.setLimit', limit: 'stake', value: 3_000 });
    expect(await c.join('cash', 2_000)).toMatchObject({ code: 'LIMIT_NOT_SET', details: { limitKind: 'time' } });
    await c.request({ type: 'protection.setLimit', limit: 'time', value: HOUR });
    expect(await c.join('cash', 2_000)).toMatchObject({ type: 'table.joined', stack: 2_000 });
    expect(await c.request({ type: 'table.topUp', tableId: 'cash', amount: 1_001 })).toMatchObject({ code: 'STAKE_LIMIT', details: { limit: 3_000, used: 2_000 } });
    // No withdrawal while money is at a real-money table.
    expect(await c.request({ type: 'cashier.withdraw', requestId: 'w1', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'MONEY_AT_TABLE', details: { atTables: 2_000 } });
    expect(await c.request({ type: 'table.leave', tableId: 'cash' })).toMatchObject({ type: 'table.left', cashedOut: 2_000 });
    expect(await c.request({ type: 'cashier.withdraw', requestId: 'w1', amount: 6_001, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { withdrawable: 6_000 } });
    expect(await c.request({ type: 'cashier.withdraw', requestId: 'w2', amount: 1_234, card: TEST_CARDS.succeeds })).toMatchObject({
      payment: { direction: 'withdrawal', state: 'confirmed', amount: 1_234 },
      balances: { real: 4_766 },
    });
    const list = (await c.request({ type: 'cashier.movements', before: null, limit: 3 })) as Msg<'cashier.movements'>;
    expect(list.payments.map((p) => [p.paymentId, p.direction, p.state])).toEqual([
      ['cercle-4', 'withdrawal', 'confirmed'],
      ['cercle-3', 'deposit', 'confirmed'],
      ['cercle-2', 'deposit', 'failed'],
    ]);
    expect(await c.request({ type: 'cashier.movements', before: list.next, limit: 3 })).toMatchObject({ payments: [{ paymentId: 'cercle-1' }], next: null });

    // R-TIMELIMIT: once the time is used up (the table reports the stretches), no further stake this period.
    // The period runs from when the limit was set: as if set three hours ago, and played since.
    op.db.prepare("UPDATE protection_limits SET first_set_at = first_set_at - ? WHERE account_id = ? AND kind = 'time'").run(3 * HOUR, id);
    const played = Date.now() - 2 * HOUR;
    op.protection.startStretch(id, 'cash', played);
    op.protection.endStretch(id, 'cash', played + HOUR);
    const spent = (await c.join('cash', 400)) as Msg<'error'>;
    expect(spent).toMatchObject({ code: 'TIME_LIMIT_REACHED', rule: 'R-TIMELIMIT', details: { limit: HOUR, used: HOUR } });
    expect(await c.request({ type: 'protection.get' })).toMatchObject({ protection: { counters: { timeUsedMs: HOUR, stakes: 2_000, deposits: 6_000 } } });
    // The warnings due reach the player's connection as frames of their own (once each per period).
    const warned = c.waitFor((m) => m.type === 'protection.warning' && m.warning === 'reached');
    op.playtime.handDealt(id, 'cash');
    expect(await warned).toMatchObject({ limitMs: HOUR });
    expect(c.received.filter((m) => m.type === 'protection.warning').map((m) => m.warning)).toEqual(['near', 'ten-minutes', 'reached']);
    expect(op.playtime.handEnded(id, 'cash')).toBe(false);
    op.playtime.left(id, 'cash');
    expect(c.invalid).toEqual([]);

    // R-EXCLUDE: confirmed (the schema refuses a request without it), never shortened; withdrawal still allowed.
    c.send({ type: 'protection.exclude', rid: 900, choice: { kind: 'days', days: 7 } } as never);
    expect(await c.waitFor((m) => m.type === 'error' && m.rid === 900)).toMatchObject({ code: 'BAD_MESSAGE' });
    expect(await c.request({ type: 'protection.exclude', choice: { kind: 'until', until: Date.now() + 3 * 24 * HOUR }, confirm: true })).toMatchObject({ code: 'EXCLUSION_TOO_SHORT' });
    const ex = (await c.request({ type: 'protection.exclude', choice: { kind: 'days', days: 30 }, confirm: true })) as Msg<'protection'>;
    const until = ex.protection.exclusion!.until!;
    expect(until - ex.protection.at).toBe(30 * 24 * HOUR);
    expect(await c.request({ type: 'protection.exclude', choice: { kind: 'days', days: 7 }, confirm: true })).toMatchObject({ code: 'EXCLUSION_CANNOT_SHORTEN', details: { until } });
    expect(await c.request({ type: 'cashier.deposit', requestId: 'd9', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'SELF_EXCLUDED', details: { until } });
    expect(await c.join('cash', 400)).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(await c.request({ type: 'cashier.withdraw', requestId: 'w3', amount: 4_766, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' }, balances: { real: 0 } });
    await c.close();

    // R-BANNED: a holder who becomes banned is closed at the next login: withdrawal only.
    const other = await registered(url, pin, 'yann', { lastName: 'Morel', firstNames: 'Yann', birthDate: '1985-12-31' }, '127.0.0.2');
    await other.c.request({ type: 'protection.setLimit', limit: 'deposit', value: 10_000 });
    await other.c.request({ type: 'cashier.deposit', requestId: 'y1', amount: 900, card: TEST_CARDS.succeeds });
    await other.c.close();
    replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${identityHash('MOREL', 'yann', '1985-12-31')}\n`);
    const again = await TestClient.connect(url, pin, { localAddress: '127.0.0.2' });
    await again.hello();
    expect(await again.request({ type: 'login', username: 'yann', password: 'yann-password' })).toMatchObject({ type: 'authed', balances: { real: 900 } });
    expect(await again.request({ type: 'protection.get' })).toMatchObject({ protection: { closed: 'banned', withdrawable: 900 } });
    expect(await again.request({ type: 'cashier.deposit', requestId: 'y2', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-BANNED' });
    expect(await again.join('cash', 400)).toMatchObject({ code: 'ACCOUNT_CLOSED' });
    expect(await again.request({ type: 'cashier.withdraw', requestId: 'y3', amount: 900, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' }, balances: { real: 0 } });
    await again.close();

    expect(op.wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 6_900, wentOut: 6_900, wallets: 0, tables: 0 } } });
  });
});

const CHILD = fileURLToPath(new URL('./operator-cashier.child.ts', import.meta.url));
const CONFIG: OperatorConfig = { version: 1, operator: { idOper: '0182', idCoffre: 1, name: 'Cashier crash' }, tables: [CASH] };
const startChild = (dataDir: string, lateMs: number) => startOperatorProcess(CHILD, dataDir, CONFIG, { CERCLE_TEST_LATE_MS: String(lateMs) });
const kill = killProcess;

describe('a payment pending when the operator is killed (R-CASHIER)', () => {
  it('lands once after the restart: one ledger movement, the books intact, a second restart changes nothing', async () => {
    const t = tempDir();
    let child: ChildProcess | undefined;
    try {
      // Confirmed 3 s after it was asked: still pending when the process dies just after.
      let run = await startChild(t.dir, 3_000);
      child = run.child;
      const c = await TestClient.connect(run.url, run.pin);
      await c.hello();
      await c.request({ type: 'register', username: 'late', password: 'late-password', identity: ADULT });
      await c.request({ type: 'protection.setLimit', limit: 'deposit', value: 10_000 });
      expect(await c.request({ type: 'cashier.deposit', requestId: 'late-1', amount: 4_321, card: TEST_CARDS.late })).toMatchObject({ payment: { state: 'pending' }, balances: { real: 0 } });
      // A withdrawal pending too: its amount is reserved across the restart.
      expect(await c.request({ type: 'cashier.deposit', requestId: 'now-1', amount: 1_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' } });
      expect(await c.request({ type: 'cashier.withdraw', requestId: 'late-2', amount: 600, card: TEST_CARDS.late })).toMatchObject({ payment: { state: 'pending' }, withdrawable: 400 });
      await kill(child);
      child = undefined;

      run = await startChild(t.dir, 3_000);
      child = run.child;
      const c2 = await TestClient.connect(run.url, run.pin);
      await c2.hello();
      await c2.request({ type: 'login', username: 'late', password: 'late-password' });
      // Asked about every 100 ms from the start; confirmed once its time has come.
      let states: string[] = [];
      for (let i = 0; i < 400; i++) {
        const list = (await c2.request({ type: 'cashier.movements', before: null, limit: 10 })) as Msg<'cashier.movements'>;
        states = list.payments.map((p) => p.state);
        if (!states.includes('pending')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(states).toEqual(['confirmed', 'confirmed', 'confirmed']);
      expect(await c2.request({ type: 'balance' })).toMatchObject({ balances: { real: 4_721 } });
      await kill(child);
      child = undefined;

      run = await startChild(t.dir, 3_000);
      child = run.child;
      await kill(child);
      child = undefined;
      const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
      try {
        expect(db.prepare("SELECT idempotency_key, amount FROM ledger WHERE reason IN ('deposit', 'withdrawal') ORDER BY idempotency_key").all()).toEqual([
          { idempotency_key: 'deposit:cercle-1', amount: 4_321 },
          { idempotency_key: 'deposit:cercle-2', amount: 1_000 },
          { idempotency_key: 'withdrawal:cercle-3', amount: 600 },
        ]);
        expect(new Wallet(db).audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 5_321, wentOut: 600, wallets: 4_721 } } });
      } finally {
        db.close();
      }
    } finally {
      if (child) await kill(child);
      t.cleanup();
    }
  }, 120_000);
});
