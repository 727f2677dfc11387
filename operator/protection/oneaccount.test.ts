import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { Accounts } from '../accounts';
import { openDatabase, type Db } from '../../shared/node/sqlite';
import { fairPlayReport, formatFairPlayReport } from '../fairplay/fairplay';
import { duplicateIdentities } from '../fairplay/identities';
import { OPERATOR_MIGRATIONS, openOperatorDatabase } from '../schema';
import { BAN_FILE_NAME, BanList } from './bans';
import { identityHash } from './identity';

const ZOE = { lastName: 'Lefèvre', firstNames: 'Zoé Anne', birthDate: '1990-05-04' };
const JEAN = { lastName: "Lefèvre-d'Arc", firstNames: 'Jean', birthDate: '1985-12-31' };
const FAST = { N: 1 << 10, r: 8, p: 1 };
const NOW = Date.UTC(2026, 10, 25, 12);

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The identity key of ban files `cercle-bans 1` and of accounts before schema v10, written out here. */
const keyOneHash = (i: { lastName: string; firstNames: string; birthDate: string }) => {
  const n = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toUpperCase().replace(/[\s\-'’]+/gu, ' ').trim();
  return sha256(`${n(i.lastName)}\n${n(i.firstNames)}\n${i.birthDate}`);
};

describe('one account per person and look-alike-proof bans (R-ONEACCOUNT, R-BANNED)', () => {
  let t: ReturnType<typeof tempDir>;
  let db: Db;
  let accounts: Accounts;
  const banFile = (text: string) => writeFileSync(join(t.dir, BAN_FILE_NAME), text);

  beforeEach(() => {
    t = tempDir();
    db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
    accounts = new Accounts(db, { scrypt: FAST, clock: () => NOW, bans: new BanList(t.dir) });
  });
  afterEach(() => {
    db.close();
    t.cleanup();
  });

  it('the same person spelt otherwise is refused with IDENTITY_TAKEN, told how to recover the account, whose name stays untold', async () => {
    expect(await accounts.register('zoe_l', 'zoe password', ZOE)).toMatchObject({ ok: true });
    const spellings = [
      { lastName: 'LEFEVRE', firstNames: 'zoe anne' },
      { lastName: ' lefèvre ', firstNames: 'Zoé-Anne' },
      { lastName: 'Lefévre', firstNames: 'ZOÉ  ANNE' },
      // U+0435 Cyrillic е, U+0410 Cyrillic А.
      { lastName: 'Lefеvre', firstNames: 'Zoé Аnne' },
    ];
    for (const [i, s] of spellings.entries()) {
      const r = await accounts.register(`other${i}`, 'other password', { ...ZOE, ...s });
      expect(r, JSON.stringify(s)).toMatchObject({ ok: false, code: 'IDENTITY_TAKEN', rule: 'R-ONEACCOUNT' });
      expect(r.ok ? '' : r.message).toMatch(/sign in with it.*support/);
      expect(r.ok ? '' : r.message).not.toContain('zoe_l');
      expect(accounts.findByUsername(`other${i}`)).toBeUndefined();
    }
    // The account the person holds signs in as before.
    expect(await accounts.login('zoe_l', 'zoe password', { ip: '127.0.0.1' })).toMatchObject({ ok: true, account: { username: 'zoe_l', identified: true } });
    // Another person: Martin and Martín are one name, told apart by the date of birth.
    expect(await accounts.register('martin', 'martin password', { lastName: 'Martin', firstNames: 'Jean', birthDate: '1990-05-04' })).toMatchObject({ ok: true });
    expect(await accounts.register('martin2', 'martin password', { lastName: 'Martín', firstNames: 'Jean', birthDate: '1990-05-05' })).toMatchObject({ ok: true });
    expect(await accounts.register('martin3', 'martin password', { lastName: 'Martín', firstNames: 'Jean', birthDate: '1990-05-04' })).toMatchObject({ code: 'IDENTITY_TAKEN' });
  });

  it('two registrations of one person at once open one account (the check and the UNIQUE index)', async () => {
    const [a, b] = await Promise.all([accounts.register('first', 'first password', ZOE), accounts.register('second', 'second password', { ...ZOE, lastName: 'LEFEVRE' })]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect([a, b].find((r) => !r.ok)).toMatchObject({ code: 'IDENTITY_TAKEN' });
    // The database itself refuses a second row of one person.
    const hash = db.prepare('SELECT identity_hash FROM accounts WHERE identity_key = 2').pluck().get() as string;
    expect(hash).toBe(identityHash(ZOE.lastName, ZOE.firstNames, ZOE.birthDate));
    expect(() =>
      db
        .prepare("INSERT INTO accounts(username, username_key, guest, password_hash, created_at, birth_date, identity_hash, identity_key) VALUES ('x', 'x', 0, 'h', 0, '1990-05-04', ?, 2)")
        .run(hash),
    ).toThrow(/UNIQUE/);
  });

  it('look-alikes of a banned name are refused, whatever the version of the ban file', async () => {
    const disguises = [
      { ...JEAN, lastName: 'Lefèvre-dʼArc' }, // U+02BC modifier letter apostrophe
      { ...JEAN, lastName: "Lefеvre-d'Arc" }, // U+0435 Cyrillic е
      { ...JEAN, lastName: 'LEFÈVRE–D‘ARC' }, // en dash, left quotation mark
    ];
    for (const file of [`cercle-bans 1\n${keyOneHash(JEAN)}\n`, `cercle-bans 2\n${identityHash(JEAN.lastName, JEAN.firstNames, JEAN.birthDate)}\n`]) {
      banFile(file);
      for (const [i, identity] of disguises.entries()) {
        expect(await accounts.register(`jean${i}`, 'jean password', identity), `${file.slice(0, 12)} ${identity.lastName}`).toMatchObject({ ok: false, code: 'BANNED', rule: 'R-BANNED' });
      }
    }
    expect(db.prepare('SELECT COUNT(*) FROM accounts').pluck().get()).toBe(0);
  });

  it('a holder registered now is closed at login by a ban file of version 1 too', async () => {
    expect(await accounts.register('jean', 'jean password', { ...JEAN, lastName: 'Lefèvre-dʼArc' })).toMatchObject({ ok: true });
    banFile(`cercle-bans 1\n${keyOneHash(JEAN)}\n`);
    expect(await accounts.login('jean', 'jean password', { ip: '127.0.0.1' })).toMatchObject({ ok: true, account: { closed: 'banned' } });
  });

  it('R-AGE: a refused identity carries its rule; names typed with other apostrophes and dashes are names', async () => {
    expect(await accounts.register('bad', 'bad password', { ...ZOE, lastName: '' })).toMatchObject({ ok: false, code: 'INVALID_IDENTITY', rule: 'R-AGE' });
    expect(await accounts.register('bad', 'bad password', { ...ZOE, birthDate: '1990-02-30' })).toMatchObject({ ok: false, code: 'INVALID_IDENTITY', rule: 'R-AGE' });
    expect(await accounts.register('bad', 'bad password', { ...ZOE, birthDate: '2015-01-01' })).toMatchObject({ ok: false, code: 'UNDER_AGE', rule: 'R-AGE' });
    expect(await accounts.register('noel', 'noel password', { lastName: 'D‘Alembert', firstNames: 'Jean–Noël', birthDate: '1970-01-01' })).toMatchObject({ ok: true });
  });
});

describe('accounts of one person opened before schema v10 (R-ONEACCOUNT)', () => {
  it('migrate without failing, are kept and reported, and the person cannot open a third', async () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'operator.sqlite');
      // A database as a build of schema v9 left it: two accounts of Zoé (registered before the check), one of Jean.
      const v9 = openDatabase(path, OPERATOR_MIGRATIONS.slice(0, 9), 'operator');
      const insert = v9.prepare("INSERT INTO accounts(username, username_key, guest, password_hash, created_at, birth_date, identity_hash) VALUES (?, ?, 0, 'h', ?, ?, ?)");
      insert.run('zoe', 'zoe', NOW - 2 * 86_400_000, ZOE.birthDate, keyOneHash(ZOE));
      insert.run('Zoe2', 'zoe2', NOW - 86_400_000, ZOE.birthDate, keyOneHash({ ...ZOE, lastName: 'LEFEVRE' }));
      insert.run('jean', 'jean', NOW, JEAN.birthDate, keyOneHash(JEAN));
      // The report reads a database as it is, without migrating it.
      expect(duplicateIdentities(v9)).toMatchObject([{ identityHash: keyOneHash(ZOE), identityKey: 1, accounts: [{ username: 'zoe' }, { username: 'Zoe2' }] }]);
      v9.close();

      const db = openOperatorDatabase(path);
      try {
        const duplicates = duplicateIdentities(db);
        expect(duplicates).toMatchObject([{ identityHash: keyOneHash(ZOE), identityKey: 1, accounts: [{ username: 'zoe' }, { username: 'Zoe2' }] }]);
        const text = formatFairPlayReport(fairPlayReport([], { duplicateIdentities: duplicates })).join('\n');
        expect(text).toContain('accounts of one person');
        expect(text).toMatch(/accounts \d+ \(zoe, opened [\d-]+\), \d+ \(Zoe2, opened [\d-]+\)/);
        // Nothing merged: both accounts are there as they were.
        expect(db.prepare('SELECT COUNT(*) FROM accounts').pluck().get()).toBe(3);
        const accounts = new Accounts(db, { scrypt: FAST, clock: () => NOW });
        expect(await accounts.register('zoe3', 'zoe3 password', { ...ZOE, lastName: 'lefèvre' })).toMatchObject({ ok: false, code: 'IDENTITY_TAKEN' });
        expect(await accounts.register('jean2', 'jean2 password', { ...JEAN, lastName: 'Lefèvre-dʼArc' })).toMatchObject({ ok: false, code: 'IDENTITY_TAKEN' });
        expect(await accounts.register('paul', 'paul password', { lastName: 'Durand', firstNames: 'Paul', birthDate: '1980-01-01' })).toMatchObject({ ok: true });
      } finally {
        db.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
