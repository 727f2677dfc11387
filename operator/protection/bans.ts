/**
 * The operator's copy of the national file of gambling bans (R-BANNED; law 2010-476 art. 26): the file
 * `bans.txt` in the operator's data folder, in the format of identity.ts (`cercle-bans 1`, then one
 * SHA-256 of an identity key per line; docs/protection.md). Replaced whole and atomically by
 * `cercle-operator bans replace <file>` (cli.ts), which refuses a malformed file naming its line and
 * leaves the copy in force as it was. A running operator applies the new copy at once, without a
 * restart (ban-watch.ts: it watches this file and closes every account whose holder is now banned);
 * registrations and logins read it too.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../shared/node/atomic-file';
import { parseBanFile } from './identity';

export const BAN_FILE_NAME = 'bans.txt';

/** Who is banned, as the operator checks it. */
export interface BanCheck {
  isBanned(identityHash: string): boolean;
}

/** The ban file of a data folder, read again whenever it changed on disk. */
export class BanList implements BanCheck {
  private readonly path: string;
  private stamp = '';
  private hashes: ReadonlySet<string> = new Set();

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.path = join(dataDir, BAN_FILE_NAME);
  }

  isBanned(identityHash: string): boolean {
    this.refresh();
    return this.hashes.has(identityHash);
  }

  /** How many identities the copy in force holds. */
  size(): number {
    this.refresh();
    return this.hashes.size;
  }

  /**
   * The identities in force now (read again first if the file changed): one stat for a whole scan. A
   * new copy is a new set, so a caller can tell whether it has applied this one.
   */
  current(): ReadonlySet<string> {
    this.refresh();
    return this.hashes;
  }

  private refresh(): void {
    let stamp: string;
    try {
      const s = statSync(this.path, { bigint: true });
      stamp = `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch {
      stamp = 'none';
    }
    if (stamp === this.stamp) return;
    if (stamp === 'none') {
      this.hashes = new Set();
    } else {
      const parsed = parseBanFile(readFileSync(this.path, 'utf8'));
      // Only `replaceBanFile` writes it, after the same check; a file broken by hand keeps the last good copy.
      if (!parsed.ok) this.log(`ban file ${this.path}, line ${parsed.line}: ${parsed.message}; the previous copy stays in force`);
      else this.hashes = parsed.hashes;
    }
    this.stamp = stamp;
  }
}

/** Puts `text` in force as the data folder's ban file, whole or not at all; refuses a malformed one. */
export function replaceBanFile(dataDir: string, text: string): { ok: true; count: number } | { ok: false; line: number; message: string } {
  const parsed = parseBanFile(text);
  if (!parsed.ok) return parsed;
  writeFileAtomic(join(dataDir, BAN_FILE_NAME), text, { mode: 0o600 });
  return { ok: true, count: parsed.hashes.size };
}
