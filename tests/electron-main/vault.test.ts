/**
 * The session token's vault (electron/main/vault.ts; DESIGN.md §3 "tokens only in main") over the fake
 * Electron's safeStorage (fake-electron.ts, from electronjs.org/docs/latest/api/safe-storage): a token is
 * written only encrypted by a real OS store; with no encryption, or Linux's `basic_text` backend (a
 * hard-coded key: plain text in all but name), nothing is written and the player logs in again after a
 * restart. The vault is the unit here; safeStorage is its neighbour, faked.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => import('./fake-electron'));

const { fake } = await import('./fake-electron');
const { safeStorageVault } = await import('../../electron/main/vault');

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'cercle-vault-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TOKEN = 'tok_3f9a1c0e5b7d4a2f8e6c1b0a9d8e7f6a';

describe('the token vault', () => {
  it('round-trips a token through an OS store, never writing it in clear', () => {
    fake.configure({ safeStorage: { available: true, backend: 'gnome_libsecret' } });
    const dir = dataDir();
    safeStorageVault(dir).save(TOKEN);
    const file = join(dir, 'session.bin');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).includes(Buffer.from(TOKEN))).toBe(false);
    expect(readdirSync(dir)).toEqual(['session.bin']); // no temporary file left
    // A new vault on the same folder (the app restarted) reads it back.
    expect(safeStorageVault(dir).load()).toBe(TOKEN);
    // Logging out removes it.
    safeStorageVault(dir).save(null);
    expect(existsSync(file)).toBe(false);
  });

  it('writes nothing when encryption is not available, and keeps the token for this run only', () => {
    fake.configure({ safeStorage: { available: false, backend: 'gnome_libsecret' } });
    const dir = dataDir();
    const vault = safeStorageVault(dir);
    vault.save(TOKEN);
    expect(readdirSync(dir)).toEqual([]);
    expect(vault.load()).toBe(TOKEN);
    expect(safeStorageVault(dir).load()).toBeNull();
  });

  // getSelectedStorageBackend and `basic_text` exist on Linux only (safe-storage#safestoragegetselectedstoragebackend-linux);
  // elsewhere the vault does not ask, so the case cannot arise.
  it.runIf(process.platform === 'linux')('writes nothing with the basic_text backend (a hard-coded key), and removes an older file', () => {
    const dir = dataDir();
    fake.configure({ safeStorage: { available: true, backend: 'gnome_libsecret' } });
    safeStorageVault(dir).save(TOKEN);
    expect(existsSync(join(dir, 'session.bin'))).toBe(true);
    fake.configure({ safeStorage: { available: true, backend: 'basic_text' } });
    const vault = safeStorageVault(dir);
    expect(vault.load()).toBeNull(); // not read from an unsafe store
    vault.save(TOKEN);
    expect(readdirSync(dir)).toEqual([]);
    expect(vault.load()).toBe(TOKEN);
  });

  it('an unreadable file (another keyring) is removed: the player logs in again', () => {
    fake.configure({ safeStorage: { available: true, backend: 'gnome_libsecret' } });
    const dir = dataDir();
    writeFileSync(join(dir, 'session.bin'), Buffer.from('v10 not a ciphertext of this keyring'));
    expect(safeStorageVault(dir).load()).toBeNull();
    expect(existsSync(join(dir, 'session.bin'))).toBe(false);
  });
});
