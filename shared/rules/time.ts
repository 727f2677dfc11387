/**
 * Time: the lengths every layer counts in, and the offset of a time zone from UTC at an instant, read
 * from the IANA time-zone data that `Intl` carries (Node's full ICU, the browser's), never from rules
 * written by hand: Paris time for the French sites' dates (PokerStars writes "CET" summer and
 * winter), US Eastern for PokerStars' bracketed time, the player's own zone in the client.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();
/** The last hour read for each zone: offsets change only on the hour in the zones read here, and dates come in order. */
const lastHour = new Map<string, { hour: number; minutes: number }>();

function format(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(timeZone, f);
  }
  return f;
}

/** `timeZone`'s offset from UTC at the instant `ms`, in minutes (Paris in summer: 120). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const hour = Math.floor(ms / HOUR_MS);
  const known = lastHour.get(timeZone);
  if (known?.hour === hour) return known.minutes;
  // The zone's wall clock at the start of that hour, read as if it were UTC, less the instant.
  const at = hour * HOUR_MS;
  const parts: Record<string, number> = {};
  for (const p of format(timeZone).formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const minutes = Math.round((wall - at) / MINUTE_MS);
  lastHour.set(timeZone, { hour, minutes });
  return minutes;
}
