/**
 * The hand history's model: what callers pass and get back, the columns' meaning (flags, statistics'
 * sums), and the values derived from a hand when it is stored. Split out of store.ts.
 */
import type { HandSummaryView, HistoryFilter } from '../../../shared/api';
import { hash53, isNumericHandId } from '../../../shared/exchange/handNumber';
import { VARIANT_IDS } from '../../../shared/history/compact';
import { allInEquity } from '../../../shared/history/equity';
import { HAND_MONEY, type HandMoney } from '../../../shared/history/money';
import { handStats, packHandStats } from '../../../shared/history/stats';
import type { HandRecord } from '../../../shared/rules/record';
import { handTournamentSchema, type HandTournament } from '../../../shared/protocol/messages';
import type { VariantCode } from '../../../shared/rules/variants';
import { HAND_ID_MAX, PLAYER_NAME_MAX, SEATS_MAX, TABLE_ID_MAX } from '../../../shared/protocol/limits';
import { DatabaseTooNewError, ForeignDatabaseError } from '../../../shared/node/sqlite';

/** The money of Cercle's own tables: euros or play money. */
export type MoneyKind = 'real' | 'play';
export type { HandMoney };

/** What the client knows about a hand besides its record. */
export interface HandMeta {
  /** When the hand ended, ms since the epoch. */
  playedAt: number;
  tableId: string;
  /** The hand's money: its results are counted in it and never with another (shared/history/money.ts). */
  money: HandMoney;
  /**
   * The player's own seat (the hero): results are theirs. Null: an observed hand (none of the
   * player's names is at the table and no seat's hidden cards were dealt to the file's writer): stored
   * and shown, never in the player's results (R-RESULTS).
   */
  heroSeat: number | null;
  /** A tournament's hand (its id and 0-based level): chips, not money; kept out of the cash results. */
  tournament?: HandTournament | null;
}

export type AddResult = { stored: true; duplicate: false } | { stored: false; duplicate: true } | { stored: false; duplicate: false; reason: string };

export interface BulkResult {
  stored: number;
  duplicates: number;
  refused: { index: number; reason: string }[];
}

/** A bulk import in progress (`HistoryStore.importer`). */
export interface HistoryImport {
  /** Stores these hands; counts for this chunk (indices into it). */
  add(list: readonly { meta: HandMeta; record: HandRecord }[]): BulkResult;
  /** Commits what is left; totals of the whole import (indices count from its first hand). */
  finish(): BulkResult;
  /** Drops the hands not yet committed. */
  abort(): void;
}


/** Which hands (the client API's filter, shared/api). */
export type HandFilter = HistoryFilter;

export interface PageRequest {
  sort: 'time' | 'net';
  dir: 'asc' | 'desc';
  /** 1..200. */
  limit: number;
  /** `next` of the previous page. */
  cursor?: string | null;
}

/** One line of the history list. */
/** One line of the history list (the client API's summary, shared/api). */
export type HandSummary = HandSummaryView;

export type PageResult = { ok: true; hands: HandSummary[]; next: string | null } | { ok: false; reason: string };

export type GetHandResult = { ok: true; summary: HandSummary; record: HandRecord } | { ok: false; reason: string };

export interface Totals {
  hands: number;
  net: number;
  rake: number;
}

/**
 * A group of a period's results (a game, a game and stakes, a local day): its cash hands, and its
 * tournament money moved in the period (`entries` paid, `prizes` won; a tournament's
 * money has a game but no stakes: in the `stakes` grouping it is the game's line without stakes).
 * The group's result is `net + prizes − entries`; the groups add up to the period's totals.
 */
export interface ResultGroup extends Totals {
  entries: number;
  prizes: number;
  money: HandMoney;
  variant?: VariantCode;
  stakes?: number;
  /** Local date `YYYY-MM-DD` (groupBy 'day'). */
  day?: string;
}

export interface ResultsQuery {
  from: number;
  to: number;
  money?: HandMoney;
  /** 'stakes' groups by variant and stakes (a stake means nothing without its game). */
  groupBy?: 'variant' | 'stakes' | 'day';
}

/**
 * A period's totals of one money kind: its cash hands, and its tournament money (R-TRACKER) as it moved in
 * the period (schema version 7, `tournament_money`): `entries` paid in it
 * (entries, re-entries, rebuys, add-ons, fees), `prizes` won in it (bounties as they are won, prizes
 * at the end). A refunded registration counts nowhere. The period's result is `net + prizes − entries`.
 */
export interface PeriodTotals extends Totals {
  entries: number;
  prizes: number;
}

/**
 * Real money (euros) and play money are never added together; hands of another money (dollars,
 * pounds, imported: shared/history/money.ts) are in no one of these two, only in the groups of their money.
 */
