import { describe, expect, it } from 'vitest';
import { i18n } from './i18n';
import { ageOn, cardNumberOk, detailsText, exclusionChoice, formatDuration, newRequestId, parseDay, parseEuros, parseHours, playtimeWarningText, timeUsedNow } from './protection';

describe('the cashier and protection forms', () => {
  it('reads euros to integer cents, refusing what is not an amount', () => {
    expect(parseEuros('50')).toBe(5000);
    expect(parseEuros('12,5')).toBe(1250);
    expect(parseEuros('12.05')).toBe(1205);
    expect(parseEuros('1 000,99')).toBe(100099);
    expect(parseEuros('0,1')).toBe(10);
    for (const bad of ['', '-5', '1,234', '1e3', 'abc', '12,', ',5']) expect(parseEuros(bad), bad).toBeNull();
  });

  it('reads hours to milliseconds (a time limit is never zero)', () => {
    expect(parseHours('10')).toBe(36_000_000);
    expect(parseHours('1,5')).toBe(5_400_000);
    expect(parseHours('0.25')).toBe(900_000);
    for (const bad of ['0', '', '-1', '1,555', 'x']) expect(parseHours(bad), bad).toBeNull();
  });

  it('shows durations in whole minutes, rounded down', () => {
    expect(formatDuration(0)).toBe('0 h 00 min');
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000 + 59_999)).toBe('3 h 05 min');
    expect(formatDuration(-5)).toBe('0 h 00 min');
  });

  it('checks a card number with Luhn: the test cards pass, a typo does not', () => {
    for (const c of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000-0000-0000-0119', '4000000000003220']) expect(cardNumberOk(c), c).toBe(true);
    for (const c of ['4242 4242 4242 4241', '1234', '4242 4242 4242 424a', '']) expect(cardNumberOk(c), c).toBe(false);
  });

  it('reckons age on a day: 18 on the birthday, not the day before; days that do not exist are refused', () => {
    expect(ageOn('2008-11-25', '2026-11-25')).toBe(18);
    expect(ageOn('2008-11-26', '2026-11-25')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(parseDay('2023-02-29')).toBeNull();
    expect(parseDay('2024-02-29')).toEqual([2024, 2, 29]);
    expect(ageOn('25/11/2008', '2026-11-25')).toBeNull();
  });

  it('builds a self-exclusion choice: days, permanent, or a day at least 7 days away', () => {
    const now = new Date(2026, 10, 25, 12).getTime();
    expect(exclusionChoice('30', '', now)).toEqual({ ok: true, choice: { kind: 'days', days: 30 } });
    expect(exclusionChoice('permanent', '', now)).toEqual({ ok: true, choice: { kind: 'permanent' } });
    expect(exclusionChoice('until', '2026-12-10', now)).toEqual({ ok: true, choice: { kind: 'until', until: new Date(2026, 11, 10).getTime() } });
    expect(exclusionChoice('until', '2026-11-30', now)).toEqual({ ok: false, why: 'tooSoon' });
    expect(exclusionChoice('until', '', now)).toEqual({ ok: false, why: 'noDate' });
  });

  it('counts playing time on while seated, not otherwise', () => {
    expect(timeUsedNow(60_000, 1_000, 31_000, true)).toBe(90_000);
    expect(timeUsedNow(60_000, 1_000, 31_000, false)).toBe(60_000);
    expect(timeUsedNow(60_000, 1_000, 500, true)).toBe(60_000);
  });

  it('says a refusal\'s details: the limit and what is used in euros or time, when room frees up, the end of an exclusion', () => {
    const t = (key: string, named?: Record<string, unknown>): string => `${key}${named ? JSON.stringify(named) : ''}`;
    const euros = (c: number): string => `${c / 100}€`;
    const freeAt = new Date(2026, 10, 27, 9, 30).getTime();
    expect(detailsText(t, { limitKind: 'deposit', limit: 20_000, used: 15_000, freeAt }, 'fr-FR', euros)).toBe(
      `protect.details.limit{"limit":"200€"} protect.details.used{"used":"150€"} protect.details.freeAt{"date":"27/11/2026 09:30"}`,
    );
    expect(detailsText(t, { limitKind: 'time', limit: 36_000_000, used: 36_000_000, freeAt: null }, 'fr-FR', euros)).toBe(
      'protect.details.limit{"limit":"10 h 00 min"} protect.details.used{"used":"10 h 00 min"} protect.details.never',
    );
    expect(detailsText(t, { until: null }, 'fr-FR', euros)).toBe('protect.details.forever');
    expect(detailsText(t, { withdrawable: 0, atTables: 400 }, 'fr-FR', euros)).toBe('protect.details.withdrawable{"amount":"0€"} protect.details.atTables{"amount":"4€"}');
  });

  it('makes request ids the wire accepts, each different', () => {
    const a = newRequestId();
    const b = newRequestId();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[\x21-\x7e]{1,64}$/);
  });
});

describe('the playing-time warnings (R-TIMELIMIT, art. 16-1)', () => {
  const t = (key: string, named?: Record<string, unknown>) => i18n.global.t(key, named ?? {});
  const at = (used: number, limit: number) => ({ warning: 'ten-minutes' as const, usedMs: used, limitMs: limit, periodEnd: Date.UTC(2026, 11, 2, 12) });

  it('the second warning says the time really left, rounded up to the minute', () => {
    expect(playtimeWarningText(t, at(50 * 60_000, 3_600_000), 'fr')).toBe('Plus que 0 h 10 min de jeu sur votre limite de 1 h 00 min.');
    // A limit of 5 minutes: the warning comes at the first hand, with 5 minutes left, not 10.
    expect(playtimeWarningText(t, at(0, 5 * 60_000), 'fr')).toBe('Plus que 0 h 05 min de jeu sur votre limite de 0 h 05 min.');
    expect(playtimeWarningText(t, at(4 * 60_000 + 1, 5 * 60_000), 'fr')).toContain('Plus que 0 h 01 min');
  });
});
