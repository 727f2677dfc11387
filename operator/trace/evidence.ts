/**
 * Opening the operator's evidence for reading only (R-TRACE; docs/trace.md "Verifying"): `trace
 * verify`, `trace export` and `report` read a data folder that may be a copy handed to the regulator,
 * on a read-only medium. They never create it, a database in it, nor migrate one: a missing folder or
 * file is a clear error, and a file written by another version is refused rather than changed.
 */
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import type { Db } from '../../shared/node/sqlite';

/** Thrown when the evidence asked for is not there or cannot be read as it is. */
export class EvidenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvidenceError';
  }
}

/** The folder must exist and be a folder; nothing is created. */
export function requireFolder(dir: string): void {
  if (!existsSync(dir)) throw new EvidenceError(`no data folder ${dir}: nothing to verify (a verifier never creates one)`);
  if (!statSync(dir).isDirectory()) throw new EvidenceError(`${dir} is not a folder`);
}

/**
 * A SQLite file of the folder, opened read-only: it must exist, and its schema version must be one
 * this build knows (`known`; a newer file is refused, never migrated).
 */
export function openEvidence(path: string, label: string, known?: number): Db {
  if (!existsSync(path)) throw new EvidenceError(`no ${label} ${path}`);
  let db: Db;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (known !== undefined && version > known) {
      db.close();
      throw new EvidenceError(`the ${label} ${path} has schema version ${version}, newer than this build knows (${known}): use that newer version`);
    }
  } catch (e) {
    if (e instanceof EvidenceError) throw e;
    throw new EvidenceError(`cannot open the ${label} ${path} read-only: ${(e as Error).message}`);
  }
  return db;
}
