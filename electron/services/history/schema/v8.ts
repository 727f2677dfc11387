/**
 * Schema version 8 of the hand history: a tied finish kept (T 8-16; protocol 5
 * `tournament.finished.tied`). Frozen: literal SQL only, no live code. Additive: one
 * column.
 *
 *   tournaments.tied  how many players share the places from `place` (out on the same hand with equal
 *     stacks, sharing those places' prizes); NULL when the player was alone at that place, or when it was
 *     not told (records stored before this version, the operator's results and summary imports, which
 *     do not carry it).
 */
import type { Migration } from '../../../../shared/node/sqlite';

export const v8: Migration = (db) => {
  db.exec('ALTER TABLE tournaments ADD COLUMN tied INTEGER;');
};