export type ResultsAnswer = { ok: true; real: PeriodTotals; play: PeriodTotals; groups: ResultGroup[] } | { ok: false; reason: string };

export interface HistoryStoreOptions {
  /** Now, in ms (tests pass a fixed clock). */
  now?: () => number;
  /** Minutes east of UTC at an instant (local days for `groupBy: 'day'`); default: this machine's zone. */
  utcOffsetMinutes?: (ms: number) => number;
  /** Query planning: a page sorts its candidates when a filter narrows them to this many (tests lower it). */
  planThreshold?: number;
  /** `synchronous` pragma: NORMAL (default) loses at most the last hands on a power cut, never the file. */
  synchronous?: 'NORMAL' | 'FULL';
}


/** Thrown when the file was written by a newer Cercle (its schema version is unknown here). */
export const HistoryTooNewError = DatabaseTooNewError;
/** Thrown when the file is a SQLite database of something else. */
export const NotAHistoryError = ForeignDatabaseError;
/** The label of the history in the opener's messages. */
export const HISTORY_LABEL = 'hand history';

/** R-HISTORY: the client keeps at least 366 days. */
export const HISTORY_KEEP_DAYS = 366;
// The history counts in the lengths every layer uses (shared/rules/time.ts).
export { DAY_MS as DAY, HOUR_MS as HOUR } from '../../../shared/rules/time';
export const MAX_PAGE = 200;
/** Hands per transaction in a bulk import. */
export const IMPORT_BATCH = 20_000;
/** Page cache (KiB, negative as SQLite wants it): normal use, and during an import (its batch's dirty pages stay in memory). */
export const NORMAL_CACHE = -16_000;
export const IMPORT_CACHE = -96_000;
/** A page sorts its candidates in memory when a filter narrows them to this many hands (see `page`). */
export const PLAN_THRESHOLD = 5000;
export const CACHE_LIMIT = 50_000;

// `hands.flags` bits (bit 0 is also the `money` of the totals tables: 0 real, 1 play).
export const F_PLAY = 1;
export const F_SHOWDOWN = 2;
export const F_ALL_IN = 4;
export const F_WON = 8;
export const F_LOST = 16;
/** Schema version 6: a tournament's hand (its chips are not money: kept out of the cash totals, graph and statistics). */
export const F_TOURNAMENT = 32;
/**
 * Schema version 9: the hand's money when it is neither euros nor play money (its code in HAND_MONEY,
 * ≥ 2), in bits 6 to 8; 0 there for euros and play money (bit 0), as versions 1 to 8 stored them.
 */
export const F_MONEY_SHIFT = 6;
export const F_MONEY = 7 << F_MONEY_SHIFT;
/** Schema version 9: an observed hand (no hero): hero_seat -1, net and rake 0, in no result. */
export const F_OBSERVED = 512;
/**
 * The SQL test of a cash hand of the player over `hands h` (read in the time, net and results indexes):
 * the totals, graph pieces and statistics' sums count these only.
 */
export const CASH_ONLY = '(h.flags & 544) = 0';
/** The SQL of a hand's money code (HAND_MONEY) from its flags, over `alias`: the totals' `money`. */
export const moneySql = (alias = 'h'): string => `((${alias}.flags & 1) | ((${alias}.flags >> ${F_MONEY_SHIFT}) & 7))`;
/** The flag bits of a money: bit 0 for play money, its code in bits 6 to 8 for the others but euros. */
export function moneyFlags(money: HandMoney): number {
  const code = HAND_MONEY.indexOf(money);
  return code === 1 ? F_PLAY : code << F_MONEY_SHIFT;
}
/** The money of a hand's flags. */
export function moneyOfFlags(flags: number): HandMoney {
  return HAND_MONEY[(flags & F_PLAY) | ((flags >> F_MONEY_SHIFT) & 7)] ?? 'real';
}
/** A money's code in the totals tables (HAND_MONEY's order). */
export const moneyCode = (money: HandMoney): number => HAND_MONEY.indexOf(money);

/**
 * The yes/no filters as one test of the flag bits (read from the time or net index entry); `mine`
 * leaves out observed hands (the results' reads).
 */
export function flagsCondition(filter: HandFilter, mine = false): string | null {
  let mask = mine ? F_OBSERVED : 0;
  let want = 0;
  const flag = (bit: number, on: boolean | undefined): void => {
    if (on === undefined) return;
    mask |= bit;
    if (on) want |= bit;
  };
  if (filter.money !== undefined) {
    mask |= F_PLAY | F_MONEY;
    want |= moneyFlags(filter.money);
  }
  flag(F_SHOWDOWN, filter.showdown);
  flag(F_ALL_IN, filter.allIn);
  flag(F_WON, filter.result === undefined ? undefined : filter.result === 'won');
  flag(F_LOST, filter.result === undefined ? undefined : filter.result === 'lost');
  flag(F_TOURNAMENT, filter.kind === undefined ? undefined : filter.kind === 'tournament');
  return mask === 0 ? null : `(h.flags & ${mask}) = ${want}`;
}

