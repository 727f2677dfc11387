/**
 * What PokerStars text says of a tournament (docs/exchange.md): the header of a
 * tournament hand, its level in Roman numerals, the entry as buy-in + fee, the table named after the
 * tournament, and the dates as PokerStars writes them (local time, then `[… ET]`). Used by the hand
 * text (pokerstars.ts) and the tournament summary (summary.ts). Forms checked against PokerStars'
 * own files as trackers keep them in their test files (fpdb, jejellyroll-fr/fpdb-3
 * regression-test-files/tour/Stars and summaries/Stars):
 *
 *   PokerStars Hand #N: Tournament #T, €9+€1 EUR Hold'em No Limit - Level XVI (1000/2000) - 2021/01/28 17:12:37 CET [2021/01/28 11:12:37 ET]
 *   PokerStars Hand #N: Tournament #T, 300+20 Hold'em No Limit - Level I (10/20) - …   (play money: no currency)
 *   PokerStars Hand #N: Tournament #T, Freeroll  Hold'em No Limit - Level II (30/60) - …
 *   Table 'T 47' 9-max Seat #3 is the button                                              (no "(Play Money)" marker)
 *   Seat 1: name (1500 in chips)   ·   name finished the tournament in 8th place
 */
import { centsText } from '../rules/money';
import { HOUR_MS, zoneOffsetMinutes } from '../rules/time';
import { fail, type ExchangeTournament, type Fail } from './core';
import { tournamentNumber } from './handNumber';

/** US Eastern time's offset from UTC in hours at `ms` (−4 in daylight time, else −5), from the time-zone data. */
export function easternOffset(ms: number): number {
  return zoneOffsetMinutes(ms, 'America/New_York') / 60;
}

const ROMAN: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

