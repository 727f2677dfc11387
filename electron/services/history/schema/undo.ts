/**
 * Test support: SQL that takes a current history file back to an older schema version, so that tests
 * can open a real older file and watch the migrations bring it up.
 * Each entry undoes one version; run the ones above the version wanted, newest first, then set
 * `user_version`.
 */
export const UNDO_V6 =
  'DROP TABLE tournaments; DROP INDEX hands_by_tournament; ALTER TABLE hands DROP COLUMN tournament; ALTER TABLE hands DROP COLUMN level;';
export const UNDO_V7 = 'DROP TABLE tournament_money; ALTER TABLE tournaments DROP COLUMN refunded_at;';
export const UNDO_V8 = 'ALTER TABLE tournaments DROP COLUMN tied;';
export const UNDO_V9 = 'DROP INDEX hands_observed;';
