/** Test helpers shared by the operator's tests: a fresh temporary folder per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Accounts, Identity } from '../../../operator/accounts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Creates a temporary folder and returns it with a cleanup function. */
export function tempDir(prefix = 'cercle-operator-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Registers `name` (password `<name> password`, with `identity` if given) and returns its account id. */
export async function registerPlayer(accounts: Accounts, name: string, identity?: Identity): Promise<number> {
  const r = await accounts.register(name, `${name} password`, identity);
  if (!r.ok) throw new Error(r.message);
  return r.account.id;
}