/**
 * The statistics' sums over hands `h` (bit layout: shared/history/stats.ts STAT_BIT / STAT_FIELD), in
 * the order of STAT_SUMS. Hands the hero was not dealt in have `stats` 0 and count for nothing.
 */
export const STAT_SUMS = ['hands', 'vpip', 'pfr', 'tbc', 'tb', 'saw', 'wtsd', 'sd', 'wsd', 'agg', 'calls', 'cbb', 'draws', 'cards', 'pat'] as const;
export type StatSums = Record<(typeof STAT_SUMS)[number], number>;
export const STAT_EXPR: Record<(typeof STAT_SUMS)[number], string> = {
  hands: 'h.stats & 1',
  vpip: '(h.stats >> 1) & 1',
  pfr: '(h.stats >> 2) & 1',
  tbc: '(h.stats >> 3) & 1',
  tb: '(h.stats >> 4) & 1',
  saw: '(h.stats >> 5) & 1',
  wtsd: '(h.stats & 96) = 96',
  sd: '(h.stats >> 6) & 1',
  wsd: '(h.stats >> 7) & 1',
  agg: '(h.stats >> 8) & 255',
  calls: '(h.stats >> 16) & 255',
  cbb: 'CASE WHEN (h.stats & 1) = 1 AND h.stakes > 0 THEN round(h.hero_net * 100.0 / h.stakes) ELSE 0 END',
  draws: '(h.stats >> 24) & 15',
  cards: '(h.stats >> 28) & 31',
  pat: '(h.stats >> 33) & 15',
};
export const STAT_SELECT = STAT_SUMS.map((k) => `total(${STAT_EXPR[k]}) AS ${k}`).join(', ');

/** The results columns of a hand (schema version 2). */
export function derivedResults(record: HandRecord, heroSeat: number): { stats: number; adj: number | null } {
  try {
    const eq = allInEquity(record, heroSeat);
    return { stats: packHandStats(handStats(record, heroSeat)), adj: eq === null ? null : eq.adjustedNet };
  } catch {
    // A record the evaluators cannot read (cards repeated by a faulty source): counted, not adjusted.
    return { stats: 0, adj: null };
  }
}

/** A hand id as a shared prefix and a numeric tail (-1: none), so that the unique key is two integers. */
export function splitHandId(id: string): { prefix: string; number: number } {
  const m = /^([\s\S]*?)(0|[1-9][0-9]{0,14})$/.exec(id);
  return m ? { prefix: m[1], number: Number(m[2]) } : { prefix: id, number: -1 };
}

export function joinHandId(prefix: string, number: number): string {
  return number < 0 ? prefix : prefix + String(number);
}

export interface HandRow {
  id: number;
  /** Schema version 6: the tournament's row (null: a cash hand) and the hand's level. */
  tournament: number | null;
  level: number | null;
  prefix: number;
  number: number;
  played_at: number;
  table_ref: number;
  variant: number;
  stakes: number;
  flags: number;
  hero_seat: number;
  hero_net: number;
  hero_rake: number;
  pot: number;
  hero_cards: number;
}

export interface TotalsRow {
  money: number;
  variant: number;
  stakes: number;
  hands: number;
  net: number;
  rake: number;
}

/** Per-hand values of the summary columns, derived once from the record. */
export interface Derived {
  prefix: string;
  number: number;
  variant: number;
  stakes: number;
  money: number;
  flags: number;
  heroNet: number;
  heroRake: number;
  pot: number;
  /** Schema version 2: packed statistics and the all-in adjusted net (null: not adjusted). */
  stats: number;
  adj: number | null;
  /** Schema version 3: the exchange number (identity across formats). */
  xnum: number;
  /** Schema version 4: the hero's cards, packed. */
  heroCards: number;
  /** Schema version 6: a tournament's hand (its id and level), or null. */
  tournament: HandTournament | null;
}


export type Delta = { hands: number; net: number; rake: number };

export function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

export function addDelta(deltas: Map<string, Delta>, key: string, d: Derived): void {
  const x = deltas.get(key);
  if (x === undefined) deltas.set(key, { hands: 1, net: d.heroNet, rake: d.heroRake });
  else {
    x.hands++;
    x.net += d.heroNet;
    x.rake += d.heroRake;
  }
}

/** The stakes key of a hand: the big blind, or in Stud the small bet. */
export function stakesOf(record: HandRecord): number {
  return record.rules.bigBlind > 0 ? record.rules.bigBlind : record.rules.smallBet;
}

