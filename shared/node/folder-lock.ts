/**
 * One owner per data folder. A process that owns a data folder (the
 * desktop app, the browser host, the operator, the embedded operator) takes this lock before it reads
 * or writes anything there; a second process on the same folder is refused with one line naming the
 * folder and the owner, before any recovery or write.
 *
 * Why an SQLite lock and not a pid file: the lock is an OS file lock (POSIX advisory locks, Windows
 * LockFileEx) that SQLite takes for us, so the OS releases it when the owner dies, even by SIGKILL or a
 * power cut, with no stale-file guessing and no pid reuse to fool it. `locking_mode=EXCLUSIVE` keeps
 * the write lock from the first write until the connection closes (sqlite.org/pragma.html
 * #pragma_locking_mode), and `timeout: 0` makes a second owner fail at once with SQLITE_BUSY.
 * Who owns the folder is written beside it in a small JSON file, only to name them in the refusal.
 */
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The lock file's name inside the folder (an SQLite database holding nothing but the lock). */
export const LOCK_FILE = 'cercle.lock';
/** Who holds the lock, for the refusal's message. */
export const OWNER_FILE = 'cercle.lock.json';

/** What the owner wrote about itself. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly what: string;
  readonly since: string;
}

/** Thrown when another process owns the folder. Its message is the one line to show. */
export class FolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly owner: LockOwner | null,
  ) {
    super(
      `The data folder ${folder} is in use by ` +
        (owner ? `${owner.what} (process ${owner.pid} on ${owner.host}, since ${owner.since})` : 'another Cercle process') +
        '; stop it first, or choose another folder.',
    );
    this.name = 'FolderInUseError';
  }
}

/** A held lock: release it on a clean exit (the OS releases it anyway when the process ends). */
export interface FolderLock {
  readonly folder: string;
  release(): void;
}

function readOwner(folder: string): LockOwner | null {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(folder, OWNER_FILE), 'utf8'));
    if (raw && typeof raw === 'object') {
      const o = raw as Record<string, unknown>;
      if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.what === 'string' && typeof o.since === 'string') {
        return { pid: o.pid, host: o.host, what: o.what, since: o.since };
      }
    }
  } catch {
    // No owner file, or a partial one: the refusal names no process.
  }
  return null;
}

/**
 * Takes the folder for this process (creating the folder if needed), or throws {@link FolderInUseError}.
 * `what` names this process in a later refusal ("the browser host", "the operator").
 */
export function lockFolder(folder: string, what: string): FolderLock {
  const dir = resolve(folder);
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // A write takes the EXCLUSIVE lock, kept until close in this locking mode.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (at TEXT); DELETE FROM held; INSERT INTO held VALUES (datetime()); COMMIT;');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY' || (e as { code?: string }).code === 'SQLITE_LOCKED') {
      throw new FolderInUseError(dir, readOwner(dir));
    }
    if ((e as { code?: string }).code === 'SQLITE_NOTADB' || (e as { code?: string }).code === 'SQLITE_CORRUPT') {
      // Not deleted here: if another process held it, a new file would let two owners in.
      throw new Error(`The lock file ${join(dir, LOCK_FILE)} is damaged; delete it if no Cercle process uses ${dir}.`, { cause: e });
    }
    throw e;
  }
  const owner: LockOwner = { pid: process.pid, host: hostname(), what, since: new Date().toISOString() };
  writeFileSync(join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  // Kept reachable until released: a caller that drops the returned object must not lose the lock
  // when the garbage collector closes an unreferenced connection.
  HELD.add(db);
  return {
    folder: dir,
    release() {
      if (!HELD.delete(db)) return;
      db.close();
    },
  };
}

/** The connections holding a folder lock in this process. */
const HELD = new Set<Database.Database>();
