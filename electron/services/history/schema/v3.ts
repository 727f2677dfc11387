/**
 * Schema version 3 of the hand history: the results graph's lines read, not recomputed (issue 14
 * item 7; DESIGN.md §5: a year's lines at 1,000,000 hands ≤ 50 ms). Frozen (issue 14 item 6): literal
 * SQL only, no live code.
 *
 *   hour_series(money, variant, stakes, hour, …) WITHOUT ROWID
 *     Per UTC hour and per filter key, the hero's hands of that hour in order (played_at, id) as a piece
 *     of the graph: how many hands, the sums at its end (net, showdown net, all-in adjusted net), the
 *     times of its first and last hands, and the points where the running net is lowest and highest inside the
 *     hour (the hand's rank in the hour, its time, and the three running sums there). `money`,
 *     `variant` and `stakes` are -1 for "any", so that every filter of money / game / stakes reads one
 *     key's range: each hand is in 8 rows ({its money, any} × {its game, any} × {its stakes, any}).
 *     Kept up to date in the same transaction as the hands (history/series.ts).
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v3: Migration = (db) => {
  db.exec(`
    CREATE TABLE hour_series (
      money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL, hour INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, sd INTEGER NOT NULL, adj INTEGER NOT NULL, first_at INTEGER NOT NULL, end_at INTEGER NOT NULL,
      lo_i INTEGER NOT NULL, lo_at INTEGER NOT NULL, lo_net INTEGER NOT NULL, lo_sd INTEGER NOT NULL, lo_adj INTEGER NOT NULL,
      hi_i INTEGER NOT NULL, hi_at INTEGER NOT NULL, hi_net INTEGER NOT NULL, hi_sd INTEGER NOT NULL, hi_adj INTEGER NOT NULL,
      PRIMARY KEY (money, variant, stakes, hour)
    ) WITHOUT ROWID;
    WITH base AS (
      SELECT played_at / 3600000 - (played_at < 0 AND played_at % 3600000 != 0) AS hour, flags & 1 AS money, variant, stakes,
             played_at AS at, id, hero_net AS net, CASE WHEN flags & 2 = 2 THEN hero_net ELSE 0 END AS sd, coalesce(hero_adj, hero_net) AS adj
      FROM hands),
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
    INSERT INTO hour_series(money, variant, stakes, hour, hands, net, sd, adj, first_at, end_at, lo_i, lo_at, lo_net, lo_sd, lo_adj, hi_i, hi_at, hi_net, hi_sd, hi_adj)
    SELECT en.money, en.variant, en.stakes, en.hour, en.hands, en.net, en.sd, en.adj, en.first_at, en.end_at,
           lo.lo_i, lo.lo_at, lo.lo_net, lo.lo_sd, lo.lo_adj, hi.hi_i, hi.hi_at, hi.hi_net, hi.hi_sd, hi.hi_adj
    FROM en JOIN lo USING (hour, money, variant, stakes) JOIN hi USING (hour, money, variant, stakes);
  `);
};
