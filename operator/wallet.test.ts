import Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts } from './accounts';
import { openDatabase, type Db } from '../shared/node/sqlite';
import { OPERATOR_MIGRATIONS, openOperatorDatabase } from './schema';
import { registerPlayer, tempDir } from '../tests/support/operator/temp-dir';
import { Wallet, walletMovement, type MoneyKind } from './wallet';

describe('wallet', () => {
  let t: ReturnType<typeof tempDir>;
  let path: string;
  let db: Db;
  let wallet: Wallet;
  let accounts: Accounts;
  let now = 1_700_000_000_000;
  const ip = { ip: '192.0.2.1' };

  beforeEach(() => {
    t = tempDir();
    path = join(t.dir, 'op.sqlite');
    db = openOperatorDatabase(path);
    wallet = new Wallet(db, { clock: () => now });
    accounts = new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 } });
  });
  afterEach(() => {
    db.close();
    t.cleanup();
  });

  const player = (name: string) => registerPlayer(accounts, name);
  function guest(): number {
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    return g.account.id;
  }

  it('records a deposit, a buy-in, rake and a cash-out as ledger rows with balances after', async () => {
    const alice = await player('alice');
    expect(wallet.openTable('T1', 'real')).toEqual({ ok: true });
    expect(wallet.deposit(alice, 10_000, { idempotencyKey: 'dep-1' })).toMatchObject({ ok: true, replayed: false, entry: { reason: 'deposit', amount: 10_000, balanceAfter: 10_000 } });
    expect(wallet.buyIn(alice, 'T1', 2_000, { idempotencyKey: 'buy-1' })).toMatchObject({ ok: true, entry: { reason: 'buy-in', balanceAfter: 8_000, tableId: 'T1', tableAfter: 2_000 } });
    expect(wallet.topUp(alice, 'T1', 500, { idempotencyKey: 'top-1' })).toMatchObject({ ok: true, entry: { reason: 'top-up', balanceAfter: 7_500, tableAfter: 2_500 } });
    expect(wallet.collectRake('T1', 30, { idempotencyKey: 'rake-h1', handId: 'H1' })).toMatchObject({ ok: true, entry: { reason: 'rake', accountId: null, balanceAfter: 30, tableAfter: 2_470, handId: 'H1' } });
    expect(wallet.cashOut(alice, 'T1', 2_470, { idempotencyKey: 'out-1' })).toMatchObject({ ok: true, entry: { reason: 'cash-out', balanceAfter: 9_970, tableAfter: 0 } });
    expect(wallet.balance(alice, 'real')).toBe(9_970);
    expect(wallet.tableHeld('T1')).toEqual({ kind: 'real', held: 0 });
    expect(wallet.rakeCollected('real')).toBe(30);
    expect(wallet.entries(alice, 'real').map((e) => e.reason)).toEqual(['cash-out', 'top-up', 'buy-in', 'deposit']);
    expect(wallet.entries(alice, 'real', { limit: 2 }).map((e) => e.reason)).toEqual(['cash-out', 'top-up']);
    expect(wallet.tableEntries('T1').map((e) => e.reason)).toEqual(['buy-in', 'top-up', 'rake', 'cash-out']);
    expect(wallet.entries(alice, 'real')[0].at).toBe(now);
    expect(wallet.audit()).toMatchObject({ ok: true, problems: [], totals: { real: { cameIn: 10_000, wallets: 9_970, tables: 0, rake: 30 } } });
    // The same rows as the trace's Solde movements (POINSCRIT at the buy-in, POBILAN at the cash-out).
    const [out, top, buy] = wallet.entries(alice, 'real');
    expect(walletMovement(buy)).toEqual({ avant: 10_000, mouvement: 2_000, apres: 8_000 });
    expect(walletMovement(top)).toEqual({ avant: 8_000, mouvement: 500, apres: 7_500 });
    expect(walletMovement(out)).toEqual({ avant: 7_500, mouvement: 2_470, apres: 9_970 });
    expect(walletMovement(wallet.tableEntries('T1')[2])).toBeUndefined();
  });

  it("the operator's overlay: one row from the operator's side into a fund, counted as money in, its own total; a fund's prize out of it", async () => {
    const alice = await player('alice');
    expect(wallet.openTable('tournament:g', 'real')).toEqual({ ok: true });
    wallet.deposit(alice, 1_000, { idempotencyKey: 'dep-1' });
    wallet.buyIn(alice, 'tournament:g', 1_000, { idempotencyKey: 'entry-1' });
    expect(wallet.fundOverlay('tournament:g', 4_000, { idempotencyKey: 'ov-1' })).toMatchObject({ ok: true, entry: { reason: 'overlay', accountId: null, amount: 4_000, balanceAfter: 4_000, tableAfter: 5_000 } });
    expect(wallet.fundOverlay('tournament:g', 4_000, { idempotencyKey: 'ov-1' })).toMatchObject({ ok: true, replayed: true });
    expect(wallet.fundOverlay('nowhere', 1, { idempotencyKey: 'ov-2' })).toMatchObject({ ok: false, code: 'UNKNOWN_TABLE' });
    expect(wallet.overlayPaid('real')).toBe(4_000);
    expect(wallet.cashOut(alice, 'tournament:g', 5_000, { idempotencyKey: 'prize-1' }).ok).toBe(true);
    expect(wallet.audit()).toMatchObject({ ok: true, problems: [], totals: { real: { cameIn: 1_000, overlay: 4_000, wallets: 5_000, tables: 0, rake: 0 } } });
    // A row that does not follow from the operator's overlay total is refused by the ledger itself.
    expect(() =>
      db.prepare("INSERT INTO ledger(account_id, kind, reason, amount, balance_after, table_id, table_after, idempotency_key, at) VALUES (NULL, 'real', 'overlay', 10, 5, 'tournament:g', 10, 'ov-x', 0)").run(),
    ).toThrow(/overlay paid/);
  });

  it('v9 rebuilds the ledger with the overlay reason, keeping every row of a v8 file', async () => {
    db.close();
    const old = join(t.dir, 'v7.sqlite');
    const v7 = openDatabase(old, OPERATOR_MIGRATIONS.slice(0, 8), 'operator');
    // An account as a v8 build wrote it (today's Accounts prepares the columns of later versions).
    const bob = Number(v7.prepare("INSERT INTO accounts(username, username_key, guest, password_hash, created_at) VALUES ('bob', 'bob', 0, 'scrypt$1024$8$1$c2FsdA$aGFzaA', 0)").run().lastInsertRowid);
    // Rows as a v8 build wrote them (its triggers check each one).
    v7.exec(`
      INSERT INTO table_funds(table_id, kind, held) VALUES ('T1', 'real', 0);
      INSERT INTO ledger(account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at, payment_ref) VALUES
        (${bob}, 'real', 'deposit', 3000, 3000, NULL, NULL, NULL, 'dep-b', 1, 'ref-b'),
        (${bob}, 'real', 'buy-in', 1000, 2000, 'T1', 1000, NULL, 'buy-b', 2, NULL),
        (NULL, 'real', 'rake', 10, 10, 'T1', 990, 'H', 'rake-b', 3, NULL);
    `);
    const rows = v7.prepare('SELECT * FROM ledger ORDER BY id').all();
    v7.close();
    db = openOperatorDatabase(old);
    wallet = new Wallet(db, { clock: () => now });
    expect(db.prepare('SELECT * FROM ledger ORDER BY id').all()).toEqual(rows);
    expect(wallet.fundOverlay('T1', 5, { idempotencyKey: 'ov-b' }).ok).toBe(true);
    expect(wallet.audit()).toMatchObject({ ok: true, problems: [], totals: { real: { cameIn: 3_000, overlay: 5, wallets: 2_000, tables: 995, rake: 10 } } });
  });

  it('refuses a buy-in larger than the balance (R-NODEBT, D art. 8 II 1°)', async () => {
    const bob = await player('bob');
    wallet.openTable('T1', 'real');
    wallet.deposit(bob, 1_000, { idempotencyKey: 'd' });
    expect(wallet.buyIn(bob, 'T1', 1_001, { idempotencyKey: 'b1' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', balance: 1_000 });
    expect(wallet.buyIn(bob, 'T1', 1_000, { idempotencyKey: 'b2' })).toMatchObject({ ok: true, entry: { balanceAfter: 0 } });
    expect(wallet.topUp(bob, 'T1', 1, { idempotencyKey: 'b3' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', balance: 0 });
    // The refused key was not consumed: the same key can carry a later valid request.
    wallet.deposit(bob, 5, { idempotencyKey: 'd2' });
    expect(wallet.topUp(bob, 'T1', 1, { idempotencyKey: 'b3' })).toMatchObject({ ok: true });
    expect(wallet.cashOut(bob, 'T1', 1_002, { idempotencyKey: 'o' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_TABLE_FUNDS', held: 1_001 });
  });

  it('applies a repeated request once, and refuses a key reused for another movement', async () => {
    const carol = await player('carol');
    wallet.openTable('T1', 'real');
    const first = wallet.deposit(carol, 700, { idempotencyKey: 'pay-42' });
    const again = wallet.deposit(carol, 700, { idempotencyKey: 'pay-42' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(wallet.balance(carol, 'real')).toBe(700);
    expect(wallet.deposit(carol, 701, { idempotencyKey: 'pay-42' })).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
    expect(wallet.buyIn(carol, 'T1', 700, { idempotencyKey: 'pay-42' })).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
    // A replay is answered from the ledger even when the request would now be refused.
    expect(wallet.buyIn(carol, 'T1', 700, { idempotencyKey: 'sit-1' })).toMatchObject({ ok: true, replayed: false });
    expect(wallet.buyIn(carol, 'T1', 700, { idempotencyKey: 'sit-1' })).toMatchObject({ ok: true, replayed: true });
    expect(wallet.balance(carol, 'real')).toBe(0);
  });

  it('keeps real money and play chips apart', async () => {
    const dan = await player('dan');
    const g = guest();
    expect(wallet.openTable('R', 'real')).toEqual({ ok: true });
    expect(wallet.openTable('P', 'play')).toEqual({ ok: true });
    expect(wallet.openTable('P', 'play')).toEqual({ ok: true });
    expect(wallet.openTable('P', 'real')).toMatchObject({ ok: false, code: 'KIND_MISMATCH' });
    wallet.grantPlay(dan, 5_000, { idempotencyKey: 'g1' });
    expect(wallet.balance(dan, 'play')).toBe(5_000);
    expect(wallet.balance(dan, 'real')).toBe(0);
    // Play chips never pay a real-money buy-in.
    expect(wallet.buyIn(dan, 'R', 100, { idempotencyKey: 'b1' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', kind: 'real' });
    expect(wallet.buyIn(dan, 'P', 100, { idempotencyKey: 'b2' })).toMatchObject({ ok: true, entry: { kind: 'play' } });
    expect(wallet.deposit(g, 100, { idempotencyKey: 'gd' })).toMatchObject({ ok: false, code: 'GUEST_REAL_MONEY' });
    expect(wallet.grantPlay(g, 100, { idempotencyKey: 'gg' })).toMatchObject({ ok: true });
    expect(wallet.buyIn(g, 'P', 100, { idempotencyKey: 'gb' })).toMatchObject({ ok: true });
    expect(wallet.buyIn(g, 'R', 1, { idempotencyKey: 'gr' })).toMatchObject({ ok: false, code: 'GUEST_REAL_MONEY' });
  });

  it('refuses non-integer, non-positive and unreferenced movements', async () => {
    const erin = await player('erin');
    wallet.openTable('T1', 'real');
    for (const bad of [0, -5, 1.5, Number.NaN, 2 ** 53]) {
      expect(wallet.deposit(erin, bad, { idempotencyKey: `k${bad}` })).toMatchObject({ ok: false, code: 'INVALID_AMOUNT' });
    }
    expect(wallet.deposit(erin, 5, { idempotencyKey: '' })).toMatchObject({ ok: false, code: 'INVALID_REFERENCE' });
    expect(wallet.deposit(9999, 5, { idempotencyKey: 'x' })).toMatchObject({ ok: false, code: 'UNKNOWN_ACCOUNT' });
    expect(wallet.buyIn(erin, 'nope', 5, { idempotencyKey: 'y' })).toMatchObject({ ok: false, code: 'UNKNOWN_TABLE' });
    expect(wallet.collectRake('T1', 1, { idempotencyKey: 'z', handId: '' })).toMatchObject({ ok: false, code: 'INVALID_REFERENCE' });
    expect(db.prepare('SELECT COUNT(*) FROM ledger').pluck().get()).toBe(0);
  });

  it('the ledger cannot be updated or deleted, nor balances pushed negative, even by hand', async () => {
    const fay = await player('fay');
    wallet.openTable('T1', 'real');
    wallet.deposit(fay, 100, { idempotencyKey: 'd' });
    const other = new Database(path);
    expect(() => other.prepare('UPDATE ledger SET amount = 1000000').run()).toThrow(/append-only/);
    expect(() => other.prepare('DELETE FROM ledger').run()).toThrow(/append-only/);
    expect(() =>
      other.prepare(`INSERT INTO ledger(account_id, kind, reason, amount, balance_after, table_id, table_after, idempotency_key, at)
                     VALUES (?, 'real', 'buy-in', 200, 0, 'T1', 200, 'forged', 0)`).run(fay),
    ).toThrow(/does not follow/);
    expect(() =>
      other.prepare(`INSERT INTO ledger(account_id, kind, reason, amount, balance_after, table_id, table_after, idempotency_key, at)
                     VALUES (?, 'real', 'buy-in', 200, -100, 'T1', 200, 'forged', 0)`).run(fay),
    ).toThrow(/CHECK constraint/);
    expect(() => other.prepare('UPDATE wallets SET balance = -1').run()).toThrow(/CHECK constraint/);
    other.close();
    expect(wallet.audit().ok).toBe(true);
  });

  it('audit reports a balance altered behind the ledger', async () => {
    const gus = await player('gus');
    wallet.openTable('T1', 'real');
    wallet.deposit(gus, 1_000, { idempotencyKey: 'd' });
    wallet.buyIn(gus, 'T1', 400, { idempotencyKey: 'b' });
    const other = new Database(path);
    other.prepare('UPDATE wallets SET balance = balance + 1').run();
    other.prepare("UPDATE table_funds SET held = 300 WHERE table_id = 'T1'").run();
    other.close();
    const report = wallet.audit();
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        'real: wallets 601 + tables 300 + rake 0 = 901, but 1000 came in and 0 went out',
        `wallet ${gus}/real: balance 601, but its ledger rows sum to 600`,
        'table T1: holds 300, but its ledger rows sum to 400',
      ]),
    );
  });

  it('conserves money exactly through thousands of random operations', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await player(`player${i}`));
    for (let i = 0; i < 3; i++) ids.push(guest());
    const guests = new Set(ids.slice(6));
    const tables: { id: string; kind: MoneyKind }[] = [
      { id: 'R1', kind: 'real' }, { id: 'R2', kind: 'real' }, { id: 'P1', kind: 'play' }, { id: 'P2', kind: 'play' },
    ];
    for (const tb of tables) wallet.openTable(tb.id, tb.kind);

    // The model a table manager would keep: wallets, each player's stack per table, rake.
    const model = { wallet: new Map<string, number>(), stack: new Map<string, number>(), rake: { real: 0, play: 0 }, cameIn: { real: 0, play: 0 } };
    const w = (id: number, kind: MoneyKind) => model.wallet.get(`${id}/${kind}`) ?? 0;
    const setW = (id: number, kind: MoneyKind, v: number) => model.wallet.set(`${id}/${kind}`, v);
    const st = (tb: string, id: number) => model.stack.get(`${tb}/${id}`) ?? 0;
    const setSt = (tb: string, id: number, v: number) => model.stack.set(`${tb}/${id}`, v);
    const seated = (tb: string) => ids.filter((id) => st(tb, id) > 0);
    const done: { key: string; call: () => unknown }[] = [];
    let seq = 0;
    let refusals = 0;

    for (let op = 0; op < 4000; op++) {
      const id = ids[randomInt(ids.length)];
      const tb = tables[randomInt(tables.length)];
      const key = `op-${seq++}`;
      const roll = randomInt(100);
      if (roll < 5 && done.length > 0) {
        // A client retrying an earlier request: must change nothing.
        const prev = done[randomInt(done.length)];
        expect(prev.call()).toMatchObject({ ok: true, replayed: true });
      } else if (roll < 15) {
        const kind: MoneyKind = guests.has(id) || randomInt(2) === 0 ? 'play' : 'real';
        const amount = 1 + randomInt(50_000);
        const call = () => (kind === 'real' ? wallet.deposit(id, amount, { idempotencyKey: key }) : wallet.grantPlay(id, amount, { idempotencyKey: key }));
        expect(call()).toMatchObject({ ok: true, replayed: false });
        done.push({ key, call });
        setW(id, kind, w(id, kind) + amount);
        model.cameIn[kind] += amount;
      } else if (roll < 40) {
        // Buy-in or top-up, sometimes more than the wallet holds.
        const have = w(id, tb.kind);
        const amount = 1 + randomInt(Math.max(1, Math.floor(have * 1.2)) + 1);
        const topUp = st(tb.id, id) > 0;
        const call = () => (topUp ? wallet.topUp(id, tb.id, amount, { idempotencyKey: key }) : wallet.buyIn(id, tb.id, amount, { idempotencyKey: key }));
        const r = call();
        if (tb.kind === 'real' && guests.has(id)) {
          expect(r).toMatchObject({ ok: false, code: 'GUEST_REAL_MONEY' });
          refusals++;
        } else if (amount > have) {
          expect(r).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS' });
          refusals++;
        } else {
          expect(r).toMatchObject({ ok: true, entry: { balanceAfter: have - amount } });
          done.push({ key, call });
          setW(id, tb.kind, have - amount);
          setSt(tb.id, id, st(tb.id, id) + amount);
        }
      } else if (roll < 80) {
        // A hand: chips move between seated players (no ledger), the operator keeps some rake.
        const players = seated(tb.id);
        if (players.length < 2) continue;
        const pot = players.map((p) => {
          const bet = randomInt(st(tb.id, p) + 1);
          setSt(tb.id, p, st(tb.id, p) - bet);
          return bet;
        }).reduce((a, b) => a + b, 0);
        const rake = Math.min(pot, Math.floor((pot * 5) / 100), 300);
        const handId = `H${op}`;
        if (rake > 0) {
          const call = () => wallet.collectRake(tb.id, rake, { idempotencyKey: key, handId });
          expect(call()).toMatchObject({ ok: true });
          done.push({ key, call });
          model.rake[tb.kind] += rake;
        }
        // Split what is left between one or two winners, integer chips (odd chip to the first).
        const winners = players.slice(0, 1 + randomInt(Math.min(2, players.length))).sort(() => randomInt(3) - 1);
        const rest = pot - rake;
        winners.forEach((p, i) => setSt(tb.id, p, st(tb.id, p) + Math.floor(rest / winners.length) + (i === 0 ? rest % winners.length : 0)));
      } else {
        // Leaving: the whole stack back to the wallet (R-CASH); sometimes a bogus over-ask first.
        const stack = st(tb.id, id);
        if (stack === 0) continue;
        const held = wallet.tableHeld(tb.id)!.held;
        expect(wallet.cashOut(id, tb.id, held + 1, { idempotencyKey: `${key}-bad` })).toMatchObject({ ok: false, code: 'INSUFFICIENT_TABLE_FUNDS' });
        refusals++;
        const call = () => wallet.cashOut(id, tb.id, stack, { idempotencyKey: key });
        expect(call()).toMatchObject({ ok: true, entry: { balanceAfter: w(id, tb.kind) + stack } });
        done.push({ key, call });
        setW(id, tb.kind, w(id, tb.kind) + stack);
        setSt(tb.id, id, 0);
      }
      now += 1000;
    }

    expect(refusals).toBeGreaterThan(50);
    const report = wallet.audit();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    for (const kind of ['real', 'play'] as const) {
      let wallets = 0;
      for (const id of ids) {
        expect(wallet.balance(id, kind)).toBe(w(id, kind));
        wallets += w(id, kind);
      }
      let atTables = 0;
      for (const tb of tables.filter((x) => x.kind === kind)) {
        const sum = ids.reduce((a, id) => a + st(tb.id, id), 0);
        expect(wallet.tableHeld(tb.id)!.held).toBe(sum);
        atTables += sum;
      }
      expect(wallet.rakeCollected(kind)).toBe(model.rake[kind]);
      expect(report.totals[kind]).toEqual({ cameIn: model.cameIn[kind], wentOut: 0, wallets, tables: atTables, rake: model.rake[kind], overlay: 0 });
      expect(wallets + atTables + model.rake[kind]).toBe(model.cameIn[kind]);
    }
  });
});
