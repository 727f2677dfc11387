/**
 * Schema version 2 of the hand history: the results page (docs/stats.md). Frozen:
 * literal SQL only. Decoding every hand with the live codec and computing its statistics with the live
 * shared/history code here would let a later change of those change what "version 2" means, so it only
 * adds the columns and lists the hands whose derived values are still to be computed (`derive_pending`);
 * the store fills them with the current code once the migrations have run (store.ts `fillDerived`),
 * then drops the list.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v2: Migration = (db) => {
  db.exec(`
    ALTER TABLE hands ADD COLUMN stats INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE hands ADD COLUMN hero_adj INTEGER;
    CREATE TABLE derive_pending (id INTEGER PRIMARY KEY);
    INSERT INTO derive_pending SELECT id FROM hands;
    CREATE INDEX hands_results ON hands(played_at, flags, hero_net, hero_rake, hero_adj, table_ref, variant, stakes, stats);
    CREATE TABLE hour_stats (
      hour INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      hands INTEGER NOT NULL, vpip INTEGER NOT NULL, pfr INTEGER NOT NULL, tbc INTEGER NOT NULL, tb INTEGER NOT NULL,
      saw INTEGER NOT NULL, wtsd INTEGER NOT NULL, sd INTEGER NOT NULL, wsd INTEGER NOT NULL, agg INTEGER NOT NULL,
      calls INTEGER NOT NULL, cbb INTEGER NOT NULL, draws INTEGER NOT NULL, cards INTEGER NOT NULL, pat INTEGER NOT NULL,
      PRIMARY KEY (hour, money, variant, stakes)
    ) WITHOUT ROWID;
  `);
};
