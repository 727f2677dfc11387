import { describe, expect, it } from 'vitest';
import { exclude, isExcluded } from './exclusion';
import { BAN_FILE_HEADER, identityHash, isAdult, normaliseName, parseBanFile, parseBirthDate } from './identity';
import { askLimit, DAY_MS, HOUR_MS, limitAt, PERIOD_MS, RAISE_DELAY_MS, roomFor, usedInWindow } from './limits';
import { periodAt, playedBetween, untilNextWarning, warningsDue, warningThresholds, type TimeWarning } from './playtime';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const MIN = 60_000;

describe('self-set limits (R-LIMITS, decree 2010-518 art. 16)', () => {
  it('the first limit and a lower one apply at once; a higher one 48 hours after it was asked for', () => {
    const first = askLimit(null, 10_000, T0);
    expect(first).toEqual({ value: 10_000, pending: null });
    const lower = askLimit(first, 5_000, T0 + HOUR_MS);
    expect(lower).toEqual({ value: 5_000, pending: null });
    const higher = askLimit(lower, 20_000, T0 + 2 * HOUR_MS);
    expect(higher).toEqual({ value: 5_000, pending: { value: 20_000, from: T0 + 2 * HOUR_MS + RAISE_DELAY_MS } });
    expect(limitAt(higher, T0 + 2 * HOUR_MS + RAISE_DELAY_MS - 1)!.value).toBe(5_000);
    expect(limitAt(higher, T0 + 2 * HOUR_MS + RAISE_DELAY_MS)).toEqual({ value: 20_000, pending: null });
  });

  it('asking again replaces a pending raise; a lower value cancels it at once; a raise restarts its 48 hours', () => {
    const pending = askLimit({ value: 100, pending: null }, 500, T0);
    expect(askLimit(pending, 300, T0 + HOUR_MS)).toEqual({ value: 100, pending: { value: 300, from: T0 + HOUR_MS + RAISE_DELAY_MS } });
    expect(askLimit(pending, 80, T0 + HOUR_MS)).toEqual({ value: 80, pending: null });
    expect(askLimit(pending, 100, T0 + HOUR_MS)).toEqual({ value: 100, pending: null });
  });

  it('no default and no zero: a limit is a positive integer', () => {
    expect(() => askLimit(null, 0, T0)).toThrow(RangeError);
    expect(() => askLimit(null, 1.5, T0)).toThrow(RangeError);
  });

  it('a movement counts for seven days exactly, then frees its room at that instant', () => {
    const moves = [
      { at: T0, amount: 3_000 },
      { at: T0 + DAY_MS, amount: 4_000 },
      { at: T0 + 2 * DAY_MS, amount: 2_000 },
    ];
    expect(usedInWindow(moves, T0 + 2 * DAY_MS)).toBe(9_000);
    expect(usedInWindow(moves, T0 + PERIOD_MS)).toBe(6_000);
    const now = T0 + 3 * DAY_MS;
    expect(roomFor(moves, 10_000, 1_000, now)).toEqual({ ok: true, used: 9_000, limit: 10_000 });
    // 5,000 more: needs the first two movements gone (9,000 − 3,000 = 6,000 still too much; − 4,000 fits).
    expect(roomFor(moves, 10_000, 5_000, now)).toEqual({ ok: false, used: 9_000, limit: 10_000, freeAt: T0 + DAY_MS + PERIOD_MS });
    expect(roomFor(moves, 10_000, 4_000, now)).toEqual({ ok: false, used: 9_000, limit: 10_000, freeAt: T0 + PERIOD_MS });
    expect(roomFor(moves, 10_000, 4_000, T0 + PERIOD_MS).ok).toBe(true);
    // More than the limit itself never fits: only a higher limit would.
    expect(roomFor([], 10_000, 10_001, now)).toEqual({ ok: false, used: 0, limit: 10_000, freeAt: null });
  });
});

describe('effective playing time (R-TIMELIMIT, decree 2010-518 art. 16-1)', () => {
  it('two tables for an hour is one hour; gaps are not counted; an open stretch runs to now', () => {
    const stretches = [
      { from: T0, to: T0 + HOUR_MS },
      { from: T0 + 10 * MIN, to: T0 + 50 * MIN },
      { from: T0 + 2 * HOUR_MS, to: null },
    ];
    expect(playedBetween(stretches, T0, T0 + 2 * HOUR_MS + 15 * MIN)).toBe(HOUR_MS + 15 * MIN);
    // Counting from the middle of the first stretch (a period starting there) takes only its part.
    expect(playedBetween(stretches, T0 + 30 * MIN, T0 + 2 * HOUR_MS + 15 * MIN)).toBe(45 * MIN);
  });

  it('periods of seven days run from the anchor, one after the other', () => {
    expect(periodAt(T0, T0)).toEqual({ from: T0, to: T0 + PERIOD_MS });
    expect(periodAt(T0, T0 + PERIOD_MS - 1)).toEqual({ from: T0, to: T0 + PERIOD_MS });
    expect(periodAt(T0, T0 + 3 * PERIOD_MS + 5)).toEqual({ from: T0 + 3 * PERIOD_MS, to: T0 + 4 * PERIOD_MS });
  });

  it('warns at 75 % or 30 minutes before (whichever comes first), 10 minutes before, and at the limit', () => {
    // 10 hours: 30 minutes before (9 h 30) comes after 75 % (7 h 30): warned at 7 h 30.
    expect(warningThresholds(10 * HOUR_MS)).toEqual({ near: 7.5 * HOUR_MS, 'ten-minutes': 10 * HOUR_MS - 10 * MIN, reached: 10 * HOUR_MS });
    // 1 hour: 75 % is 45 min, 30 minutes before is 30 min: warned at 30 min.
    expect(warningThresholds(HOUR_MS).near).toBe(30 * MIN);
    // 20 minutes: already within the last 30 minutes at the first moment of play.
    expect(warningThresholds(20 * MIN)).toEqual({ near: 0, 'ten-minutes': 10 * MIN, reached: 20 * MIN });
  });

  it('each warning is given once, in order, and the next one is scheduled from the time used', () => {
    const given = new Set<TimeWarning>();
    expect(warningsDue(HOUR_MS, 29 * MIN, given)).toEqual([]);
    expect(untilNextWarning(HOUR_MS, 29 * MIN, given)).toBe(MIN);
    expect(warningsDue(HOUR_MS, 55 * MIN, given)).toEqual(['near', 'ten-minutes']);
    given.add('near').add('ten-minutes');
    expect(untilNextWarning(HOUR_MS, 55 * MIN, given)).toBe(5 * MIN);
    expect(warningsDue(HOUR_MS, HOUR_MS, given)).toEqual(['reached']);
    given.add('reached');
    expect(untilNextWarning(HOUR_MS, HOUR_MS, given)).toBeNull();
  });
});

