/**
 * The results side of the history (R-RESULTS): the graph's lines, the sessions and the player's
 * statistics over a filtered set of stored hands. Definitions in docs/stats.md.
 *
 * Real money and play money are never added together: the page always asks with `money` set (a
 * filter without it adds both kinds in the lines, and cuts sessions per kind).
 */
import type { CallResult, HistoryFilter } from '../../../shared/api';
import { statList } from '../../../shared/history/stats';
import type { HistoryStore } from './store';

/** The cumulative lines of the hands in order, with a first point at 0 before the first hand. */
export function resultsSeries(store: HistoryStore, filter: HistoryFilter, maxPoints: number): CallResult<'resultsSeries'> {
  const out: CallResult<'resultsSeries'> = { hands: [], at: [], total: [], showdown: [], noShowdown: [], allInAdjusted: [] };
  const rows = store.resultRows(filter);
  if (!rows.ok) throw new Error(rows.reason);
  const n = rows.at.length;
  if (n === 0) return out;
  const max = Math.max(10, Math.min(10_000, Math.floor(maxPoints)));
  let total = 0;
  let sd = 0;
  let nsd = 0;
  let adj = 0;
  const push = (i: number): void => {
    out.hands.push(i + 1);
    out.at.push(rows.at[i]);
    out.total.push(total);
    out.showdown.push(sd);
    out.noShowdown.push(nsd);
    out.allInAdjusted.push(adj);
  };
  const step = (i: number): void => {
    const net = rows.net[i];
    total += net;
    if (rows.showdown[i] === 1) sd += net;
    else nsd += net;
    adj += rows.adj[i];
  };
  // The starting point: nothing won yet.
  out.hands.push(0);
  out.at.push(rows.at[0]);
  out.total.push(0);
  out.showdown.push(0);
  out.noShowdown.push(0);
  out.allInAdjusted.push(0);
  if (n + 1 <= max) {
    for (let i = 0; i < n; i++) {
      step(i);
      push(i);
    }
    return out;
  }
  // Downsampled: per bucket of hands, the points where the total is lowest and highest, in order;
  // the last hand always. 1 + 2 × buckets + 1 ≤ max.
  const buckets = Math.floor((max - 2) / 2);
  const size = Math.ceil(n / buckets);
  for (let b = 0; b * size < n; b++) {
    const end = Math.min(n, (b + 1) * size);
    let lo = -1;
    let hi = -1;
    let loV = 0;
    let hiV = 0;
    const snap = new Map<number, [number, number, number, number]>();
    for (let i = b * size; i < end; i++) {
      step(i);
      if (lo < 0 || total < loV) {
        lo = i;
        loV = total;
      }
      if (hi < 0 || total > hiV) {
        hi = i;
        hiV = total;
      }
      if (i === lo || i === hi || i === end - 1) snap.set(i, [total, sd, nsd, adj]);
    }
    const keep = [...new Set([lo, hi, ...(end === n ? [n - 1] : [])])].sort((x, y) => x - y);
    for (const i of keep) {
      const v = snap.get(i) as [number, number, number, number];
      out.hands.push(i + 1);
      out.at.push(rows.at[i]);
      out.total.push(v[0]);
      out.showdown.push(v[1]);
      out.noShowdown.push(v[2]);
      out.allInAdjusted.push(v[3]);
    }
  }
  return out;
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
