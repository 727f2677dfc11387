/**
 * Schema version 6 of the hand history: tournaments (R-HISTORY, R-RESULTS, R-TRACKER).
 * Frozen: literal SQL only, no live code. The tables are described in ../store.ts.
 *
 *   tournaments(id, tid UNIQUE, name, variant, money, format, kinds, buy_in, fee, entries, registered_at,
 *               started_at, ended_at, place, prize, bounties, rebuys, add_ons, re_entries, spent)
 *     One row per tournament, upserted by the operator's id (`tid`): stored when the player registers,
 *     completed when it ends, never added twice. A hand that arrives before its tournament's record
 *     (the operator sync) makes a row with only `tid` (`name` NULL: not listed until its record comes).
 *   hands.tournament  the tournament's row (NULL: a cash hand); hands.level its 0-based level.
 *     The `flags` bit 32 marks a tournament hand, so that the time, net and results indexes keep it
 *     out of the cash totals, graph and statistics (its chips are not money) without reading the row.
 *   INDEX hands_by_tournament (tournament, played_at), partial: cash hands cost it nothing.
 * Hands stored before version 6 are cash hands: nothing to fill.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v6: Migration = (db) => {
  db.exec(`
    CREATE TABLE tournaments (
      id INTEGER PRIMARY KEY,
      tid TEXT NOT NULL UNIQUE,
      name TEXT,
      variant INTEGER,
      money INTEGER,
      format INTEGER,
      kinds TEXT,
      buy_in INTEGER,
      fee INTEGER,
      entries INTEGER,
      registered_at INTEGER,
      started_at INTEGER,
      ended_at INTEGER,
      place INTEGER,
      prize INTEGER,
      bounties INTEGER,
      rebuys INTEGER,
      add_ons INTEGER,
      re_entries INTEGER,
      spent INTEGER
    );
    CREATE INDEX tournaments_by_registered ON tournaments(registered_at, id);
    CREATE INDEX tournaments_by_end ON tournaments(ended_at);
    ALTER TABLE hands ADD COLUMN tournament INTEGER;
    ALTER TABLE hands ADD COLUMN level INTEGER;
    CREATE INDEX hands_by_tournament ON hands(tournament, played_at) WHERE tournament IS NOT NULL;
  `);
};
