/**
 * Tournament summaries in the PokerStars summary form (docs/exchange.md), the text
 * trackers import beside the hands to know a tournament's buy-in, field and result. Written from a
 * stored tournament (`TournamentRecordView`, shared/api/tournaments.ts) and the player's name, read
 * back to one. The form, as PokerStars writes it (files kept by fpdb, jejellyroll-fr/fpdb-3
 * regression-test-files/summaries/Stars, and its PokerStarsSummary.py reading):
 *
 *   PokerStars Tournament #2874010268, No Limit Hold'em
 *   Buy-In: €4.50/€0.50 EUR                                  (play money: `Buy-In: 100/9`)
 *   18 players
 *   Total Prize Pool: €81.00 EUR
 *   Tournament started 2026/11/25 21:00:00 CET [2026/11/25 15:00:00 ET]
 *   Tournament finished 2026/11/25 22:10:00 CET [2026/11/25 16:10:00 ET]
 *     3: name (France), €16.20 (20%)
 *
 *   You finished in 3rd place.
 *   You made 1 re-entries for a total of €5.00.
 *   You made 2 rebuys and 1 addons for a total of EUR 15.00.
 *
 * Cercle knows its own place only (the field's is the operator's), so the place list has the
 * player's line alone. What the form has no field for (the name, sit & go or scheduled, the hands
 * kept, when the player registered, the count of bounties) is listed in docs/exchange.md.
 */
import type { TournamentRecordView } from '../history/tournament-record';
import { tournamentRecordSchema } from '../history/tournament-record';
import { centsText } from '../rules/money';
import type { VariantCode } from '../rules/variants';
import { validate } from '../validate';
import { fail, type Fail } from './core';
import { tournamentNumber } from './handNumber';
import { parisDateText, readDate } from './pokerstars-tournament';

/** The game as a PokerStars summary names it: the betting, then the game. */
export const SUMMARY_GAMES: Readonly<Record<VariantCode, string>> = {
  THL: "Limit Hold'em",
  THPL: "Pot Limit Hold'em",
  THNL: "No Limit Hold'em",
  O4HPL: 'Pot Limit Omaha',
  O4JL: 'Limit Omaha Hi/Lo',
  O4JPL: 'Pot Limit Omaha Hi/Lo',
  O5HPL: 'Pot Limit 5 Card Omaha',
  '7SHL': 'Limit 7 Card Stud',
  '7SJL': 'Limit 7 Card Stud Hi/Lo',
  '7SLL': 'Limit Razz',
  '2T7TD': 'Limit Triple Draw 2-7 Lowball',
};
const GAME_OF = new Map<string, VariantCode>(Object.entries(SUMMARY_GAMES).map(([k, v]) => [v, k as VariantCode]));

export interface SummaryExport {
  tournament: TournamentRecordView;
  /** The player whose summary it is (the name the hands give the hero). */
  player: string;
  /** The player's country as PokerStars prints it; default France (a French operator, decree 2016-1326). */
  country?: string;
  /** The prize pool, when known; else the entries' buy-ins (a guarantee or the field's rebuys are not in the record). */
  pool?: number;
}

const money = (units: number, kind: 'real' | 'play', form: 'symbol' | 'code' = 'symbol'): string => {
  if (kind === 'play') return String(units);
  const text = centsText(units);
  return form === 'symbol' ? `€${text}` : `EUR ${text}`;
};
const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};
/** `13.468%` / `100%`: the share of the pool, up to three decimals. */
const share = (prize: number, pool: number): string => `${pool > 0 ? String(Number(((prize * 100) / pool).toFixed(3))) : '0'}%`;

/** Whether a stored tournament is over (a summary is written for those only). */
export function summaryReady(t: TournamentRecordView): boolean {
  return t.place !== null && t.startedAt !== null && t.endedAt !== null;
}

