/**
 * The client's local hand history (R-HISTORY, D art. 8 II 5°; DESIGN.md §3 "The hand history", §5):
 * one SQLite file (better-sqlite3) in the player's data folder, every hand the player took part in,
 * kept until the player asks otherwise (never less than 366 days), searchable and paged, with the
 * results of any period read from totals kept as hands arrive (R-TRACKER, R-RESULTS).
 *
 * Storage (CONVENTIONS.md "Storage that survives versions"): WAL; the schema is brought up by
 * `PRAGMA user_version` migrations through the one SQLite opener shared with the operator
 * (shared/node/sqlite.ts), one frozen migration per version (schema/); a file written by a newer build
 * is refused with `HistoryTooNewError` before anything is written (not even the WAL switch), and a
 * file that is not a Cercle history is refused too (`application_id`). Statements are prepared once
 * (page queries once per shape).
 *
 * Files: model.ts (types, columns, derived values), schema/ (migrations), names.ts
 * (the name dictionary), writer.ts, queries.ts (hands, pages, results rows, statistics), periods.ts
 * (totals of a period), series.ts (the graph), reader.ts (the reads in a worker thread).
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
 * Schema, version 2 (the results page, docs/stats.md; schema/v2.ts)
 * -----------------------------------------------------
 *   hands.stats INTEGER    the hero's per-hand statistics packed in one integer (shared/history/stats.ts
 *                          `packHandStats`: VPIP, PFR, 3-bet, aggression, showdown, draws)
 *   hands.hero_adj INTEGER the all-in adjusted net (shared/history/equity.ts), NULL when the hand is not
 *                          adjusted (the graph then counts `hero_net`)
 *     Both are computed from the record when a hand is stored; for hands stored by version 1 the
 *     store computes them after the migrations (`derive_pending`, writer.ts `fillDerived`).
 *   INDEX hands_results (played_at, flags, hero_net, hero_rake, hero_adj, table_ref, variant, stakes, stats)
 *     covers the results page's reads (graph, sessions, statistics) of a period: a time range of
 *     this index, never the rows with their records.
 *   hour_stats(hour, money, variant, stakes, hands, vpip, pfr, …) WITHOUT ROWID
 *     the statistics' sums per UTC hour, kept with the hour totals: the statistics of a period (by
 *     money, game, stakes) are read from whole hours, and only the hands of its partial hours are
 *     summed (DESIGN.md §3).
 *
 * Schema, version 3 (a hand is stored once whatever format it came through; schema/v3.ts)
 * ---------------------------------------------------------------------------------------------
 *   hands.xnum INTEGER    the hand's exchange number (shared/exchange/handNumber.ts): the id itself
 *                         when it is a plain number, else its 53-bit hash. PokerStars text carries
 *                         only this number (`Hand #n`), so a hand read back from it has another id.
 *   INDEX hands_by_xnum (xnum)
 *     A hand whose exchange number, game and second of play are those of a stored hand is that hand
 *     (a duplicate), whichever id it came with; the chance that two different hands share all three
 *     is nil (a 53-bit hash, the same second, the same game). Hands stored before version 3 are
 *     numbered after the migrations (`number_pending`, writer.ts `fillDerived`).
 *
 * Schema, version 4 (the player's cards in the History list; schema/v4.ts)
 * ---------------------------------------------------------------------------------------------
 *   hands.hero_cards INTEGER  the hero's cards as the record knows them at the end (a draw game's
 *                             final hand), packed 6 bits a card (code + 1, first card lowest), 0 for
 *                             none: up to 7 cards in a safe integer, read with the page, no record
 *                             decoded. Filled after the migrations for older hands (`cards_pending`).
 *
 * Schema, version 5 (the graph read, not recomputed; schema/v5.ts, series.ts)
 * ---------------------------------------------------------------------------------------------
 *   hour_series(money, variant, stakes, hour, …) WITHOUT ROWID: per UTC hour and filter key (-1: any),
 *     the hour's piece of the results graph (hands, end sums, lowest and highest points).
 *
 * Schema, version 6 (tournaments; schema/v6.ts, tournaments.ts)
 * ---------------------------------------------------------------------------------------------
 *   tournaments(id, tid UNIQUE, name, variant, money, format, kinds, buy_in, fee, entries, registered_at,
 *               started_at, ended_at, place, prize, bounties, rebuys, add_ons, re_entries, spent)
 *     One row per tournament, upserted by the operator's id (`putTournament`: registered, finished,
 *     synced again: one row, never counted twice). A hand that comes before its record makes a stub
 *     (only `tid`), listed nowhere until the record comes. INDEX (registered_at, id), INDEX (ended_at).
 *   hands.tournament, hands.level   a tournament hand's row in `tournaments` and its 0-based level
 *     (NULL for cash hands); `flags` bit 32 marks it. INDEX hands_by_tournament (tournament, played_at)
 *     WHERE tournament IS NOT NULL: one tournament's hands, and each tournament's count of hands.
 *   A tournament hand's chips are not money: it is in no day/hour total, statistics sum or graph piece;
 *   the results reads (graph, sessions, statistics) are of cash hands unless the filter asks for
 *   tournament hands (`kind`, `tournamentId`); the history's list shows both. A period's totals add the
 *   tournaments apart: `entries` and `prizes`, read from version 7's movements.
 *
 * Schema, version 7 (tournament money when it moves, refunds; schema/v7.ts)
 * ---------------------------------------------------------------------------------------------
 *   tournaments.refunded_at   a refunded registration (listed as such, in no result); a registration
 *     after it is a new row, the refunded one kept under `<tid> <registered_at>`.
 *   tournament_money(tournament, at, money, variant, entries, prizes)   each payment (entry, re-entry,
 *     rebuy, add-on) and each win (bounty, prize) when it happens; a tournament's rows add up to its
 *     record. INDEX (at, money, variant, entries, prizes) covers a period's totals and groups (day,
 *     game), INDEX (tournament). The tournaments' graph line is read from it, the tournament results
 *     (ROI, ITM, finish) from `tournaments` (tournaments.ts).
 *
 * Schema, version 8 (a tied finish: T 8-16; schema/v8.ts)
 * ---------------------------------------------------------------------------------------------
 *   tournaments.tied   how many share the places from `place` (NULL: alone, or not told).
 *
 * Pages are keyset-paginated on (played_at, id) or (hero_net, id); the driving index is chosen by
 * the filter (player → hand_players, table, variant, else time; by net: the net index unless the
 * filter's own index narrows to a few thousand hands, which are then sorted).
 *
 * Writing: `addHand` is one transaction (hand, players, totals, graph pieces); `importer()` / `addHands`
 * commit 20,000 hands a transaction. Both are synchronous: a large import runs in a worker thread with
 * its own connection (DESIGN.md §3: long work off the main thread); WAL lets the UI read meanwhile.
 * Reading: in the desktop app and the browser host the reads run in a reader worker with its own
 * read-only connection (reader.ts); `HistoryStore.open(file, { readonly: true })`.
 */
