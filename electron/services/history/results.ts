/**
 * The results side of the history (R-RESULTS): the graph's lines, the sessions and the player's
 * statistics over a filtered set of stored hands. Definitions in docs/stats.md.
 *
 * Real money and play money are never added together: the page always asks with `money` set (a
 * filter without it adds both kinds in the lines, and cuts sessions per kind).
 */
import type { CallResult, HistoryFilter } from '../../../shared/api';
import { statList } from '../../../shared/history/stats';
import { clampPoints, seriesFromPieces, seriesFromRows } from './series';
import type { HistoryStore } from './store';

/**
 * The cumulative lines of the hands in order, with a first point at 0 before the first hand, at most
 * `maxPoints` points. A filter of period, money, game and stakes over more hands than points is read
 * from the graph's hour pieces (series.ts, schema version 5: a year at 1,000,000 hands ≤ 50 ms, issue 14
 * item 7); otherwise from the hands.
 */
export function resultsSeries(store: HistoryStore, filter: HistoryFilter, maxPoints: number): CallResult<'resultsSeries'> {
  const fast = store.seriesPieces(filter);
  if (fast !== null && !fast.ok) throw new Error(fast.reason);
  if (fast !== null && fast.pieces.hands + 1 > clampPoints(maxPoints)) return seriesFromPieces(fast.pieces, maxPoints);
  const rows = store.resultRows(filter);
  if (!rows.ok) throw new Error(rows.reason);
  return seriesFromRows(rows, maxPoints);
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
  const open: (Open | null)[] = [null, null];
  const done: CallResult<'resultsSessions'> = [];
  const close = (k: number): void => {
    const o = open[k];
    if (o === null) return;
    o.row.tables = o.tables.size;
    done.push(o.row);
    open[k] = null;
  };
  for (let i = 0; i < rows.at.length; i++) {
    const k = rows.play[i];
    const at = rows.at[i];
    let o = open[k];
    if (o !== null && at - o.row.to > gap) {
      close(k);
      o = null;
    }
    if (o === null) {
      o = { row: { from: at, to: at, hands: 0, net: 0, rake: 0, money: k === 1 ? 'play' : 'real', tables: 0 }, tables: new Set() };
      open[k] = o;
    }
    o.row.to = at;
    o.row.hands++;
    o.row.net += rows.net[i];
    o.row.rake += rows.rake[i];
    o.tables.add(rows.table[i]);
  }
  close(0);
  close(1);
  done.sort((a, b) => b.from - a.from || a.money.localeCompare(b.money));
  return done.length > 10_000 ? done.slice(0, 10_000) : done;
}

/** The player's statistics over the filtered hands, each a whole fraction (docs/stats.md). */
export function playerStats(store: HistoryStore, filter: HistoryFilter): CallResult<'playerStats'> {
  const r = store.statSums(filter);
  if (!r.ok) throw new Error(r.reason);
  return { hands: r.sums.hands, stats: statList(r.sums) };
}
