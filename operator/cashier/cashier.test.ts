import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts } from '../accounts';
import { openDatabase, type Db } from '../../shared/node/sqlite';
import { OPERATOR_MIGRATIONS, openOperatorDatabase } from '../schema';
import { registerPlayer, tempDir } from '../../tests/support/operator/temp-dir';
import { Wallet } from '../wallet';
import { Cashier } from './cashier';
import { TEST_CARDS, TestPaymentProvider, luhnValid } from './provider';

describe('cashier (R-CASHIER)', () => {
  let t: ReturnType<typeof tempDir>;
  let db: Db;
  let wallet: Wallet;
  let accounts: Accounts;
  let now = Date.UTC(2026, 10, 25, 12);
  let cashier: Cashier;
  const clock = () => now;

  beforeEach(() => {
    t = tempDir();
    db = openOperatorDatabase(join(t.dir, 'op.sqlite'));
    wallet = new Wallet(db, { clock });
    accounts = new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 }, clock });
    cashier = new Cashier(db, wallet, new TestPaymentProvider({ clock, lateMs: 60_000 }), { clock, timeoutMs: 20 });
  });
  afterEach(() => {
    db.close();
    t.cleanup();
  });

  const player = (name: string) => registerPlayer(accounts, name);
  const deposits = () => db.prepare("SELECT COUNT(*) FROM ledger WHERE reason = 'deposit'").pluck().get();

  it('the test cards pass the Luhn check (so a typo is not taken for one)', () => {
    for (const c of Object.values(TEST_CARDS)) expect(luhnValid(c)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it('a deposit with the succeeding card is one ledger movement carrying the provider reference; a repeat of the request moves nothing more', async () => {
    const id = await player('alice');
    const r = await cashier.deposit(id, { requestId: 'd1', amount: 12_345, card: '4242 4242 4242 4242' });
    expect(r).toMatchObject({ ok: true, replayed: false, payment: { state: 'confirmed', amount: 12_345, cardLast4: '4242', direction: 'deposit', providerRef: 'test-deposit-cercle-1' } });
    expect(wallet.balance(id, 'real')).toBe(12_345);
    expect(wallet.entryByKey('deposit:cercle-1')).toMatchObject({ reason: 'deposit', amount: 12_345, paymentRef: 'test-deposit-cercle-1' });
    expect(await cashier.deposit(id, { requestId: 'd1', amount: 12_345, card: TEST_CARDS.succeeds })).toMatchObject({ ok: true, replayed: true });
    expect(await cashier.deposit(id, { requestId: 'd1', amount: 99, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'REQUEST_REUSED' });
    expect(wallet.balance(id, 'real')).toBe(12_345);
    expect(wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 12_345, wentOut: 0, wallets: 12_345 } } });
  });

  it('a declined or timed-out payment moves nothing and is recorded failed with its reason', async () => {
    const id = await player('bruno');
    expect(await cashier.deposit(id, { requestId: 'a', amount: 500, card: TEST_CARDS.declined })).toMatchObject({ ok: true, payment: { state: 'failed', failure: 'declined: card declined' } });
    expect(await cashier.deposit(id, { requestId: 'b', amount: 500, card: TEST_CARDS.timesOut })).toMatchObject({ ok: true, payment: { state: 'failed', failure: 'timeout', providerRef: null } });
    // A timed-out payment stays failed whatever the provider says afterwards.
    expect(await cashier.reconcile()).toEqual({ confirmed: 0, failed: 0, pending: 0 });
    expect(wallet.balance(id, 'real')).toBe(0);
    expect(deposits()).toBe(0);
    expect(cashier.payments(id).map((p) => [p.requestId, p.state])).toEqual([
      ['b', 'failed'],
      ['a', 'failed'],
    ]);
  });

  it('refuses what is not a card, a bad amount or request id, and guests', async () => {
    const id = await player('chloe');
    expect(await cashier.deposit(id, { requestId: 'x', amount: 100, card: '1234' })).toMatchObject({ ok: false, code: 'INVALID_CARD' });
    expect(await cashier.deposit(id, { requestId: 'x', amount: 1.5, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'INVALID_AMOUNT' });
    expect(await cashier.deposit(id, { requestId: '', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'INVALID_REQUEST' });
    const g = accounts.createGuest({ ip: '192.0.2.1' });
    if (!g.ok) throw new Error('guest');
    expect(await cashier.deposit(g.account.id, { requestId: 'x', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'GUEST_REAL_MONEY' });
    expect(cashier.payments(id)).toEqual([]);
  });

  it('the late card stays pending, then is confirmed once by reconcile however often it runs', async () => {
    const id = await player('dora');
    expect(await cashier.deposit(id, { requestId: 'late', amount: 700, card: TEST_CARDS.late })).toMatchObject({ ok: true, payment: { state: 'pending', providerRef: 'test-deposit-cercle-1' } });
    expect(wallet.balance(id, 'real')).toBe(0);
    expect(await cashier.reconcile()).toEqual({ confirmed: 0, failed: 0, pending: 1 });
    now += 60_000;
    expect(await cashier.reconcile()).toEqual({ confirmed: 1, failed: 0, pending: 0 });
    expect(await cashier.reconcile()).toEqual({ confirmed: 0, failed: 0, pending: 0 });
    expect(wallet.balance(id, 'real')).toBe(700);
    expect(deposits()).toBe(1);
    // A final state cannot be changed, even by hand.
    expect(() => db.prepare("UPDATE cashier_payments SET state = 'failed', failure = 'x'").run()).toThrow(/final/);
  });

  it('a withdrawal: never more than the withdrawable balance, exact to the cent, reserved while pending, refused while money is at a table', async () => {
    const id = await player('emile');
    await cashier.deposit(id, { requestId: 'd', amount: 10_001, card: TEST_CARDS.succeeds });
    expect(await cashier.withdraw(id, { requestId: 'w0', amount: 10_002, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', withdrawable: 10_001 });
    // Pending: the amount is reserved, neither withdrawable again nor stakeable.
    expect(await cashier.withdraw(id, { requestId: 'w1', amount: 6_000, card: TEST_CARDS.late })).toMatchObject({ ok: true, payment: { state: 'pending' } });
    expect(cashier.withdrawable(id)).toBe(4_001);
    expect(await cashier.withdraw(id, { requestId: 'w2', amount: 4_002, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS' });
    expect(wallet.openTable('cash', 'real')).toEqual({ ok: true });
    expect(wallet.buyIn(id, 'cash', 4_002, { idempotencyKey: 'b0' })).toMatchObject({ ok: false, code: 'FUNDS_RESERVED' });
    // A declined withdrawal moves nothing.
    expect(await cashier.withdraw(id, { requestId: 'w3', amount: 1, card: TEST_CARDS.declined })).toMatchObject({ ok: true, payment: { state: 'failed' } });
    expect(await cashier.withdraw(id, { requestId: 'w4', amount: 4_001, card: TEST_CARDS.succeeds })).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    now += 60_000;
    expect(await cashier.reconcile()).toMatchObject({ confirmed: 1 });
    expect(wallet.balance(id, 'real')).toBe(0);
    expect(wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 10_001, wentOut: 10_001, wallets: 0 } } });

    // Money at a real-money table: no withdrawal until the player leaves it.
    await cashier.deposit(id, { requestId: 'd2', amount: 3_000, card: TEST_CARDS.succeeds });
    expect(wallet.buyIn(id, 'cash', 1_000, { idempotencyKey: 'b1' })).toMatchObject({ ok: true });
    db.prepare(
      "INSERT INTO table_seats(inscription, table_id, account_id, seat, stack, username, ip, session_id, practice, updated_at) VALUES ('i1', 'cash', ?, 0, 1000, 'emile', '192.0.2.1', 's', 0, 0)",
    ).run(id);
    expect(await cashier.withdraw(id, { requestId: 'w5', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ ok: false, code: 'MONEY_AT_TABLE', atTables: 1_000 });
    db.prepare("UPDATE table_seats SET cashed_out = 1000 WHERE inscription = 'i1'").run();
    expect(wallet.cashOut(id, 'cash', 1_000, { idempotencyKey: 'c1' })).toMatchObject({ ok: true });
    expect(await cashier.withdraw(id, { requestId: 'w6', amount: 3_000, card: TEST_CARDS.succeeds })).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    expect(wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 13_001, wentOut: 13_001, wallets: 0, tables: 0 } } });
  });
});

describe('a cashier stopped while the provider has not answered', () => {
  it('leaves the payment pending, untouched, for the next start to settle', async () => {
    const t = tempDir();
    try {
      const db = openOperatorDatabase(join(t.dir, 'op.sqlite'));
      const accounts = new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 } });
      const r = await accounts.register('pia', 'pia password');
      if (!r.ok) throw new Error(r.message);
      const wallet = new Wallet(db);
      const first = new Cashier(db, wallet, new TestPaymentProvider(), { timeoutMs: 60_000 });
      const asked = first.deposit(r.account.id, { requestId: 'x', amount: 100, card: TEST_CARDS.timesOut });
      await new Promise((resolve) => setImmediate(resolve));
      first.close();
      expect(await asked).toMatchObject({ ok: false, code: 'SHUTTING_DOWN' });
      expect(first.payments(r.account.id)).toMatchObject([{ state: 'pending', failure: null }]);
      const next = new Cashier(db, wallet, new TestPaymentProvider());
      expect(await next.reconcile()).toEqual({ confirmed: 0, failed: 1, pending: 0 });
      expect(wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 0 } } });
      db.close();
    } finally {
      t.cleanup();
    }
  });
});

