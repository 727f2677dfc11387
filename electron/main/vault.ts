/**
 * The session token of a custom operator, kept by main only (DESIGN.md §3 "tokens only in main"),
 * encrypted with the OS store through safeStorage. Where the OS store would keep it in plain text
 * (Linux without a keyring: the `basic_text` backend) it is never written: the player logs in again
 * after a restart.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../../shared/node/atomic-file';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { TokenVault } from '../services/client';

const FILE = 'session.bin';

function storeIsSafe(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend() !== 'basic_text';
  return true;
}

export function safeStorageVault(dataDir: string): TokenVault {
  const file = join(dataDir, FILE);
  let memory: string | null = null;
  return {
    load() {
      if (memory !== null) return memory;
      if (!storeIsSafe() || !existsSync(file)) return null;
      try {
        memory = safeStorage.decryptString(readFileSync(file));
      } catch {
        rmSync(file, { force: true }); // unreadable (another user, a changed keyring): log in again
      }
      return memory;
    },
    save(token) {
      memory = token;
      if (token === null || !storeIsSafe()) {
        rmSync(file, { force: true });
        return;
      }
      writeFileAtomic(file, safeStorage.encryptString(token), { mode: 0o600 }); // whole or not at all (shared/node/atomic-file.ts)
    },
  };
}
