/**
 * Issue 14 item 6: a migration is frozen. Each version's file imports no live code (only the type of a
 * migration), so changing the codec, the statistics or the writer cannot change what an old version does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HISTORY_MIGRATIONS } from '.';

const here = dirname(fileURLToPath(import.meta.url));

describe('the history schema migrations (issue 14 item 6)', () => {
  it('one file per version, each importing only the Migration type', () => {
    const files = readdirSync(here).filter((f) => /^v\d+\.ts$/.test(f));
    expect(files.length).toBe(HISTORY_MIGRATIONS.length);
    for (const f of files) {
      const imports = [...readFileSync(join(here, f), 'utf8').matchAll(/^import .*$/gm)].map((m) => m[0]);
      expect(imports, f).toEqual(["import type { Migration } from '../../../../shared/node/sqlite';"]);
    }
  });
});
