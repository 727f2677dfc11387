/**
 * Schema version 5 of the hand history: the results graph's lines read, not recomputed (DESIGN.md §5: a
 * year's lines at 1,000,000 hands ≤ 50 ms). Frozen: literal
 * SQL only, no live code.
 *
 *   hour_series(money, variant, stakes, hour, …) WITHOUT ROWID
 *     Per UTC hour and per filter key, the hero's hands of that hour in order (played_at, id) as a piece
 *     of the graph: how many hands, the sums at its end (net, showdown net, all-in adjusted net), the
 *     times of its first and last hands, and the points where the running net is lowest and highest inside the
 *     hour (the hand's rank in the hour, its time, and the three running sums there). `money`,
 *     `variant` and `stakes` are -1 for "any", so that every filter of money / game / stakes reads one
 *     key's range: each hand is in 8 rows ({its money, any} × {its game, any} × {its stakes, any}).
 *     Kept up to date in the same transaction as the hands (history/series.ts). The hours of the hands
 *     already stored are listed in `series_pending`; the store computes their pieces with the current
 *     code after the migrations (writer.ts `fillDerived`), then drops the list.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v5: Migration = (db) => {
  db.exec(`
    CREATE TABLE hour_series (
      money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL, hour INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, sd INTEGER NOT NULL, adj INTEGER NOT NULL, first_at INTEGER NOT NULL, end_at INTEGER NOT NULL,
      lo_i INTEGER NOT NULL, lo_at INTEGER NOT NULL, lo_net INTEGER NOT NULL, lo_sd INTEGER NOT NULL, lo_adj INTEGER NOT NULL,
      hi_i INTEGER NOT NULL, hi_at INTEGER NOT NULL, hi_net INTEGER NOT NULL, hi_sd INTEGER NOT NULL, hi_adj INTEGER NOT NULL,
      PRIMARY KEY (money, variant, stakes, hour)
    ) WITHOUT ROWID;
    CREATE TABLE series_pending (hour INTEGER PRIMARY KEY);
    INSERT INTO series_pending SELECT DISTINCT played_at / 3600000 - (played_at < 0 AND played_at % 3600000 != 0) FROM hands;
  `);
};
