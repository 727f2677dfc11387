import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, zoneOffsetMinutes } from './time';

// An independent reading of the two zones' rules, written from the texts that set them, to compare
// with Intl's IANA data hour by hour: EU directive 2000/84/EC (summer time from the last Sunday of
// March, 01:00 UTC, to the last Sunday of October, 01:00 UTC) and the US Energy Policy Act of 2005
// (from the second Sunday of March, 2:00 local, to the first Sunday of November, 2:00 local).
function euSummer(ms: number): boolean {
  const y = new Date(ms).getUTCFullYear();
  const lastSunday = (month: number) => {
    const last = new Date(Date.UTC(y, month + 1, 0));
    return last.getUTCDate() - last.getUTCDay();
  };
  return ms >= Date.UTC(y, 2, lastSunday(2), 1) && ms < Date.UTC(y, 9, lastSunday(9), 1);
}
function usDaylight(ms: number): boolean {
  const y = new Date(ms).getUTCFullYear();
  const sunday = (month: number, n: number) => 1 + ((7 - new Date(Date.UTC(y, month, 1)).getUTCDay()) % 7) + 7 * (n - 1);
  return ms >= Date.UTC(y, 2, sunday(2, 2), 7) && ms < Date.UTC(y, 10, sunday(10, 1), 6);
}

describe('zoneOffsetMinutes', () => {
  it('Paris and New York at the 2026 changes, to the minute', () => {
    expect(zoneOffsetMinutes(Date.UTC(2026, 2, 29, 0, 59, 59), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 2, 29, 1, 0), 'Europe/Paris')).toBe(120);
    expect(zoneOffsetMinutes(Date.UTC(2026, 9, 25, 0, 59, 59), 'Europe/Paris')).toBe(120);
    expect(zoneOffsetMinutes(Date.UTC(2026, 9, 25, 1, 0), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 2, 8, 6, 59, 59), 'America/New_York')).toBe(-300);
    expect(zoneOffsetMinutes(Date.UTC(2026, 2, 8, 7, 0), 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(Date.UTC(2026, 10, 1, 5, 59, 59), 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(Date.UTC(2026, 10, 1, 6, 0), 'America/New_York')).toBe(-300);
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 1), 'UTC')).toBe(0);
    // A zone off the hour, read by the same function (India: +5:30, no summer time).
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 1), 'Asia/Kolkata')).toBe(330);
  });

  it('agrees with the EU and US rules every hour from 2016 to 2035, in order and out of order', () => {
    const from = Date.UTC(2016, 0, 1);
    const to = Date.UTC(2036, 0, 1);
    let hours = 0;
    for (let ms = from; ms < to; ms += HOUR_MS, hours++) {
      if (zoneOffsetMinutes(ms, 'Europe/Paris') !== (euSummer(ms) ? 120 : 60)) throw new Error(`Paris at ${new Date(ms).toISOString()}`);
      if (zoneOffsetMinutes(ms, 'America/New_York') !== (usDaylight(ms) ? -240 : -300)) throw new Error(`New York at ${new Date(ms).toISOString()}`);
    }
    expect(hours).toBe((to - from) / HOUR_MS);
    // Jumping about (the one-hour memo must not answer for another hour).
    for (let k = 0; k < 2000; k++) {
      const ms = from + Math.floor(((k * 7919) % 7_300) * DAY_MS + ((k * 104_729) % DAY_MS));
      expect(zoneOffsetMinutes(ms, 'Europe/Paris')).toBe(euSummer(ms) ? 120 : 60);
    }
  });
});
