/**
 * The results graph's lines (R-RESULTS, docs/stats.md) read from per-hour pieces (schema version 5,
 * schema/v5.ts `hour_series`) instead of every hand (DESIGN.md §5: a year's lines at
 * 1,000,000 hands ≤ 50 ms).
 *
 * Upkeep (`SeriesUpkeep`): new hands after their hour's stored ones extend the hour's pieces; a hand
 * that lands earlier (an import out of order, the operator sync) has its hour recomputed from its
 * hands in order (played_at, id), so every hand is placed where it belongs. Totals at an hour's end are exact sums; the lowest and
 * highest points inside an hour are exact points of the per-hand line.
 *
 * Reading: a filter of period, money, game and stakes only reads one key's hours, and the hands of the
 * partial hours at its edges one by one. Every point the graph keeps is then a real point of the
 * per-hand line (its hand count, time and the four running sums equal the per-hand truth there); the
 * line's end is exact, and so are its lowest and highest points (each is an hour's extreme). Any other
 * filter (a table, a player, won/lost, showdown, all-in) reads its hands.
 */
import type Database from 'better-sqlite3';
import type { CallResult } from '../../../shared/api';
import { VARIANT_IDS } from '../../../shared/history/compact';
import { CASH_ONLY, HOUR, moneyCode, moneySql, type HandFilter } from './model';
import type { ResultRows } from './queries';

type Statement = Database.Statement;
export type SeriesView = CallResult<'resultsSeries'>;

/** The live twin of schema/v5.ts's fill, for the hours given as a JSON array (INSERT OR REPLACE: adding hands never removes a key from an hour). */
const REFRESH = `
  WITH hrs AS (SELECT value AS hour FROM json_each(?)),
  base AS (
    SELECT hrs.hour AS hour, ${moneySql()} AS money, h.variant AS variant, h.stakes AS stakes, h.played_at AS at, h.id AS id, h.hero_net AS net,
           CASE WHEN h.flags & 2 = 2 THEN h.hero_net ELSE 0 END AS sd, coalesce(h.hero_adj, h.hero_net) AS adj
    FROM hrs JOIN hands h INDEXED BY hands_results ON h.played_at >= hrs.hour * ${HOUR} AND h.played_at < (hrs.hour + 1) * ${HOUR} AND ${CASH_ONLY}),
  keyed AS (
    SELECT b.hour, CASE WHEN k.m = 1 THEN -1 ELSE b.money END AS money, CASE WHEN k.v = 1 THEN -1 ELSE b.variant END AS variant,
           CASE WHEN k.s = 1 THEN -1 ELSE b.stakes END AS stakes, b.at, b.id, b.net, b.sd, b.adj
    FROM base b CROSS JOIN (SELECT 0 AS m, 0 AS v, 0 AS s UNION ALL SELECT 0, 0, 1 UNION ALL SELECT 0, 1, 0 UNION ALL SELECT 0, 1, 1
                            UNION ALL SELECT 1, 0, 0 UNION ALL SELECT 1, 0, 1 UNION ALL SELECT 1, 1, 0 UNION ALL SELECT 1, 1, 1) k),
  run AS MATERIALIZED (
    SELECT hour, money, variant, stakes, at, first_value(at) OVER w AS f, row_number() OVER w AS i, sum(net) OVER w AS t, sum(sd) OVER w AS s, sum(adj) OVER w AS a
    FROM keyed WINDOW w AS (PARTITION BY hour, money, variant, stakes ORDER BY at, id ROWS UNBOUNDED PRECEDING)),
  en AS (SELECT hour, money, variant, stakes, max(i) AS hands, t AS net, s AS sd, a AS adj, f AS first_at, at AS end_at FROM run GROUP BY hour, money, variant, stakes),
  lo AS (SELECT hour, money, variant, stakes, min(t) AS lo_net, i AS lo_i, at AS lo_at, s AS lo_sd, a AS lo_adj FROM run GROUP BY hour, money, variant, stakes),
  hi AS (SELECT hour, money, variant, stakes, max(t) AS hi_net, i AS hi_i, at AS hi_at, s AS hi_sd, a AS hi_adj FROM run GROUP BY hour, money, variant, stakes)
  INSERT OR REPLACE INTO hour_series(money, variant, stakes, hour, hands, net, sd, adj, first_at, end_at, lo_i, lo_at, lo_net, lo_sd, lo_adj, hi_i, hi_at, hi_net, hi_sd, hi_adj)
  SELECT en.money, en.variant, en.stakes, en.hour, en.hands, en.net, en.sd, en.adj, en.first_at, en.end_at,
         lo.lo_i, lo.lo_at, lo.lo_net, lo.lo_sd, lo.lo_adj, hi.hi_i, hi.hi_at, hi.hi_net, hi.hi_sd, hi.hi_adj
  FROM en JOIN lo USING (hour, money, variant, stakes) JOIN hi USING (hour, money, variant, stakes)`;

