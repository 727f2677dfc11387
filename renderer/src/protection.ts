/**
 * What the Cashier and "Jeu responsable" pages read from the player and show back (docs/protection.md):
 * amounts typed in euros to integer cents (no float touches money), a playing-time
 * limit in hours to milliseconds, a card number's form (the operator's provider checks it again), a date
 * of birth's form and the age it gives, a self-exclusion choice, durations. Pure: unit-tested.
 */

/** Euros as typed ("12", "12,5", "12.50", "1 000") to cents; null if it is not an amount. */
export function parseEuros(text: string): number | null {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.replace(/[\s\u00a0\u202f]/g, ''));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

const MS_PER_HUNDREDTH_HOUR = 36_000;

/** Hours as typed ("10", "1,5", "0.25") to milliseconds (R-TIMELIMIT); null if it is not a positive duration. */
export function parseHours(text: string): number | null {
  const m = /^(\d{1,4})(?:[.,](\d{1,2}))?$/.exec(text.replace(/\s/g, ''));
  if (!m) return null;
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  return hundredths > 0 ? hundredths * MS_PER_HUNDREDTH_HOUR : null;
}

/** Milliseconds as "3 h 05 min" (whole minutes, rounded down: the counter never shows more than used). */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A card number's form: 12 to 19 digits (spaces and hyphens allowed between) passing the Luhn check. */
export function cardNumberOk(text: string): boolean {
  if (!/^[0-9 -]{12,30}$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** `YYYY-MM-DD` naming a day that exists, as [year, month, day]; null otherwise. */
export function parseDay(text: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return [y, mo, d];
}

/** Whole years from a date of birth to a day (both `YYYY-MM-DD`); null if either is not a day. */
export function ageOn(birthDate: string, today: string): number | null {
  const b = parseDay(birthDate);
  const t = parseDay(today);
  if (!b || !t) return null;
  let age = t[0] - b[0];
  if (t[1] < b[1] || (t[1] === b[1] && t[2] < b[2])) age--;
  return age;
}

export type ExclusionChoice = { kind: 'days'; days: 7 | 30 | 90 } | { kind: 'until'; until: number } | { kind: 'permanent' };
export type ExclusionPick = '7' | '30' | '90' | 'until' | 'permanent';

/** Shortest self-exclusion (R-EXCLUDE): 7 days; the operator checks it again. */
const MIN_EXCLUSION_MS = 7 * 86_400_000;

/**
 * The self-exclusion asked for: 7, 30 or 90 days, permanent, or until a chosen day (its local midnight),
 * which must be at least 7 days away. A reason key when it cannot be asked.
 */
export function exclusionChoice(pick: ExclusionPick, day: string, now: number): { ok: true; choice: ExclusionChoice } | { ok: false; why: 'noDate' | 'tooSoon' } {
  if (pick === 'permanent') return { ok: true, choice: { kind: 'permanent' } };
  if (pick !== 'until') return { ok: true, choice: { kind: 'days', days: Number(pick) as 7 | 30 | 90 } };
  const d = parseDay(day);
  if (!d) return { ok: false, why: 'noDate' };
  const until = new Date(d[0], d[1] - 1, d[2]).getTime();
  if (until - now < MIN_EXCLUSION_MS) return { ok: false, why: 'tooSoon' };
  return { ok: true, choice: { kind: 'until', until } };
}

let requestCount = 0;
/** A payment request's id (1..64 printable characters): unique for this page; a retry of one request reuses it. */
export function newRequestId(now = Date.now()): string {
  return `pay-${now.toString(36)}-${(++requestCount).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Playing time used now (R-TIMELIMIT counter): what the operator counted at `at`, plus the time since
 * while the player sits at a real-money table (the operator counts that time too; the page reads the
 * operator's figure again every minute and after each warning).
 */
export function timeUsedNow(counted: number, at: number, now: number, seated: boolean): number {
  return seated && now > at ? counted + (now - at) : counted;
}

/** A date and time on screen, in the page's language. */
export function formatWhen(ms: number, locale: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}

/** A playing-time warning as the operator pushes it (shared/protocol/cashier.ts `protection.warning`). */
export interface PlaytimeWarningNotice {
  warning: 'near' | 'ten-minutes' | 'reached';
  usedMs: number;
  limitMs: number;
  periodEnd: number;
}

/**
 * R-TIMELIMIT (art. 16-1): the warning's sentence. What is left is rounded up to the minute: the
 * second warning comes 10 minutes before the limit, or at once when the limit itself is shorter, and
 * then it says what really remains.
 */
export function playtimeWarningText(t: T, x: PlaytimeWarningNotice, locale: string): string {
  const left = formatDuration(Math.ceil(Math.max(0, x.limitMs - x.usedMs) / 60_000) * 60_000);
  return t(`playtime.warning.${x.warning}`, { used: formatDuration(x.usedMs), limit: formatDuration(x.limitMs), left, date: formatWhen(x.periodEnd, locale) });
}

type T = (key: string, named?: Record<string, unknown>) => string;
export interface RefusalWithDetails {
  code?: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
  details?: { limitKind?: 'deposit' | 'stake' | 'time'; limit?: number; used?: number; freeAt?: number | null; until?: number | null; withdrawable?: number; atTables?: number };
}

/**
 * A cashier or protection refusal's details as the player reads them (R-LIMITS: "refused with the limit
 * and when it frees up"): the limit and what is used (euros, or time for the playing-time limit), when
 * room frees up, the end of an exclusion, the withdrawable amount. `money` formats cents.
 */
export function detailsText(t: T, d: NonNullable<RefusalWithDetails['details']>, locale: string, money: (cents: number) => string): string {
  const asKind = (n: number): string => (d.limitKind === 'time' ? formatDuration(n) : money(n));
  const parts: string[] = [];
  if (d.limit !== undefined) parts.push(t('protect.details.limit', { limit: asKind(d.limit) }));
  if (d.used !== undefined) parts.push(t('protect.details.used', { used: asKind(d.used) }));
  if (d.freeAt !== undefined) parts.push(d.freeAt === null ? t('protect.details.never') : t('protect.details.freeAt', { date: formatWhen(d.freeAt, locale) }));
  if (d.until !== undefined) parts.push(d.until === null ? t('protect.details.forever') : t('protect.details.until', { date: formatWhen(d.until, locale) }));
  if (d.withdrawable !== undefined) parts.push(t('protect.details.withdrawable', { amount: money(d.withdrawable) }));
  if (d.atTables !== undefined) parts.push(t('protect.details.atTables', { amount: money(d.atTables) }));
  return parts.join(' ');
}
