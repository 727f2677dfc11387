/**
 * Schema version 7 of the hand history: tournament money when it moves, and refunded registrations
 * (R-TRACKER, R-RESULTS). Frozen: literal SQL only, no live code.
 * Additive: one column and one table with its indexes.
 *
 *   tournaments.refunded_at  when the registration's entry came back (unregistered before the start,
 *     or the tournament cancelled): the registration is "refunded", listed as such and in no result.
 *     A later registration in the same tournament is a new row; the refunded one is kept under the key
 *     `<tid> <registered_at>` (a space is never in an operator's id: shared/protocol/tournament.ts).
 *   tournament_money(id, tournament, at, money, variant, entries, prizes)
 *     Each movement of a tournament's money when it happens (writer.ts `putTournament`): an entry,
 *     a re-entry, a rebuy or an add-on paid (`entries`, fees included), a bounty or the prize won
 *     (`prizes`). `money` and `variant` are the tournament's, copied so that a period's totals and
 *     groups read one covering index. For each tournament not refunded, its rows add up to its
 *     record: Σ entries = spent, Σ prizes = prize + bounties.
 *     INDEX tournament_money_by_time (at, money, variant, entries, prizes): periods, groups, graph.
 *     INDEX tournament_money_by_tournament (tournament): a tournament's rows (upkeep, removal).
 *
 * Filled from the version 6 records: a registration ended without a place is refunded (version 6
 * stored it so, spent 0); the others pay their spent at their registration and get
 * their prize and bounties at their end (version 6 knew no other times).
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v7: Migration = (db) => {
  db.exec(`
    ALTER TABLE tournaments ADD COLUMN refunded_at INTEGER;
    UPDATE tournaments SET refunded_at = ended_at WHERE name IS NOT NULL AND place IS NULL AND ended_at IS NOT NULL;
    CREATE TABLE tournament_money (
      id INTEGER PRIMARY KEY,
      tournament INTEGER NOT NULL,
      at INTEGER NOT NULL,
      money INTEGER NOT NULL,
      variant INTEGER NOT NULL,
      entries INTEGER NOT NULL,
      prizes INTEGER NOT NULL
    );
    INSERT INTO tournament_money(tournament, at, money, variant, entries, prizes)
      SELECT id, registered_at, money, variant, spent, 0 FROM tournaments
      WHERE name IS NOT NULL AND refunded_at IS NULL AND spent > 0 ORDER BY registered_at, id;
    INSERT INTO tournament_money(tournament, at, money, variant, entries, prizes)
      SELECT id, ended_at, money, variant, 0, prize + bounties FROM tournaments
      WHERE name IS NOT NULL AND refunded_at IS NULL AND ended_at IS NOT NULL AND prize + bounties > 0 ORDER BY ended_at, id;
    CREATE INDEX tournament_money_by_time ON tournament_money(at, money, variant, entries, prizes);
    CREATE INDEX tournament_money_by_tournament ON tournament_money(tournament);
  `);
};