/** The hour of an instant (UTC hours; floor for times before 1970 too). */
export const hourOf = (ms: number): number => Math.floor(ms / HOUR);

/** One `hour_series` row in memory (columns in table order after the key). */
type Piece = [hands: number, net: number, sd: number, adj: number, firstAt: number, endAt: number, loI: number, loAt: number, loNet: number, loSd: number, loAdj: number, hiI: number, hiAt: number, hiNet: number, hiSd: number, hiAdj: number];

const COLUMNS = 'hands, net, sd, adj, first_at, end_at, lo_i, lo_at, lo_net, lo_sd, lo_adj, hi_i, hi_at, hi_net, hi_sd, hi_adj';

/**
 * Keeps `hour_series` in step with the hands (writer side), in the writer's transaction. The hands a
 * transaction stores are gathered per hour; at its end, an hour whose new hands all come after its
 * stored hands (later time; same time, larger row id: always so for a new row) is extended in memory,
 * its new hands in order: the usual case (play, an import, whose batches hold whole hours). An hour
 * that gets a hand before its stored end (an import out of order, the operator sync) is recomputed
 * from its hands in SQL (`REFRESH`).
 */
export class SeriesUpkeep {
  private readonly refreshStmt: Statement;
  private readonly dropStmt: Statement;
  private readonly getStmt: Statement;
  private readonly putStmt: Statement;
  /** New hands of this transaction per hour, flat: at, id, money, variant, stakes, net, showdown net, adjusted net. */
  private readonly hands = new Map<number, number[]>();
  /** Hours to recompute from their hands at the end of this transaction. */
  private readonly redo = new Set<number>();

  constructor(db: Database.Database) {
    this.refreshStmt = db.prepare(REFRESH);
    this.dropStmt = db.prepare('DELETE FROM hour_series WHERE hour IN (SELECT value FROM json_each(?))');
    this.getStmt = db.prepare(`SELECT ${COLUMNS} FROM hour_series WHERE money = ? AND variant = ? AND stakes = ? AND hour = ?`).raw();
    this.putStmt = db.prepare(`INSERT OR REPLACE INTO hour_series(money, variant, stakes, hour, ${COLUMNS}) VALUES (${'?, '.repeat(19)}?)`);
  }

  /** A stored hand: its hour, row id, money (0 real, 1 play), game, stakes, time, net, showdown net, adjusted net. */
  add(hour: number, id: number, money: number, variant: number, stakes: number, at: number, net: number, sd: number, adj: number): void {
    if (this.redo.has(hour)) return;
    let list = this.hands.get(hour);
    if (list === undefined) {
      list = [];
      this.hands.set(hour, list);
    }
    list.push(at, id, money, variant, stakes, net, sd, adj);
  }

  /** Marks an hour to be recomputed from its hands at the end of the transaction. */
  touch(hour: number): void {
    this.redo.add(hour);
  }

  /** Writes the pieces of the hours this transaction touched (end of the writer's transaction). */
  flush(): void {
    for (const [hour, list] of this.hands) if (!this.redo.has(hour)) this.extend(hour, list);
    this.hands.clear();
    this.refresh(this.redo);
    this.redo.clear();
  }

