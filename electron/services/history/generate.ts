/**
 * Fills a history with generated hands (shared/history/generate.ts) through the store's bulk
 * importer: `cercle generate` (electron/cli/commands/generate.ts) and tests. Hands are made and
 * stored a chunk at a time (a million never sit in memory); progress after every chunk.
 */
import { generateHands, type GeneratedHand, type GenerateOptions } from '../../../shared/history/generate';
import type { HistoryStore } from './store';

export interface FillProgress {
  done: number;
  total: number;
  /** Time spent generating (playing the hands) and storing, ms. */
  generateMs: number;
  storeMs: number;
}

export interface FillResult extends FillProgress {
  stored: number;
  duplicates: number;
  refused: number;
}

const CHUNK = 2_000;

export function fillHistory(store: HistoryStore, o: GenerateOptions, progress?: (p: FillProgress) => void, shouldStop?: () => boolean): FillResult {
  const gen = generateHands(o);
  const imp = store.importer();
  let generateMs = 0;
  let storeMs = 0;
  let done = 0;
  let stored = 0;
  let duplicates = 0;
  let refused = 0;
  try {
    for (;;) {
      if (shouldStop?.()) {
        // What was committed stays (whole batches of 20,000); the open batch is dropped.
        imp.abort();
        return { done, total: o.hands, generateMs, storeMs, stored, duplicates, refused };
      }
      const t0 = performance.now();
      const chunk: GeneratedHand[] = [];
      for (let i = 0; i < CHUNK; i++) {
        const x = gen.next();
        if (x.done) break;
        chunk.push(x.value);
      }
      const t1 = performance.now();
      generateMs += t1 - t0;
      if (chunk.length === 0) break;
      const r = imp.add(chunk);
      // The tournaments that ended in this chunk, as the client stores them when they end.
      for (const h of chunk) if (h.finished !== undefined) store.putTournament(h.finished);
      storeMs += performance.now() - t1;
      done += chunk.length;
      stored += r.stored;
      duplicates += r.duplicates;
      refused += r.refused.length;
      progress?.({ done, total: o.hands, generateMs, storeMs });
    }
    const t = performance.now();
    imp.finish();
    storeMs += performance.now() - t;
  } catch (e) {
    imp.abort();
    throw e;
  }
  return { done, total: o.hands, generateMs, storeMs, stored, duplicates, refused };
}
