/**
 * Who may hold a real-money account: not a minor (R-AGE; law 2010-476 art. 26), not a person on the
 * national file of gambling bans (R-BANNED). The operator keeps its copy of that file in its data
 * folder as hashed identities (format below and in docs/protection.md), replaced whole by
 * `cercle-operator bans replace <file>`.
 *
 * Ban file format, UTF-8 text, one record per line:
 *   line 1: `cercle-bans 1`            (format and version)
 *   then:   64 lowercase hex digits    (SHA-256 of the identity key, see `identityKey`)
 * Empty lines and lines starting with `#` are ignored. Any other line makes the whole file refused,
 * with its line number, and the copy in force stays as it was (the replacement is atomic).
 */
import { createHash } from 'node:crypto';

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
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return true;
}

/** Upper case, accents and other marks removed, any run of spaces, hyphens or apostrophes one space:
 * "Lefèvre-D'Arc " and "LEFEVRE D ARC" are one name. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/[\s\-'’]+/gu, ' ')
    .trim();
}

/** The key hashed in the ban file: last name, first names and date of birth, normalised. */
export function identityKey(lastName: string, firstNames: string, birthDate: string): string {
  return `${normaliseName(lastName)}\n${normaliseName(firstNames)}\n${birthDate}`;
}

export function identityHash(lastName: string, firstNames: string, birthDate: string): string {
  return createHash('sha256').update(identityKey(lastName, firstNames, birthDate), 'utf8').digest('hex');
}

export type BanFileResult = { readonly ok: true; readonly hashes: ReadonlySet<string> } | { readonly ok: false; readonly line: number; readonly message: string };

export const BAN_FILE_HEADER = 'cercle-bans 1';

export function parseBanFile(text: string): BanFileResult {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trim() !== BAN_FILE_HEADER) {
    return { ok: false, line: 1, message: `the first line must be "${BAN_FILE_HEADER}"` };
  }
  const hashes = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!/^[0-9a-f]{64}$/.test(line)) return { ok: false, line: i + 1, message: 'expected 64 lowercase hexadecimal digits (a SHA-256)' };
    hashes.add(line);
  }
  return { ok: true, hashes };
}
