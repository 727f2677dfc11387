/**
 * Schema version 4 of the hand history (the player's own cards on each line of the
 * History list). Frozen: literal SQL only. The cards are read from each hand's record
 * by the live codec, so this version only adds the column and lists the hands stored before it
 * (`cards_pending`); the store fills them with the current code once the migrations have run
 * (writer.ts `fillDerived`), then drops the list. The column is described in ../store.ts.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v4: Migration = (db) => {
  db.exec(`
    ALTER TABLE hands ADD COLUMN hero_cards INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE cards_pending (id INTEGER PRIMARY KEY);
    INSERT INTO cards_pending SELECT id FROM hands;
  `);
};
