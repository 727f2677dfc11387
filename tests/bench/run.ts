/**
 * `npm run bench [-- --json] [filter...]`: runs every `tests/bench/*.bench.ts` (or those whose file
 * name contains a filter) and prints their figures, as a table or, with `--json`, as one JSON array
 * of `{ name, unit, value }`. Speed bars live here, never in timed tests (DESIGN.md §4).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchModule, BenchResult } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const filters = args.filter((a) => !a.startsWith('--'));

const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const results: BenchResult[] = [];
for (const file of files) {
  process.stderr.write(`bench ${file}\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as BenchModule;
  for (const r of await mod.default()) {
    results.push(r);
    if (!json) process.stdout.write(`${r.name.padEnd(44)} ${formatValue(r.value).padStart(16)} ${r.unit}\n`);
  }
}
if (json) process.stdout.write(`${JSON.stringify(results)}\n`);

function formatValue(v: number): string {
  return Number.isInteger(v) || Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en') : v.toFixed(3);
}
