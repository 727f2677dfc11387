/**
 * The history's writer (R-HISTORY; DESIGN.md §3 "one transaction per hand, written once by hand id"):
 * a hand, its names, its players, the day and hour totals, the statistics' hour sums and the graph's
 * hour pieces, all in one transaction; bulk imports in large transactions; removal of old hands at the
 * player's request. Split out of store.ts. Only one connection writes: main's store
 * (or an import worker while it holds the gate, jobs.ts).
 */
import type Database from 'better-sqlite3';
import { tournamentRecordSchema, type TournamentRecordView } from '../../../shared/api/tournaments';
import { VARIANT_IDS, decodeHand, encodeHand, isDecodeRefusal } from '../../../shared/history/compact';
import { centiBigBlinds, unpackHandStats } from '../../../shared/history/stats';
import type { HandRecord } from '../../../shared/rules/record';
import {
  DAY,
  F_SHOWDOWN,
  HISTORY_KEEP_DAYS,
  HOUR,
  IMPORT_BATCH,
  IMPORT_CACHE,
  NORMAL_CACHE,
  CASH_ONLY,
  STAT_SELECT,
  STAT_SUMS,
  addDelta,
  derive,
  derivedResults,
  exchangeNumber,
  joinHandId,
  moneySql,
  packCards,
  type AddResult,
  type BulkResult,
  type Delta,
  type Derived,
  type HandMeta,
  type HistoryImport,
  type StatSums,
  type TotalsRow,
} from './model';
import type { Names } from './names';
import { SeriesUpkeep } from './series';

type Statement = Database.Statement;

/** Why a tournament's record cannot be stored (it does not fit the client API's shape, shared/api/tournaments.ts), or null. */
function tournamentRefusal(t: TournamentRecordView): string | null {
  const bad = tournamentRecordSchema.check(t, 'tournament');
  if (bad !== null) return bad;
  if (t.endedAt !== null && t.endedAt < t.registeredAt) return 'a tournament ends after its registration';
  if (t.refundedAt !== undefined && t.refundedAt < t.registeredAt) return 'a registration is refunded after it is made';
  if (t.tied !== undefined && (t.place === null || t.place + t.tied - 1 > t.entries)) return 'a tie shares places of the field, from a place';
  return null;
}

export class HistoryWriter {
  private readonly q: Record<'addHand' | 'sameHand' | 'putTournament' | 'addDay' | 'addHour' | 'tournamentNow' | 'keepRefunded' | 'addMoney' | 'dropMoney' | 'moveMoney', Statement>;
  /** `INSERT INTO hand_players` of n rows, by n (prepared once each). */
  private readonly handPlayerStatements: Statement[] = [];
  /** (player, hand) pairs of the current transaction, flat, written at its end (flushPlayers). */
  private readonly pendingPlayers: number[] = [];
  /** Statistic sums of the current transaction per `hour:money:variant:stakes`, written with the totals. */
  private readonly pendingStats = new Map<string, number[]>();
  private readonly series: SeriesUpkeep;
  private importing = false;
  /** One hand and its totals in one transaction (made once, with the statements). */
  private readonly addOne: (meta: HandMeta, record: HandRecord, d: Derived) => boolean;
  private readonly encodeOptions = { handIdOutside: true, playerId: (name: string): number => this.names.id('player', name) };