/** One tournament's summary, or null while it is not over (no place, start or end yet). */
export function pokerstarsSummary(s: SummaryExport): string | null {
  const t = s.tournament;
  if (!summaryReady(t)) return null;
  const kind = t.money;
  const pool = s.pool ?? t.entries * t.buyIn;
  const out = [
    `PokerStars Tournament #${tournamentNumber(t.tournamentId)}, ${SUMMARY_GAMES[t.variant]}`,
    `Buy-In: ${money(t.buyIn, kind)}/${money(t.fee, kind)}${kind === 'real' ? ' EUR' : ''}`,
    `${t.entries} players`,
    `Total Prize Pool: ${money(pool, kind)}${kind === 'real' ? ' EUR' : ''}`,
    `Tournament started ${parisDateText(t.startedAt!)}`,
    `Tournament finished ${parisDateText(t.endedAt!)}`,
    `  ${t.place}: ${s.player} (${s.country ?? 'France'}),${t.prize > 0 ? ` ${money(t.prize, kind)} (${share(t.prize, pool)})` : ''}`,
    '',
    `You finished in ${ordinal(t.place!)} place.`,
  ];
  const entry = t.buyIn + t.fee;
  if (t.reEntries > 0) out.push(`You made ${t.reEntries} re-entries for a total of ${money(t.reEntries * entry, kind)}.`);
  const purchases = t.spent - (1 + t.reEntries) * entry;
  if (t.rebuys + t.addOns > 0) out.push(`You made ${t.rebuys} rebuys and ${t.addOns} addons for a total of ${money(Math.max(0, purchases), kind, 'code')}.`);
  // Cercle keeps the bounties' total, not their count: the line PokerStars writes with the count, without it.
  if (t.bounties > 0) out.push(`You collected bounties for a total of ${money(t.bounties, kind, 'code')}.`);
  return out.join('\n');
}

/** Summaries one after another, two blank lines apart (as hands are); tournaments not over are left out. */
export function writePokerstarsSummaries(list: readonly SummaryExport[]): string {
  const texts = list.map(pokerstarsSummary).filter((x): x is string => x !== null);
  return texts.join('\n\n\n') + (texts.length > 0 ? '\n' : '');
}

// ---------------------------------------------------------------------------------------------
// Reading

/** `line`: where the summary starts in the text (1-based), for an error about it found later (the store's). */
export type SummaryImport = { ok: true; summaries: { tournament: TournamentRecordView; player: string; line: number }[] } | Fail;

/** Whether a text is tournament summaries (its first meaningful line). */
export function isSummaryText(text: string): boolean {
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n?|\n/)) {
    const t = raw.trim();
    if (t === '') continue;
    return /^PokerStars Tournament #\d/.test(t);
  }
  return false;
}

