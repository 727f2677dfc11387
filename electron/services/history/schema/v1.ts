/**
 * Schema version 1 of the hand history (frozen: never edit a released migration,
 * add the next version instead). Literal SQL only, no live code: what version 1 was stays what it was.
 * The tables are described in ../store.ts.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v1: Migration = (db) => {
  db.exec(`
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE table_ids (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE hand_prefixes (id INTEGER PRIMARY KEY, prefix TEXT NOT NULL UNIQUE);
    CREATE TABLE hands (
      id        INTEGER PRIMARY KEY,
      prefix    INTEGER NOT NULL,
      number    INTEGER NOT NULL,
      played_at INTEGER NOT NULL,
      table_ref INTEGER NOT NULL,
      variant   INTEGER NOT NULL,
      stakes    INTEGER NOT NULL,
      flags     INTEGER NOT NULL,
      hero_seat INTEGER NOT NULL,
      hero_net  INTEGER NOT NULL,
      hero_rake INTEGER NOT NULL,
      pot       INTEGER NOT NULL,
      record    BLOB NOT NULL
    );
    CREATE UNIQUE INDEX hands_by_id ON hands(prefix, number);
    CREATE INDEX hands_by_time ON hands(played_at, flags);
    CREATE INDEX hands_by_game ON hands(variant, played_at);
    CREATE INDEX hands_by_table ON hands(table_ref, played_at);
    CREATE INDEX hands_by_net ON hands(hero_net, flags);
    CREATE TABLE hand_players (player INTEGER NOT NULL, hand INTEGER NOT NULL, PRIMARY KEY (player, hand)) WITHOUT ROWID;
    CREATE TABLE day_totals (
      day INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, rake INTEGER NOT NULL,
      PRIMARY KEY (day, money, variant, stakes)
    ) WITHOUT ROWID;
    CREATE TABLE hour_totals (
      hour INTEGER NOT NULL, money INTEGER NOT NULL, variant INTEGER NOT NULL, stakes INTEGER NOT NULL,
      hands INTEGER NOT NULL, net INTEGER NOT NULL, rake INTEGER NOT NULL,
      PRIMARY KEY (hour, money, variant, stakes)
    ) WITHOUT ROWID;
  `);
  db.pragma('application_id = 1129464648'); // "CRCH"
};
