/** Test helpers shared by the operator's tests: a fresh temporary folder per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Creates a temporary folder and returns it with a cleanup function. */
export function tempDir(prefix = 'cercle-operator-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