  constructor(
    private readonly db: Database.Database,
    private readonly names: Names,
    private readonly shape: (sql: string) => Statement,
    private readonly now: () => number,
  ) {
    this.series = new SeriesUpkeep(db);
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
      addHand: p(`INSERT INTO hands(prefix, number, played_at, table_ref, variant, stakes, flags, hero_seat, hero_net, hero_rake, pot, record, stats, hero_adj, xnum, hero_cards, tournament, level)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(prefix, number) DO NOTHING`),
      // The same hand under another id (read back from PokerStars text): number, game, second of play.
      sameHand: p('SELECT 1 FROM hands INDEXED BY hands_by_xnum WHERE xnum = ? AND variant = ? AND played_at / 1000 = ? LIMIT 1').pluck(),
      putTournament: p(`UPDATE tournaments SET name = ?, variant = ?, money = ?, format = ?, kinds = ?, buy_in = ?, fee = ?, entries = ?, registered_at = ?,
                        started_at = ?, ended_at = ?, place = ?, tied = ?, prize = ?, bounties = ?, rebuys = ?, add_ons = ?, re_entries = ?, spent = ?, refunded_at = ? WHERE id = ?`),
      // Schema version 7: the stored record's money, the refunded registration kept apart, the movements.
      tournamentNow: p('SELECT name, money, variant, registered_at, refunded_at, spent, prize, bounties FROM tournaments WHERE id = ?'),
      keepRefunded: p(`INSERT OR REPLACE INTO tournaments(tid, name, variant, money, format, kinds, buy_in, fee, entries, registered_at, started_at, ended_at, place, tied, prize,
                        bounties, rebuys, add_ons, re_entries, spent, refunded_at)
                       SELECT ?, name, variant, money, format, kinds, buy_in, fee, entries, registered_at, started_at, ended_at, place, tied, prize,
                        bounties, rebuys, add_ons, re_entries, spent, refunded_at FROM tournaments WHERE id = ?`),
      addMoney: p('INSERT INTO tournament_money(tournament, at, money, variant, entries, prizes) VALUES (?, ?, ?, ?, ?, ?)'),
      dropMoney: p('DELETE FROM tournament_money WHERE tournament = ?'),
      moveMoney: p('UPDATE tournament_money SET money = ?, variant = ? WHERE tournament = ?'),
      addDay: totals('day_totals', 'day'),
      addHour: totals('hour_totals', 'hour'),
    };
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
      this.forget();
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
      this.forget();
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
        this.forget();
        end();
      },
    };
  }

  private insert(meta: HandMeta, record: HandRecord, d: Derived, deltas: Map<string, Delta>): boolean {
    if (this.sameHandStored(meta, d)) return false;
    const prefix = this.names.id('prefix', d.prefix);
    const bytes = encodeHand(record, this.encodeOptions);
    const r = this.q.addHand.run(
      prefix,
      d.number,
      meta.playedAt,
      this.names.id('table', meta.tableId),
      d.variant,
      d.stakes,
      d.flags,
      meta.heroSeat ?? -1, // an observed hand (schema version 9)
      d.heroNet,
      d.heroRake,
      d.pot,
      bytes,
      d.stats,
      d.adj,
      d.xnum,
      d.heroCards,
      d.tournament === null ? null : this.names.id('tournament', d.tournament.tournamentId),
      d.tournament?.level ?? null,
    );
    if (r.changes === 0) return false;
    const hand = r.lastInsertRowid as number;
    for (const s of record.seats) this.pendingPlayers.push(this.names.id('player', s.player), hand);
    // A tournament hand's chips are not money; the cash totals, graph and statistics
    // never count it (its entry and prize are counted from `tournaments`), nor an observed hand (R-RESULTS).
    if (d.tournament !== null || meta.heroSeat === null) return true;
    const day = Math.floor(meta.playedAt / DAY);
    const hour = Math.floor(meta.playedAt / HOUR);
    this.series.add(hour, hand, d.money, d.variant, d.stakes, meta.playedAt, d.heroNet, d.flags & F_SHOWDOWN ? d.heroNet : 0, d.adj ?? d.heroNet);
    addDelta(deltas, `d:${day}:${d.money}:${d.variant}:${d.stakes}`, d);
    addDelta(deltas, `h:${hour}:${d.money}:${d.variant}:${d.stakes}`, d);
    this.addStats(`${hour}:${d.money}:${d.variant}:${d.stakes}`, d.stats, d.heroNet, d.stakes);
    return true;
  }

  /**
   * Stores a tournament's record, or replaces it (by the operator's id): registered, then finished, then
   * perhaps synced again, it is one row, never counted twice. `hands` is not taken
   * from the record: the history counts the hands it holds. Refused with a reason when it does not
   * fit the client API's shape (shared/api/tournaments.ts).
   *
   * Its money as it moves (schema version 7, R-TRACKER): what the record paid or won more than the
   * stored one is a movement at `at` (when the client saw it; default now), kept inside the record's
   * span (registration to end): the first entry at the registration, the prize at the end. A record
   * first stored whole (the operator sync, an import) pays at its registration and wins at its end.
   * A refunded registration (`refundedAt`) has no movements: it is in no result. A registration after
   * a refund is a new record; the refunded one is kept under `<tid> <registered_at>`.
   */
  putTournament(t: TournamentRecordView, at: number = this.now()): { ok: true } | { ok: false; reason: string } {
    const bad = tournamentRefusal(t);
    if (bad !== null) return { ok: false, reason: bad };
    if (!Number.isSafeInteger(at) || at < 0) return { ok: false, reason: 'a tournament is stored at a whole ms time' };
    this.putOne(t, at);
    return { ok: true };
  }

  /**
   * Stores tournaments read from a file (a summaries import) in ONE transaction, as a
   * hand import is (DESIGN.md §3): all of them or, when one cannot be stored (refused, or SQLite
   * fails), none, with the index of that one (null when the commit itself failed) and why. One already stored (`stored`, by id) or earlier
   * in the list is a duplicate and stays as it is (the record kept as it was played knows more than
   * a summary), so importing the same file again adds nothing.
   */
  addTournaments(list: readonly TournamentRecordView[], stored: (tournamentId: string) => boolean): { ok: true; stored: number; duplicates: number } | { ok: false; index: number | null; reason: string } {
    let at = 0;
    const now = this.now();
    try {
      return this.db.transaction(() => {
        const seen = new Set<string>();
        let added = 0;
        for (at = 0; at < list.length; at++) {
          const t = list[at];
          if (!seen.has(t.tournamentId) && !stored(t.tournamentId)) {
            const bad = tournamentRefusal(t);
            if (bad !== null) throw new Error(bad);
            this.putRow(t, now);
            added++;
          }
          seen.add(t.tournamentId);
        }
        return { ok: true as const, stored: added, duplicates: list.length - added };
      })();
    } catch (e) {
      this.names.forget(); // rows named in the rolled-back transaction are gone
      // `index` null: the commit failed, not one tournament.
      return { ok: false, index: at < list.length ? at : null, reason: e instanceof Error ? e.message : String(e) };
    }
  }

  private readonly putOne = (t: TournamentRecordView, at: number): void => {
    try {
      this.db.transaction(() => this.putRow(t, at))();
    } catch (e) {
      this.names.forget(); // the row may have been made in the rolled-back transaction
      throw e;
    }
  };

  private putRow(t: TournamentRecordView, at: number): void {
    const ref = this.names.id('tournament', t.tournamentId);
    type Stored = { name: string | null; money: number; variant: number; registered_at: number; refunded_at: number | null; spent: number; prize: number; bounties: number };
    let was = this.q.tournamentNow.get(ref) as Stored | undefined;
    if (was?.name === null) was = undefined; // a stub made by a hand: no record, no money yet
    if (was !== undefined && was.refunded_at !== null && t.refundedAt === undefined && was.registered_at !== t.registeredAt) {
      // Entered again after a refund, a new record; the refunded one stays listed apart.
      this.q.keepRefunded.run(`${t.tournamentId} ${was.registered_at}`, ref);
      this.q.dropMoney.run(ref);
      was = undefined;
    }
    const money = t.money === 'play' ? 1 : 0;
    const variant = VARIANT_IDS.indexOf(t.variant);
    this.q.putTournament.run(
      t.name,
      VARIANT_IDS.indexOf(t.variant),
      t.money === 'play' ? 1 : 0,
      t.format === 'scheduled' ? 1 : 0,
      t.kinds,
      t.buyIn,
      t.fee,
      t.entries,
      t.registeredAt,
      t.startedAt,
      t.endedAt,
      t.place,
      t.tied ?? null,
      t.prize,
      t.bounties,
      t.rebuys,
      t.addOns,
      t.reEntries,
      t.spent,
      t.refundedAt ?? null,
      ref,
    );
    if (t.refundedAt !== undefined) {
      // Refunded: neither paid nor won (the results leave it out).
      this.q.dropMoney.run(ref);
      return;
    }
    const before = was === undefined || was.refunded_at !== null ? { spent: 0, prize: 0, bounties: 0 } : was;
    if (was !== undefined && (was.money !== money || was.variant !== variant)) this.q.moveMoney.run(money, variant, ref);
    const within = Math.max(t.registeredAt, t.endedAt === null ? at : Math.min(at, t.endedAt));
    const first = was === undefined || was.refunded_at !== null;
    const moves = new Map<number, { entries: number; prizes: number }>();
    const move = (when: number, entries: number, prizes: number): void => {
      if (entries === 0 && prizes === 0) return;
      const m = moves.get(when) ?? { entries: 0, prizes: 0 };
      m.entries += entries;
      m.prizes += prizes;
      moves.set(when, m);
    };
    move(first ? t.registeredAt : within, t.spent - before.spent, 0);
    move(first && t.endedAt !== null ? t.endedAt : within, 0, t.bounties - before.bounties);
    move(t.endedAt ?? within, 0, t.prize - before.prize);
    for (const [when, m] of moves) if (m.entries !== 0 || m.prizes !== 0) this.q.addMoney.run(ref, when, money, variant, m.entries, m.prizes);
  }

  /**
   * Whether a hand with this exchange number, game and second of play is stored (schema version 3):
   * then it is this hand, whichever id it came with; the chance that two different hands share all
   * three is nil (a 53-bit hash, the same second, the same game).
   */
  sameHandStored(meta: HandMeta, d: Derived): boolean {
    return this.q.sameHand.get(d.xnum, d.variant, Math.trunc(meta.playedAt / 1000)) !== undefined;
  }

  /** Adds a hand's packed statistics to the current transaction's hour sums (hands the hero was dealt in). */
  private addStats(key: string, stats: number, heroNet: number, stakes: number): void {
    if (stats % 2 !== 1) return;
    let sums = this.pendingStats.get(key);
    if (sums === undefined) {
      sums = STAT_SUMS.map(() => 0);
      this.pendingStats.set(key, sums);
    }
    const x = unpackHandStats(stats);
    const add = [1, +x.vpip, +x.pfr, +x.threeBetChance, +x.threeBet, +x.sawSecond, +(x.sawSecond && x.showdown), +x.showdown, +x.wonShowdown, x.aggressive, x.calls, centiBigBlinds(heroNet, stakes), x.draws, x.cardsDrawn, x.standPats];
    for (let i = 0; i < add.length; i++) sums[i] += add[i];
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
    // Schema version 5: the graph's pieces of the hours this transaction touched (series.ts).
    this.series.flush();
  }

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
      // Cash hands only: tournament hands are in no total (schema version 6).
      const old = `SELECT %KEY% AS at, ${moneySql()} AS money, variant, stakes, count(*) AS hands, sum(hero_net) AS net, sum(hero_rake) AS rake
                   FROM hands h INDEXED BY hands_by_time WHERE played_at < ? AND ${CASH_ONLY} GROUP BY at, money, variant, stakes`;
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
        `SELECT h.played_at / ${HOUR} - (h.played_at < 0 AND h.played_at % ${HOUR} != 0) AS at, ${moneySql()} AS money, h.variant AS variant, h.stakes AS stakes, ${STAT_SELECT}
         FROM hands h INDEXED BY hands_results WHERE h.played_at < ? AND ${CASH_ONLY} GROUP BY at, money, variant, stakes`,
      ).all(before) as (StatSums & { at: number; money: number; variant: number; stakes: number })[];
      const less = this.shape(`UPDATE hour_stats SET ${STAT_SUMS.map((k) => `${k} = ${k} - ?`).join(', ')} WHERE hour = ? AND money = ? AND variant = ? AND stakes = ?`);
      for (const g of gone) less.run(...STAT_SUMS.map((k) => Math.round(g[k])), g.at, g.money, g.variant, g.stakes);
      this.shape('DELETE FROM hour_stats WHERE hands = 0').run();
      this.shape('DELETE FROM hand_players WHERE hand IN (SELECT id FROM hands INDEXED BY hands_by_time WHERE played_at < ?)').run(before);
      const n = this.shape('DELETE FROM hands WHERE played_at < ?').run(before).changes;
      // The graph's pieces (schema version 5): whole hours before go, the hour cut in two is rebuilt.
      this.shape('DELETE FROM hour_series WHERE hour < ?').run(Math.floor(before / HOUR));
      if (before % HOUR !== 0) this.series.rebuild([Math.floor(before / HOUR)]);
      // Names no remaining hand uses.
      this.shape('DELETE FROM players WHERE id NOT IN (SELECT player FROM hand_players)').run();
      this.shape('DELETE FROM table_ids WHERE id NOT IN (SELECT table_ref FROM hands)').run();
      this.shape('DELETE FROM hand_prefixes WHERE id NOT IN (SELECT prefix FROM hands)').run();
      // Tournaments registered before, and their hands gone (a stub without a record too: schema version 6).
      this.shape('DELETE FROM tournaments WHERE coalesce(registered_at, 0) < ? AND id NOT IN (SELECT tournament FROM hands INDEXED BY hands_by_tournament WHERE tournament IS NOT NULL)').run(before);
      // Their money's movements (schema version 7).
      this.shape('DELETE FROM tournament_money WHERE tournament NOT IN (SELECT id FROM tournaments)').run();
      return n;
    })();
    this.forget();
    return { ok: true, removed };
  }

  /** After a rolled-back transaction the caches may name rows that do not exist. */
  private forget(): void {
    this.pendingPlayers.length = 0;
    this.pendingStats.clear();
    this.series.clear();
    this.names.forget();
  }

  /**
   * What frozen migrations leave to the current code, run at open: the derived
   * values (statistics, all-in adjusted net) of the hands listed in `derive_pending` (schema/v2.ts)
   * with their hour sums and graph pieces, the exchange numbers of those in `number_pending`
   * (schema/v3.ts), the hero's cards of those in `cards_pending` (schema/v4.ts), and the graph's
   * pieces of the hours listed in `series_pending` (schema/v5.ts); each list is dropped when done.
   * A crash midway leaves the rest listed for the next open (each chunk is one transaction).
   */
  fillDerived(): void {
    const listed = (name: string): boolean => (this.db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(name) as number) > 0;
    if (listed('derive_pending')) {
      this.fillHands('derive_pending', `h.hero_seat, h.record, h.played_at, ${moneySql()}, h.variant, h.stakes, h.hero_net`, 2000, () => {
        const update = this.db.prepare('UPDATE hands SET stats = ?, hero_adj = ? WHERE id = ?');
        return (id, [heroSeat, bytes, playedAt, money, variant, stakes, heroNet]: [number, Uint8Array, number, number, number, number, number]) => {
          const record = this.decode(id, bytes);
          const extra = record === null ? { stats: 0, adj: null } : derivedResults(record, heroSeat);
          update.run(extra.stats, extra.adj, id);
          const hour = Math.floor(playedAt / HOUR);
          this.series.touch(hour);
          this.addStats(`${hour}:${money}:${variant}:${stakes}`, extra.stats, heroNet, stakes);
        };
      });
    }
    if (listed('number_pending')) {
      // Schema version 3: the number PokerStars text and POJEU carry for the hand.
      this.fillHands('number_pending', 'h.prefix, h.number', 5000, () => {
        const update = this.db.prepare('UPDATE hands SET xnum = ? WHERE id = ?');
        return (id, [prefix, number]: [number, number]) => update.run(exchangeNumber(joinHandId(this.names.text('prefix', prefix) ?? '', number)), id);
      });
    }
    if (listed('cards_pending')) {
      // Schema version 4: the hero's cards as the record knows them at the end.
      this.fillHands('cards_pending', 'h.hero_seat, h.record', 2000, () => {
        const update = this.db.prepare('UPDATE hands SET hero_cards = ? WHERE id = ?');
        return (id, [heroSeat, bytes]: [number, Uint8Array]) => {
          const record = this.decode(id, bytes);
          if (record !== null) update.run(packCards(record.seats.find((s) => s.seat === heroSeat)?.cards ?? []), id);
        };
      });
    }
    if (listed('series_pending')) {
      // Schema version 5 (schema/v5.ts): the graph's pieces of the hours stored before it.
      const next = this.db.prepare('SELECT hour FROM series_pending ORDER BY hour LIMIT 500').pluck();
      const done = this.db.prepare('DELETE FROM series_pending WHERE hour <= ?');
      this.drain('series_pending', () => {
        const hours = next.all() as number[];
        if (hours.length === 0) return false;
        this.series.refresh(hours);
        done.run(hours[hours.length - 1]);
        return true;
      });
    }
  }

  /** A stored record decoded for a fill (its id is not needed); null when its bytes cannot be read. */
  private decode(id: number, bytes: Uint8Array): HandRecord | null {
    const record = decodeHand(bytes, { handId: `h${String(id)}`, playerName: (p) => this.names.text('player', p) });
    return isDecodeRefusal(record) ? null : record;
  }

  /**
   * Works through the hands listed in `table` (id order, `size` a transaction): `each` gets a hand's
   * id and the `columns` of `hands h`; the totals are flushed at each chunk's end.
   */
  private fillHands<R extends unknown[]>(table: string, columns: string, size: number, prepare: () => (id: number, row: R) => void): void {
    const next = this.db.prepare(`SELECT p.id, ${columns} FROM ${table} p JOIN hands h ON h.id = p.id ORDER BY p.id LIMIT ${size}`).raw();
    const done = this.db.prepare(`DELETE FROM ${table} WHERE id <= ?`);
    const each = prepare();
    this.drain(table, () => {
      const rows = next.all() as [number, ...R][];
      if (rows.length === 0) return false;
      for (const [id, ...row] of rows) each(id, row);
      done.run(rows[rows.length - 1][0]);
      this.flushTotals(new Map());
      return true;
    });
  }

  /** Runs `chunk` a transaction at a time until it has nothing left, then drops the list `table`. */
  private drain(table: string, chunk: () => boolean): void {
    const one = this.db.transaction(chunk);
    while (one()) {
      // one chunk a transaction
    }
    this.db.exec(`DROP TABLE ${table}`);
  }
}
