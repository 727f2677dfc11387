/**
 * Player accounts: registration, login, guest accounts for play money, and session tokens
 * (operator database, schema.ts).
 *
 * - Passwords are hashed with scrypt (node:crypto), a random salt per user, the parameters stored with
 *   the hash (`scrypt$N$r$p$salt$hash`, base64) so they can be raised later; compared in constant time.
 * - Login attempts are rate-limited (docs/security.md "Lock-out"): failures are
 *   counted per account and address, so guessing from one place locks that place out of that account
 *   and not the owner elsewhere; per address across accounts; and per account across addresses with
 *   a higher threshold, which slows a distributed guess without locking the owner out of an address
 *   the account has signed in from before. Each lock-out grows exponentially. Attempts for one
 *   account are serialised so parallel guesses cannot slip past the counter. Counters live in memory
 *   (a restart clears them).
 * - Sessions: a random 32-byte bearer token given to the client once, stored only as its SHA-256,
 *   expiring, revoked on logout. Each session also has a public `sessionId` (IDSession in the
 *   regulatory trace, A 1.3.6.c.1) that is not a credential.
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Db } from '../shared/node/sqlite';
import { DEFAULT_THROTTLE, LoginThrottle, addressKey, type ThrottlePolicy } from './login-throttle';
import type { BanCheck } from './protection/bans';
import { APOSTROPHES, dateInFrance, identityHashes, isAdult, legacyIdentityHashes, parseBirthDate } from './protection/identity';
import { refuse, type Refusal } from './result';

/** scrypt cost parameters. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** Default scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB, about 50-100 ms per hash on a desktop core). */
export const DEFAULT_SCRYPT: ScryptParams = { N: 1 << 15, r: 8, p: 1 };

/** Options for {@link Accounts}. */
export interface AccountsOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  readonly scrypt?: ScryptParams;
  readonly throttle?: Partial<ThrottlePolicy>;
  /** Session lifetime; default 12 hours. */
  readonly sessionTtlMs?: number;
  /** The operator's copy of the national ban file (R-BANNED; protection/bans.ts); none: nobody is banned. */
  readonly bans?: BanCheck;
}

/**
 * Who the holder of a real-money account is (R-AGE, R-BANNED, R-ONEACCOUNT): checked at registration
 * against their age, the ban file and the accounts already open, kept as the date of birth and the
 * hashes of the identity key (never the names themselves; protection/identity.ts). An account
 * registered without it plays for play money only (SPEC §2b: play-money practice is exempt), like a
 * guest.
 */
export interface Identity {
  readonly lastName: string;
  readonly firstNames: string;
  /** `YYYY-MM-DD`. */
  readonly birthDate: string;
}

/**
 * Names as typed: letters (any script's marks), spaces, hyphens and dashes, apostrophes of every form
 * (the identity key folds them all, R-ONEACCOUNT); 1 to 100 characters.
 */
const NAME_PATTERN = new RegExp(`^[\\p{L}\\p{M}][\\p{L}\\p{M}\\p{Zs}\\p{Pd}${APOSTROPHES}]{0,99}$`, 'u');

/**
 * Why an account is closed: its holder is on the national ban file (R-BANNED), the player closed it, or
 * excluded themselves permanently (R-EXCLUDE). Withdrawal and history stay open whatever the reason.
 */
export type ClosedReason = 'banned' | 'closed-by-player' | 'excluded-permanently';

/** An account as shown to the rest of the operator (never the password hash). */
export interface AccountView {
  readonly id: number;
  readonly username: string;
  /** Guest accounts play for play money only and have no password. */
  readonly guest: boolean;
  readonly createdAt: number;
  /** Registered with a checked identity (R-AGE, R-BANNED): may play for real money. */
  readonly identified: boolean;
  /** Why the account was closed (ClosedReason), or null. */
  readonly closed: string | null;
}

/** A session just opened: `token` is the bearer secret for the client, shown only this once. */
export interface SessionGrant {
  readonly token: string;
  readonly sessionId: string;
  readonly expiresAt: number;
}