const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})*(?:\.\d\d)?|\d{1,13}(?:\.\d\d)?)`;
const CURRENCY = String.raw`(?:€|\$|£)`;
const BUY_IN = new RegExp(String.raw`^Buy-In: (?:${CURRENCY}${AMOUNT}\/${CURRENCY}${AMOUNT}(?:\/${CURRENCY}${AMOUNT})? (?:EUR|USD|GBP)|(\d{1,13})\/(\d{1,13})(?:\/(\d{1,13}))?)$`);
const POOL = new RegExp(String.raw`^Total Prize Pool: (?:${CURRENCY}${AMOUNT} (?:EUR|USD|GBP)|(\d{1,13}))$`);
const PLACE = /^\s*(\d{1,7}): (.+?)(?: \[\d+\])? \(([^()]*)\),(?: (.*))?$/;
const FINISHED = /^You finished (?:the tournament )?in (\d{1,7})(?:st|nd|rd|th) place\b/;
const TOTAL = new RegExp(String.raw`for a total of (?:(?:EUR|USD|GBP) |${CURRENCY})?${AMOUNT}\.$`);
/** PokerStars' other lines (its e-mailed form, a player still in): read and passed over. */
const OTHER = /^(Dear .*,|Congratulations!|Thank you for participating\.|You finished the tournament \(eliminated at|\d{4}\/\d\d\/\d\d .*\)\.$|.* added to the prize pool by PokerStars)/;

function units(text: string, real: boolean): number {
  const n = text.replace(/,/g, '');
  return real ? Math.round(Number(n) * 100) : Number(n);
}

function readOne(lines: { text: string; line: number }[], heroNames: readonly string[]): { ok: true; tournament: TournamentRecordView; player: string } | Fail {
  const first = lines[0];
  const head = /^PokerStars Tournament #(\d{1,16}), (.+)$/.exec(first.text);
  if (!head) return fail(first.line, 'expected "PokerStars Tournament #n, <game>"');
  const variant = GAME_OF.get(head[2].trim());
  if (variant === undefined) return fail(first.line, `'${head[2]}' is not a game of the decree as a summary names it (No Limit Hold'em, Limit Razz…)`);
  let buyIn: number | null = null;
  let fee = 0;
  let real = true;
  let entries: number | null = null;
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  let place: number | null = null;
  const places: { place: number; name: string; prize: number; line: number }[] = [];
  let reEntries = 0;
  let rebuys = 0;
  let addOns = 0;
  let purchases = 0;
  let bounties = 0;
  for (const { text, line } of lines.slice(1)) {
    let m: RegExpExecArray | null;
    const t = text.trim();
    if (t === '') continue;
    if ((m = BUY_IN.exec(t))) {
      real = m[1] !== undefined;
      const parts = (real ? [m[1], m[2], m[3]] : [m[4], m[5], m[6]]).filter((x): x is string => x !== undefined).map((x) => units(x, real));
      // Buy-in / bounty / fee: the bounty is the players', with the buy-in.
      fee = parts[parts.length - 1];
      buyIn = parts.slice(0, -1).reduce((a, b) => a + b, 0);
    } else if ((m = /^(\d{1,7}) players$/.exec(t))) entries = Number(m[1]);
    else if (POOL.test(t)) continue; // the pool follows from the field; Cercle's record does not keep it
    else if ((m = /^Tournament (started|finished) (?:- )?([^[]+?)(?: \[(.*)\])?$/.exec(t))) {
      const at = readDate(m[2], m[3]?.trim());
      if (typeof at === 'string') return fail(line, at);
      if (m[1] === 'started') startedAt = at;
      else endedAt = at;
    } else if ((m = PLACE.exec(text))) {
      const prize = m[4] === undefined || m[4] === '' || /^still playing/.test(m[4]) ? '0' : (new RegExp(String.raw`^${CURRENCY}?${AMOUNT}(?: \([\d.]+%\))?$`).exec(m[4].trim())?.[1] ?? null);
      if (prize === null) return fail(line, `the prize '${m[4]}' cannot be read`);
      places.push({ place: Number(m[1]), name: m[2], prize: units(prize, real), line });
    } else if ((m = FINISHED.exec(t))) place = Number(m[1]);
    else if ((m = /^You made (\d{1,4}) re-entries/.exec(t))) reEntries = Number(m[1]);
    else if ((m = /^You made (\d{1,4}) rebuys and (\d{1,4}) addons/.exec(t))) {
      rebuys = Number(m[1]);
      addOns = Number(m[2]);
      const total = TOTAL.exec(t);
      if (!total) return fail(line, 'the rebuys line has no total');
      purchases = units(total[1], real);
    } else if (/^You collected (?:\d+ )?bounties/.test(t)) {
      const total = TOTAL.exec(t);
      if (!total) return fail(line, 'the bounties line has no total');
      bounties = units(total[1], real);
    } else if (OTHER.test(t)) continue;
    else return fail(line, `unexpected summary line '${t}'`);
  }
  if (buyIn === null) return fail(first.line, 'the summary has no "Buy-In: <buy-in>/<fee>" line');
  if (entries === null) return fail(first.line, 'the summary has no "<n> players" line');
  if (startedAt === null) return fail(first.line, 'the summary has no "Tournament started" line');
  // The player's line: by the place the summary says was theirs, else by one of the names given.
  const mine = place !== null ? places.find((p) => p.place === place) : places.find((p) => heroNames.includes(p.name));
  if (mine === undefined) return fail(first.line, place !== null ? `no line lists place ${place}` : "the summary does not say the player's place");
  const tournamentId = head[1];
  const kinds = `${rebuys + addOns > 0 ? 'A' : ''}${bounties > 0 ? 'G' : ''}${reEntries > 0 ? 'M' : ''}`;
  const view: TournamentRecordView = {
    tournamentId,
    name: `Tournament #${tournamentId}`,
    variant,
    money: real ? 'real' : 'play',
    format: 'scheduled',
    kinds,
    buyIn,
    fee,
    entries,
    registeredAt: startedAt,
    startedAt,
    endedAt,
    place: mine.place,
    prize: mine.prize,
    bounties,
    rebuys,
    addOns,
    reEntries,
    spent: (1 + reEntries) * (buyIn + fee) + purchases,
    hands: 0,
  };
  const v = validate(tournamentRecordSchema, view, 'tournament');
  if (!v.ok) return fail(first.line, v.error);
  return { ok: true, tournament: view, player: mine.name };
}

/**
 * Every summary of a text (each starts at a `PokerStars Tournament #` line), or the line of the
 * first problem and none at all. The tournament id is the summary's number as text (as for hands,
 * handNumber.ts `tournamentNumber`). `heroNames`: the player's names, for a summary that does not say
 * `You finished in …`.
 */
export function readPokerstarsSummaries(text: string, heroNames: readonly string[] = []): SummaryImport {
  const groups: { text: string; line: number }[][] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/)
    .forEach((raw, k) => {
      const t = raw.trimEnd();
      if (t.startsWith('PokerStars Tournament #')) groups.push([]);
      if (t === '' && groups.length === 0) return;
      if (groups.length === 0) groups.push([]);
      groups[groups.length - 1].push({ text: t, line: k + 1 });
    });
  const summaries: { tournament: TournamentRecordView; player: string; line: number }[] = [];
  for (const g of groups) {
    const r = readOne(g, heroNames);
    if (!r.ok) return r;
    summaries.push({ tournament: r.tournament, player: r.player, line: g[0].line });
  }
  return { ok: true, summaries };
}
