// The vendored PHH conformance corpus (tests/fixtures/phh, from /work/shared/corpus/phh; licences
// beside it): where it is and its files, for the tests that replay, parse and convert it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PHH_CORPUS = join(__dirname, 'fixtures/phh');

/** Every .phh and .phhs file under `dir`, folders searched recursively, in name order. */
export function phhCorpusFiles(dir = PHH_CORPUS): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return phhCorpusFiles(path);
      return /\.phhs?$/.test(name) ? [path] : [];
    });
}
