/**
 * Golden files of the exchange's tests (tests/fixtures/exchange/golden): a text compared byte for
 * byte with its file, or written again when asked (`CERCLE_WRITE_GOLDEN=1`, only after a deliberate
 * change of a format, reviewed in the diff). Test support: not part of the package's API.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

const DIR = join(__dirname, '../fixtures/exchange/golden');

export function golden(name: string, text: string): void {
  const file = join(DIR, name);
  if (process.env.CERCLE_WRITE_GOLDEN === '1' || !existsSync(file)) {
    writeFileSync(file, text);
    if (process.env.CERCLE_WRITE_GOLDEN !== '1') throw new Error(`${name} did not exist: written; run again`);
  }
  expect(text).toBe(readFileSync(file, 'utf8'));
}
