/**
 * The results side of the history (R-RESULTS): the graph's lines, the sessions and the player's
 * statistics over a filtered set of stored hands. Definitions in docs/stats.md.
 *
 * Moneys are never added together (euros, play money, dollars, pounds: shared/history/money.ts): the
 * page always asks with `money` set (a filter without it adds them in the lines, and cuts sessions
 * per money). Observed hands (no hero) are in no result.
 */
import type { CallArgs, CallResult, HistoryFilter } from '../../../shared/api';
import { HAND_MONEY } from '../../../shared/history/money';
import { statList } from '../../../shared/history/stats';
import { clampPoints, seriesFromPieces, seriesFromRows } from './series';
import type { HistoryStore } from './store';

/**
 * The cumulative lines of the hands in order, with a first point at 0 before the first hand, at most
 * `maxPoints` points. A filter of period, money, game and stakes over more hands than points is read
 * from the graph's hour pieces (series.ts, schema version 5: a year at 1,000,000 hands ≤ 50 ms); otherwise
 * from the hands.
 */
export function resultsSeries(store: HistoryStore, filter: HistoryFilter, maxPoints: number): CallResult<'resultsSeries'> {
  if (filter.kind === 'tournament' && filter.tournamentId === undefined) return tournamentSeries(store, filter, maxPoints);
  const fast = store.seriesPieces(filter);
  if (fast !== null && !fast.ok) throw new Error(fast.reason);
  if (fast !== null && fast.pieces.hands + 1 > clampPoints(maxPoints)) return seriesFromPieces(fast.pieces, maxPoints);
  const rows = store.resultRows(filter);
  if (!rows.ok) throw new Error(rows.reason);
  return seriesFromRows(rows, maxPoints);
}

/**
 * The graph of tournaments: one point per movement of tournament money when it
 * happened (an entry paid, a bounty won, the prize at the end: schema version 7), so a running
 * tournament's entry is on the line from the moment it is paid (R-TRACKER); the line ends on the
 * tournaments' net (prizes + bounties − spent). `hands[i]` counts the tournaments entered up to the
 * point. The filter's period, money and game apply; the hand filters (table, stakes, player…) do not.
 * The page draws cash and tournaments together by adding the two lines at each point of either (renderer).
 */
export function tournamentSeries(store: HistoryStore, filter: HistoryFilter, maxPoints: number): CallResult<'resultsSeries'> {
  // Tournaments are paid in euros or play money; another money has none (never counted as euros).
  if (filter.money !== undefined && filter.money !== 'real' && filter.money !== 'play') return seriesFromRows({ ok: true, at: [], net: [], rake: [], adj: [], showdown: [], money: [], table: [] }, maxPoints);
  const rows = store.tournamentRows({ from: filter.from, to: filter.to, money: filter.money, variant: filter.variant });
  if (!rows.ok) throw new Error(rows.reason);
  const s = seriesFromRows(rows, maxPoints);
  // seriesFromRows counts rows (movements); a point counts the tournaments whose first movement came by then.
  const entered: number[] = [];
  const seen = new Set<number>();
  for (const id of rows.table) entered.push(seen.add(id).size);
  s.hands = s.hands.map((n) => (n === 0 ? 0 : entered[n - 1]));
  return s;
}

/** The client API's `tournamentHistory` (a refusal as `ok: false`). */
export function tournamentHistory(store: HistoryStore, a: CallArgs<'tournamentHistory'>): CallResult<'tournamentHistory'> {
  const r = store.tournamentHistory(a.filter, a.limit, a.cursor);
  return r.ok ? { ok: true, tournaments: r.tournaments, next: r.next } : { ok: false, reason: r.reason.slice(0, 2000), tournaments: [], next: null };
}

/** The client API's `tournamentResults` (a filter the schema let through but the store refuses throws). */
export function tournamentResults(store: HistoryStore, a: CallArgs<'tournamentResults'>): CallResult<'tournamentResults'> {
  const r = store.tournamentResults(a.filter, a.groupBy);
  if (!r.ok) throw new Error(r.reason);
  return { real: r.real, play: r.play, groups: r.groups };
}

/**
 * Sessions: runs of hands (one money kind) where no two hands in a row are more than `gapMinutes`
 * apart, newest first. `from`/`to` are the first and last hands' times; `tables` counts distinct tables.
 */
export function resultsSessions(store: HistoryStore, filter: HistoryFilter, gapMinutes: number): CallResult<'resultsSessions'> {
  const rows = store.resultRows(filter);
  if (!rows.ok) throw new Error(rows.reason);
  const gap = gapMinutes * 60_000;
  type Open = { row: CallResult<'resultsSessions'>[number]; tables: Set<number> };
  // One open session per money (shared/history/money.ts): a session never adds two moneys.
  const open: (Open | null)[] = HAND_MONEY.map(() => null);
  const done: CallResult<'resultsSessions'> = [];
  const close = (k: number): void => {
    const o = open[k];
    if (o === null) return;
    o.row.tables = o.tables.size;
    done.push(o.row);
    open[k] = null;
  };
  for (let i = 0; i < rows.at.length; i++) {
    const k = rows.money[i];
    const at = rows.at[i];
    let o = open[k];
    if (o !== null && at - o.row.to > gap) {
      close(k);
      o = null;
    }
    if (o === null) {
      o = { row: { from: at, to: at, hands: 0, net: 0, rake: 0, money: HAND_MONEY[k] ?? 'real', tables: 0 }, tables: new Set() };
      open[k] = o;
    }
    o.row.to = at;
    o.row.hands++;
    o.row.net += rows.net[i];
    o.row.rake += rows.rake[i];
    o.tables.add(rows.table[i]);
  }
  for (let k = 0; k < open.length; k++) close(k);
  done.sort((a, b) => b.from - a.from || a.money.localeCompare(b.money));
  return done.length > 10_000 ? done.slice(0, 10_000) : done;
}

/** The player's statistics over the filtered hands, each a whole fraction (docs/stats.md). */
export function playerStats(store: HistoryStore, filter: HistoryFilter): CallResult<'playerStats'> {
  const r = store.statSums(filter);
  if (!r.ok) throw new Error(r.reason);
  return { hands: r.sums.hands, stats: statList(r.sums) };
}
