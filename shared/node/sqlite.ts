/**
 * Opening and migrating a SQLite file, one implementation for the client's hand history
 * (electron/services/history) and every operator database (operator/): DESIGN.md §2
 * `shared/node/`. A real file in WAL mode, and the schema brought up to date by `user_version`
 * migrations (CONVENTIONS.md "Storage that survives versions"): one function per version, each run in
 * its own transaction that ends by setting `user_version`; a file whose version is newer than this
 * build knows is refused, never touched (not even the WAL switch), and with `applicationId` a SQLite
 * file of something else is refused too.
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

/** Thrown when the file is a SQLite database of something else (`applicationId` differs). */
export class ForeignDatabaseError extends Error {
  constructor(
    readonly label: string,
    readonly path: string,
  ) {
    super(`${path} is not a Cercle ${label}; it is left untouched.`);
    this.name = 'ForeignDatabaseError';
  }
}

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /**
   * SQLite `synchronous` setting. `FULL` (default) makes every committed money movement or trace record
   * durable across a power cut; `NORMAL` loses at most the last commits on a power cut, never the file.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** `PRAGMA foreign_keys` (default on). */
  readonly foreignKeys?: boolean;
  /**
   * `PRAGMA application_id` the file must carry (set by its first migration): a file with another id,
   * or with tables but no id, is refused with {@link ForeignDatabaseError} before anything is written.
   */
  readonly applicationId?: number;
  /** `PRAGMA cache_size` (KiB when negative, as SQLite wants it). */
  readonly cacheSize?: number;
  /**
   * A read-only connection to a file another connection keeps up to date (the history's reader
   * worker): nothing is created or migrated; a file at another version than `migrations` is refused.
   */
  readonly readonly?: boolean;
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
  if (options.readonly === true) return openReadonly(path, migrations, label, options);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    const found = schemaVersion(db);
    // Checked before anything is written (even the WAL switch), so a newer or foreign file is not modified.
    if (found > migrations.length) throw new DatabaseTooNewError(label, path, found, migrations.length);
    if (options.applicationId !== undefined) {
      const app = db.pragma('application_id', { simple: true }) as number;
      const empty = (db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number) === 0;
      if (app !== options.applicationId && !(app === 0 && empty && found === 0)) throw new ForeignDatabaseError(label, path);
    }
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    db.pragma(`foreign_keys = ${options.foreignKeys === false ? 'OFF' : 'ON'}`);
    if (options.cacheSize !== undefined) db.pragma(`cache_size = ${options.cacheSize}`);
    migrate(db, migrations, label, path);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function openReadonly(path: string, migrations: readonly Migration[], label: string, options: OpenDatabaseOptions): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const found = schemaVersion(db);
    if (found > migrations.length) throw new DatabaseTooNewError(label, path, found, migrations.length);
    if (found < migrations.length) throw new Error(`The ${label} database ${path} is at schema version ${found}: open it for writing first (it migrates to ${migrations.length}).`);
    if (options.applicationId !== undefined && (db.pragma('application_id', { simple: true }) as number) !== options.applicationId) throw new ForeignDatabaseError(label, path);
    if (options.cacheSize !== undefined) db.pragma(`cache_size = ${options.cacheSize}`);
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
