/**
 * Schema version 3 of the hand history (a hand is stored once whatever format it
 * came through). Frozen: literal SQL only. The hands' exchange numbers are computed
 * by live code (shared/exchange/handNumber.ts), so this version only adds the column and its index and
 * lists the hands stored before it (`number_pending`); the store numbers them with the current code
 * once the migrations have run (writer.ts `fillDerived`), then drops the list. The column is described
 * in ../store.ts.
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v3: Migration = (db) => {
  db.exec(`
    ALTER TABLE hands ADD COLUMN xnum INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE number_pending (id INTEGER PRIMARY KEY);
    INSERT INTO number_pending SELECT id FROM hands;
    CREATE INDEX hands_by_xnum ON hands(xnum);
  `);
};
