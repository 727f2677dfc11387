import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts } from '../accounts';
import { runCli } from '../cli';
import { Cashier } from '../cashier/cashier';
import { TEST_CARDS, TestPaymentProvider } from '../cashier/provider';
import type { Db } from '../../shared/node/sqlite';
import { openOperatorDatabase } from '../schema';
import { registerPlayer, tempDir } from '../../tests/support/operator/temp-dir';
import { Wallet } from '../wallet';
import { BAN_FILE_NAME, BanList, replaceBanFile } from './bans';
import { BAN_FILE_HEADER, identityHash } from './identity';
import { DAY_MS, HOUR_MS, PERIOD_MS, RAISE_DELAY_MS } from './limits';
import { Protection } from './service';

const MIN = 60_000;
const ADULT = { lastName: 'Martin', firstNames: 'Jeanne', birthDate: '1990-05-04' };

describe('protection service over the operator database', () => {
  let t: ReturnType<typeof tempDir>;
  let path: string;
  let db: Db;
  let now = Date.UTC(2026, 10, 25, 12);
  const clock = () => now;
  let bans: BanList;
  let accounts: Accounts;
  let protection: Protection;
  let wallet: Wallet;
  let cashier: Cashier;

  function open(): void {
    db = openOperatorDatabase(path);
    bans = new BanList(t.dir);
    accounts = new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 }, clock, bans });
    protection = new Protection(db, { clock });
    wallet = new Wallet(db, { clock, stakeGuard: (id, amount, at) => protection.stakeCheck(id, amount, at) });
    cashier = new Cashier(db, wallet, new TestPaymentProvider({ clock }), { clock, depositGuard: (id, amount, at) => protection.depositCheck(id, amount, at) });
  }
  beforeEach(() => {
    t = tempDir();
    path = join(t.dir, 'operator.sqlite');
    now = Date.UTC(2026, 10, 25, 12);
    open();
  });
  afterEach(() => {
    db.close();
    t.cleanup();
  });

  const player = (name: string) => registerPlayer(accounts, name, ADULT);
  const deposit = (id: number, requestId: string, amount: number) => cashier.deposit(id, { requestId, amount, card: TEST_CARDS.succeeds });

  it('R-AGE: under 18 (in French time) refused, malformed identities refused, adults registered with their identity hashed', async () => {
    // 25 November 2026: born 26 November 2008 is 17.
    expect(await accounts.register('young', 'young password', { ...ADULT, birthDate: '2008-11-26' })).toMatchObject({ ok: false, code: 'UNDER_AGE' });
    expect(await accounts.register('young', 'young password', { ...ADULT, birthDate: '2001-02-29' })).toMatchObject({ ok: false, code: 'INVALID_IDENTITY' });
    expect(await accounts.register('young', 'young password', { ...ADULT, lastName: '' })).toMatchObject({ ok: false, code: 'INVALID_IDENTITY' });
    expect(accounts.findByUsername('young')).toBeUndefined();
    const r = await accounts.register('adult', 'adult password', { ...ADULT, birthDate: '2008-11-25' });
    expect(r).toMatchObject({ ok: true, account: { identified: true, closed: null } });
    expect(db.prepare('SELECT identity_hash FROM accounts WHERE username = ?').pluck().get('adult')).toBe(identityHash('Martin', 'Jeanne', '2008-11-25'));
    // Without an identity: a play-money account, refused any deposit.
    const p = await accounts.register('practiser', 'practiser password');
    if (!p.ok) throw new Error('refused');
    expect(p.account.identified).toBe(false);
    expect(await deposit(p.account.id, 'd', 100)).toMatchObject({ ok: false, code: 'IDENTITY_REQUIRED' });
  });

  it('R-AGE by the French calendar at night: at 23:30 UTC it is already the next day in Paris', async () => {
    now = Date.UTC(2026, 10, 25, 23, 30); // 26 November 2026, 00:30 in Paris
    // Born "today" in France is a newborn (under age), not a date in the future (UTC's date still says the 25th).
    expect(await accounts.register('baby', 'baby password', { ...ADULT, birthDate: '2026-11-26' })).toMatchObject({ ok: false, code: 'UNDER_AGE' });
    expect(await accounts.register('born', 'born password', { ...ADULT, birthDate: '2026-11-27' })).toMatchObject({ ok: false, code: 'INVALID_IDENTITY' });
    // 18 today in France.
    expect(await accounts.register('eighteen', 'eighteen password', { ...ADULT, birthDate: '2008-11-26' })).toMatchObject({ ok: true });
  });

  it('R-BANNED: a banned identity cannot register; a holder banned later is closed at the next login: withdraw only', async () => {
    const banned = identityHash('Durand', 'Paul', '1980-01-01');
    expect(replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${banned}\n`)).toEqual({ ok: true, count: 1 });
    expect(await accounts.register('paul', 'paul password', { lastName: 'DURAND', firstNames: 'paul', birthDate: '1980-01-01' })).toMatchObject({ ok: false, code: 'BANNED' });

    const id = await player('jeanne');
    protection.setLimit(id, 'deposit', 50_000);
    protection.setLimit(id, 'stake', 50_000);
    protection.setLimit(id, 'time', 10 * HOUR_MS);
    expect(await deposit(id, 'd1', 10_000)).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    // A malformed replacement is refused naming its line; the copy in force stays.
    expect(replaceBanFile(t.dir, `${BAN_FILE_HEADER}\nnot a hash\n`)).toEqual({ ok: false, line: 2, message: expect.any(String) });
    expect(bans.size()).toBe(1);
    replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${banned}\n${identityHash(ADULT.lastName, ADULT.firstNames, ADULT.birthDate)}\n`);
    const login = await accounts.login('jeanne', 'jeanne password', { ip: '192.0.2.1' });
    expect(login).toMatchObject({ ok: true, account: { closed: 'banned' } });
    expect(await deposit(id, 'd2', 100)).toMatchObject({ ok: false, code: 'ACCOUNT_CLOSED' });
    wallet.openTable('cash', 'real');
    expect(wallet.buyIn(id, 'cash', 100, { idempotencyKey: 'b' })).toMatchObject({ ok: false, code: 'ACCOUNT_CLOSED' });
    expect(await cashier.withdraw(id, { requestId: 'w', amount: 10_000, card: TEST_CARDS.succeeds })).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    // The operator command: a bad file refused with its line, exit 1, nothing changed; a good one in force.
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), stopSignal: () => new Promise<void>(() => undefined) };
    writeFileSync(join(t.dir, 'new-bans.txt'), `${BAN_FILE_HEADER}\n${banned}\nxyz\n`);
    expect(await runCli(['bans', 'replace', join(t.dir, 'new-bans.txt'), '--data', t.dir], io)).toBe(1);
    expect(lines.pop()).toMatch(/line 3: .*unchanged/);
    expect(bans.size()).toBe(2);
    writeFileSync(join(t.dir, 'new-bans.txt'), `${BAN_FILE_HEADER}\n# export of 2026-11-25\n${banned}\n`);
    expect(await runCli(['bans', 'replace', join(t.dir, 'new-bans.txt'), '--data', t.dir], io)).toBe(0);
    expect(lines.pop()).toBe('ban file replaced: 1 identities in force');
    expect(bans.size()).toBe(1);
    expect(await runCli(['bans', 'replace', '--data', t.dir], io)).toBe(2);
    // Closing is for good: the account stays closed though its holder left the file.
    expect(await accounts.login('jeanne', 'jeanne password', { ip: '192.0.2.1' })).toMatchObject({ ok: true, account: { closed: 'banned' } });
    replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${banned}\n${identityHash(ADULT.lastName, ADULT.firstNames, ADULT.birthDate)}\n`);
    expect(bans.size()).toBe(2);
    // A file broken by hand (not through the command) keeps the last good copy.
    writeFileSync(join(t.dir, BAN_FILE_NAME), 'garbage\n');
    expect(bans.size()).toBe(2);
  });

  it('R-LIMITS: no deposit before the deposit limit, none over it (with the limit and when room frees up); lower at once, higher after 48 h', async () => {
    const id = await player('leo');
    expect(await deposit(id, 'd0', 100)).toMatchObject({ ok: false, code: 'LIMIT_NOT_SET', limit: 'deposit' });
    expect(protection.setLimit(id, 'deposit', 0)).toMatchObject({ ok: false, code: 'INVALID_LIMIT' });
    expect(protection.setLimit(id, 'deposit', 10_000)).toMatchObject({ ok: true, limit: { value: 10_000, pending: null } });
    const t0 = now;
    expect(await deposit(id, 'd1', 6_000)).toMatchObject({ ok: true });
    now += DAY_MS;
    expect(await deposit(id, 'd2', 5_000)).toMatchObject({ ok: false, code: 'DEPOSIT_LIMIT', limit: 10_000, used: 6_000, freeAt: t0 + PERIOD_MS });
    // A raise waits 48 hours, shown pending with its time.
    expect(protection.setLimit(id, 'deposit', 20_000)).toMatchObject({ ok: true, limit: { value: 10_000, pending: { value: 20_000, from: now + RAISE_DELAY_MS } } });
    expect(await deposit(id, 'd2', 5_000)).toMatchObject({ ok: false, code: 'DEPOSIT_LIMIT' });
    now += RAISE_DELAY_MS;
    expect(await deposit(id, 'd2', 5_000)).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    // A lower limit at once.
    protection.setLimit(id, 'deposit', 1_000);
    expect(await deposit(id, 'd3', 1)).toMatchObject({ ok: false, code: 'DEPOSIT_LIMIT', limit: 1_000 });
    // Declined payments do not count.
    expect(protection.view(id).counters.deposits).toBe(11_000);
    // The limits survive a restart.
    db.close();
    open();
    expect(protection.limits(id).deposit).toEqual({ value: 1_000, pending: null });
  });

  it('R-LIMITS, R-TIMELIMIT: a stake needs both the stake and the playing-time limit; over the stake limit refused where the wallet moves it', async () => {
    const id = await player('mia');
    protection.setLimit(id, 'deposit', 100_000);
    await deposit(id, 'd', 100_000);
    wallet.openTable('cash', 'real');
    wallet.openTable('play', 'play');
    expect(wallet.buyIn(id, 'cash', 2_000, { idempotencyKey: 'b1' })).toMatchObject({ ok: false, code: 'LIMIT_NOT_SET', limit: 'stake' });
    protection.setLimit(id, 'stake', 5_000);
    expect(wallet.buyIn(id, 'cash', 2_000, { idempotencyKey: 'b1' })).toMatchObject({ ok: false, code: 'LIMIT_NOT_SET', limit: 'time' });
    protection.setLimit(id, 'time', 2 * HOUR_MS);
    const t0 = now;
    expect(wallet.buyIn(id, 'cash', 2_000, { idempotencyKey: 'b1' })).toMatchObject({ ok: true });
    now += HOUR_MS;
    expect(wallet.topUp(id, 'cash', 2_000, { idempotencyKey: 't1' })).toMatchObject({ ok: true });
    expect(wallet.topUp(id, 'cash', 1_001, { idempotencyKey: 't2' })).toMatchObject({ ok: false, code: 'STAKE_LIMIT', limit: 5_000, used: 4_000, freeAt: t0 + PERIOD_MS });
    // Cash-outs are not stakes; play money is not limited.
    expect(wallet.cashOut(id, 'cash', 4_000, { idempotencyKey: 'c1' })).toMatchObject({ ok: true });
    wallet.grantPlay(id, 10_000, { idempotencyKey: 'g' });
    expect(wallet.buyIn(id, 'play', 10_000, { idempotencyKey: 'p1' })).toMatchObject({ ok: true });
    expect(protection.view(id).counters).toMatchObject({ deposits: 100_000, stakes: 4_000 });
    expect(wallet.audit().ok).toBe(true);
  });

  it('R-EXCLUDE: blocks stakes and deposits, allows withdrawals, survives a restart and cannot be shortened', async () => {
    const id = await player('noe');
    for (const k of ['deposit', 'stake'] as const) protection.setLimit(id, k, 100_000);
    protection.setLimit(id, 'time', HOUR_MS);
    await deposit(id, 'd', 5_000);
    expect(protection.exclude(id, { kind: 'days', days: 30 })).toMatchObject({ ok: true, exclusion: { from: now, until: now + 30 * DAY_MS } });
    const until = now + 30 * DAY_MS;
    db.close();
    open();
    expect(protection.exclude(id, { kind: 'days', days: 7 })).toMatchObject({ ok: false, code: 'EXCLUSION_CANNOT_SHORTEN', until });
    expect(await deposit(id, 'd2', 100)).toMatchObject({ ok: false, code: 'SELF_EXCLUDED', until });
    wallet.openTable('cash', 'real');
    expect(wallet.buyIn(id, 'cash', 100, { idempotencyKey: 'b' })).toMatchObject({ ok: false, code: 'SELF_EXCLUDED', until });
    expect(await cashier.withdraw(id, { requestId: 'w', amount: 5_000, card: TEST_CARDS.succeeds })).toMatchObject({ ok: true, payment: { state: 'confirmed' } });
    now = until;
    expect(wallet.buyIn(id, 'cash', 0 + 1, { idempotencyKey: 'b' })).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS' });
  });

  it('R-TIMELIMIT: two tables at once count once, a restart closes open stretches when last seen, warnings once each, the limit stops stakes until the period ends', async () => {
    const id = await player('olga');
    protection.setLimit(id, 'time', HOUR_MS);
    const anchor = now;
    expect(protection.warningsDue(id)).toMatchObject({ warnings: [] });
    protection.startStretch(id, 'a', now);
    now += 10 * MIN;
    protection.startStretch(id, 'b', now);
    protection.startStretch(id, 'b', now + MIN); // a repeat opens nothing
    now += 20 * MIN;
    protection.endStretch(id, 'a', now);
    expect(protection.timeUsed(id).used).toBe(30 * MIN);
    // 30 minutes of a 1-hour limit: the "near" warning (30 minutes before comes before 75 %), once.
    expect(protection.warningsDue(id)).toMatchObject({ warnings: ['near'], used: 30 * MIN, limit: HOUR_MS, periodEnd: anchor + PERIOD_MS });
    expect(protection.warningsDue(id)!.warnings).toEqual([]);
    expect(protection.untilNextWarning(id)).toBe(20 * MIN);
    now += 5 * MIN;
    protection.seen(id, now);
    // The operator dies here; it comes back an hour later: the stretch at b ends when last seen.
    db.close();
    now += HOUR_MS;
    open();
    expect(protection.closeOpenStretches()).toBe(1);
    expect(protection.timeUsed(id).used).toBe(35 * MIN);
    protection.startStretch(id, 'a', now);
    now += 25 * MIN;
    expect(protection.warningsDue(id)!.warnings).toEqual(['ten-minutes', 'reached']);
    for (const k of ['deposit', 'stake'] as const) protection.setLimit(id, k, 100_000);
    await deposit(id, 'd', 1_000);
    wallet.openTable('cash', 'real');
    expect(wallet.buyIn(id, 'cash', 100, { idempotencyKey: 'b' })).toMatchObject({ ok: false, code: 'TIME_LIMIT_REACHED', limit: HOUR_MS, freeAt: anchor + PERIOD_MS });
    protection.endStretch(id, 'a', now);
    // A higher limit waits 48 hours like the money limits; the next period starts afresh.
    expect(protection.setLimit(id, 'time', 2 * HOUR_MS)).toMatchObject({ limit: { value: HOUR_MS, pending: { value: 2 * HOUR_MS } } });
    now = anchor + PERIOD_MS;
    expect(protection.timeUsed(id)).toEqual({ used: 0, period: { from: anchor + PERIOD_MS, to: anchor + 2 * PERIOD_MS } });
    expect(wallet.buyIn(id, 'cash', 100, { idempotencyKey: 'b' })).toMatchObject({ ok: true });
    expect(protection.warningsDue(id)!.warnings).toEqual([]);
  });
});
