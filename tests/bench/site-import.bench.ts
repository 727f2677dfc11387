/**
 * Importing a site's hand history at scale (DESIGN.md §4: figures, never timed tests):
 *
 * - `import-pokerstars-hands-per-s:cercle`: a PokerStars-format file of N hands (default 100,000,
 *   `CERCLE_BENCH_SITE_HANDS`) read the way `cercle import` and the History page read it
 *   (electron/services/history/site-import.ts: streamed, split into hands, each replayed through the
 *   rules engine and its money checked against the file, stored 500 at a time), into a new history.
 * - `import-pokerstars-store-hands-per-s:cercle`: its peer in the same run, the same hands already
 *   read stored into another new history with the same batches (`addHands`), so the ratio says what
 *   reading and checking cost over storing. `npm run bench -- history site-import` also gives
 *   `history-import-hands-per-s:cercle`, the history's own bulk import (the bar: the site
 *   import at least half of it).
 *
 * The file is made of the real hands of the fixture files (tests/fixtures/hand-histories/pokerstars,
 * written by the site's client) that import: cash and tournament hold'em, Omaha, Stud, Razz, triple
 * draw, each used again and again with a new hand number so that none is a duplicate.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { heroSeatOf, importSiteFiles } from '../../electron/services/history/site-import';
import { HistoryStore, type HandMeta } from '../../electron/services/history/store';
import { readSiteHand, SiteHandSplitter, type SiteChunk } from '../../shared/exchange/sites';
import type { HandRecord } from '../../shared/rules/record';
import type { BenchResult } from './types';

const N = Number(process.env.CERCLE_BENCH_SITE_HANDS ?? 100_000);
const FIXTURES = join(process.cwd(), 'tests/fixtures/hand-histories/pokerstars');
const BATCH = 500;
/** The header whose number each copy of a hand gets anew (`Hand #` and the older `Game #`). */
const HEADER = /^(PokerStars (?:Zoom )?(?:Hand|Game) #)\d+/;

/** The fixture hands that import (a hero found, the money exact), as their text. */
function acceptedHands(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(FIXTURES).filter((f) => f.endsWith('.txt') && !f.startsWith('outside-'))) {
    const split = new SiteHandSplitter();
    const chunks: SiteChunk[] = [];
    for (const line of readFileSync(join(FIXTURES, name), 'utf8').split(/\r?\n/)) {
      const c = split.push(line);
      if (c !== null) chunks.push(c);
    }
    const last = split.end();
    if (last !== null) chunks.push(last);
    for (const c of chunks) {
      if (!HEADER.test(c.lines[0].text)) continue;
      const r = readSiteHand(c);
      if (r.ok && heroSeatOf(r.hand.record, []) !== null) out.push(c.lines.map((l) => l.text).join('\n'));
    }
  }
  if (out.length === 0) throw new Error(`no importable hand in ${FIXTURES}`);
  return out;
}

export default async function siteImportBench(): Promise<BenchResult[]> {
  if (!Number.isSafeInteger(N) || N < 1) throw new RangeError(`CERCLE_BENCH_SITE_HANDS: a positive whole number, not ${process.env.CERCLE_BENCH_SITE_HANDS}`);
  const dir = mkdtempSync(join(tmpdir(), 'cercle-bench-site-'));
  try {
    const hands = acceptedHands();
    const file = join(dir, 'stars.txt');
    const parts: string[] = [];
    for (let i = 0; i < N; i++) {
      parts.push(hands[i % hands.length].replace(HEADER, `$1${900_000_000_000 + i}`));
    }
    writeFileSync(file, `${parts.join('\n\n\n')}\n`);
    process.stderr.write(`site-import: ${N} hands (${hands.length} distinct), ${(readFileSync(file).length / 1e6).toFixed(1)} MB\n`);

    const store = HistoryStore.open(join(dir, 'import.sqlite'));
    const t0 = performance.now();
    const summary = await importSiteFiles(store, [file], []);
    const importMs = performance.now() - t0;
    store.close();
    if (summary.imported !== N) throw new Error(`imported ${summary.imported} of ${N}: ${JSON.stringify(summary.byKind)} ${summary.refused[0]?.reason ?? ''}`);

    // The peer: the same hands, already read, stored with the same batches.
    const read: { meta: HandMeta; record: HandRecord }[] = [];
    const split = new SiteHandSplitter();
    const keep = (c: SiteChunk | null): void => {
      if (c === null) return;
      const r = readSiteHand(c);
      if (!r.ok) throw new Error(r.reason);
      const m = r.hand.meta;
      const tournament = m.tournament !== undefined ? { tournament: { tournamentId: m.tournament.tournamentId, level: m.tournament.level } } : {};
      read.push({ record: r.hand.record, meta: { playedAt: m.endedAt ?? 0, tableId: m.tableName ?? 'import', money: m.money ?? 'real', heroSeat: heroSeatOf(r.hand.record, [])!, ...tournament } });
    };
    for (const line of readFileSync(file, 'utf8').split('\n')) keep(split.push(line));
    keep(split.end());
    const peer = HistoryStore.open(join(dir, 'peer.sqlite'));
    const t1 = performance.now();
    for (let i = 0; i < read.length; i += BATCH) peer.addHands(read.slice(i, i + BATCH));
    const storeMs = performance.now() - t1;
    peer.close();
    process.stderr.write(`site-import: ${(importMs / 1000).toFixed(1)} s to import, ${(storeMs / 1000).toFixed(1)} s to store the same hands read\n`);
    return [
      { name: 'import-pokerstars-hands-per-s:cercle', unit: 'hands/s', value: (N * 1000) / importMs },
      { name: 'import-pokerstars-store-hands-per-s:cercle', unit: 'hands/s', value: (read.length * 1000) / storeMs },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
