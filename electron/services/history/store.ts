/**
 * The client's local hand history (R-HISTORY, D art. 8 II 5°; DESIGN.md §3 "The hand history", §5):
 * one SQLite file (better-sqlite3) in the player's data folder, every hand the player took part in,
 * kept until the player asks otherwise (never less than 366 days), searchable and paged, with the
 * results of any period read from totals kept as hands arrive (R-TRACKER, R-RESULTS).
 *
 * Storage (CONVENTIONS.md "Storage that survives versions"): WAL; the schema is brought up by
 * `PRAGMA user_version` migrations, one function per version, each in its own transaction that ends
 * by setting `user_version`; a file written by a newer build is refused with `HistoryTooNewError`
 * before anything is written (not even the WAL switch), and a file that is not a Cercle history is
 * refused too (`application_id`). Statements are prepared once (page queries once per shape).
 *
 * Schema, version 1
 * -----------------
 *   players(id, name UNIQUE)          dictionary of player names: hand bytes carry the ids
 *   table_ids(id, name UNIQUE)        dictionary of table ids
 *   hand_prefixes(id, prefix UNIQUE)  a hand id is split into a prefix and a numeric tail
 *                                     ("thnl-5-10-1-lq3k9a-" + 1234): the prefix is shared by every
 *                                     hand of a table run, so the unique key is two small integers
 *   hands(id INTEGER PRIMARY KEY, prefix, number, played_at, table_ref, variant, stakes, flags,
 *         hero_seat, hero_net, hero_rake, pot, record BLOB)
 *       UNIQUE (prefix, number)                   a hand is stored once by its id (ON CONFLICT DO NOTHING)
 *       INDEX  (played_at, flags)                 time order, periods
 *       INDEX  (variant, played_at)               one game, newest first
 *       INDEX  (table_ref, played_at)             one table
 *       INDEX  (hero_net, flags)                  biggest wins / losses
 *     `record` is the compact encoding (shared/history/compact.ts) without the hand id (it is in
 *     `prefix` + `number`) and with players as dictionary ids. Integer row ids keep every index
 *     entry small (a WITHOUT ROWID table keyed by the text id would repeat it in every index).
 *     `number` is -1 when the id has no numeric tail (the whole id is then the prefix).
 *     `variant` is the codec's frozen variant byte; `stakes` the big blind (Stud: the small bet);
 *     `flags`: 1 play money (else real), 2 the hero reached the showdown (not folded), 4 the hero
 *     was all-in, 8 won (net > 0), 16 lost (net < 0); one byte, carried in the time and net indexes
 *     so that those filters are checked in the index, without reading the row. `pot`: the chips in
 *     the pots before rake.
 *   hand_players(player, hand) WITHOUT ROWID   hands by player, for the player filter
 *   day_totals(day, money, variant, stakes, hands, net, rake) WITHOUT ROWID    UTC days
 *   hour_totals(hour, money, variant, stakes, hands, net, rake) WITHOUT ROWID  UTC hours
 *     The hero's count of hands, net and rake, updated in the same transaction as the hands. A
 *     period is read as whole UTC days, then whole hours at its edges, then the few hands of its
 *     partial hours (DESIGN.md §3: a result over a year is read, not recomputed). Hours rather than
 *     days alone because local days start at local midnight (any whole-hour time zone, and DST).
 *
 * Schema, version 2 (the results page, docs/stats.md)
 * -----------------------------------------------------
 *   hands.stats INTEGER    the hero's per-hand statistics packed in one integer (shared/history/stats.ts
 *                          `packHandStats`: VPIP, PFR, 3-bet, aggression, showdown, draws)
 *   hands.hero_adj INTEGER the all-in adjusted net (shared/history/equity.ts), NULL when the hand is not
 *                          adjusted (the graph then counts `hero_net`)
 *     Both are computed from the record when a hand is stored; the migration fills them for hands
 *     stored by version 1.
 *   INDEX hands_results (played_at, flags, hero_net, hero_rake, hero_adj, table_ref, variant, stakes, stats)
 *     covers the results page's reads (graph, sessions, statistics) of a period: a time range of
 *     this index, never the rows with their records.
 *   hour_stats(hour, money, variant, stakes, hands, vpip, pfr, …) WITHOUT ROWID
 *     the statistics' sums per UTC hour, kept with the hour totals: the statistics of a period (by
 *     money, game, stakes) are read from whole hours, and only the hands of its partial hours are
 *     summed (DESIGN.md §3).
 *
 * Schema, version 3 (issue 13 defect 1: a hand is stored once whatever format it came through)
 * ---------------------------------------------------------------------------------------------
 *   hands.xnum INTEGER    the hand's exchange number (shared/exchange/handNumber.ts): the id itself
 *                         when it is a plain number, else its 53-bit hash. PokerStars text carries
 *                         only this number (`Hand #n`), so a hand read back from it has another id.
 *   INDEX hands_by_xnum (xnum)
 *     A hand whose exchange number, game and second of play are those of a stored hand is that hand
 *     (a duplicate), whichever id it came with; the chance that two different hands share all three
 *     is nil (a 53-bit hash, the same second, the same game).
 *
 * Schema, version 4 (issue 13 habits: the player's cards in the History list)
 * ---------------------------------------------------------------------------------------------
 *   hands.hero_cards INTEGER  the hero's cards as the record knows them at the end (a draw game's
 *                             final hand), packed 6 bits a card (code + 1, first card lowest), 0 for
 *                             none: up to 7 cards in a safe integer, read with the page, no record decoded.
 *
 * Pages are keyset-paginated on (played_at, id) or (hero_net, id); the driving index is chosen by
 * the filter (player → hand_players, table, variant, else time; by net: the net index unless the
 * filter's own index narrows to a few thousand hands, which are then sorted).
 *
 * Writing: `addHand` is one transaction (hand, players, totals); `importer()` / `addHands` commit
 * 20,000 hands a transaction. Both are synchronous: run a large import in a worker thread with its
 * own connection (DESIGN.md §3: long work off the main thread); WAL lets the UI read meanwhile.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hash53, isNumericHandId } from '../../../shared/exchange/handNumber';
import { VARIANT_IDS, decodeHand, encodeHand, isDecodeRefusal } from '../../../shared/history/compact';
import { allInEquity } from '../../../shared/history/equity';
import { centiBigBlinds, handStats, packHandStats, unpackHandStats } from '../../../shared/history/stats';
import type { HandRecord } from '../../../shared/rules/record';
import type { VariantCode } from '../../../shared/rules/variants';
import { HAND_ID_MAX, PLAYER_NAME_MAX, SEATS_MAX, TABLE_ID_MAX } from '../../../shared/protocol/limits';

type Db = Database.Database;
type Statement = Database.Statement;

export type MoneyKind = 'real' | 'play';

/** What the client knows about a hand besides its record. */
export interface HandMeta {
  /** When the hand ended, ms since the epoch. */
  playedAt: number;
  tableId: string;
  money: MoneyKind;
  /** The player's own seat (the hero): results are theirs. */
  heroSeat: number;
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

export interface HandFilter {
  /** Played at or after (ms). */
  from?: number;
  /** Played before (ms). */
  to?: number;
  variant?: VariantCode;
  stakes?: number;
  tableId?: string;
  money?: MoneyKind;
  result?: 'won' | 'lost';
  showdown?: boolean;
  allIn?: boolean;
  /** Hands this player took part in. */
  player?: string;
}

export interface PageRequest {
  sort: 'time' | 'net';
  dir: 'asc' | 'desc';
  /** 1..200. */
  limit: number;
  /** `next` of the previous page. */
  cursor?: string | null;
}

/** One line of the history list. */
export interface HandSummary {
  handId: string;
  playedAt: number;
  tableId: string;
  variant: VariantCode;
  stakes: number;
  money: MoneyKind;
  heroSeat: number;
  net: number;
  rake: number;
  showdown: boolean;
  allIn: boolean;
  pot: number;
  /** The player's own cards in this hand (schema version 4), as the record knows them at the end. */
  cards: number[];
}

export type PageResult = { ok: true; hands: HandSummary[]; next: string | null } | { ok: false; reason: string };

export type GetHandResult = { ok: true; summary: HandSummary; record: HandRecord } | { ok: false; reason: string };

export interface Totals {
  hands: number;
  net: number;
  rake: number;
}

export interface ResultGroup extends Totals {
  money: MoneyKind;
  variant?: VariantCode;
  stakes?: number;
  /** Local date `YYYY-MM-DD` (groupBy 'day'). */
  day?: string;
}

export interface ResultsQuery {
  from: number;
  to: number;
  money?: MoneyKind;
  /** 'stakes' groups by variant and stakes (a stake means nothing without its game). */
  groupBy?: 'variant' | 'stakes' | 'day';
}

/** Real money and play money are never added together. */
export type ResultsAnswer = { ok: true; real: Totals; play: Totals; groups: ResultGroup[] } | { ok: false; reason: string };

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
export class HistoryTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The hand history ${file} has schema version ${found}, but this build only knows versions up to ${supported}. ` +
        'It was written by a newer version of Cercle and is left untouched: use that newer version.',
    );
    this.name = 'HistoryTooNewError';
  }
}

/** Thrown when the file is a SQLite database of something else. */
export class NotAHistoryError extends Error {
  constructor(readonly file: string) {
    super(`${file} is not a Cercle hand history; it is left untouched.`);
    this.name = 'NotAHistoryError';
  }
}

/** R-HISTORY: the client keeps at least 366 days. */
export const HISTORY_KEEP_DAYS = 366;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** `PRAGMA application_id` of a Cercle history ("CRCH"). */
const APPLICATION_ID = 0x43524348;
const MAX_PAGE = 200;
/** Hands per transaction in a bulk import. */
const IMPORT_BATCH = 20_000;
/** Page cache (KiB, negative as SQLite wants it): normal use, and during an import (its batch's dirty pages stay in memory). */
const NORMAL_CACHE = -16_000;
const IMPORT_CACHE = -96_000;
/** A page sorts its candidates in memory when a filter narrows them to this many hands (see `page`). */
const PLAN_THRESHOLD = 5000;
const CACHE_LIMIT = 50_000;

// `hands.flags` bits (bit 0 is also the `money` of the totals tables: 0 real, 1 play).
const F_PLAY = 1;
const F_SHOWDOWN = 2;
const F_ALL_IN = 4;
const F_WON = 8;
const F_LOST = 16;

/** The yes/no filters as one test of the flag bits (read from the time or net index entry). */
function flagsCondition(filter: HandFilter): string | null {
  let mask = 0;
  let want = 0;
  const flag = (bit: number, on: boolean | undefined): void => {
    if (on === undefined) return;
    mask |= bit;
    if (on) want |= bit;
  };
  flag(F_PLAY, filter.money === undefined ? undefined : filter.money === 'play');
  flag(F_SHOWDOWN, filter.showdown);
  flag(F_ALL_IN, filter.allIn);
  flag(F_WON, filter.result === undefined ? undefined : filter.result === 'won');
  flag(F_LOST, filter.result === undefined ? undefined : filter.result === 'lost');
  return mask === 0 ? null : `(h.flags & ${mask}) = ${want}`;
}

/**
 * The statistics' sums over hands `h` (bit layout: shared/history/stats.ts STAT_BIT / STAT_FIELD), in
 * the order of STAT_SUMS. Hands the hero was not dealt in have `stats` 0 and count for nothing.
 */
const STAT_SUMS = ['hands', 'vpip', 'pfr', 'tbc', 'tb', 'saw', 'wtsd', 'sd', 'wsd', 'agg', 'calls', 'cbb', 'draws', 'cards', 'pat'] as const;
type StatSums = Record<(typeof STAT_SUMS)[number], number>;
const STAT_EXPR: Record<(typeof STAT_SUMS)[number], string> = {
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
const STAT_SELECT = STAT_SUMS.map((k) => `total(${STAT_EXPR[k]}) AS ${k}`).join(', ');

type Migration = (db: Db) => void;

const v1: Migration = (db) => {
  db.exec(`
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE table_ids (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE hand_prefixes (id INTEGER PRIMARY KEY, prefix TEXT NOT NULL UNIQUE);
    CREATE TABLE hands (
      id        INTEGER PRIMARY KEY,
      prefix    INTEGER NOT NULL,
      number    INTEGER NOT NULL,
      played_at INTEGER NOT NULL,
      table_ref INTEGER NOT NULL,
      variant   INTEGER NOT NULL,
      stakes    INTEGER NOT NULL,
      flags     INTEGER NOT NULL,
      hero_seat INTEGER NOT NULL,
      hero_net  INTEGER NOT NULL,
      hero_rake INTEGER NOT NULL,
      pot       INTEGER NOT NULL,
      record    BLOB NOT NULL
    );
    CREATE UNIQUE INDEX hands_by_id ON hands(prefix, number);
    CREATE INDEX hands_by_time ON hands(played_at, flags);
    CREATE INDEX hands_by_game ON hands(variant, played_at);
    CREATE INDEX hands_by_table ON hands(table_ref, played_at);
    CREATE INDEX hands_by_net ON hands(hero_net, flags);
    CREATE TABLE hand_players (player INTEGER NOT NULL, hand INTEGER NOT NULL, PRIMARY KEY (player, hand)) WITHOUT ROWID;
    CREATE TABLE day_totals (
      day INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, rake INTEGER NOT NULL,
      PRIMARY KEY (day, money, variant, stakes)
    ) WITHOUT ROWID;
    CREATE TABLE hour_totals (
      hour INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, rake INTEGER NOT NULL,
      PRIMARY KEY (hour, money, variant, stakes)
    ) WITHOUT ROWID;
  `);
  db.pragma(`application_id = ${APPLICATION_ID}`);
};

const v2: Migration = (db) => {
  db.exec('ALTER TABLE hands ADD COLUMN stats INTEGER NOT NULL DEFAULT 0; ALTER TABLE hands ADD COLUMN hero_adj INTEGER;');
  // Hands stored by version 1: decode each and compute its statistics and adjusted net.
  const name = db.prepare('SELECT name FROM players WHERE id = ?').pluck();
  const names = new Map<number, string>();
  const playerName = (id: number): string | undefined => {
    let n = names.get(id);
    if (n === undefined) {
      n = name.get(id) as string | undefined;
      if (n !== undefined) names.set(id, n);
    }
    return n;
  };
  const update = db.prepare('UPDATE hands SET stats = ?, hero_adj = ? WHERE id = ?');
  const rows = db.prepare('SELECT id, hero_seat, record FROM hands').raw();
  const updates: [number, number | null, number][] = [];
  for (const [id, heroSeat, bytes] of rows.iterate() as IterableIterator<[number, number, Uint8Array]>) {
    const record = decodeHand(bytes, { handId: `h${String(id)}`, playerName });
    if (isDecodeRefusal(record)) continue;
    const extra = derivedResults(record, heroSeat);
    updates.push([extra.stats, extra.adj, id]);
  }
  for (const u of updates) update.run(...u);
  db.exec('CREATE INDEX hands_results ON hands(played_at, flags, hero_net, hero_rake, hero_adj, table_ref, variant, stakes, stats)');
  db.exec(`CREATE TABLE hour_stats (
      hour INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      ${STAT_SUMS.map((k) => `${k} INTEGER NOT NULL`).join(', ')},
      PRIMARY KEY (hour, money, variant, stakes)
    ) WITHOUT ROWID`);
  db.exec(`INSERT INTO hour_stats SELECT played_at / ${HOUR} - (played_at < 0 AND played_at % ${HOUR} != 0) AS at, flags & 1 AS money, variant, stakes,
             ${STAT_SUMS.map((k) => `CAST(total(${STAT_EXPR[k]}) AS INTEGER)`).join(', ')}
           FROM hands h GROUP BY at, money, variant, stakes`);
};

const v3: Migration = (db) => {
  db.exec('ALTER TABLE hands ADD COLUMN xnum INTEGER NOT NULL DEFAULT 0');
  const prefixes = new Map((db.prepare('SELECT id, prefix FROM hand_prefixes').raw().all() as [number, string][]).map(([id, p]) => [id, p]));
  const update = db.prepare('UPDATE hands SET xnum = ? WHERE id = ?');
  const rows = db.prepare('SELECT id, prefix, number FROM hands').raw().all() as [number, number, number][];
  for (const [id, prefix, number] of rows) update.run(exchangeNumber(joinHandId(prefixes.get(prefix) ?? '', number)), id);
  db.exec('CREATE INDEX hands_by_xnum ON hands(xnum)');
};

const v4: Migration = (db) => {
  db.exec('ALTER TABLE hands ADD COLUMN hero_cards INTEGER NOT NULL DEFAULT 0');
  const name = db.prepare('SELECT name FROM players WHERE id = ?').pluck();
  const update = db.prepare('UPDATE hands SET hero_cards = ? WHERE id = ?');
  const rows = db.prepare('SELECT id, hero_seat, record FROM hands').raw().all() as [number, number, Uint8Array][];
  for (const [id, heroSeat, bytes] of rows) {
    const record = decodeHand(bytes, { handId: `h${String(id)}`, playerName: (p) => name.get(p) as string | undefined });
    if (!isDecodeRefusal(record)) update.run(packCards(record.seats.find((s) => s.seat === heroSeat)?.cards ?? []), id);
  }
};

/** Index i brings the schema from version i to i + 1. */
export const HISTORY_MIGRATIONS: readonly Migration[] = [v1, v2, v3, v4];

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

/** The number PokerStars text and POJEU `IDEvt` carry for a hand id (shared/exchange/handNumber.ts). */
function exchangeNumber(handId: string): number {
  return isNumericHandId(handId) ? Number(handId) : hash53(handId);
}

/** The results columns of a hand (schema version 2). */
function derivedResults(record: HandRecord, heroSeat: number): { stats: number; adj: number | null } {
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

function joinHandId(prefix: string, number: number): string {
  return number < 0 ? prefix : prefix + String(number);
}

interface HandRow {
  id: number;
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

interface TotalsRow {
  money: number;
  variant: number;
  stakes: number;
  hands: number;
  net: number;
  rake: number;
}

/** Per-hand values of the summary columns, derived once from the record. */
interface Derived {
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
}

type Delta = { hands: number; net: number; rake: number };

export class HistoryStore {
  private readonly q: {
    findPlayer: Statement;
    addPlayer: Statement;
    playerName: Statement;
    findTable: Statement;
    addTable: Statement;
    tableName: Statement;
    findPrefix: Statement;
    addPrefix: Statement;
    prefixText: Statement;
    addHand: Statement;
    sameHand: Statement;
    addDay: Statement;
    addHour: Statement;
    getHand: Statement;
    getRecord: Statement;
    count: Statement;
    dayTotals: Statement;
    hourTotals: Statement;
    handTotals: Statement;
    hourByHour: Statement;
    handsInRange: Statement;
  };
  private readonly shapes = new Map<string, Statement>();
  /** `INSERT INTO hand_players` of n rows, by n (prepared once each). */
  private readonly handPlayerStatements: Statement[] = [];
  /** (player, hand) pairs of the current transaction, flat, written at its end (flushPlayers). */
  private readonly pendingPlayers: number[] = [];
  /** Statistic sums of the current transaction per `hour:money:variant:stakes`, written with the totals. */
  private readonly pendingStats = new Map<string, number[]>();
  private readonly playerIds = new Map<string, number>();
  private readonly playerNames = new Map<number, string>();
  private readonly tableIds = new Map<string, number>();
  private readonly tableNames = new Map<number, string>();
  private readonly prefixIds = new Map<string, number>();
  private readonly prefixTexts = new Map<number, string>();
  private readonly now: () => number;
  private readonly planThreshold: number;
  private readonly offset: (ms: number) => number;
  private closed = false;
  private importing = false;
  /** One hand and its totals in one transaction (made once, with the statements). */
  private readonly addOne: (meta: HandMeta, record: HandRecord, d: Derived) => boolean;
  private readonly encodeOptions = { handIdOutside: true, playerId: (name: string): number => this.playerId(name) };

  private constructor(
    private readonly db: Db,
    readonly file: string,
    options: HistoryStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.planThreshold = options.planThreshold ?? PLAN_THRESHOLD;
    this.offset = options.utcOffsetMinutes ?? ((ms) => -new Date(ms).getTimezoneOffset());
    this.addOne = db.transaction((meta: HandMeta, record: HandRecord, d: Derived): boolean => {
      const deltas = new Map<string, Delta>();
      const stored = this.insert(meta, record, d, deltas);
      this.flushTotals(deltas);
      return stored;
    });
    const p = (sql: string): Statement => db.prepare(sql);
    const totals = (table: 'day_totals' | 'hour_totals', key: 'day' | 'hour'): Statement =>
      p(`INSERT INTO ${table}(${key}, money, variant, stakes, hands, net, rake) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(${key}, money, variant, stakes) DO UPDATE SET hands = hands + excluded.hands, net = net + excluded.net, rake = rake + excluded.rake`);
    this.q = {
      findPlayer: p('SELECT id FROM players WHERE name = ?').pluck(),
      addPlayer: p('INSERT INTO players(name) VALUES (?)'),
      playerName: p('SELECT name FROM players WHERE id = ?').pluck(),
      findTable: p('SELECT id FROM table_ids WHERE name = ?').pluck(),
      addTable: p('INSERT INTO table_ids(name) VALUES (?)'),
      tableName: p('SELECT name FROM table_ids WHERE id = ?').pluck(),
      findPrefix: p('SELECT id FROM hand_prefixes WHERE prefix = ?').pluck(),
      addPrefix: p('INSERT INTO hand_prefixes(prefix) VALUES (?)'),
      prefixText: p('SELECT prefix FROM hand_prefixes WHERE id = ?').pluck(),
      addHand: p(`INSERT INTO hands(prefix, number, played_at, table_ref, variant, stakes, flags, hero_seat, hero_net, hero_rake, pot, record, stats, hero_adj, xnum, hero_cards)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(prefix, number) DO NOTHING`),
      // The same hand under another id (read back from PokerStars text): number, game, second of play.
      sameHand: p('SELECT 1 FROM hands INDEXED BY hands_by_xnum WHERE xnum = ? AND variant = ? AND played_at / 1000 = ? LIMIT 1').pluck(),
      addDay: totals('day_totals', 'day'),
      addHour: totals('hour_totals', 'hour'),
      getHand: p(`SELECT id, prefix, number, played_at, table_ref, variant, stakes, flags, hero_seat, hero_net, hero_rake, pot, hero_cards, record
                  FROM hands WHERE prefix = ? AND number = ?`),
      getRecord: p('SELECT record FROM hands WHERE id = ?').pluck(),
      count: p('SELECT count(*) FROM hands').pluck(),
      dayTotals: p(`SELECT money, variant, stakes, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM day_totals
                    WHERE day >= ? AND day < ? GROUP BY money, variant, stakes`),
      hourTotals: p(`SELECT money, variant, stakes, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM hour_totals
                     WHERE hour >= ? AND hour < ? GROUP BY money, variant, stakes`),
      handTotals: p(`SELECT flags & 1 AS money, variant, stakes, count(*) AS hands, sum(hero_net) AS net, sum(hero_rake) AS rake FROM hands INDEXED BY hands_by_time
                     WHERE played_at >= ? AND played_at < ? GROUP BY money, variant, stakes`),
      hourByHour: p(`SELECT hour, money, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM hour_totals
                     WHERE hour >= ? AND hour < ? GROUP BY hour, money`),
      handsInRange: p(`SELECT played_at, flags & 1 AS money, hero_net, hero_rake FROM hands INDEXED BY hands_by_time WHERE played_at >= ? AND played_at < ?`),
    };
  }

  /**
   * Opens (creating if needed) the history file and brings its schema up to date. Throws
   * `HistoryTooNewError` or `NotAHistoryError` (the file is left untouched), or an I/O error.
   */
  static open(file: string, options: HistoryStoreOptions = {}): HistoryStore {
    mkdirSync(dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      db.pragma('busy_timeout = 5000');
      // Checked before anything is written, even the WAL switch, so a newer or foreign file is not modified.
      const found = db.pragma('user_version', { simple: true }) as number;
      if (found > HISTORY_MIGRATIONS.length) throw new HistoryTooNewError(file, found, HISTORY_MIGRATIONS.length);
      const app = db.pragma('application_id', { simple: true }) as number;
      const empty = (db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number) === 0;
      if (app !== APPLICATION_ID && !(app === 0 && empty && found === 0)) throw new NotAHistoryError(file);
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
      db.pragma(`cache_size = ${NORMAL_CACHE}`); // the indexes' upper levels stay in memory
      migrate(db, file);
      return new HistoryStore(db, file, options);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK'); // an import left open

      this.db.pragma('optimize');
    } finally {
      this.db.close();
    }
  }

  /** Folds the WAL back into the file (after a bulk import; before measuring the file). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  count(): number {
    return this.q.count.get() as number;
  }

  // -------------------------------------------------------------------------------------------
  // Writing

  /** Stores one finished hand in one transaction; a hand already stored (same id) is not stored again. */
  addHand(meta: HandMeta, record: HandRecord): AddResult {
    const d = derive(meta, record);
    if (typeof d === 'string') return { stored: false, duplicate: false, reason: d };
    try {
      return this.addOne(meta, record, d) ? { stored: true, duplicate: false } : { stored: false, duplicate: true };
    } catch (e) {
      this.forgetCaches();
      throw e;
    }
  }

  /** Stores many hands (an import): `importer()` with one chunk. Duplicates are counted, not stored. */
  addHands(list: readonly { meta: HandMeta; record: HandRecord }[]): BulkResult {
    const imp = this.importer();
    imp.add(list);
    return imp.finish();
  }

  /**
   * A bulk import fed in chunks (a file parsed a piece at a time, hands fetched from the operator):
   * hands are committed IMPORT_BATCH at a time, whatever the chunks, with a larger page cache
   * meanwhile. Large transactions matter at scale: every batch rewrites the index pages it touches
   * (a page per opponent in `hand_players`), so fewer, larger batches write far less. If the process
   * stops, the hands of the open batch are not stored; importing again stores them (the others are
   * duplicates). `finish` commits the rest and returns the totals; `abort` drops the open batch.
   */
  importer(options: { batch?: number } = {}): HistoryImport {
    if (this.importing) throw new Error('an import is already open on this history');
    // `batch: Infinity`: one transaction for the whole import, all or nothing (a file imported by the
    // history worker, electron/services/history/worker.ts).
    const batch = options.batch ?? IMPORT_BATCH;
    this.importing = true;
    const total: BulkResult = { stored: 0, duplicates: 0, refused: [] };
    const deltas = new Map<string, Delta>();
    let pending = 0;
    let seen = 0;
    let open = false;
    this.db.pragma(`cache_size = ${IMPORT_CACHE}`);
    const begin = (): void => {
      this.db.exec('BEGIN IMMEDIATE');
      open = true;
    };
    const commit = (): void => {
      if (!open) return;
      this.flushTotals(deltas);
      deltas.clear();
      this.db.exec('COMMIT');
      open = false;
      pending = 0;
    };
    const end = (): void => {
      this.importing = false;
      this.db.pragma(`cache_size = ${NORMAL_CACHE}`);
    };
    const fail = (e: unknown): never => {
      if (open && this.db.inTransaction) this.db.exec('ROLLBACK');
      open = false;
      deltas.clear();
      this.forgetCaches();
      end();
      throw e;
    };
    return {
      add: (list) => {
        if (!this.importing) throw new Error('this import is finished');
        const out: BulkResult = { stored: 0, duplicates: 0, refused: [] };
        try {
          for (let i = 0; i < list.length; i++, seen++) {
            const { meta, record } = list[i];
            const d = derive(meta, record);
            if (typeof d === 'string') {
              out.refused.push({ index: i, reason: d });
              total.refused.push({ index: seen, reason: d });
              continue;
            }
            if (!open) begin();
            if (this.insert(meta, record, d, deltas)) {
              out.stored++;
              total.stored++;
            } else {
              out.duplicates++;
              total.duplicates++;
            }
            if (++pending >= batch) commit();
          }
        } catch (e) {
          fail(e);
        }
        return out;
      },
      finish: () => {
        if (!this.importing) return total;
        try {
          commit();
        } catch (e) {
          fail(e);
        }
        end();
        return total;
      },
      abort: () => {
        if (!this.importing) return;
        if (open && this.db.inTransaction) this.db.exec('ROLLBACK');
        open = false;
        deltas.clear();
        this.forgetCaches();
        end();
      },
    };
  }

  private insert(meta: HandMeta, record: HandRecord, d: Derived, deltas: Map<string, Delta>): boolean {
    if (this.sameHandStored(meta, d)) return false;
    const prefix = this.prefixId(d.prefix);
    const bytes = encodeHand(record, this.encodeOptions);
    const r = this.q.addHand.run(
      prefix,
      d.number,
      meta.playedAt,
      this.tableId(meta.tableId),
      d.variant,
      d.stakes,
      d.flags,
      meta.heroSeat,
      d.heroNet,
      d.heroRake,
      d.pot,
      bytes,
      d.stats,
      d.adj,
      d.xnum,
      d.heroCards,
    );
    if (r.changes === 0) return false;
    const hand = r.lastInsertRowid as number;
    for (const s of record.seats) this.pendingPlayers.push(this.playerId(s.player), hand);
    const day = Math.floor(meta.playedAt / DAY);
    const hour = Math.floor(meta.playedAt / HOUR);
    addDelta(deltas, `d:${day}:${d.money}:${d.variant}:${d.stakes}`, d);
    addDelta(deltas, `h:${hour}:${d.money}:${d.variant}:${d.stakes}`, d);
    if (d.stats % 2 === 1) {
      const key = `${hour}:${d.money}:${d.variant}:${d.stakes}`;
      let sums = this.pendingStats.get(key);
      if (sums === undefined) {
        sums = STAT_SUMS.map(() => 0);
        this.pendingStats.set(key, sums);
      }
      const x = unpackHandStats(d.stats);
      const add = [1, +x.vpip, +x.pfr, +x.threeBetChance, +x.threeBet, +x.sawSecond, +(x.sawSecond && x.showdown), +x.showdown, +x.wonShowdown, x.aggressive, x.calls, centiBigBlinds(d.heroNet, d.stakes), x.draws, x.cardsDrawn, x.standPats];
      for (let i = 0; i < add.length; i++) sums[i] += add[i];
    }
    return true;
  }

  private sameHandStored(meta: HandMeta, d: Derived): boolean {
    return this.q.sameHand.get(d.xnum, d.variant, Math.trunc(meta.playedAt / 1000)) !== undefined;
  }

  /** Whether this hand is stored, under its id or another one (issue 13 defect 1); a hand that cannot be stored is not. */
  holds(meta: HandMeta, record: HandRecord): boolean {
    const d = derive(meta, record);
    if (typeof d === 'string') return false;
    return this.getHand(record.handId as string).ok || this.sameHandStored(meta, d);
  }

  private handPlayers(n: number): Statement {
    let stmt = this.handPlayerStatements[n];
    if (stmt === undefined) {
      stmt = this.db.prepare(`INSERT INTO hand_players(player, hand) VALUES ${Array.from({ length: n }, () => '(?, ?)').join(', ')} ON CONFLICT DO NOTHING`);
      this.handPlayerStatements[n] = stmt;
    }
    return stmt;
  }

  /**
   * Writes the batch's (player, hand) pairs in key order, many rows a statement: each player's new
   * rows then land together at the end of that player's range, one leaf page visit each, where
   * arrival order would jump between thousands of players' pages for every hand.
   */
  private flushPlayers(): void {
    const flat = this.pendingPlayers;
    const n = flat.length / 2;
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => flat[2 * a] - flat[2 * b] || flat[2 * a + 1] - flat[2 * b + 1]);
    const ROWS = 64;
    const args: number[] = [];
    for (let k = 0; k < n; k++) {
      args.push(flat[2 * order[k]], flat[2 * order[k] + 1]);
      if (args.length === 2 * ROWS) {
        this.handPlayers(ROWS).run(args);
        args.length = 0;
      }
    }
    if (args.length > 0) this.handPlayers(args.length / 2).run(args);
    flat.length = 0;
  }

  private flushTotals(deltas: Map<string, Delta>): void {
    this.flushPlayers();
    if (this.pendingStats.size > 0) {
      const stmt = this.shape(
        `INSERT INTO hour_stats(hour, money, variant, stakes, ${STAT_SUMS.join(', ')}) VALUES (?, ?, ?, ?, ${STAT_SUMS.map(() => '?').join(', ')})
         ON CONFLICT(hour, money, variant, stakes) DO UPDATE SET ${STAT_SUMS.map((k) => `${k} = ${k} + excluded.${k}`).join(', ')}`,
      );
      for (const [key, sums] of this.pendingStats) stmt.run(...key.split(':').map(Number), ...sums);
      this.pendingStats.clear();
    }
    for (const [key, x] of deltas) {
      const [kind, at, money, variant, stakes] = key.split(':');
      const stmt = kind === 'd' ? this.q.addDay : this.q.addHour;
      stmt.run(Number(at), Number(money), Number(variant), Number(stakes), x.hands, x.net, x.rake);
    }
  }

  private playerId(name: string): number {
    let id = this.playerIds.get(name);
    if (id !== undefined) return id;
    id = this.q.findPlayer.get(name) as number | undefined;
    if (id === undefined) id = this.q.addPlayer.run(name).lastInsertRowid as number;
    remember(this.playerIds, name, id);
    return id;
  }

  private tableId(name: string): number {
    let id = this.tableIds.get(name);
    if (id !== undefined) return id;
    id = this.q.findTable.get(name) as number | undefined;
    if (id === undefined) id = this.q.addTable.run(name).lastInsertRowid as number;
    remember(this.tableIds, name, id);
    return id;
  }

  private prefixId(prefix: string): number {
    let id = this.prefixIds.get(prefix);
    if (id !== undefined) return id;
    id = this.q.findPrefix.get(prefix) as number | undefined;
    if (id === undefined) id = this.q.addPrefix.run(prefix).lastInsertRowid as number;
    remember(this.prefixIds, prefix, id);
    return id;
  }

  /** After a rolled-back transaction the caches may name rows that do not exist. */
  private forgetCaches(): void {
    this.pendingPlayers.length = 0;
    this.pendingStats.clear();
    this.playerIds.clear();
    this.playerNames.clear();
    this.tableIds.clear();
    this.tableNames.clear();
    this.prefixIds.clear();
    this.prefixTexts.clear();
  }

  private nameOf(cache: Map<number, string>, stmt: Statement, id: number): string | undefined {
    let name = cache.get(id);
    if (name !== undefined) return name;
    name = stmt.get(id) as string | undefined;
    if (name !== undefined) remember(cache, id, name);
    return name;
  }

  // -------------------------------------------------------------------------------------------
  // Reading

  /** The stored hand, decoded; a refusal when it is not stored or its bytes cannot be trusted. */
  getHand(handId: string): GetHandResult {
    const { prefix, number } = splitHandId(handId);
    const prefixRef = this.prefixIds.get(prefix) ?? (this.q.findPrefix.get(prefix) as number | undefined);
    if (prefixRef === undefined) return { ok: false, reason: `hand ${handId} is not in the history` };
    const row = this.q.getHand.get(prefixRef, number) as (HandRow & { record: Uint8Array }) | undefined;
    if (row === undefined) return { ok: false, reason: `hand ${handId} is not in the history` };
    const record = decodeHand(row.record, { handId, playerName: (id) => this.nameOf(this.playerNames, this.q.playerName, id) });
    if (isDecodeRefusal(record)) return { ok: false, reason: `hand ${handId} cannot be read: ${record.reason}` };
    return { ok: true, summary: this.summary(row), record };
  }

  private summary(row: HandRow): HandSummary {
    return {
      handId: joinHandId(this.nameOf(this.prefixTexts, this.q.prefixText, row.prefix) ?? '', row.number),
      playedAt: row.played_at,
      tableId: this.nameOf(this.tableNames, this.q.tableName, row.table_ref) ?? '',
      variant: VARIANT_IDS[row.variant],
      stakes: row.stakes,
      money: row.flags & F_PLAY ? 'play' : 'real',
      heroSeat: row.hero_seat,
      net: row.hero_net,
      rake: row.hero_rake,
      showdown: (row.flags & F_SHOWDOWN) !== 0,
      allIn: (row.flags & F_ALL_IN) !== 0,
      pot: row.pot,
      cards: unpackCards(row.hero_cards),
    };
  }

  /**
   * A page of hands matching `filter`, newest (or biggest) first or last, from `cursor` on (keyset
   * pagination: a page costs the same wherever it is, and hands added meanwhile do not shift it).
   */
  page(filter: HandFilter, req: PageRequest): PageResult {
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MAX_PAGE) return { ok: false, reason: `a page holds 1 to ${MAX_PAGE} hands` };
    if (req.sort !== 'time' && req.sort !== 'net') return { ok: false, reason: "sort by 'time' or 'net'" };
    if (req.dir !== 'asc' && req.dir !== 'desc') return { ok: false, reason: "direction 'asc' or 'desc'" };
    let after: { key: number; id: number } | null = null;
    if (req.cursor !== undefined && req.cursor !== null) {
      const m = /^(time|net):(-?\d{1,16}):(\d{1,16})$/.exec(req.cursor);
      if (!m || m[1] !== req.sort) return { ok: false, reason: 'this cursor does not belong to this sort' };
      after = { key: Number(m[2]), id: Number(m[3]) };
    }
    const where: string[] = [];
    const args: (number | string)[] = [];
    const empty: PageResult = { ok: true, hands: [], next: null };
    for (const k of ['from', 'to', 'stakes'] as const) {
      const x = filter[k];
      if (x !== undefined && !Number.isSafeInteger(x)) return { ok: false, reason: `${k} must be a whole number` };
    }
    // Index-usable conditions first (the driving index), then the rest.
    let drive: 'table' | 'game' | 'time' = 'time';
    let player: number | undefined;
    if (filter.player !== undefined) {
      player = this.playerIds.get(filter.player) ?? (this.q.findPlayer.get(filter.player) as number | undefined);
      if (player === undefined) return empty;
    }
    if (filter.tableId !== undefined) {
      const t = this.tableIds.get(filter.tableId) ?? (this.q.findTable.get(filter.tableId) as number | undefined);
      if (t === undefined) return empty;
      where.push('h.table_ref = ?');
      args.push(t);
      drive = 'table';
    }
    if (filter.variant !== undefined) {
      const v = VARIANT_IDS.indexOf(filter.variant);
      if (v < 0) return { ok: false, reason: `unknown variant ${String(filter.variant)}` };
      where.push('h.variant = ?');
      args.push(v);
      if (drive === 'time') drive = 'game';
    }
    if (filter.from !== undefined) {
      where.push('h.played_at >= ?');
      args.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push('h.played_at < ?');
      args.push(filter.to);
    }
    const narrowing = where.length; // conditions the driving index can use, one argument each
    if (filter.stakes !== undefined) {
      where.push('h.stakes = ?');
      args.push(filter.stakes);
    }
    const flags = flagsCondition(filter);
    if (flags !== null) where.push(flags);
    // And as a range of the net index, where a page by net starts right at the wins or the losses.
    if (filter.result !== undefined) where.push(filter.result === 'won' ? 'h.hero_net > 0' : 'h.hero_net < 0');

    const key = req.sort === 'time' ? 'h.played_at' : 'h.hero_net';
    const index = { table: 'hands_by_table', game: 'hands_by_game', time: 'hands_by_time' }[drive];
    // Counts at most `planThreshold + 1` rows: is a plan's candidate set small enough to sort?
    const few = (sql: string, params: (number | string)[]): boolean =>
      (this.shape(`SELECT count(*) FROM (${sql} LIMIT ${this.planThreshold + 1})`).pluck().get(...params) as number) <= this.planThreshold;
    let from: string;
    if (player !== undefined && few('SELECT 1 FROM hand_players WHERE player = ?', [player])) {
      // An opponent met a few thousand times at most: start from their hands and sort them.
      from = 'hand_players p CROSS JOIN hands h ON h.id = p.hand';
      where.unshift('p.player = ?');
      args.unshift(player);
    } else {
      // The player's own name or a regular: walk the filter's order and check each hand for them.
      if (player !== undefined) {
        where.push('EXISTS (SELECT 1 FROM hand_players p WHERE p.player = ? AND p.hand = h.id)');
        args.push(player);
      }
      from = `hands h INDEXED BY ${index}`;
      // By net, the net index gives the order, the filter's own index the fewest rows: sorting a few
      // thousand rows beats walking a million in net order.
      const narrowed = narrowing > 0 && few(`SELECT 1 FROM hands h INDEXED BY ${index} WHERE ${where.slice(0, narrowing).join(' AND ')}`, args.slice(0, narrowing));
      if (req.sort === 'net' && !narrowed) from = 'hands h INDEXED BY hands_by_net';
    }
    if (after !== null) {
      // A row-value comparison: SQLite walks the index from the cursor (an OR of the two columns
      // would make it sort the whole candidate set).
      where.push(`(${key}, h.id) ${req.dir === 'desc' ? '<' : '>'} (?, ?)`);
      args.push(after.key, after.id);
    }
    const dir = req.dir === 'desc' ? 'DESC' : 'ASC';
    const sql =
      'SELECT h.id, h.prefix, h.number, h.played_at, h.table_ref, h.variant, h.stakes, h.flags, h.hero_seat, h.hero_net, h.hero_rake, h.pot, h.hero_cards ' +
      `FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${key} ${dir}, h.id ${dir} LIMIT ${req.limit + 1}`;
    const rows = this.shape(sql).all(...args) as HandRow[];
    const more = rows.length > req.limit;
    if (more) rows.length = req.limit;
    const last = rows[rows.length - 1];
    const next = more ? `${req.sort}:${req.sort === 'time' ? last.played_at : last.hero_net}:${last.id}` : null;
    return { ok: true, hands: rows.map((r) => this.summary(r)), next };
  }

  /** A statement prepared on first use and kept (page shapes, retention). */
  private shape(sql: string): Statement {
    let s = this.shapes.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.shapes.set(sql, s);
    }
    return s;
  }

  /**
   * The hero's hands, net and rake over [from, to) (R-TRACKER, R-RESULTS), per money kind, and per
   * variant, per variant and stakes, or per local day. Read from the day and hour totals; only the
   * partial hours at the edges look at hands.
   */
  results(query: ResultsQuery): ResultsAnswer {
    const { from, to } = query;
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to) return { ok: false, reason: 'a period is two whole ms times, from ≤ to' };
    const money = query.money === undefined ? null : query.money === 'play' ? 1 : 0;
    const real: Totals = { hands: 0, net: 0, rake: 0 };
    const play: Totals = { hands: 0, net: 0, rake: 0 };
    const groups = new Map<string, ResultGroup>();
    const add = (m: number, t: Totals, group: () => { key: string; g: Omit<ResultGroup, keyof Totals> } | null): void => {
      if (money !== null && m !== money) return;
      const sum = m === 1 ? play : real;
      sum.hands += t.hands;
      sum.net += t.net;
      sum.rake += t.rake;
      const k = group();
      if (k === null) return;
      let g = groups.get(k.key);
      if (g === undefined) {
        g = { ...k.g, hands: 0, net: 0, rake: 0 };
        groups.set(k.key, g);
      }
      g.hands += t.hands;
      g.net += t.net;
      g.rake += t.rake;
    };
    const kind = (m: number): MoneyKind => (m === 1 ? 'play' : 'real');

    if (query.groupBy === 'day') {
      for (const x of this.byLocalDay(from, to)) {
        add(x.money, x, () => ({ key: `${x.money}:${x.day}`, g: { money: kind(x.money), day: x.day } }));
      }
      const list = [...groups.values()].sort((a, b) => (a.day as string).localeCompare(b.day as string) || a.money.localeCompare(b.money));
      return { ok: true, real, play, groups: list };
    }
    for (const row of this.totalsRows(from, to)) {
      add(row.money, row, () => {
        if (query.groupBy === undefined) return null;
        const variant = VARIANT_IDS[row.variant];
        if (query.groupBy === 'variant') return { key: `${row.money}:${row.variant}`, g: { money: kind(row.money), variant } };
        return { key: `${row.money}:${row.variant}:${row.stakes}`, g: { money: kind(row.money), variant, stakes: row.stakes } };
      });
    }
    const list = [...groups.values()].sort(
      (a, b) => a.money.localeCompare(b.money) || VARIANT_IDS.indexOf(a.variant as VariantCode) - VARIANT_IDS.indexOf(b.variant as VariantCode) || (a.stakes ?? 0) - (b.stakes ?? 0),
    );
    return { ok: true, real, play, groups: list };
  }

  /** Totals rows (per money, variant, stakes) covering [from, to): whole days, whole hours, then hands. */
  private totalsRows(from: number, to: number): TotalsRow[] {
    const out: TotalsRow[] = [];
    const push = (rows: unknown[]): void => {
      for (const r of rows as TotalsRow[]) out.push(r);
    };
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (h0 >= h1) {
      push(this.q.handTotals.all(from, to));
      return out;
    }
    if (from < h0 * HOUR) push(this.q.handTotals.all(from, h0 * HOUR));
    if (h1 * HOUR < to) push(this.q.handTotals.all(h1 * HOUR, to));
    const d0 = Math.ceil(h0 / 24);
    const d1 = Math.floor(h1 / 24);
    if (d0 >= d1) {
      push(this.q.hourTotals.all(h0, h1));
      return out;
    }
    if (h0 < d0 * 24) push(this.q.hourTotals.all(h0, d0 * 24));
    if (d1 * 24 < h1) push(this.q.hourTotals.all(d1 * 24, h1));
    push(this.q.dayTotals.all(d0, d1));
    return out;
  }

  /** Totals per local day and money kind over [from, to): hour totals, and hands where an hour straddles midnight. */
  private byLocalDay(from: number, to: number): (Totals & { day: string; money: number })[] {
    const sums = new Map<string, Totals & { day: string; money: number }>();
    const add = (at: number, money: number, t: Totals): void => {
      const day = this.localDate(at);
      const key = `${money}:${day}`;
      let s = sums.get(key);
      if (s === undefined) {
        s = { day, money, hands: 0, net: 0, rake: 0 };
        sums.set(key, s);
      }
      s.hands += t.hands;
      s.net += t.net;
      s.rake += t.rake;
    };
    const handsIn = (a: number, b: number): void => {
      for (const r of this.q.handsInRange.all(a, b) as { played_at: number; money: number; hero_net: number; hero_rake: number }[]) {
        add(r.played_at, r.money, { hands: 1, net: r.hero_net, rake: r.hero_rake });
      }
    };
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (h0 >= h1) {
      handsIn(from, to);
      return [...sums.values()];
    }
    handsIn(from, h0 * HOUR);
    handsIn(h1 * HOUR, to);
    // Hours in which a local day starts off the hour (half-hour zones, odd DST rules) are read hand by hand.
    const straddling = new Set<number>();
    for (let m = this.localDayStart(h0 * HOUR); m < h1 * HOUR; m = this.localDayStart(m + 26 * HOUR)) {
      if (m > h0 * HOUR && m % HOUR !== 0) straddling.add(Math.floor(m / HOUR));
    }
    for (const r of this.q.hourByHour.all(h0, h1) as { hour: number; money: number; hands: number; net: number; rake: number }[]) {
      if (!straddling.has(r.hour)) add(r.hour * HOUR, r.money, r);
    }
    for (const hour of straddling) handsIn(hour * HOUR, (hour + 1) * HOUR);
    return [...sums.values()];
  }

  /** Local midnight (ms) of the day holding `ms`. */
  localDayStart(ms: number): number {
    const off = this.offset(ms) * 60_000;
    const localMidnight = Math.floor((ms + off) / DAY) * DAY;
    let start = localMidnight - off;
    const off2 = this.offset(start) * 60_000;
    if (off2 !== off) start = localMidnight - off2;
    return start;
  }

  /** Local date `YYYY-MM-DD` of an instant. */
  localDate(ms: number): string {
    return new Date(ms + this.offset(ms) * 60_000).toISOString().slice(0, 10);
  }

  // -------------------------------------------------------------------------------------------
  // The results page (schema version 2; results.ts, docs/stats.md)

  /**
   * The WHERE clause of a filter over `hands h` (the same meaning as `page`'s), or null when the
   * filter names a player or table the history has never seen (no hand matches), or a refusal.
   */
  private filterSql(filter: HandFilter): { from: string; where: string; args: (number | string)[] } | null | string {
    const where: string[] = [];
    const args: (number | string)[] = [];
    for (const k of ['from', 'to', 'stakes'] as const) {
      const x = filter[k];
      if (x !== undefined && !Number.isSafeInteger(x)) return `${k} must be a whole number`;
    }
    // The covering index, unless one table is asked for (its own index narrows it more).
    let index = 'hands_results';
    if (filter.tableId !== undefined) {
      const t = this.tableIds.get(filter.tableId) ?? (this.q.findTable.get(filter.tableId) as number | undefined);
      if (t === undefined) return null;
      where.push('h.table_ref = ?');
      args.push(t);
      index = 'hands_by_table';
    }
    if (filter.variant !== undefined) {
      const v = VARIANT_IDS.indexOf(filter.variant);
      if (v < 0) return `unknown variant ${String(filter.variant)}`;
      where.push('h.variant = ?');
      args.push(v);
    }
    if (filter.from !== undefined) {
      where.push('h.played_at >= ?');
      args.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push('h.played_at < ?');
      args.push(filter.to);
    }
    if (filter.stakes !== undefined) {
      where.push('h.stakes = ?');
      args.push(filter.stakes);
    }
    const flags = flagsCondition(filter);
    if (flags !== null) where.push(flags);
    if (filter.player !== undefined) {
      const player = this.playerIds.get(filter.player) ?? (this.q.findPlayer.get(filter.player) as number | undefined);
      if (player === undefined) return null;
      where.push('EXISTS (SELECT 1 FROM hand_players p WHERE p.player = ? AND p.hand = h.id)');
      args.push(player);
    }
    return { from: `hands h INDEXED BY ${index}`, where: where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '', args };
  }

  /**
   * The hands of a filter in time order (hands of the same millisecond in the index's order: sorting
   * by id as well would sort the whole period instead of walking the index), column by column, for
   * the results graph and the sessions:
   * when, net, rake, the adjusted net (the net where not adjusted), showdown (1/0), play money (1/0), table.
   */
  resultRows(filter: HandFilter):
    | { ok: true; at: number[]; net: number[]; rake: number[]; adj: number[]; showdown: number[]; play: number[]; table: number[] }
    | { ok: false; reason: string } {
    const out = { ok: true as const, at: [] as number[], net: [] as number[], rake: [] as number[], adj: [] as number[], showdown: [] as number[], play: [] as number[], table: [] as number[] };
    const f = this.filterSql(filter);
    if (typeof f === 'string') return { ok: false, reason: f };
    if (f === null) return out;
    const stmt = this.shape(
      `SELECT h.played_at, h.hero_net, h.hero_rake, coalesce(h.hero_adj, h.hero_net), (h.flags >> 1) & 1, h.flags & 1, h.table_ref FROM ${f.from}${f.where} ORDER BY h.played_at`,
    ).raw();
    for (const r of stmt.iterate(...f.args) as IterableIterator<number[]>) {
      out.at.push(r[0]);
      out.net.push(r[1]);
      out.rake.push(r[2]);
      out.adj.push(r[3]);
      out.showdown.push(r[4]);
      out.play.push(r[5]);
      out.table.push(r[6]);
    }
    return out;
  }

  /**
   * Sums of the packed per-hand statistics over a filter (hands the hero was dealt in). A filter of
   * period, money, game and stakes only is read from the hour sums (`hour_stats`), with the hands of
   * its partial hours at the edges; any other filter sums the hands (the covering index).
   */
  statSums(filter: HandFilter): { ok: true; sums: StatSums } | { ok: false; reason: string } {
    const zero = Object.fromEntries(STAT_SUMS.map((k) => [k, 0])) as StatSums;
    const simple = Object.entries(filter).every(([k, x]) => x === undefined || ['from', 'to', 'money', 'variant', 'stakes'].includes(k));
    const sums = { ...zero };
    const add = (row: Partial<StatSums> | undefined): void => {
      if (row === undefined) return;
      for (const k of STAT_SUMS) sums[k] += Math.round(row[k] ?? 0);
    };
    const scan = (f: HandFilter): string | null => {
      const q = this.filterSql(f);
      if (typeof q === 'string') return q;
      if (q === null) return null;
      const where = q.where === '' ? ' WHERE (h.stats & 1) = 1' : `${q.where} AND (h.stats & 1) = 1`;
      add(this.shape(`SELECT ${STAT_SELECT} FROM ${q.from}${where}`).get(...q.args) as StatSums);
      return null;
    };
    const from = filter.from ?? Number.MIN_SAFE_INTEGER;
    const to = filter.to ?? Number.MAX_SAFE_INTEGER;
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (!simple || h1 - h0 < 2) {
      const r = scan(filter);
      return r === null ? { ok: true, sums } : { ok: false, reason: r };
    }
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return { ok: false, reason: 'from and to must be whole numbers' };
    if (filter.stakes !== undefined && !Number.isSafeInteger(filter.stakes)) return { ok: false, reason: 'stakes must be a whole number' };
    const v = filter.variant === undefined ? null : VARIANT_IDS.indexOf(filter.variant);
    if (v !== null && v < 0) return { ok: false, reason: `unknown variant ${String(filter.variant)}` };
    // The partial hours at the edges, hand by hand.
    for (const [a, b] of [
      [from, h0 * HOUR],
      [h1 * HOUR, to],
    ]) {
      if (a < b) {
        const r = scan({ ...filter, from: a, to: b });
        if (r !== null) return { ok: false, reason: r };
      }
    }
    const where = ['hour >= ?', 'hour < ?'];
    const args: number[] = [h0, h1];
    if (filter.money !== undefined) {
      where.push('money = ?');
      args.push(filter.money === 'play' ? 1 : 0);
    }
    if (v !== null) {
      where.push('variant = ?');
      args.push(v);
    }
    if (filter.stakes !== undefined) {
      where.push('stakes = ?');
      args.push(filter.stakes);
    }
    add(this.shape(`SELECT ${STAT_SUMS.map((k) => `total(${k}) AS ${k}`).join(', ')} FROM hour_stats WHERE ${where.join(' AND ')}`).get(...args) as StatSums);
    return { ok: true, sums };
  }

  // -------------------------------------------------------------------------------------------
  // Retention

  /**
   * Removes hands played before `before` (ms), at the player's request. Refused when that would
   * remove a hand younger than 366 days (R-HISTORY). Totals are adjusted in the same transaction.
   */
  removeOlderThan(before: number): { ok: true; removed: number } | { ok: false; reason: string } {
    if (!Number.isSafeInteger(before)) return { ok: false, reason: 'a whole ms time is needed' };
    const limit = this.now() - HISTORY_KEEP_DAYS * DAY;
    if (before > limit) {
      return { ok: false, reason: `hands of the last ${HISTORY_KEEP_DAYS} days are kept (R-HISTORY): remove only hands played before ${new Date(limit).toISOString()}` };
    }
    const removed = this.db.transaction(() => {
      const old = `SELECT %KEY% AS at, flags & 1 AS money, variant, stakes, count(*) AS hands, sum(hero_net) AS net, sum(hero_rake) AS rake
                   FROM hands INDEXED BY hands_by_time WHERE played_at < ? GROUP BY at, money, variant, stakes`;
      for (const [table, key, size] of [
        ['day_totals', 'day', DAY],
        ['hour_totals', 'hour', HOUR],
      ] as const) {
        const rows = this.shape(old.replace('%KEY%', `played_at / ${size} - (played_at < 0 AND played_at % ${size} != 0)`)).all(before) as (TotalsRow & { at: number })[];
        const sub = this.shape(`UPDATE ${table} SET hands = hands - ?, net = net - ?, rake = rake - ? WHERE ${key} = ? AND money = ? AND variant = ? AND stakes = ?`);
        for (const r of rows) sub.run(r.hands, r.net, r.rake, r.at, r.money, r.variant, r.stakes);
        this.shape(`DELETE FROM ${table} WHERE hands = 0`).run();
      }
      // The statistics' hour sums of the removed hands.
      const gone = this.shape(
        `SELECT h.played_at / ${HOUR} - (h.played_at < 0 AND h.played_at % ${HOUR} != 0) AS at, h.flags & 1 AS money, h.variant AS variant, h.stakes AS stakes, ${STAT_SELECT}
         FROM hands h INDEXED BY hands_results WHERE h.played_at < ? GROUP BY at, money, variant, stakes`,
      ).all(before) as (StatSums & { at: number; money: number; variant: number; stakes: number })[];
      const less = this.shape(`UPDATE hour_stats SET ${STAT_SUMS.map((k) => `${k} = ${k} - ?`).join(', ')} WHERE hour = ? AND money = ? AND variant = ? AND stakes = ?`);
      for (const g of gone) less.run(...STAT_SUMS.map((k) => Math.round(g[k])), g.at, g.money, g.variant, g.stakes);
      this.shape('DELETE FROM hour_stats WHERE hands = 0').run();
      this.shape('DELETE FROM hand_players WHERE hand IN (SELECT id FROM hands INDEXED BY hands_by_time WHERE played_at < ?)').run(before);
      const n = this.shape('DELETE FROM hands WHERE played_at < ?').run(before).changes;
      // Names no remaining hand uses.
      this.shape('DELETE FROM players WHERE id NOT IN (SELECT player FROM hand_players)').run();
      this.shape('DELETE FROM table_ids WHERE id NOT IN (SELECT table_ref FROM hands)').run();
      this.shape('DELETE FROM hand_prefixes WHERE id NOT IN (SELECT prefix FROM hands)').run();
      return n;
    })();
    this.forgetCaches();
    return { ok: true, removed };
  }
}

function migrate(db: Db, file: string): void {
  for (;;) {
    // BEGIN IMMEDIATE and the version re-read inside: two processes opening the file at once cannot
    // both run a migration.
    const done = db
      .transaction(() => {
        const v = db.pragma('user_version', { simple: true }) as number;
        if (v > HISTORY_MIGRATIONS.length) throw new HistoryTooNewError(file, v, HISTORY_MIGRATIONS.length);
        if (v === HISTORY_MIGRATIONS.length) return true;
        HISTORY_MIGRATIONS[v](db);
        db.pragma(`user_version = ${v + 1}`);
        return false;
      })
      .immediate();
    if (done) return;
  }
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

function addDelta(deltas: Map<string, Delta>, key: string, d: Derived): void {
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
function derive(meta: HandMeta, record: HandRecord): Derived | string {
  if (record === null || typeof record !== 'object') return 'no hand record';
  if (typeof record.handId !== 'string') return 'a hand needs its id to be stored once (R-HISTORY)';
  // issue 12 item 6: nothing is stored that the history's readers (shared/api) would refuse to return.
  if (record.handId.length < 1 || record.handId.length > HAND_ID_MAX) return `a hand id has 1 to ${HAND_ID_MAX} characters`;
  if (!Number.isSafeInteger(meta.playedAt)) return 'playedAt must be a whole number of ms';
  if (typeof meta.tableId !== 'string') return 'tableId must be text';
  if (meta.tableId.length < 1 || meta.tableId.length > TABLE_ID_MAX) return `a table id has 1 to ${TABLE_ID_MAX} characters`;
  if (!Array.isArray(record.seats) || record.seats.length > SEATS_MAX) return `a hand has at most ${SEATS_MAX} seats`;
  for (const s of record.seats) {
    if (typeof s.player !== 'string' || s.player.length < 1 || s.player.length > PLAYER_NAME_MAX) return `a player name has 1 to ${PLAYER_NAME_MAX} characters`;
  }
  if (meta.money !== 'real' && meta.money !== 'play') return "money is 'real' or 'play'";
  const hero = record.seats.find((s) => s.seat === meta.heroSeat);
  if (hero === undefined) return `seat ${String(meta.heroSeat)} is not a seat of this hand: the history keeps the player's own hands`;
  const variant = VARIANT_IDS.indexOf(record.variant);
  if (variant < 0) return `unknown variant ${String(record.variant)}`;
  let allIn = false;
  for (const a of record.actions) if ('allIn' in a && a.allIn && a.seat === hero.seat) allIn = true;
  let pot = 0;
  for (const p of record.pots) pot += p.amount;
  const { prefix, number } = splitHandId(record.handId);
  const extra = derivedResults(record, hero.seat);
  return {
    stats: extra.stats,
    adj: extra.adj,
    prefix,
    number,
    variant,
    stakes: stakesOf(record),
    money: meta.money === 'play' ? 1 : 0,
    flags:
      (meta.money === 'play' ? F_PLAY : 0) |
      (record.showdown && hero.dealtIn && !hero.folded ? F_SHOWDOWN : 0) |
      (allIn ? F_ALL_IN : 0) |
      (hero.net > 0 ? F_WON : 0) |
      (hero.net < 0 ? F_LOST : 0),
    heroNet: hero.net,
    heroRake: hero.rake,
    pot,
    xnum: exchangeNumber(record.handId),
    heroCards: packCards(hero.cards),
  };
}
