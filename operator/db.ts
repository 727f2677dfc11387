/**
 * Opening an operator SQLite database: a real file in WAL mode, foreign keys on, and the schema brought
 * up to date by `user_version` migrations (CONVENTIONS.md "Storage that survives versions"): one
 * function per version, each run in its own transaction that ends by setting `user_version`; a file
 * whose version is newer than this build knows is refused, never touched.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** A better-sqlite3 connection. */
export type Db = Database.Database;

/** Brings the schema from version `i` to `i + 1` (its index in the list is `i`). Runs inside a transaction. */
export type Migration = (db: Db) => void;

/** Thrown when a database file was written by a newer build (its schema version is unknown here). */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly label: string,
    readonly path: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The ${label} database ${path} has schema version ${found}, but this build only knows versions up to ` +
        `${supported}. It was written by a newer version of Cercle; it is left untouched. Use that newer version.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /**
   * SQLite `synchronous` setting. `FULL` (default) makes every committed money movement or trace record
   * durable across a power cut; `NORMAL` is only for throw-away data.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
}

/** The schema version stored in the file (`PRAGMA user_version`). */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Opens (creating if needed) the SQLite file at `path`, switches it to WAL, and applies the migrations
 * it has not seen yet, one transaction per version. `label` names the database in error messages.
 * Throws {@link DatabaseTooNewError} if the file's schema is newer than `migrations` knows.
 */
export function openDatabase(path: string, migrations: readonly Migration[], label: string, options: OpenDatabaseOptions = {}): Db {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    const found = schemaVersion(db);
    // Checked before anything is written (even the WAL switch), so a newer file is not modified.
    if (found > migrations.length) throw new DatabaseTooNewError(label, path, found, migrations.length);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma('foreign_keys = ON');
    migrate(db, migrations, label, path);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function migrate(db: Db, migrations: readonly Migration[], label: string, path: string): void {
  for (;;) {
    // BEGIN IMMEDIATE, and the version re-read inside it: two processes opening the same file at once
    // cannot both run a migration.
    const done = db
      .transaction(() => {
        const v = schemaVersion(db);
        if (v > migrations.length) throw new DatabaseTooNewError(label, path, v, migrations.length);
        if (v === migrations.length) return true;
        migrations[v](db);
        db.pragma(`user_version = ${v + 1}`);
        return false;
      })
      .immediate();
    if (done) return;
  }
}
