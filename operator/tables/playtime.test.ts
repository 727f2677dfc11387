/**
 * The playing-time limit at a real-money cash table (R-TIMELIMIT, decree 2010-518 art. 16-1): the table
 * reports each hand dealt and each leave to the protection service's watch, and at
 * the limit the player is stood up from the end of the hand in progress, their stack back to the
 * wallet. Real parts: the operator's SQLite, wallet, seat ledger, trace vault and protection service;
 * the clock is the tables' manual one.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handOf } from '../../shared/protocol/hand';
import { legalActions } from '../../shared/rules/engine';
import { makeTableRules } from '../../shared/rules/tableRules';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { Accounts } from '../accounts';
import type { Db } from '../../shared/node/sqlite';
import { HOUR_MS } from '../protection/limits';
import { Protection } from '../protection/service';
import { PlaytimeWatch, type TimeWarningNotice } from '../protection/watch';
import { openOperatorDatabase } from '../schema';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { cashTableHooks } from './cash';
import { SeatLedger } from './seats';
import { Table } from './table';
import { ManualTimers } from './timers';
import type { TablePlayer, TableSpec } from './types';

const MIN = 60_000;

describe('playing-time limit at a real-money table (R-TIMELIMIT)', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Db;
  let vault: TraceVault;
  let timers: ManualTimers;
  let protection: Protection;
  let wallet: Wallet;
  let watch: PlaytimeWatch<ReturnType<ManualTimers['set']>>;
  let warnings: { accountId: number; notice: TimeWarningNotice }[];
  let accounts: Accounts;
  let tables: Table[];

  beforeEach(() => {
    dir = tempDir();
    db = openOperatorDatabase(join(dir.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
    vault = TraceVault.open({ path: join(dir.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
    timers = new ManualTimers(Date.UTC(2026, 10, 25, 12));
    protection = new Protection(db, { clock: () => timers.now() });
    wallet = new Wallet(db, { clock: () => timers.now(), stakeGuard: (id, amount, at) => protection.stakeCheck(id, amount, at) });
    warnings = [];
    tables = [];
    // As the operator wires it (server/operator.ts): at the limit, a player not in a hand leaves now.
    watch = new PlaytimeWatch(protection, timers, (accountId, notice) => {
      warnings.push({ accountId, notice });
      if (notice.warning === 'reached') for (const t of tables) t.standUpIfIdle(accountId);
    });
    accounts = new Accounts(db, { clock: () => timers.now(), scrypt: { N: 1 << 10, r: 8, p: 1 } });
  });
  afterEach(() => {
    watch.close();
    vault.close();
    db.close();
    dir.cleanup();
  });

  let address = 0;
  async function player(name: string, timeLimitMs: number): Promise<TablePlayer> {
    const r = await accounts.register(name, `${name} password`, { lastName: name, firstNames: 'Test', birthDate: '1990-01-01' });
    if (!r.ok) throw new Error(r.message);
    const id = r.account.id;
    expect(wallet.deposit(id, 100_000, { idempotencyKey: `d-${id}`, paymentRef: `ref-${id}` }).ok).toBe(true);
    protection.setLimit(id, 'stake', 1_000_000);
    protection.setLimit(id, 'time', timeLimitMs);
    return { accountId: id, name, practice: false, ip: `203.0.113.${++address}`, sessionId: `s-${id}` };
  }

  /** Both play every hand (check, else call), 5 seconds a decision (within the decision time), until `limited` is stood up. */
  function playUntilStoodUp(t: Table, limited: TablePlayer, other: TablePlayer): string[] {
    const people = [limited, other];
    const refused: string[] = [];
    let n = 0;
    for (let i = 0; i < 5000 && t.seatOf(limited.accountId) !== null; i++) {
      const view = t.snapshot(other.accountId).table.hand;
      const state = view ? handOf(view) : null;
      const legal = state ? legalActions(state) : null;
      const who = legal && (legal.next === 'act' || legal.next === 'show') ? people.find((p) => t.seatOf(p.accountId) === legal.seat) : undefined;
      timers.advance(5_000);
      // A connected player is asked to show at the showdown (R-SHOWDOWN).
      const move = legal?.next === 'show' ? ({ type: 'show' } as const) : legal?.check ? ({ type: 'check' } as const) : ({ type: 'call' } as const);
      const r = who && legal ? t.act(who.accountId, `a${++n}`, move) : null;
      if (r && !r.ok) refused.push(r.code);
    }
    return refused;
  }

  it('counts from the first hand dealt, warns, and at the limit stands the player up after the hand, stack back to the wallet', async () => {
    const spec: TableSpec = { tableId: 'real-1', name: 'real-1', money: 'real', practice: false, seats: 6, buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }) };
    const hooks = cashTableHooks(spec, { wallet, seats: new SeatLedger(db), vault, error: (e) => { throw e; }, playtime: watch });
    const t = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 0 });
    tables.push(t);
    const limited = await player('limited', 40 * MIN);
    const other = await player('other', 10 * HOUR_MS);
    const before = wallet.balance(limited.accountId, 'real');
    expect(t.join(limited, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    expect(t.join(other, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    timers.runDue();
    expect(t.handInProgress).toBe(true);
    playUntilStoodUp(t, limited, other);
    expect(t.seatOf(limited.accountId)).toBeNull();
    const { used } = protection.timeUsed(limited.accountId, timers.now());
    // Stood up at the end of the hand in which the limit was reached: at or just over 40 minutes.
    expect(used).toBeGreaterThanOrEqual(40 * MIN);
    expect(used).toBeLessThan(50 * MIN);
    // The warnings came in order, once each, before the stand-up (art. 16-1).
    expect(warnings.filter((w) => w.accountId === limited.accountId).map((w) => w.notice.warning)).toEqual(['near', 'ten-minutes', 'reached']);
    // Stack back to the wallet (R-CASH): the balance is the deposit less what was lost at the table.
    const after = wallet.balance(limited.accountId, 'real');
    expect(after).toBeGreaterThan(before - 5000 - 1);
    expect(wallet.tableHeld('real-1')?.held ?? 0).toBe(t.chipsOnTable());
    // The other player goes on; the limited one cannot sit again until the period ends.
    expect(t.seatOf(other.accountId)).not.toBeNull();
    expect(t.join(limited, 2000, { waitForBigBlind: false })).toMatchObject({ ok: false, code: 'TIME_LIMIT_REACHED', rule: 'R-TIMELIMIT' });
    t.close();
    expect(wallet.audit().problems).toEqual([]);
  });

  it('a player stood up between hands is told: table.left with the stack returned (as after a hand)', async () => {
    const spec: TableSpec = { tableId: 'real-2', name: 'real-2', money: 'real', practice: false, seats: 6, buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }) };
    const hooks = cashTableHooks(spec, { wallet, seats: new SeatLedger(db), vault, error: (e) => { throw e; }, playtime: watch });
    const t = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 0 });
    const alone = await player('alone', 40 * MIN);
    expect(t.join(alone, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    const frames: { type: string }[] = [];
    t.attach(alone.accountId, (f) => frames.push(JSON.parse(f) as { type: string }));
    timers.runDue();
    expect(t.handInProgress).toBe(false); // alone: no hand, so the stand-up is at once
    // What the operator does at the "reached" warning (server/operator.ts, TableManager.standUp).
    t.standUpIfIdle(alone.accountId);
    expect(t.seatOf(alone.accountId)).toBeNull();
    // The client learns it lost the seat (else its table stays on screen with a seat the operator forgot).
    expect(frames.filter((f) => f.type === 'table.left')).toEqual([{ type: 'table.left', rid: null, tableId: 'real-2', cashedOut: 5000 }]);
    t.close();
    expect(wallet.audit().problems).toEqual([]);
  });

  it('the limit reached at the end of a hand, before the watch\'s timer fires: stood up once, the last action applied', async () => {
    // The watch's own timer late (a loaded machine: the event loop runs it after the hand ends), so
    // the "reached" warning is sent from handEnded, between hands, and the operator's handler stands
    // the player up from inside the table's own stand-up. Before, the table removed the player twice
    // and the other player's last action was answered INTERNAL (a flow run, protection.spec.ts).
    const late = { now: () => timers.now(), set: () => ({ id: -1 }), clear: () => undefined };
    const lateWatch = new PlaytimeWatch(protection, late, (accountId, notice) => {
      warnings.push({ accountId, notice });
      if (notice.warning === 'reached') for (const x of tables) x.standUpIfIdle(accountId);
    });
    const spec: TableSpec = { tableId: 'real-3', name: 'real-3', money: 'real', practice: false, seats: 6, buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }) };
    const errors: unknown[] = [];
    const hooks = cashTableHooks(spec, { wallet, seats: new SeatLedger(db), vault, error: (e) => errors.push(e), playtime: lateWatch });
    const t = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 0 });
    tables.push(t);
    const limited = await player('limited', 40 * MIN);
    const other = await player('other', 10 * HOUR_MS);
    const before = wallet.balance(limited.accountId, 'real');
    expect(t.join(limited, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    expect(t.join(other, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    timers.runDue();
    const refused = playUntilStoodUp(t, limited, other);
    expect(refused).not.toContain('INTERNAL');
    expect(errors).toEqual([]);
    expect(t.seatOf(limited.accountId)).toBeNull();
    expect(warnings.filter((w) => w.accountId === limited.accountId).map((w) => w.notice.warning)).toContain('reached');
    // One stand-up: the stack back once (R-CASH), the table's money that of the one left.
    const back = wallet.balance(limited.accountId, 'real') - (before - 5000);
    expect(back).toBeGreaterThan(0);
    expect(back).toBeLessThanOrEqual(10_000);
    expect(wallet.tableHeld('real-3')?.held ?? 0).toBe(t.chipsOnTable());
    t.close();
    lateWatch.close();
    expect(wallet.audit().problems).toEqual([]);
  });

  it('play money does not count (art. 16-1 concerns stakes): no stretch, no stand-up', async () => {
    const spec: TableSpec = { tableId: 'play-1', name: 'play-1', money: 'play', practice: false, seats: 6, buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }) };
    const hooks = cashTableHooks(spec, { wallet, seats: new SeatLedger(db), vault, error: (e) => { throw e; }, playtime: watch });
    expect(hooks.playtime).toBeUndefined();
    const t = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 0 });
    const people: TablePlayer[] = [];
    for (const name of ['p1', 'p2']) {
      const ip = `198.51.100.${people.length + 1}`;
      const g = accounts.createGuest({ ip });
      if (!g.ok) throw new Error('guest');
      wallet.grantPlay(g.account.id, 100_000, { idempotencyKey: `g-${name}` });
      people.push({ accountId: g.account.id, name: g.account.username, practice: false, ip, sessionId: g.session.sessionId });
    }
    for (const p of people) expect(t.join(p, 5000, { waitForBigBlind: false })).toMatchObject({ ok: true });
    for (let i = 0; i < 60; i++) timers.advance(MIN);
    expect(people.every((p) => t.seatOf(p.accountId) !== null)).toBe(true);
    expect(protection.timeUsed(people[0].accountId, timers.now()).used).toBe(0);
    t.close();
  });
});