describe('self-exclusion (R-EXCLUDE)', () => {
  it('runs for its days, or until a date at least 7 days away, or for ever', () => {
    const week = exclude(null, { kind: 'days', days: 7 }, T0);
    expect(week).toEqual({ ok: true, exclusion: { from: T0, until: T0 + 7 * DAY_MS } });
    expect(isExcluded(week.ok ? week.exclusion : null, T0 + 7 * DAY_MS - 1)).toBe(true);
    expect(isExcluded(week.ok ? week.exclusion : null, T0 + 7 * DAY_MS)).toBe(false);
    expect(exclude(null, { kind: 'until', until: T0 + 6 * DAY_MS }, T0)).toMatchObject({ ok: false, code: 'EXCLUSION_TOO_SHORT' });
    const forever = exclude(null, { kind: 'permanent' }, T0);
    expect(forever.ok && isExcluded(forever.exclusion, T0 + 100 * 365 * DAY_MS)).toBe(true);
  });

  it('cannot be lifted or shortened before its end, only lengthened', () => {
    const month = exclude(null, { kind: 'days', days: 30 }, T0);
    if (!month.ok) throw new Error('refused');
    expect(exclude(month.exclusion, { kind: 'days', days: 7 }, T0 + DAY_MS)).toMatchObject({ ok: false, code: 'EXCLUSION_CANNOT_SHORTEN', until: T0 + 30 * DAY_MS });
    expect(exclude(month.exclusion, { kind: 'days', days: 90 }, T0 + DAY_MS)).toEqual({ ok: true, exclusion: { from: T0, until: T0 + DAY_MS + 90 * DAY_MS } });
    const forever = exclude(month.exclusion, { kind: 'permanent' }, T0 + DAY_MS);
    if (!forever.ok) throw new Error('refused');
    expect(exclude(forever.exclusion, { kind: 'days', days: 90 }, T0 + 2 * DAY_MS)).toMatchObject({ ok: false, until: null });
    // Asking again for a permanent exclusion while one is in force confirms it; it is not a shortening.
    expect(exclude(forever.exclusion, { kind: 'permanent' }, T0 + 2 * DAY_MS)).toEqual({ ok: true, exclusion: { from: T0, until: null } });
  });
});

describe('age and the ban file (R-AGE, R-BANNED)', () => {
  it('adult from the 18th birthday, reckoned in French time', () => {
    const birth = parseBirthDate('2008-11-26')!;
    // 25 November 2026, 23:30 in Paris is still the 25th: not yet 18.
    expect(isAdult(birth, Date.UTC(2026, 10, 25, 22, 30))).toBe(false);
    // 23:30 UTC on the 25th is 00:30 on the 26th in Paris: 18 today.
    expect(isAdult(birth, Date.UTC(2026, 10, 25, 23, 30))).toBe(true);
    const leap = parseBirthDate('2008-02-29')!;
    expect(isAdult(leap, Date.UTC(2026, 1, 28, 12))).toBe(false);
    expect(isAdult(leap, Date.UTC(2026, 2, 1, 12))).toBe(true);
  });

  it('refuses dates that do not exist or are malformed', () => {
    for (const bad of ['2001-02-29', '2000-13-01', '1999-1-01', '20000101', '1850-01-01', '']) expect(parseBirthDate(bad)).toBeNull();
    expect(parseBirthDate('2000-02-29')).toEqual({ y: 2000, m: 2, d: 29 });
  });

  it('one identity however its accents, case, hyphens and spaces are typed', () => {
    expect(normaliseName("  Lefèvre-D'Arc ")).toBe('LEFEVRE D ARC');
    expect(identityHash('Lefèvre-d’Arc', 'Jean  Noël', '1990-05-04')).toBe(identityHash('LEFEVRE D ARC', 'JEAN NOEL', '1990-05-04'));
    expect(identityHash('Martin', 'Jean', '1990-05-04')).not.toBe(identityHash('Martin', 'Jean', '1990-05-05'));
  });

  it('reads the ban file, and refuses a bad one naming its line', () => {
    const h = identityHash('Martin', 'Jean', '1990-05-04');
    const ok = parseBanFile(`${BAN_FILE_HEADER}\n# exported 2026-11-25\n\n${h}\n`);
    expect(ok.ok && ok.hashes.has(h)).toBe(true);
    expect(parseBanFile(`${h}\n`)).toMatchObject({ ok: false, line: 1 });
    expect(parseBanFile(`${BAN_FILE_HEADER}\n${h}\n${h.toUpperCase()}\n`)).toMatchObject({ ok: false, line: 3 });
  });
});
