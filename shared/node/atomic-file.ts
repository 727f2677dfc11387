/**
 * Writing a file whole or not at all, one implementation for the client (settings, the embedded
 * operator's pin, the sync marks, the session token) and the operator (its key and certificate, the
 * embedded guest's token): DESIGN.md §2 `shared/node/`. The data goes to a temporary
 * file beside the target (same folder, so the rename stays on one file system), is flushed to disk,
 * then renamed over the target: a reader or a crash sees the old file or the new one, never half of
 * one. `mode` is set at creation and made exact (the umask may narrow it).
 */
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteOptions {
  /** File mode (e.g. 0o600 for secrets); default 0o644 less the umask. */
  mode?: number;
}

export function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'wx', options.mode ?? 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    if (options.mode !== undefined) chmodSync(tmp, options.mode);
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}