import type Database from 'better-sqlite3';
import { openDatabase } from '../../../shared/node/sqlite';
import {
  HISTORY_LABEL,
  NORMAL_CACHE,
  PLAN_THRESHOLD,
  derive,
  joinHandId,
  type AddResult,
  type BulkResult,
  type GetHandResult,
  type HandFilter,
  type HandMeta,
  type HistoryImport,
  type HistoryStoreOptions,
  type PageRequest,
  type PageResult,
  type ResultsAnswer,
  type ResultsQuery,
  type StatSums,
} from './model';
import { Names } from './names';
import { Periods } from './periods';
import { HandQueries, type ResultRows } from './queries';
import { APPLICATION_ID, HISTORY_MIGRATIONS } from './schema';
import { seriesPieces, type SeriesPieces } from './series';
import { TournamentQueries, type TournamentGroupBy, type TournamentPage } from './tournaments';
import { HistoryWriter } from './writer';
import type { TournamentFilter, TournamentRecordView, TournamentResultsView } from '../../../shared/api/tournaments';
import type { HandRecord } from '../../../shared/rules/record';

export * from './model';
export { HISTORY_MIGRATIONS } from './schema';

type Statement = Database.Statement;

export class HistoryStore {
  private readonly shapes = new Map<string, Statement>();
  private readonly names: Names;
  /** Null on a read-only connection (the reader worker). */
  private readonly writer: HistoryWriter | null;
  private readonly queries: HandQueries;
  private readonly periods: Periods;
  private readonly tournaments: TournamentQueries;
  private readonly countStmt: Statement;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    readonly file: string,
    options: HistoryStoreOptions,
    readonly readonly: boolean,
  ) {
    const shape = (sql: string): Statement => this.shape(sql);
    this.names = new Names(db, readonly);
    this.writer = readonly ? null : new HistoryWriter(db, this.names, shape, options.now ?? Date.now);
    const getHand = db.prepare(`SELECT id, prefix, number, played_at, table_ref, variant, stakes, flags, hero_seat, hero_net, hero_rake, pot, hero_cards, tournament, level, record
                                FROM hands WHERE prefix = ? AND number = ?`);
    this.queries = new HandQueries(this.names, shape, options.planThreshold ?? PLAN_THRESHOLD, getHand);
    this.periods = new Periods(db, options.utcOffsetMinutes ?? ((ms) => -new Date(ms).getTimezoneOffset()));
    this.tournaments = new TournamentQueries(shape);
    this.countStmt = db.prepare('SELECT count(*) FROM hands').pluck();
  }

  /**
   * Opens (creating if needed) the history file and brings its schema up to date. Throws
   * `HistoryTooNewError` or `NotAHistoryError` (the file is left untouched), or an I/O error.
   * `readonly`: a reading connection to a file the writer keeps (nothing created or migrated).
   */
  static open(file: string, options: HistoryStoreOptions & { readonly?: boolean } = {}): HistoryStore {
    const readonly = options.readonly === true;
    const db = openDatabase(file, HISTORY_MIGRATIONS, HISTORY_LABEL, {
      synchronous: options.synchronous ?? 'NORMAL',
      foreignKeys: false,
      applicationId: APPLICATION_ID,
      cacheSize: NORMAL_CACHE, // the indexes' upper levels stay in memory
      readonly,
    });
    try {
      const store = new HistoryStore(db, file, options, readonly);
      store.writer?.fillDerived();
      return store;
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
      if (!this.readonly) this.db.pragma('optimize');
    } finally {
      this.db.close();
    }
  }

  /** Folds the WAL back into the file (after a bulk import; before measuring the file). */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  count(): number {
    return this.countStmt.get() as number;
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

  private write(): HistoryWriter {
    if (this.writer === null) throw new Error('this history connection only reads');
    return this.writer;
  }

  // Writing (writer.ts)

  /** Stores one finished hand in one transaction; a hand already stored (same id, or same exchange number, game and second) is not stored again. */
  addHand(meta: HandMeta, record: HandRecord): AddResult {
    return this.write().addHand(meta, record);
  }

  /**
   * Whether this hand is stored, under its id or another one (the same exchange number, game and
   * second); a hand that cannot be stored is not. The import's buffer asks it
   * (jobs.ts WriteGate) for the hands main receives while an import holds the file.
   */
  holds(meta: HandMeta, record: HandRecord): boolean {
    const d = derive(meta, record);
    if (typeof d === 'string') return false;
    return this.getHand(record.handId as string).ok || this.write().sameHandStored(meta, d);
  }

  /**
   * Stores a tournament's record or replaces it by its id (registered, then finished, then synced: one
   * row, never counted twice). Its hands are stored with `addHand` and `meta.tournament`.
   * `at`: when the client saw the change (its money's movements are dated by it; writer.ts).
   */
  putTournament(t: TournamentRecordView, at?: number): { ok: true } | { ok: false; reason: string } {
    return this.write().putTournament(t, at);
  }

  /**
   * Stores the tournaments of a file (a summaries import) in one transaction, all or none (writer.ts
   * `addTournaments`): one already stored (a stub made by its hands is not) or twice in the list is a
   * duplicate and stays as it is; refused with the index of the first that cannot be stored.
   */
  addTournaments(list: readonly TournamentRecordView[]): { ok: true; stored: number; duplicates: number } | { ok: false; index: number | null; reason: string } {
    return this.write().addTournaments(list, (id) => this.tournaments.get(id) !== null);
  }

  /** Stores many hands (an import): `importer()` with one chunk. Duplicates are counted, not stored. */
  addHands(list: readonly { meta: HandMeta; record: HandRecord }[]): BulkResult {
    return this.write().addHands(list);
  }

  /**
   * Gives the player back their observed hands (schema version 9): a stored hand without a hero where
   * one of `names` was dealt in (the player named themselves since: Settings, my names) becomes theirs,
   * in their results from now on (R-RESULTS). All in one transaction: each is removed and stored again
   * with its seat, so its totals, graph pieces and statistics are the writer's own. Returns how many.
   */
  claimObserved(names: readonly string[]): number {
    if (names.length === 0) return 0;
    const rows = this.db
      .prepare('SELECT h.id, p.prefix, h.number FROM hands h INDEXED BY hands_observed JOIN hand_prefixes p ON p.id = h.prefix WHERE (h.flags & 512) != 0')
      .raw()
      .all() as [number, string, number][];
    const claims: { id: number; meta: HandMeta; record: HandRecord }[] = [];
    for (const [id, prefix, number] of rows) {
      const h = this.getHand(joinHandId(prefix, number));
      const seat = h.ok ? h.record.seats.find((s) => s.dealtIn && names.includes(s.player)) : undefined;
      if (!h.ok || seat === undefined) continue;
      const { playedAt, tableId, money, tournament } = h.summary;
      claims.push({ id, record: h.record, meta: { playedAt, tableId, money, heroSeat: seat.seat, tournament } });
    }
    if (claims.length === 0) return 0;
    const w = this.write();
    this.db.transaction(() => {
      for (const c of claims) {
        this.shape('DELETE FROM hand_players WHERE hand = ?').run(c.id);
        this.shape('DELETE FROM hands WHERE id = ?').run(c.id);
        const r = w.addHand(c.meta, c.record);
        if (!r.stored) throw new Error(`hand ${c.record.handId as string} could not be given back: ${r.duplicate ? 'stored twice' : r.reason}`);
      }
    })();
    return claims.length;
  }

  /** A bulk import fed in chunks (writer.ts). `batch: Infinity`: one transaction, all or nothing. */
  importer(options: { batch?: number } = {}): HistoryImport {
    return this.write().importer(options);
  }

  /** Removes hands played before `before` (ms); refused inside the 366 days kept (R-HISTORY). */
  removeOlderThan(before: number): { ok: true; removed: number } | { ok: false; reason: string } {
    const r = this.write().removeOlderThan(before);
    if (r.ok) this.names.forget();
    return r;
  }

  /** Forgets cached names (the reader, after the writer removed hands and their names). */
  forgetNames(): void {
    this.names.forget();
  }

  // Reading (queries.ts, periods.ts, series.ts)

  /** The stored hand, decoded; a refusal when it is not stored or its bytes cannot be trusted. */
  getHand(handId: string): GetHandResult {
    return this.queries.getHand(handId);
  }

  /** A page of hands matching `filter` (keyset pagination, queries.ts). */
  page(filter: HandFilter, req: PageRequest): PageResult {
    return this.queries.page(filter, req);
  }

  /** The per-hand columns of the results page, in the graph's order. */
  resultRows(filter: HandFilter): ResultRows | { ok: false; reason: string } {
    return this.queries.resultRows(filter);
  }

  /** The graph's pieces of a filter of period, money, game and stakes only (series.ts); null for any other filter. */
  seriesPieces(filter: HandFilter): { ok: true; pieces: SeriesPieces } | { ok: false; reason: string } | null {
    return seriesPieces(filter, (sql) => this.shape(sql), (f) => this.queries.resultRows(f));
  }

  /** Sums of the packed per-hand statistics over a filter. */
  statSums(filter: HandFilter): { ok: true; sums: StatSums } | { ok: false; reason: string } {
    return this.queries.statSums(filter);
  }

  // Tournaments (tournaments.ts, schema version 6)

  /** One stored tournament (null: none, or only its hands so far). */
  tournament(tournamentId: string): TournamentRecordView | null {
    return this.tournaments.get(tournamentId);
  }

  /** The stored tournaments, newest registration first, keyset-paged. */
  tournamentHistory(filter: TournamentFilter, limit: number, cursor: string | null): TournamentPage {
    return this.tournaments.history(filter, limit, cursor);
  }

  /** Results over the finished tournaments (net, ROI, ITM, average finish), by format, game or buy-in. */
  tournamentResults(filter: TournamentFilter, groupBy: TournamentGroupBy): ({ ok: true } & TournamentResultsView) | { ok: false; reason: string } {
    return this.tournaments.results(filter, groupBy);
  }

  /** The finished tournaments as rows of the graph, at their end times. */
  tournamentRows(filter: TournamentFilter): ResultRows | { ok: false; reason: string } {
    return this.tournaments.seriesRows(filter);
  }

  /** The hero's cash hands, net and rake over [from, to), per money kind and grouped, with the period's tournament entries and prizes (periods.ts). */
  results(query: ResultsQuery): ResultsAnswer {
    return this.periods.results(query);
  }

  /** Local midnight (ms) of the day holding `ms`. */
  localDayStart(ms: number): number {
    return this.periods.localDayStart(ms);
  }

  /** Local date `YYYY-MM-DD` of an instant. */
  localDate(ms: number): string {
    return this.periods.localDate(ms);
  }
}