/** A live session, as found by {@link Accounts.authenticate}. */
export interface SessionInfo {
  readonly sessionId: string;
  readonly ip: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Refusal codes of account operations. */
export type AccountRefusalCode =
  | 'INVALID_USERNAME'
  | 'USERNAME_TAKEN'
  | 'WEAK_PASSWORD'
  | 'INVALID_ADDRESS'
  | 'INVALID_CREDENTIALS'
  | 'RATE_LIMITED'
  | 'INVALID_SESSION'
  | 'SESSION_EXPIRED'
  | 'INVALID_IDENTITY'
  | 'UNDER_AGE'
  | 'BANNED'
  | 'IDENTITY_TAKEN';

/**
 * A nickname chosen after sign-in: 3 to 20 Latin letters
 * (accented allowed), digits, `_`, `.`, `-`, starting with a letter or digit, after NFC. Latin script
 * only, so a look-alike letter of another script cannot pass for a reserved prefix or another player
 * (R-NOBOT).
 */
export const NICKNAME_PATTERN = /^[\p{Script=Latin}0-9][\p{Script=Latin}0-9_.-]{2,19}$/u;

/** Username: 3 to 20 ASCII letters, digits, `_`, `.`, `-`, starting with a letter or digit. */
export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,19}$/;
/** Prefixes kept for accounts the operator creates itself (guests, labelled practice players). */
const RESERVED_PREFIXES = ['guest', 'practice'];
/** The prefix of the operator's practice players (R-NOBOT: labelled, never mistaken for a person). */
export const PRACTICE_PREFIX = 'practice';
export const PASSWORD_MIN_LENGTH = 8;
/** Bounds the work an attacker can make scrypt do per request. */
export const PASSWORD_MAX_LENGTH = 256;
const KEY_LENGTH = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function scryptAsync(password: string, salt: Buffer, keylen: number, params: ScryptParams): Promise<Buffer> {
  // maxmem must cover 128 * N * r bytes, above Node's 32 MiB default at N = 2^15.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCallback(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Hashes a password with a fresh random salt; returns `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return null;
  return { params: { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/** Checks a password against a stored hash, with the parameters stored in it, in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parseHash(stored);
  if (!h) throw new Error('stored password hash is not in the scrypt$N$r$p$salt$hash format');
  const key = await scryptAsync(password.normalize('NFC'), h.salt, h.key.length, h.params);
  return timingSafeEqual(key, h.key);
}

interface AccountRow {
  id: number;
  username: string;
  guest: number;
  password_hash: string | null;
  created_at: number;
  birth_date: string | null;
  /** The holder's identity hash (schema v10 comment): of key 2 when identity_key = 2, of key 1 when 1. */
  identity_hash: string | null;
  identity_key: number | null;
  /** The hash of key 1 of an account registered with key 2 (checked against a `cercle-bans 1` file). */
  legacy_identity_hash: string | null;
  closed_at: number | null;
  closed_reason: string | null;
}

interface SessionRow {
  session_id: string;
  account_id: number;
  ip: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

function view(r: AccountRow): AccountView {
  return { id: r.id, username: r.username, guest: r.guest === 1, createdAt: r.created_at, identified: r.birth_date !== null, closed: r.closed_reason };
}

/** An identity checked at registration (R-AGE, R-BANNED, R-ONEACCOUNT; protection/identity.ts). */
interface CheckedIdentity {
  readonly birthDate: string;
  /** The person's hash (key 2), stored in `accounts.identity_hash`. */
  readonly hash: string;
  /** Every hash of key 2 the names typed may stand for (`identityHashes`; `hash` first). */
  readonly hashes: readonly string[];
  /** The hashes of key 1 (`legacyIdentityHashes`), the first stored in `accounts.legacy_identity_hash`. */
  readonly legacy: readonly string[];
}

/**
 * R-ONEACCOUNT: the person already holds an account. The refusal says how to recover it and never
 * which account it is (its name would tell a stranger who knows someone's identity how to sign in).
 */
function identityTaken(): Refusal<'IDENTITY_TAKEN', { rule: string }> {
  return refuse(
    'IDENTITY_TAKEN',
    "this person already holds an account here (one account per person): sign in with it; if its name or password is forgotten, contact the operator's support, who will check your identity",
    { rule: 'R-ONEACCOUNT' },
  );
}

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Registration, login, guests and sessions over the operator database. */
export class Accounts {
  private readonly clock: () => number;
  private readonly scryptParams: ScryptParams;
  private readonly policy: ThrottlePolicy;
  private readonly sessionTtlMs: number;
  private readonly throttle: LoginThrottle;
  private readonly bans: BanCheck | undefined;
  private readonly queues = new Map<string, Promise<unknown>>();
  private dummyHash: Promise<string> | undefined;
  private readonly db: Db;
  private readonly q;

  /** `db` must have been opened with `openOperatorDatabase` (schema.ts). */
  constructor(db: Db, options: AccountsOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.scryptParams = options.scrypt ?? DEFAULT_SCRYPT;
    this.policy = { ...DEFAULT_THROTTLE, ...options.throttle };
    this.sessionTtlMs = options.sessionTtlMs ?? 12 * 3_600_000;
    this.throttle = new LoginThrottle(this.policy, this.clock);
    this.bans = options.bans;
    this.db = db;
    this.q = {
      byKey: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE username_key = ?'),
      byId: db.prepare<[number], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
      insert: db.prepare<[string, string, number, string | null, number]>(
        'INSERT INTO accounts(username, username_key, guest, password_hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(username_key) DO NOTHING',
      ),
      setHash: db.prepare<[string, number]>('UPDATE accounts SET password_hash = ? WHERE id = ?'),
      insertSession: db.prepare<[Buffer, string, number, string, number, number]>(
        'INSERT INTO sessions(token_hash, session_id, account_id, ip, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      sessionIps: db.prepare<[number], { ip: string }>('SELECT DISTINCT ip FROM sessions WHERE account_id = ?'),
      session: db.prepare<[Buffer], SessionRow>('SELECT session_id, account_id, ip, created_at, expires_at, revoked_at FROM sessions WHERE token_hash = ?'),
      revoke: db.prepare<[number, Buffer]>('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL'),
      rename: db.prepare<[string, string, number]>('UPDATE OR IGNORE accounts SET username = ?, username_key = ? WHERE id = ?'),
      revokeAll: db.prepare<[number, number]>('UPDATE sessions SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL'),
      insertHolder: db.prepare<[string, string, string, number, string, string, string]>(
        `INSERT INTO accounts(username, username_key, guest, password_hash, created_at, birth_date, identity_hash, identity_key, legacy_identity_hash)
         VALUES (?, ?, 0, ?, ?, ?, ?, 2, ?) ON CONFLICT(username_key) DO NOTHING`,
      ),
      personHeld: db.prepare<[string], { id: number }>('SELECT id FROM accounts WHERE identity_hash = ? AND identity_key = 2'),
      legacyHeld: db.prepare<[string], { id: number }>('SELECT id FROM accounts WHERE identity_hash = ? AND identity_key = 1'),
      close: db.prepare<[number, string, number]>('UPDATE accounts SET closed_at = ?, closed_reason = ? WHERE id = ? AND closed_at IS NULL'),
      openIdentified: db.prepare<[], { id: number; identity_hash: string; legacy_identity_hash: string | null }>(
        'SELECT id, identity_hash, legacy_identity_hash FROM accounts WHERE closed_at IS NULL AND identity_hash IS NOT NULL',
      ),
    };
  }

  /**
   * Creates a password account. Refuses a malformed or reserved name (`INVALID_USERNAME`), a name
   * already in use whatever its case (`USERNAME_TAKEN`), a password shorter than 8 or longer than 256
   * characters or equal to the name (`WEAK_PASSWORD`). With an identity, also a malformed one or a
   * minor's (R-AGE), a banned person (R-BANNED) and a person who already holds an account
   * (`IDENTITY_TAKEN`, R-ONEACCOUNT), each refusal naming its rule.
   */
  async register(username: string, password: string, identity?: Identity): Promise<{ ok: true; account: AccountView } | Refusal<AccountRefusalCode>> {
    const name = typeof username === 'string' ? username.normalize('NFC') : '';
    if (!USERNAME_PATTERN.test(name)) {
      return refuse('INVALID_USERNAME', 'a username has 3 to 20 letters, digits, "_", "." or "-", and starts with a letter or digit');
    }
    const key = name.toLowerCase();
    if (RESERVED_PREFIXES.some((p) => key.startsWith(p))) return refuse('INVALID_USERNAME', `names starting with ${RESERVED_PREFIXES.join(' or ')} are reserved`);
    if (typeof password !== 'string' || [...password].length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      return refuse('WEAK_PASSWORD', `a password has ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
    }
    if (password.toLowerCase() === key) return refuse('WEAK_PASSWORD', 'the password may not be the username');
    let checked: CheckedIdentity | null = null;
    if (identity !== undefined) {
      const c = this.checkIdentity(identity);
      if (!c.ok) return c;
      checked = c;
    }
    if (this.q.byKey.get(key)) return refuse('USERNAME_TAKEN', `the name ${name} is taken`);
    const hash = await hashPassword(password, this.scryptParams);
    if (checked) return this.insertHolder(name, key, hash, checked);
    // Checked again by the UNIQUE index: another registration may have taken the name during hashing.
    const info = this.q.insert.run(name, key, 0, hash, this.clock());
    if (info.changes === 0) return refuse('USERNAME_TAKEN', `the name ${name} is taken`);
    return { ok: true, account: view(this.q.byId.get(Number(info.lastInsertRowid))!) };
  }

  /**
   * R-ONEACCOUNT: the account of an identified holder, in one transaction with the check that no
   * account holds this person (another registration may have opened one during the password's
   * hashing). The UNIQUE index on the person's hash (schema v10) refuses a duplicate even so.
   */
  private insertHolder(name: string, key: string, passwordHash: string, c: CheckedIdentity): { ok: true; account: AccountView } | Refusal<AccountRefusalCode> {
    try {
      return this.db.transaction(() => {
        if (this.personTaken(c)) return identityTaken();
        const info = this.q.insertHolder.run(name, key, passwordHash, this.clock(), c.birthDate, c.hash, c.legacy[0]);
        if (info.changes === 0) return refuse('USERNAME_TAKEN', `the name ${name} is taken`);
        return { ok: true as const, account: view(this.q.byId.get(Number(info.lastInsertRowid))!) };
      })();
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /identity_hash/.test((e as Error).message)) return identityTaken();
      throw e;
    }
  }

  /**
   * R-ONEACCOUNT: does an account hold this person? An account of key 2 is compared by every hash of
   * key 2 the identity may stand for; an account registered before schema v10, which holds only the
   * hash of key 1, by the hashes of key 1 (protection/identity.ts).
   */
  private personTaken(c: CheckedIdentity): boolean {
    return c.hashes.some((h) => this.q.personHeld.get(h) !== undefined) || c.legacy.some((h) => this.q.legacyHeld.get(h) !== undefined);
  }

  /**
   * R-AGE, R-BANNED, R-ONEACCOUNT: a well-formed identity of an adult (French time) who is not on the
   * ban file and holds no account yet. Each refusal carries the rule it applies.
   */
  private checkIdentity(identity: Identity): ({ ok: true } & CheckedIdentity) | Refusal<'INVALID_IDENTITY' | 'UNDER_AGE' | 'BANNED' | 'IDENTITY_TAKEN', { rule: string }> {
    const { lastName, firstNames, birthDate } = identity ?? ({} as Identity);
    for (const [what, v] of [['last name', lastName], ['first names', firstNames]] as const) {
      if (typeof v !== 'string' || !NAME_PATTERN.test(v.normalize('NFC').trim())) {
        return refuse('INVALID_IDENTITY', `the ${what} has 1 to 100 letters, spaces, hyphens or apostrophes`, { rule: 'R-AGE' });
      }
    }
    const birth = typeof birthDate === 'string' ? parseBirthDate(birthDate) : null;
    if (!birth) return refuse('INVALID_IDENTITY', 'the date of birth is a date YYYY-MM-DD that exists', { rule: 'R-AGE' });
    // In the future by the French calendar, the one the age is reckoned by (not UTC's date).
    const today = dateInFrance(this.clock());
    if (birth.y * 10_000 + birth.m * 100 + birth.d > today.y * 10_000 + today.m * 100 + today.d) {
      return refuse('INVALID_IDENTITY', 'the date of birth is in the future', { rule: 'R-AGE' });
    }
    // R-AGE (law 2010-476 art. 26): no account for a person under 18.
    if (!isAdult(birth, this.clock())) return refuse('UNDER_AGE', 'you must be 18 or older to open a real-money account', { rule: 'R-AGE' });
    const hashes = identityHashes(lastName, firstNames, birthDate);
    const legacy = legacyIdentityHashes(lastName, firstNames, birthDate);
    // R-BANNED: a person on the national ban file cannot open an account, however the names are
    // typed (look-alike letters, apostrophes); a file of either version (protection/identity.ts).
    if ([...hashes, ...legacy].some((h) => this.bans?.isBanned(h))) {
      return refuse('BANNED', 'this person is on the national file of gambling bans: no account can be opened', { rule: 'R-BANNED' });
    }
    const checked: CheckedIdentity = { birthDate, hash: hashes[0], hashes, legacy };
    // R-ONEACCOUNT: one account per person, so that limits, playing time and exclusions are the person's.
    if (this.personTaken(checked)) return identityTaken();
    return { ok: true, ...checked };
  }

  /**
   * R-BANNED: checks an account's holder against the ban file (at each login and resume); a holder who
   * became banned has their account closed, for good: they can still sign in to withdraw their money
   * and read their history, and can neither deposit nor play (protection/service.ts).
   */
  private checkBanned(row: AccountRow): AccountRow {
    // The person's hash, and for an account of key 2 its hash of key 1 too (a `cercle-bans 1` file).
    const banned = [row.identity_hash, row.legacy_identity_hash].some((h) => h !== null && this.bans?.isBanned(h));
    if (row.closed_at === null && banned) {
      this.q.close.run(this.clock(), 'banned', row.id);
      return this.q.byId.get(row.id)!;
    }
    return row;
  }

  /**
   * R-BANNED: every open account whose holder is on the ban file `banned` (the copy in force, read once
   * for the whole scan) is closed now, signed in or not; returns their ids. Called when a new copy is
   * put in force (protection/ban-watch.ts) and at the operator's start.
   */
  closeBanned(banned: ReadonlySet<string>): number[] {
    if (banned.size === 0) return [];
    const at = this.clock();
    return this.db
      .transaction(() =>
        this.q.openIdentified
          .all()
          // As at login (checkBanned): the person's hash, and its hash of key 1 (a `cercle-bans 1` file).
          .filter((r) => (banned.has(r.identity_hash) || (r.legacy_identity_hash !== null && banned.has(r.legacy_identity_hash))) && this.q.close.run(at, 'banned', r.id).changes === 1)
          .map((r) => r.id),
      )
      .immediate();
  }

  /**
   * Closes an account for good (R-EXCLUDE: the player closes it, or excludes themselves permanently;
   * R-BANNED): no play, deposit or tournament from now on; sign-in, withdrawal and history stay open.
   * False when it was closed already (the first reason stays).
   */
  close(accountId: number, reason: ClosedReason): boolean {
    return this.q.close.run(this.clock(), reason, accountId).changes === 1;
  }

  /**
   * Checks a username and password and opens a session. Unknown names and wrong passwords give the
   * same `INVALID_CREDENTIALS` (and take the same time); after too many failures for the account or
   * from the address, `RATE_LIMITED` with `retryAfterMs`, without checking the password at all.
   */
  async login(
    username: string,
    password: string,
    client: { ip: string },
  ): Promise<{ ok: true; account: AccountView; session: SessionGrant } | Refusal<AccountRefusalCode> | Refusal<'RATE_LIMITED', { retryAfterMs: number }>> {
    const ipKey = addressKey(client?.ip ?? '');
    if (ipKey === null) return refuse('INVALID_ADDRESS', 'the client address is not an IP address');
    const name = typeof username === 'string' ? username.normalize('NFC').toLowerCase().slice(0, 64) : '';
    const accountKey = `account:${name}`;
    const pairKey = `pair:${name}|${ipKey}`;
    const addrKey = `ip:${ipKey}`;
    // One attempt at a time per account: a burst of parallel guesses is counted one by one.
    return this.serialised(accountKey, async () => {
      const row = this.q.byKey.get(name);
      // The account-wide lock (a distributed guess) does not shut the owner out of an
      // address the account has signed in from; the lock of this account from this address does.
      const known = row !== undefined && this.q.sessionIps.all(row.id).some((s) => addressKey(s.ip) === ipKey);
      const wait = Math.max(this.throttle.retryAfter(pairKey), this.throttle.retryAfter(addrKey), known ? 0 : this.throttle.retryAfter(accountKey));
      if (wait > 0) return refuse('RATE_LIMITED', `too many failed attempts; try again in ${Math.ceil(wait / 1000)} s`, { retryAfterMs: wait });

      const pw = typeof password === 'string' && password.length <= PASSWORD_MAX_LENGTH ? password : '';
      let good = false;
      if (row && row.password_hash !== null) {
        good = (await verifyPassword(pw, row.password_hash)) && pw.length > 0;
      } else {
        // Same work for an unknown name, so timing does not tell which names exist.
        await verifyPassword(pw, await (this.dummyHash ??= hashPassword('not a password', this.scryptParams)));
      }
      if (!row || !good) {
        this.throttle.fail(pairKey, this.policy.accountMaxFailures);
        this.throttle.fail(accountKey, this.policy.accountGlobalMaxFailures);
        this.throttle.fail(addrKey, this.policy.ipMaxFailures);
        return refuse('INVALID_CREDENTIALS', 'unknown username or wrong password');
      }
      // The address counter is not cleared by a success: one valid account must not reset it for guessing
      // at others; nor is the account-wide one: the owner signing in must not refill a distributed guess.
      this.throttle.clear(pairKey);
      if (this.weakerThanCurrent(row.password_hash!)) this.q.setHash.run(await hashPassword(pw, this.scryptParams), row.id);
      return { ok: true, account: view(this.checkBanned(row)), session: this.openSession(row.id, client.ip) };
    });
  }

  /** Creates a guest account (name `guest-xxxxxxxx`, no password, play money only) and opens its session. */
  createGuest(client: { ip: string }): { ok: true; account: AccountView; session: SessionGrant } | Refusal<'INVALID_ADDRESS'> {
    if (addressKey(client?.ip ?? '') === null) return refuse('INVALID_ADDRESS', 'the client address is not an IP address');
    for (;;) {
      const name = `guest-${randomBytes(4).toString('hex')}`;
      const info = this.q.insert.run(name, name, 1, null, this.clock());
      if (info.changes === 1) {
        const id = Number(info.lastInsertRowid);
        return { ok: true, account: view(this.q.byId.get(id)!), session: this.openSession(id, client.ip) };
      }
    }
  }

  /**
   * The operator's practice player `name` (DESIGN.md §3 "The embedded default"), created on first use:
   * the name must start with the reserved `practice` prefix, which no person may register, so a
   * practice player can never be mistaken for a person nor a person pass for one (R-NOBOT). Like a
   * guest it has no password (no one can log in as it) and holds play money only (the wallet refuses
   * real money to guest accounts); it has no session either: it plays only through the operator.
   * Asking again for the same name returns the same account; a name held by anything but a practice
   * account is refused.
   */
  createPracticeAccount(name: string): { ok: true; account: AccountView } | Refusal<'INVALID_USERNAME' | 'USERNAME_TAKEN'> {
    const n = typeof name === 'string' ? name.normalize('NFC') : '';
    const key = n.toLowerCase();
    if (!USERNAME_PATTERN.test(n) || !key.startsWith(PRACTICE_PREFIX)) {
      return refuse('INVALID_USERNAME', `a practice player's name starts with "${PRACTICE_PREFIX}" and has 3 to 20 letters, digits, "_", "." or "-"`);
    }
    this.q.insert.run(n, key, 1, null, this.clock());
    const row = this.q.byKey.get(key)!;
    // A guest row (no password) under the reserved prefix: only this method creates those.
    if (row.guest !== 1 || row.password_hash !== null) return refuse('USERNAME_TAKEN', `the name ${n} is held by another kind of account`);
    return { ok: true, account: view(row) };
  }

  /**
   * Gives an account a new name (its username: seats, hand histories and the client show it; the
   * regulatory trace names players by account id, so it is unaffected). The caller checks the account
   * is seated nowhere (server/routes/session.ts, NAME_WHILE_SEATED), so a name never changes during a hand.
   * Refuses a malformed name or one with a reserved prefix (`INVALID_USERNAME`: no one may pass for a
   * guest or a practice player, R-NOBOT), and a name another account holds in any case
   * (`USERNAME_TAKEN`). Changing only the case of one's own name is allowed. A password account signs
   * in with its new name from then on.
   */
  rename(accountId: number, username: string): { ok: true; account: AccountView } | Refusal<'INVALID_USERNAME' | 'USERNAME_TAKEN'> {
    const name = typeof username === 'string' ? username.normalize('NFC') : '';
    if (!NICKNAME_PATTERN.test(name)) {
      return refuse('INVALID_USERNAME', 'a nickname has 3 to 20 letters, digits, "_", "." or "-", and starts with a letter or digit');
    }
    const key = name.toLowerCase();
    if (RESERVED_PREFIXES.some((p) => key.startsWith(p))) return refuse('INVALID_USERNAME', `names starting with ${RESERVED_PREFIXES.join(' or ')} are reserved`);
    const holder = this.q.byKey.get(key);
    if (holder && holder.id !== accountId) return refuse('USERNAME_TAKEN', `the name ${name} is taken`);
    // OR IGNORE: the UNIQUE index still refuses a name another account took meanwhile.
    if (this.q.rename.run(name, key, accountId).changes === 0) {
      if (!this.q.byId.get(accountId)) throw new Error(`no account ${accountId}`);
      return refuse('USERNAME_TAKEN', `the name ${name} is taken`);
    }
    return { ok: true, account: view(this.q.byId.get(accountId)!) };
  }

  /** Finds the live session of a bearer token: `INVALID_SESSION` if unknown or revoked, `SESSION_EXPIRED` if past its time. */
  authenticate(token: string): { ok: true; account: AccountView; session: SessionInfo } | Refusal<'INVALID_SESSION' | 'SESSION_EXPIRED'> {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return refuse('INVALID_SESSION', 'not a session token');
    const s = this.q.session.get(tokenHash(token));
    if (!s || s.revoked_at !== null) return refuse('INVALID_SESSION', 'unknown or closed session');
    if (this.clock() >= s.expires_at) return refuse('SESSION_EXPIRED', 'the session has expired; log in again');
    const account = this.checkBanned(this.q.byId.get(s.account_id)!);
    return { ok: true, account: view(account), session: { sessionId: s.session_id, ip: s.ip, createdAt: s.created_at, expiresAt: s.expires_at } };
  }

  /** Revokes the session of a token (logout). Returns whether a live session was closed. */
  logout(token: string): boolean {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return false;
    return this.q.revoke.run(this.clock(), tokenHash(token)).changes === 1;
  }

  /** Revokes every open session of an account (e.g. after a password change); returns how many. */
  revokeSessions(accountId: number): number {
    return this.q.revokeAll.run(this.clock(), accountId).changes;
  }

  /** The account with this id, if any. */
  getAccount(id: number): AccountView | undefined {
    const r = this.q.byId.get(id);
    return r ? view(r) : undefined;
  }

  /** The account with this name (any case), if any. */
  findByUsername(username: string): AccountView | undefined {
    const r = this.q.byKey.get(username.normalize('NFC').toLowerCase());
    return r ? view(r) : undefined;
  }

  private openSession(accountId: number, ip: string): SessionGrant {
    const token = randomBytes(32).toString('base64url');
    const sessionId = randomBytes(12).toString('hex');
    const now = this.clock();
    const expiresAt = now + this.sessionTtlMs;
    this.q.insertSession.run(tokenHash(token), sessionId, accountId, ip, now, expiresAt);
    return { token, sessionId, expiresAt };
  }

  private weakerThanCurrent(stored: string): boolean {
    const h = parseHash(stored);
    const c = this.scryptParams;
    return !h || h.params.N < c.N || h.params.r < c.r || h.params.p < c.p || h.key.length < KEY_LENGTH;
  }

  private serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(key) ?? Promise.resolve();
    const run = prev.then(task, task);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }
}