/** The summary columns of a hand, or why it cannot be stored. */
export function derive(meta: HandMeta, record: HandRecord): Derived | string {
  if (record === null || typeof record !== 'object') return 'no hand record';
  if (typeof record.handId !== 'string') return 'a hand needs its id to be stored once (R-HISTORY)';
  // Nothing is stored that the history's readers (shared/api) would refuse to return.
  if (record.handId.length < 1 || record.handId.length > HAND_ID_MAX) return `a hand id has 1 to ${HAND_ID_MAX} characters`;
  if (!Number.isSafeInteger(meta.playedAt)) return 'playedAt must be a whole number of ms';
  if (typeof meta.tableId !== 'string') return 'tableId must be text';
  if (meta.tableId.length < 1 || meta.tableId.length > TABLE_ID_MAX) return `a table id has 1 to ${TABLE_ID_MAX} characters`;
  if (!Array.isArray(record.seats) || record.seats.length > SEATS_MAX) return `a hand has at most ${SEATS_MAX} seats`;
  for (const s of record.seats) {
    if (typeof s.player !== 'string' || s.player.length < 1 || s.player.length > PLAYER_NAME_MAX) return `a player name has 1 to ${PLAYER_NAME_MAX} characters`;
  }
  if (!HAND_MONEY.includes(meta.money)) return `money is one of ${HAND_MONEY.join(', ')}`;
  const tournament = meta.tournament ?? null;
  if (tournament !== null) {
    // The wire's checks (shared/protocol), so that what is stored can be returned.
    const bad = handTournamentSchema.check(tournament, 'tournament');
    if (bad !== null) return bad;
  }
  const hero = meta.heroSeat === null ? null : record.seats.find((s) => s.seat === meta.heroSeat);
  if (hero === undefined) return `seat ${String(meta.heroSeat)} is not a seat of this hand: the history keeps the player's own hands`;
  const variant = VARIANT_IDS.indexOf(record.variant);
  if (variant < 0) return `unknown variant ${String(record.variant)}`;
  let pot = 0;
  for (const p of record.pots) pot += p.amount;
  const { prefix, number } = splitHandId(record.handId);
  return {
    ...heroColumns(record, hero),
    prefix,
    number,
    variant,
    stakes: stakesOf(record),
    money: moneyCode(meta.money),
    flags: heroFlags(record, hero) | moneyFlags(meta.money) | (tournament !== null ? F_TOURNAMENT : 0),
    pot,
    xnum: exchangeNumber(record.handId),
    tournament: tournament === null ? null : { tournamentId: tournament.tournamentId, level: tournament.level },
  };
}

type Seat = HandRecord['seats'][number];

/** The hero's columns; an observed hand (no hero) has none: 0, in no result and no statistic. */
function heroColumns(record: HandRecord, hero: Seat | null): Pick<Derived, 'stats' | 'adj' | 'heroNet' | 'heroRake' | 'heroCards'> {
  if (hero === null) return { stats: 0, adj: null, heroNet: 0, heroRake: 0, heroCards: 0 };
  const extra = derivedResults(record, hero.seat);
  return { stats: extra.stats, adj: extra.adj, heroNet: hero.net, heroRake: hero.rake, heroCards: packCards(hero.cards) };
}

/** The hero's yes/no flags; an observed hand's is F_OBSERVED alone. */
function heroFlags(record: HandRecord, hero: Seat | null): number {
  if (hero === null) return F_OBSERVED;
  let allIn = false;
  for (const a of record.actions) if ('allIn' in a && a.allIn && a.seat === hero.seat) allIn = true;
  return (
    (record.showdown && hero.dealtIn && !hero.folded ? F_SHOWDOWN : 0) |
    (allIn ? F_ALL_IN : 0) |
    (hero.net > 0 ? F_WON : 0) |
    (hero.net < 0 ? F_LOST : 0)
  );
}

/** Known cards packed 6 bits each (code + 1), first card lowest; unknown cards are left out (schema version 4). */
export function packCards(cards: readonly (number | null)[]): number {
  let v = 0;
  let k = 0;
  for (const c of cards) {
    if (c === null || k >= 7) continue;
    v += (c + 1) * 64 ** k++;
  }
  return v;
}

export function unpackCards(v: number): number[] {
  const out: number[] = [];
  for (let x = v; x > 0; x = Math.floor(x / 64)) out.push((x % 64) - 1);
  return out;
}

/** The number PokerStars text and POJEU `IDEvt` carry for a hand id (shared/exchange/handNumber.ts; schema version 3). */
export function exchangeNumber(handId: string): number {
  return isNumericHandId(handId) ? Number(handId) : hash53(handId);
}