  /** Extends an hour's pieces by its new hands, or marks it for recomputation when one lands before its stored end. */
  private extend(hour: number, list: number[]): void {
    const n = list.length / 8;
    let first = Infinity;
    for (let k = 0; k < n; k++) first = Math.min(first, list[8 * k]);
    const all = this.getStmt.get(-1, -1, -1, hour) as Piece | undefined;
    if (all !== undefined && first < all[5]) {
      this.redo.add(hour);
      return;
    }
    const order = Array.from({ length: n }, (_, k) => k).sort((x, y) => list[8 * x] - list[8 * y] || list[8 * x + 1] - list[8 * y + 1]);
    const pieces = new Map<string, { key: number[]; p: Piece }>();
    for (const k of order) {
      const [at, , money, variant, stakes, net, sd, adj] = list.slice(8 * k, 8 * k + 8);
      for (const m of [money, -1]) {
        for (const [v, st] of [
          [variant, stakes],
          [variant, -1],
          [-1, stakes],
          [-1, -1],
        ]) {
          const id = `${m}:${v}:${st}`;
          let e = pieces.get(id);
          if (e === undefined) {
            const row = m === -1 && v === -1 && st === -1 ? all : (this.getStmt.get(m, v, st, hour) as Piece | undefined);
            e = { key: [m, v, st, hour], p: row ? [...row] as Piece : [0, 0, 0, 0, at, at, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
            pieces.set(id, e);
          }
          const p = e.p;
          p[0]++;
          p[1] += net;
          p[2] += sd;
          p[3] += adj;
          p[5] = at;
          if (p[0] === 1) p[4] = at;
          if (p[0] === 1 || p[1] < p[8]) [p[6], p[7], p[8], p[9], p[10]] = [p[0], at, p[1], p[2], p[3]];
          if (p[0] === 1 || p[1] > p[13]) [p[11], p[12], p[13], p[14], p[15]] = [p[0], at, p[1], p[2], p[3]];
        }
      }
    }
    for (const { key, p } of pieces.values()) this.putStmt.run(...key, ...p);
  }

  /** Drops what this transaction had in memory (it was rolled back). */
  clear(): void {
    this.hands.clear();
    this.redo.clear();
  }

  /** Recomputes these hours from their hands. */
  refresh(hours: Iterable<number>): void {
    const list = [...hours];
    for (let k = 0; k < list.length; k += 500) this.refreshStmt.run(JSON.stringify(list.slice(k, k + 500)));
  }

  /** After hands were removed: these hours are rebuilt from what is left (a rare, whole-table pass). */
  rebuild(hours: readonly number[]): void {
    for (let k = 0; k < hours.length; k += 500) this.dropStmt.run(JSON.stringify(hours.slice(k, k + 500)));
    this.refresh(hours);
  }
}

/** The pieces of a filter: the hands of the partial hours before and after, and the whole hours' rows between. */
export interface SeriesPieces {
  hands: number;
  before: ResultRows;
  /** Rows of [hands, net, sd, adj, first_at, end_at, lo_i, lo_at, lo_net, lo_sd, lo_adj, hi_i, hi_at, hi_net, hi_sd, hi_adj]. */
  hours: number[][];
  after: ResultRows;
}

/** Reads the pieces (reader side); null when the filter is not one of period, money, game and stakes only. */
export function seriesPieces(
  filter: HandFilter,
  shape: (sql: string) => Statement,
  rows: (f: HandFilter) => ResultRows | { ok: false; reason: string },
): { ok: true; pieces: SeriesPieces } | { ok: false; reason: string } | null {
  // The pieces hold cash hands only (schema version 6): a filter of cash hands, said or not, reads them.
  const simple = Object.entries(filter).every(([k, x]) => x === undefined || ['from', 'to', 'money', 'variant', 'stakes'].includes(k) || (k === 'kind' && x === 'cash'));
  if (!simple) return null;
  for (const k of ['from', 'to', 'stakes'] as const) {
    const x = filter[k];
    if (x !== undefined && !Number.isSafeInteger(x)) return { ok: false, reason: `${k} must be a whole number` };
  }
  const v = filter.variant === undefined ? -1 : VARIANT_IDS.indexOf(filter.variant);
  if (v < -1 || (filter.variant !== undefined && v < 0)) return { ok: false, reason: `unknown variant ${String(filter.variant)}` };
  const from = filter.from ?? Number.MIN_SAFE_INTEGER;
  const to = filter.to ?? Number.MAX_SAFE_INTEGER;
  const h0 = Math.ceil(from / HOUR);
  const h1 = Math.floor(to / HOUR);
  if (h1 - h0 < 2) return null;
  const before = rows({ ...filter, from, to: h0 * HOUR });
  const after = rows({ ...filter, from: h1 * HOUR, to });
  if (!before.ok) return before;
  if (!after.ok) return after;
  const money = filter.money === undefined ? -1 : moneyCode(filter.money);
  const hours = shape(
    `SELECT hands, net, sd, adj, first_at, end_at, lo_i, lo_at, lo_net, lo_sd, lo_adj, hi_i, hi_at, hi_net, hi_sd, hi_adj FROM hour_series
     WHERE money = ? AND variant = ? AND stakes = ? AND hour >= ? AND hour < ? ORDER BY hour`,
  )
    .raw()
    .all(money, v, filter.stakes ?? -1, h0, h1) as number[][];
  let hands = before.at.length + after.at.length;
  for (const r of hours) hands += r[0];
  return { ok: true, pieces: { hands, before, hours, after } };
}

/** Points of the line (hands counted, time, running total, showdown, adjusted), each a real point of the per-hand line, in order. */
class Points {
  readonly hands: number[] = [];
  readonly at: number[] = [];
  readonly total: number[] = [];
  readonly sd: number[] = [];
  readonly adj: number[] = [];
  push(h: number, at: number, total: number, sd: number, adj: number): void {
    this.hands.push(h);
    this.at.push(at);
    this.total.push(total);
    this.sd.push(sd);
    this.adj.push(adj);
  }
}

/** Every hand of per-hand rows as a point, from running sums `base`; returns the sums after them. */
function handPoints(p: Points, rows: ResultRows, base: [number, number, number, number]): [number, number, number, number] {
  let [n, total, sd, adj] = base;
  for (let i = 0; i < rows.at.length; i++) {
    const net = rows.net[i];
    total += net;
    if (rows.showdown[i] === 1) sd += net;
    adj += rows.adj[i];
    p.push(++n, rows.at[i], total, sd, adj);
  }
  return [n, total, sd, adj];
}

/** The candidate points of the pieces: every edge hand, and each hour's lowest, highest and last points. */
function piecePoints(pieces: SeriesPieces): Points {
  const p = new Points();
  let base = handPoints(p, pieces.before, [0, 0, 0, 0]);
  for (const r of pieces.hours) {
    const [n, total, sd, adj] = base;
    const inHour: [number, number, number, number, number][] = [
      [r[6], r[7], r[8], r[9], r[10]],
      [r[11], r[12], r[13], r[14], r[15]],
      [r[0], r[5], r[1], r[2], r[3]],
    ];
    inHour.sort((a, b) => a[0] - b[0]);
    let last = -1;
    for (const [i, at, t, s, a] of inHour) {
      if (i === last) continue;
      last = i;
      p.push(n + i, at, total + t, sd + s, adj + a);
    }
    base = [n + r[0], total + r[1], sd + r[2], adj + r[3]];
  }
  handPoints(p, pieces.after, base);
  return p;
}

/** The first hand's time of the pieces. */
function firstAt(pieces: SeriesPieces): number {
  if (pieces.before.at.length > 0) return pieces.before.at[0];
  if (pieces.hours.length > 0) return pieces.hours[0][4];
  return pieces.after.at[0];
}

/**
 * The line with at most `max` points: a first point at 0, then per bucket of hands the points where
 * the total is lowest and highest among the candidates, in order, and the last hand always
 * (1 + 2 × buckets + 1 ≤ max). With every hand a candidate this is the per-hand downsampling.
 */
function downsample(p: Points, n: number, start: number, max: number): SeriesView {
  const out: SeriesView = { hands: [0], at: [start], total: [0], showdown: [0], noShowdown: [0], allInAdjusted: [0] };
  const emit = (k: number): void => {
    out.hands.push(p.hands[k]);
    out.at.push(p.at[k]);
    out.total.push(p.total[k]);
    out.showdown.push(p.sd[k]);
    out.noShowdown.push(p.total[k] - p.sd[k]);
    out.allInAdjusted.push(p.adj[k]);
  };
  const m = p.hands.length;
  if (n + 1 <= max) {
    for (let k = 0; k < m; k++) emit(k);
    return out;
  }
  const buckets = Math.floor((max - 2) / 2);
  const size = Math.ceil(n / buckets);
  let k = 0;
  while (k < m) {
    const b = Math.floor((p.hands[k] - 1) / size);
    let lo = k;
    let hi = k;
    let end = k;
    for (; end < m && Math.floor((p.hands[end] - 1) / size) === b; end++) {
      if (p.total[end] < p.total[lo]) lo = end;
      if (p.total[end] > p.total[hi]) hi = end;
    }
    const keep = [...new Set([lo, hi, ...(p.hands[end - 1] === n ? [end - 1] : [])])].sort((x, y) => x - y);
    for (const x of keep) emit(x);
    k = end;
  }
  return out;
}

/** The line from per-hand rows (any filter). */
export function seriesFromRows(rows: ResultRows, maxPoints: number): SeriesView {
  const n = rows.at.length;
  if (n === 0) return { hands: [], at: [], total: [], showdown: [], noShowdown: [], allInAdjusted: [] };
  const p = new Points();
  handPoints(p, rows, [0, 0, 0, 0]);
  return downsample(p, n, rows.at[0], clampPoints(maxPoints));
}

/** The line from the pieces (period, money, game, stakes). */
export function seriesFromPieces(pieces: SeriesPieces, maxPoints: number): SeriesView {
  if (pieces.hands === 0) return { hands: [], at: [], total: [], showdown: [], noShowdown: [], allInAdjusted: [] };
  return downsample(piecePoints(pieces), pieces.hands, firstAt(pieces), clampPoints(maxPoints));
}

export function clampPoints(maxPoints: number): number {
  return Math.max(10, Math.min(10_000, Math.floor(maxPoints)));
}