/** `1` → `I`, `16` → `XVI` (PokerStars numbers levels from I). */
export function roman(n: number): string {
  let out = '';
  for (const [v, s] of ROMAN) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

/** A Roman numeral in its canonical form, or null. */
export function fromRoman(text: string): number | null {
  if (!/^[IVXLCDM]{1,15}$/.test(text)) return null;
  let n = 0;
  let rest = text;
  for (const [v, s] of ROMAN) {
    while (rest.startsWith(s)) {
      n += v;
      rest = rest.slice(s.length);
    }
  }
  return rest === '' && n > 0 && roman(n) === text ? n : null;
}

/** Paris time's offset from UTC in hours at `ms` (+2 in summer time, else +1), from the time-zone data. */
export function parisOffset(ms: number): number {
  return zoneOffsetMinutes(ms, 'Europe/Paris') / 60;
}

const pad = (n: number) => String(n).padStart(2, '0');
const stamp = (d: Date) => `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/**
 * `2026/11/25 21:00:00 CET [2026/11/25 15:00:00 ET]`: a French PokerStars client's dates, Paris time
 * (called CET summer and winter, as PokerStars does), then US Eastern time in brackets.
 */
export function parisDateText(ms: number): string {
  return `${stamp(new Date(ms + parisOffset(ms) * HOUR_MS))} CET [${stamp(new Date(ms + easternOffset(ms) * HOUR_MS))} ET]`;
}

/** Zones PokerStars text is read in: offset in hours at an instant. */
const ZONES: Record<string, (ms: number) => number> = { UTC: () => 0, GMT: () => 0, CET: parisOffset, CEST: parisOffset, ET: easternOffset };

const DATE = /^(\d{4})\/(\d{1,2})\/(\d{1,2}) (\d{1,2}):(\d\d):(\d\d)(?: ([A-Z]{2,4}))?$/;

/** The instants a local date may be in its zone (two in the hour a clock goes back, none in the hour it skips). */
function instants(text: string): number[] | string {
  const m = DATE.exec(text.trim());
  if (!m) return `'${text}' is not a date YYYY/MM/DD hh:mm:ss`;
  const zone = m[7] ?? 'UTC';
  const offsetAt = ZONES[zone];
  if (offsetAt === undefined) return `the time zone '${zone}' is not one of UTC, CET, ET`;
  const local = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return offsetsAt(zone, local, offsetAt).map((h) => local - h * HOUR_MS);
}

/**
 * The offsets (hours) a local time may be at in its zone. Clocks change on the hour in every zone
 * read here, so the answer is the same for a whole local hour: kept per zone and hour, as a file of
 * many hands repeats its hours (the time-zone data is slow to ask, one call per candidate).
 */
const OFFSETS = new Map<string, number[]>();
function offsetsAt(zone: string, local: number, offsetAt: (ms: number) => number): number[] {
  const hourStart = local - (local % HOUR_MS);
  const key = `${zone}:${hourStart}`;
  let hours = OFFSETS.get(key);
  if (hours === undefined) {
    hours = [];
    for (const h of [-5, -4, 0, 1, 2]) if (offsetAt(hourStart - h * HOUR_MS) === h && offsetAt(hourStart + HOUR_MS - 1 - h * HOUR_MS) === h) hours.push(h);
    // A time the clock skipped (2:30 on the spring-forward night) is read at the winter offset.
    if (hours.length === 0) hours.push(offsetAt(local - 12 * HOUR_MS));
    if (OFFSETS.size > 50_000) OFFSETS.clear();
    OFFSETS.set(key, hours);
  }
  return hours;
}

/**
 * The instant of a PokerStars date: `local [zone]` optionally followed by `[other ET]`. When the
 * first is ambiguous (the hour a clock goes back), the bracketed one decides.
 */
export function readDate(main: string, bracket: string | undefined): number | string {
  const a = instants(main);
  if (typeof a === 'string') return a;
  if (a.length === 1 || bracket === undefined) return a[0];
  const b = instants(bracket);
  return typeof b === 'string' ? a[0] : (a.find((x) => b.includes(x)) ?? a[0]);
}

/** `€4.50`, `€9` (whole euros are written without decimals, as PokerStars does). */
function euros(cents: number): string {
  return cents % 100 === 0 ? `€${cents / 100}` : `€${centsText(cents)}`;
}

/** The money kind of a tournament hand: its entry's. */
export function tournamentMoney(t: ExchangeTournament, money: 'real' | 'play' | undefined): 'real' | 'play' {
  return t.money ?? money ?? 'real';
}

/** `Tournament #T, €4.50+€0.50 EUR` / `Tournament #T, 300+20` / `Tournament #T, Freeroll `. */
export function tournamentHeadText(t: ExchangeTournament, money: 'real' | 'play'): string {
  const entry = money === 'play' ? `${t.buyIn}+${t.fee}` : t.buyIn === 0 && t.fee === 0 ? 'Freeroll ' : `${euros(t.buyIn)}+${euros(t.fee)} EUR`;
  return `Tournament #${tournamentNumber(t.tournamentId)}, ${entry}`;
}

/** `T 3`: PokerStars names a tournament's table by its number and the table's; Cercle's table ids end in `-t3`. */
export function tournamentTableName(t: ExchangeTournament, tableName: string | undefined): string {
  const no = /-t(\d{1,6})$/.exec(tableName ?? '')?.[1] ?? /^\d{1,16} (\d{1,6})$/.exec(tableName ?? '')?.[1] ?? '1';
  return `${tournamentNumber(t.tournamentId)} ${Number(no)}`;
}

const AMOUNT = String.raw`(\d{1,13}(?:\.\d\d)?)`;
/** The entry of a tournament header: real money (a currency), play money (bare numbers), or a freeroll. */
const ENTRY = new RegExp(String.raw`^(?:([€$£])${AMOUNT}\+\1${AMOUNT}(?:\+\1${AMOUNT})? (?:EUR|USD|GBP)|(\d{1,13})\+(\d{1,13})(?:\+(\d{1,13}))?|(Freeroll))$`);

const cents = (t: string) => Math.round(Number(t) * 100);

/**
 * The header of a tournament hand: `PokerStars Hand #N: Tournament #T, <entry> <game> - Level <L> (a/b) - <date>`.
 * The tournament id is the number as text (handNumber.ts `tournamentNumber`); a three-part entry
 * (buy-in + bounty + fee) is read as buy-in (both first parts) + fee.
 */
export const TOURNAMENT_HEADER = /^PokerStars Hand #(\d{1,16}): +Tournament #(\d{1,16}), (Freeroll|[€$£]\S+ (?:EUR|USD|GBP)|\S+) +(\S.*?) - Level ([A-Z]+) \((\d+)\/(\d+)\) - ([^[]+?)(?: \[(.*)\])?$/;

export interface TournamentHeader {
  hand: string;
  game: string;
  x1: number;
  x2: number;
  endedAt: number;
  tournament: ExchangeTournament;
  money: 'real' | 'play';
}

export function readTournamentHeader(text: string, line: number): TournamentHeader | Fail {
  const m = TOURNAMENT_HEADER.exec(text);
  if (!m) return fail(line, "the tournament header is not \"PokerStars Hand #n: Tournament #t, <buy-in>+<fee> <game> - Level <I, II…> (a/b) - YYYY/MM/DD hh:mm:ss\"");
  const e = ENTRY.exec(m[3]);
  if (!e) return fail(line, `the tournament's entry '${m[3]}' is not <buy-in>+<fee> (€4.50+€0.50 EUR, 300+20 in play money, or Freeroll)`);
  const level = fromRoman(m[5]);
  if (level === null || level > 1001) return fail(line, `'Level ${m[5]}' is not a level I to MI in Roman numerals`);
  const endedAt = readDate(m[8], m[9]?.trim());
  if (typeof endedAt === 'string') return fail(line, endedAt);
  let buyIn = 0;
  let fee = 0;
  let money: 'real' | 'play' = 'real';
  if (e[1] !== undefined) {
    // Buy-in + bounty + fee, or buy-in + fee.
    buyIn = cents(e[2]) + (e[4] !== undefined ? cents(e[3]) : 0);
    fee = cents(e[4] ?? e[3]);
  } else if (e[5] !== undefined) {
    money = 'play';
    buyIn = Number(e[5]) + (e[7] !== undefined ? Number(e[6]) : 0);
    fee = Number(e[7] ?? e[6]);
  }
  if (!Number.isSafeInteger(buyIn) || !Number.isSafeInteger(fee)) return fail(line, 'the buy-in or fee is too large');
  return { hand: m[1], game: m[4], x1: Number(m[6]), x2: Number(m[7]), endedAt, money, tournament: { tournamentId: m[2], level: level - 1, buyIn, fee, money } };
}

/** Tournament lines that say nothing the hand does not (a player out, the winner): read and passed over. */
export const TOURNAMENT_NOTE = / (?:finished the tournament(?: in \d+(?:st|nd|rd|th) place)?(?: and received .+)?|wins the tournament(?: and receives .+)?)$/;