describe('operator schema v6', () => {
  it('rebuilds the ledger with `withdrawal`, keeping every row, and its triggers still guard it', () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'op.sqlite');
      const v5 = openDatabase(path, OPERATOR_MIGRATIONS.slice(0, 5), 'operator');
      v5.prepare("INSERT INTO accounts(username, username_key, guest, password_hash, created_at) VALUES ('a', 'a', 0, 'x', 0)").run();
      v5.prepare("INSERT INTO ledger(account_id, kind, reason, amount, balance_after, idempotency_key, at) VALUES (1, 'real', 'deposit', 900, 900, 'd', 1)").run();
      v5.close();
      const db = openOperatorDatabase(path);
      try {
        const wallet = new Wallet(db);
        expect(wallet.balance(1, 'real')).toBe(900);
        expect(wallet.entryByKey('d')).toMatchObject({ amount: 900, at: 1, paymentRef: null });
        expect(wallet.withdraw(1, 400, { idempotencyKey: 'w', paymentRef: 'psp-1' })).toMatchObject({ ok: true, entry: { reason: 'withdrawal', balanceAfter: 500, paymentRef: 'psp-1' } });
        expect(wallet.withdraw(1, 501, { idempotencyKey: 'w2' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS' });
        expect(wallet.audit()).toMatchObject({ ok: true, totals: { real: { cameIn: 900, wentOut: 400, wallets: 500 } } });
        expect(() => db.prepare('DELETE FROM ledger').run()).toThrow(/append-only/);
        expect(() =>
          db.prepare("INSERT INTO ledger(account_id, kind, reason, amount, balance_after, idempotency_key, at, payment_ref) VALUES (1, 'play', 'grant', 10, 10, 'g', 1, 'x')").run(),
        ).toThrow(/CHECK/);
        expect(() =>
          db.prepare("INSERT INTO ledger(account_id, kind, reason, amount, balance_after, idempotency_key, at) VALUES (1, 'real', 'withdrawal', 10, 500, 'bad', 1)").run(),
        ).toThrow(/does not follow/);
      } finally {
        db.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
