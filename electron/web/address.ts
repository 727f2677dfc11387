/**
 * The browser host's address, kept per data folder: a host started again on the
 * same folder listens on the same port with the same token when it can, so a tab left open
 * reconnects by itself and carries on. `--port N` chooses the port; `--port 0` asks for a fresh one
 * (and a fresh token), as tests do. The file is the player's own (mode 0600, like the settings): the
 * token in it is what the address bar carries.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostAddress {
  port: number;
  token: string;
}

const FILE = 'browser-host.json';

/** The address remembered for this data folder, or null (none, or a file that is not one). */
export function loadHostAddress(dataDir: string): HostAddress | null {
  try {
    const v = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<HostAddress>;
    if (!Number.isInteger(v.port) || (v.port as number) < 1 || (v.port as number) > 65535) return null;
    if (typeof v.token !== 'string' || !/^[\w-]{32,64}$/.test(v.token)) return null;
    return { port: v.port as number, token: v.token };
  } catch {
    return null;
  }
}

export function saveHostAddress(dataDir: string, a: HostAddress): void {
  mkdirSync(dataDir, { recursive: true });
  const tmp = join(dataDir, `${FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(a), { mode: 0o600 });
  renameSync(tmp, join(dataDir, FILE));
}

export function newHostToken(): string {
  return randomBytes(24).toString('base64url');
}
