import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Accounts, DEFAULT_SCRYPT, hashPassword, verifyPassword, type ScryptParams } from './accounts';
import { addressKey } from './login-throttle';
import type { Db } from '../shared/node/sqlite';
import { openOperatorDatabase } from './schema';
import { Wallet } from './wallet';
import { tempDir } from '../tests/support/operator/temp-dir';

// Cheap scrypt for the many logins below; the default cost is exercised once on its own.
const FAST: ScryptParams = { N: 1 << 10, r: 8, p: 1 };

describe('accounts', () => {
  let t: ReturnType<typeof tempDir>;
  let db: Db;
  let now: number;
  let accounts: Accounts;
  const clock = () => now;
  const ip = { ip: '203.0.113.7' };

  beforeEach(() => {
    t = tempDir();
    db = openOperatorDatabase(join(t.dir, 'op.sqlite'));
    now = Date.UTC(2025, 0, 1);
    accounts = new Accounts(db, { clock, scrypt: FAST });
  });
  afterEach(() => {
    db.close();
    t.cleanup();
  });

  it('registers, logs in, authenticates the token and logs out', async () => {
    const reg = await accounts.register('Alice_01', 'correct horse battery');
    expect(reg).toMatchObject({ ok: true, account: { username: 'Alice_01', guest: false } });
    const login = await accounts.login('alice_01', 'correct horse battery', ip);
    if (!login.ok) throw new Error(login.message);
    expect(login.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const auth = accounts.authenticate(login.session.token);
    expect(auth).toMatchObject({ ok: true, account: { username: 'Alice_01' }, session: { sessionId: login.session.sessionId, ip: '203.0.113.7' } });
    expect(accounts.logout(login.session.token)).toBe(true);
    expect(accounts.authenticate(login.session.token)).toMatchObject({ ok: false, code: 'INVALID_SESSION' });
    expect(accounts.logout(login.session.token)).toBe(false);
  });

  it('stores the password as salted scrypt with its parameters, and the session token only hashed', async () => {
    await accounts.register('bob', 'same password 1');
    await accounts.register('carol', 'same password 1');
    const login = await accounts.login('bob', 'same password 1', ip);
    if (!login.ok) throw new Error(login.message);
    db.close();
    const raw = new Database(join(t.dir, 'op.sqlite'), { readonly: true });
    const hashes = raw.prepare('SELECT password_hash FROM accounts ORDER BY id').pluck().all() as string[];
    expect(hashes[0]).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(hashes[0]).not.toBe(hashes[1]); // per-user salt
    expect(hashes.join()).not.toContain('same password');
    const dump = JSON.stringify(raw.prepare('SELECT hex(token_hash) h, * FROM sessions').all());
    expect(dump).not.toContain(login.session.token);
    expect(dump).not.toContain(Buffer.from(login.session.token, 'base64url').toString('hex').toUpperCase());
    raw.close();
    db = openOperatorDatabase(join(t.dir, 'op.sqlite'));
  });

  it('validates usernames and passwords, and names are unique whatever their case', async () => {
    for (const bad of ['ab', 'a'.repeat(21), '-alice', 'al ice', 'alicé', 'guest-1234', 'Practice7', '']) {
      expect(await accounts.register(bad, 'long enough pw')).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    }
    expect(await accounts.register('dave', 'short')).toMatchObject({ ok: false, code: 'WEAK_PASSWORD' });
    expect(await accounts.register('dave', 'x'.repeat(257))).toMatchObject({ ok: false, code: 'WEAK_PASSWORD' });
    expect(await accounts.register('davedave', 'DaveDave')).toMatchObject({ ok: false, code: 'WEAK_PASSWORD' });
    expect(await accounts.register('dave', 'good password')).toMatchObject({ ok: true });
    expect(await accounts.register('DAVE', 'other password')).toMatchObject({ ok: false, code: 'USERNAME_TAKEN' });
    // Two registrations racing for one name: exactly one wins.
    const race = await Promise.all([accounts.register('erin', 'password one'), accounts.register('Erin', 'password two')]);
    expect(race.filter((r) => r.ok)).toHaveLength(1);
    expect(race.find((r) => !r.ok)).toMatchObject({ code: 'USERNAME_TAKEN' });
  });

  it('unknown names and wrong passwords are the same refusal', async () => {
    await accounts.register('frank', 'frank password');
    const wrong = await accounts.login('frank', 'not it at all', ip);
    const unknown = await accounts.login('nobody', 'frank password', ip);
    expect(wrong).toMatchObject({ ok: false, code: 'INVALID_CREDENTIALS' });
    expect(unknown).toMatchObject({ ok: false, code: 'INVALID_CREDENTIALS' });
    expect(!wrong.ok && !unknown.ok && wrong.message === unknown.message).toBe(true);
    expect(await accounts.login('frank', 'frank password', { ip: 'not-an-ip' })).toMatchObject({ ok: false, code: 'INVALID_ADDRESS' });
  });

  it('locks an account from an address after 5 failures there, doubling the lock-out, and a success resets it', async () => {
    await accounts.register('grace', 'grace password');
    for (let i = 0; i < 5; i++) expect(await accounts.login('grace', `wrong ${i}`, ip)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    // Locked now from this address: even the right password is not checked.
    const locked = await accounts.login('grace', 'grace password', ip);
    expect(locked).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryAfterMs: 30_000 });
    // Not from another address (the owner is not locked out by a stranger's guesses).
    expect(await accounts.login('grace', 'grace password', { ip: '198.51.100.1' })).toMatchObject({ ok: true });
    now += 30_000;
    expect(await accounts.login('grace', 'wrong 5', ip)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await accounts.login('grace', 'grace password', ip)).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 60_000 });
    now += 59_999;
    expect(await accounts.login('grace', 'grace password', ip)).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 1 });
    now += 1;
    expect(await accounts.login('grace', 'grace password', ip)).toMatchObject({ ok: true });
    // Reset: five fresh failures are allowed again.
    for (let i = 0; i < 5; i++) expect(await accounts.login('grace', `wrong ${i}`, ip)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await accounts.login('grace', 'grace password', ip)).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('caps the lock-out and forgets failures after a quiet day', async () => {
    const short = new Accounts(db, { clock, scrypt: FAST, throttle: { accountMaxFailures: 1, baseLockMs: 1000, maxLockMs: 4000 } });
    await short.register('heidi', 'heidi password');
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await short.login('heidi', 'wrong', ip);
      const r = await short.login('heidi', 'heidi password', ip);
      waits.push(r.ok ? 0 : (r as { retryAfterMs: number }).retryAfterMs);
      now += 10_000;
    }
    expect(waits).toEqual([1000, 2000, 4000, 4000, 4000, 4000]);
    now += 86_400_000;
    await short.login('heidi', 'wrong', ip);
    expect(await short.login('heidi', 'heidi password', ip)).toMatchObject({ retryAfterMs: 1000 });
  });

  it('locks an address after 20 failures across accounts, whichever account it then tries', async () => {
    await accounts.register('ivan', 'ivan password');
    for (let i = 0; i < 20; i++) await accounts.login(`user${i}`, 'whatever pw', { ip: '2001:db8:1:2::10' });
    // Same /64, another interface id: still the same address for throttling.
    expect(await accounts.login('ivan', 'ivan password', { ip: '2001:db8:1:2:abcd::99' })).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await accounts.login('ivan', 'ivan password', { ip: '2001:db8:1:3::10' })).toMatchObject({ ok: true });
  });

  it('slows a guess spread over many addresses (50 failures in all) without locking the owner out of an address the account used', async () => {
    await accounts.register('kate', 'kate password');
    expect(await accounts.login('kate', 'kate password', { ip: '192.0.2.77' })).toMatchObject({ ok: true });
    for (let a = 0; a < 10; a++) for (let i = 0; i < 5; i++) await accounts.login('kate', `guess ${a}.${i}`, { ip: `203.0.113.${100 + a}` });
    // A new address: locked (the right password is not even checked).
    expect(await accounts.login('kate', 'kate password', { ip: '198.51.100.50' })).toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 30_000 });
    // The owner's address: in.
    expect(await accounts.login('kate', 'kate password', { ip: '192.0.2.77' })).toMatchObject({ ok: true });
  });

  it('counts parallel guesses one by one', async () => {
    await accounts.register('judy', 'judy password');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => accounts.login('judy', `guess ${i}`, ip)));
    expect(results.filter((r) => !r.ok && r.code === 'INVALID_CREDENTIALS')).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.code === 'RATE_LIMITED')).toHaveLength(7);
  });

  it('expires sessions, and revokes all sessions of an account', async () => {
    const ttl = new Accounts(db, { clock, scrypt: FAST, sessionTtlMs: 1000 });
    await ttl.register('ken', 'ken password');
    const a = await ttl.login('ken', 'ken password', ip);
    const b = await ttl.login('ken', 'ken password', ip);
    if (!a.ok || !b.ok) throw new Error('login failed');
    expect(a.session.token).not.toBe(b.session.token);
    now += 999;
    expect(ttl.authenticate(a.session.token)).toMatchObject({ ok: true });
    now += 1;
    expect(ttl.authenticate(a.session.token)).toMatchObject({ ok: false, code: 'SESSION_EXPIRED' });
    now -= 500;
    expect(ttl.revokeSessions(a.account.id)).toBe(2);
    expect(ttl.authenticate(b.session.token)).toMatchObject({ ok: false, code: 'INVALID_SESSION' });
    expect(ttl.authenticate('x'.repeat(43))).toMatchObject({ ok: false, code: 'INVALID_SESSION' });
    expect(ttl.authenticate('short')).toMatchObject({ ok: false, code: 'INVALID_SESSION' });
  });

  it('creates guest accounts with a session and no password', async () => {
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    expect(g.account).toMatchObject({ guest: true });
    expect(g.account.username).toMatch(/^guest-[0-9a-f]{8}$/);
    expect(accounts.authenticate(g.session.token)).toMatchObject({ ok: true, account: { id: g.account.id, guest: true } });
    expect(await accounts.login(g.account.username, '', ip)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(accounts.createGuest({ ip: 'nowhere' })).toMatchObject({ ok: false, code: 'INVALID_ADDRESS' });
  });

  it('creates practice accounts under the reserved prefix only: no password, no session, play money only, one per name', async () => {
    const p = accounts.createPracticeAccount('practice-01');
    if (!p.ok) throw new Error(p.message);
    expect(p.account).toMatchObject({ username: 'practice-01', guest: true });
    // Asking again gives the same account; the name is reserved whatever its case.
    expect(accounts.createPracticeAccount('Practice-01')).toEqual({ ok: true, account: p.account });
    expect(await accounts.register('practice-01', 'some long password')).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    expect(await accounts.register('PRACTICE-99', 'some long password')).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    // Only names under the prefix, in the username pattern.
    for (const bad of ['guest-01', 'alice', 'practice-' + 'x'.repeat(20), 'practice 01', '', 42 as unknown as string]) {
      expect(accounts.createPracticeAccount(bad)).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    }
    // No one can log in as it, and its wallet takes play money only.
    expect(await accounts.login('practice-01', '', ip)).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const wallet = new Wallet(db);
    expect(wallet.deposit(p.account.id, 100, { idempotencyKey: 'd1' })).toMatchObject({ ok: false, code: 'GUEST_REAL_MONEY' });
    expect(wallet.grantPlay(p.account.id, 100, { idempotencyKey: 'g1' })).toMatchObject({ ok: true });
    expect(db.prepare('SELECT COUNT(*) FROM sessions WHERE account_id = ?').pluck().get(p.account.id)).toBe(0);
  });

  it('rehashes a password stored with a weaker cost at the next login', async () => {
    await accounts.register('leo', 'leo password');
    const stronger = new Accounts(db, { clock, scrypt: { N: 1 << 11, r: 8, p: 1 } });
    expect(await stronger.login('leo', 'leo password', ip)).toMatchObject({ ok: true });
    const stored = db.prepare("SELECT password_hash FROM accounts WHERE username = 'leo'").pluck().get() as string;
    expect(stored.startsWith('scrypt$2048$8$1$')).toBe(true);
    expect(await stronger.login('leo', 'leo password', ip)).toMatchObject({ ok: true });
  });
  // A nickname chosen at sign-in instead of "guest-5e07b…".
  it('renames a guest to a valid nickname, accented letters allowed, and it stays a guest', () => {
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    const r = accounts.rename(g.account.id, 'Zoé.Lefèvre-2');
    expect(r).toMatchObject({ ok: true, account: { id: g.account.id, username: 'Zoé.Lefèvre-2', guest: true } });
    expect(accounts.findByUsername('ZOÉ.LEFÈVRE-2')?.id).toBe(g.account.id);
    expect(accounts.authenticate(g.session.token)).toMatchObject({ ok: true, account: { username: 'Zoé.Lefèvre-2', guest: true } });
    // Changing only the case of one's own name is allowed.
    expect(accounts.rename(g.account.id, 'zoé.lefèvre-2')).toMatchObject({ ok: true, account: { username: 'zoé.lefèvre-2' } });
  });

  it('refuses a nickname another account holds, whatever its case', async () => {
    await accounts.register('Alice_01', 'correct horse battery');
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    expect(accounts.rename(g.account.id, 'ALICE_01')).toMatchObject({ ok: false, code: 'USERNAME_TAKEN' });
    const other = accounts.createGuest(ip);
    if (!other.ok) throw new Error(other.message);
    expect(accounts.rename(g.account.id, other.account.username.toUpperCase())).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    expect(accounts.getAccount(g.account.id)?.username).toBe(g.account.username);
  });

  it('refuses the reserved guest and practice prefixes (R-NOBOT) and look-alike letters of other scripts', () => {
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    for (const name of ['guest-5e07b1c2', 'Guest-zoe', 'practice-Ana', 'PRACTICE1', 'gu\u0435st-x' /* Cyrillic е */]) {
      expect(accounts.rename(g.account.id, name), name).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    }
    expect(accounts.getAccount(g.account.id)?.username).toBe(g.account.username);
  });

  it('refuses bad characters and lengths', () => {
    const g = accounts.createGuest(ip);
    if (!g.ok) throw new Error(g.message);
    for (const name of ['ab', 'a'.repeat(21), 'zoé lefèvre', '-zoe', '_zoe', 'zoe!', 'zoé@x', 'zo<e>', '', '   ', 'zoe\u0000x', '😀😀😀']) {
      expect(accounts.rename(g.account.id, name), JSON.stringify(name)).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    }
    expect(accounts.rename(g.account.id, 'é'.repeat(20))).toMatchObject({ ok: true });
    expect(accounts.rename(g.account.id, 123 as unknown as string)).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
  });

  it('a renamed password account signs in with its new name only', async () => {
    const reg = await accounts.register('Alice_01', 'correct horse battery');
    if (!reg.ok) throw new Error(reg.message);
    expect(accounts.rename(reg.account.id, 'Alicia')).toMatchObject({ ok: true });
    expect(await accounts.login('alicia', 'correct horse battery', ip)).toMatchObject({ ok: true, account: { username: 'Alicia' } });
    expect(await accounts.login('Alice_01', 'correct horse battery', ip)).toMatchObject({ ok: false, code: 'INVALID_CREDENTIALS' });
  });
});

describe('password hashing', () => {
  it('uses the default cost (N = 2^15) and verifies only the right password', async () => {
    const h = await hashPassword('pässwörd ok', DEFAULT_SCRYPT);
    expect(h.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('pässwörd ok', h)).toBe(true);
    // NFC and NFD spellings of the same text are one password.
    expect(await verifyPassword('pässwörd ok'.normalize('NFD'), h)).toBe(true);
    expect(await verifyPassword('passwörd ok', h)).toBe(false);
  });
});

describe('addressKey', () => {
  it('keys IPv4 as is and IPv6 by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:0db8:0000:0000:1:2:3:4')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('localhost')).toBeNull();
  });
});
