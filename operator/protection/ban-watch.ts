/**
 * How a running operator learns of a new copy of the national ban file (R-BANNED: "applies a new copy
 * at once to every session"). `cercle-operator bans replace` runs as a process of its own and only
 * renames the new file over `bans.txt` in the data folder (bans.ts), so the operator watches that file:
 *
 * - `fs.watch` on the data folder (not on the file: the replacement is a rename, and a watch on the old
 *   file would follow the old inode), for events naming `bans.txt` (or naming nothing, where the
 *   platform does not say): the new copy is applied within milliseconds;
 * - a stat of the file every `pollMs` (default 5 s) as well, for the file systems where `fs.watch`
 *   tells nothing (network folders, some containers) or fails.
 *
 * Either one calls `changed`, which reads the file again (BanList.current: only when its stamp moved)
 * and applies it if that copy was not applied yet. No signal between the processes: the command needs
 * no rights over the operator's process, and a copy put in place while the operator was stopped is
 * applied at its start.
 */
import { watch, type FSWatcher } from 'node:fs';
import { BAN_FILE_NAME } from './bans';

export interface BanWatchOptions {
  /** How often the file is looked at whatever `fs.watch` says (default 5000 ms). */
  readonly pollMs?: number;
  readonly log?: (line: string) => void;
}

export function watchBanFile(dataDir: string, changed: () => void, options: BanWatchOptions = {}): { close(): void } {
  const log = options.log ?? (() => undefined);
  let closed = false;
  let queued = false;
  // Several events come for one replacement (the temporary file, the rename): one check for them all.
  const check = (): void => {
    if (closed || queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (closed) return;
      try {
        changed();
      } catch (e) {
        log(`ban file: ${(e as Error)?.stack ?? String(e)}`);
      }
    });
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dataDir, { persistent: false }, (_event, name) => {
      if (name === null || String(name) === BAN_FILE_NAME) check();
    });
    watcher.on('error', (e) => {
      log(`ban file: watching ${dataDir} stopped (${e.message}); looked at every ${options.pollMs ?? 5000} ms`);
      watcher?.close();
      watcher = null;
    });
  } catch (e) {
    log(`ban file: cannot watch ${dataDir} (${(e as Error).message}); looked at every ${options.pollMs ?? 5000} ms`);
  }
  const poll = setInterval(check, options.pollMs ?? 5000);
  poll.unref();
  return {
    close() {
      closed = true;
      clearInterval(poll);
      watcher?.close();
    },
  };
}
