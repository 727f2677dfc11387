/**
 * The history's reads run in the reader worker, not on the thread that asks: proven
 * structurally, without timing. Main blocks itself (Atomics.wait) right after asking for a year's
 * graph, and the worker's answer is counted meanwhile; a read run on main could not complete while main
 * is blocked. The answers equal the store's own reads, through main's writer committing meanwhile (WAL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHands } from '../../../shared/history/generate';
import { playRecord, prng, randInt, randomConfig } from '../../../shared/history/test-support';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { HistoryReader } from './reader';
import { playerStats, resultsSeries, resultsSessions, tournamentHistory, tournamentResults } from './results';
import { HistoryStore, type HandMeta } from './store';
import type { HandRecord } from '../../../shared/rules/record';

const ENTRY = { typescript: join(dirname(fileURLToPath(import.meta.url)), 'reader-entry.ts') };
const T0 = Date.UTC(2025, 0, 1);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-reader-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function hands(n: number, seed: number): { meta: HandMeta; record: HandRecord }[] {
  const rng = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const code = VARIANT_CODES[randInt(rng, VARIANT_CODES.length)];
    const config = randomConfig(code, rng, { maxSeats: 6 });
    const hero = config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)];
    const record = playRecord({ ...config, handId: `r-${seed}-${i}` }, rng, hero);
    return { meta: { playedAt: T0 + i * 37_000, tableId: 't1', money: i % 3 === 0 ? ('play' as const) : ('real' as const), heroSeat: hero }, record };
  });
}

describe('the history reader worker', () => {
  it('answers while the asking thread is blocked: the read runs in the worker', async () => {
    const file = join(dir, 'history.sqlite');
    const store = HistoryStore.open(file);
    store.addHands(hands(400, 1));
    const answered = new SharedArrayBuffer(4);
    const count = new Int32Array(answered);
    const reader = new HistoryReader(file, ENTRY, { answered });
    try {
      // Warm up (the worker starts and opens its connection), then ask and block this thread until an answer is counted.
      await reader.call('stats', {});
      const before = Atomics.load(count, 0);
      const asked = reader.call('series', { money: 'real' }, 50);
      asked.catch(() => undefined); // awaited below; not an unhandled rejection if an assertion fails first
      // Blocked until the count moves; a wake-up may come from the warm-up's notify, sent after its
      // answer (a CI run woke with the count unchanged): the count decides, not the wake-up.
      const deadline = Date.now() + 60_000;
      while (Atomics.load(count, 0) === before && Date.now() < deadline) Atomics.wait(count, 0, before, deadline - Date.now());
      // Still `before` would mean nothing answered while main was blocked.
      expect(Atomics.load(count, 0)).toBe(before + 1);
      expect(await asked).toEqual(resultsSeries(store, { money: 'real' }, 50));
    } finally {
      await reader.close();
      store.close();
    }
  });

  it('counts an answer before main holds it: the count main reads after an answer includes it', async () => {
    const file = join(dir, 'history.sqlite');
    const store = HistoryStore.open(file);
    store.addHands(hands(5, 4));
    const answered = new SharedArrayBuffer(4);
    const count = new Int32Array(answered);
    const reader = new HistoryReader(file, ENTRY, { answered });
    try {
      // Many cheap answers: with the count taken after the send, main read a count without its answer.
      for (let i = 1; i <= 400; i++) {
        await reader.call('forget');
        expect(Atomics.load(count, 0)).toBe(i);
      }
    } finally {
      await reader.close();
      store.close();
    }
  });

  it('gives the store’s own answers for every read, sees hands main commits meanwhile, and passes errors on', async () => {
    const file = join(dir, 'history.sqlite');
    const store = HistoryStore.open(file);
    const list = hands(300, 2);
    store.addHands(list.slice(0, 200));
    const reader = new HistoryReader(file, ENTRY);
    try {
      const req = { sort: 'time', dir: 'desc', limit: 50 } as const;
      expect(await reader.call('page', { money: 'real' }, req)).toEqual(store.page({ money: 'real' }, req));
      expect(await reader.call('hand', list[5].record.handId!)).toEqual(store.getHand(list[5].record.handId!));
      expect(await reader.call('sessions', {}, 30)).toEqual(resultsSessions(store, {}, 30));
      // Main's writer commits a hand at a time; the reader's next read sees them.
      for (const p of list.slice(200)) store.addHand(p.meta, p.record);
      expect(await reader.call('stats', {})).toEqual(playerStats(store, {}));
      expect(await reader.call('series', {}, 10_000)).toEqual(resultsSeries(store, {}, 10_000));
      await expect(reader.call('series', { from: 1.5 }, 100)).rejects.toThrow(/whole number/);
      expect((await reader.call('hand', 'nope')).ok).toBe(false);
    } finally {
      await reader.close();
      store.close();
    }
    await expect(reader.call('stats', {})).rejects.toThrow(/closed/);
  });

  it('serves the History list’s lines with the hero’s own cards (schema version 4)', async () => {
    const file = join(dir, 'history.sqlite');
    const store = HistoryStore.open(file);
    const list = hands(120, 3);
    store.addHands(list);
    const reader = new HistoryReader(file, ENTRY);
    try {
      const page = await reader.call('page', {}, { sort: 'time', dir: 'asc', limit: 200 });
      if (!page.ok) throw new Error(page.reason);
      expect(page.hands.length).toBe(list.length);
      for (const [i, line] of page.hands.entries()) {
        const hero = list[i].record.seats.find((s) => s.seat === list[i].meta.heroSeat)!;
        expect(line.cards, line.handId).toEqual(hero.cards.filter((c) => c !== null));
      }
      expect(page.hands.some((h) => h.cards.length > 0)).toBe(true);
      const one = await reader.call('hand', list[7].record.handId!);
      expect(one.ok && one.summary.cards).toEqual(page.hands[7].cards);
    } finally {
      await reader.close();
      store.close();
    }
  });

  it('serves the stored tournaments and their results (schema version 6)', async () => {
    const file = join(dir, 'history.sqlite');
    const store = HistoryStore.open(file);
    const list = [...generateHands({ hands: 1500, seed: 5, end: T0, days: 10, tournaments: 0.4 })];
    store.addHands(list);
    for (const h of list) if (h.finished) store.putTournament(h.finished);
    const reader = new HistoryReader(file, ENTRY);
    try {
      const a = { filter: {}, limit: 20, cursor: null };
      const page = await reader.call('tournaments', a);
      expect(page.tournaments.length).toBeGreaterThan(0);
      expect(page).toEqual(tournamentHistory(store, a));
      for (const groupBy of ['format', 'variant', 'buyIn'] as const) {
        expect(await reader.call('tournamentResults', { filter: { money: 'real' }, groupBy })).toEqual(tournamentResults(store, { filter: { money: 'real' }, groupBy }));
      }
      const hands = await reader.call('page', { tournamentId: page.tournaments[0].tournamentId }, { sort: 'time', dir: 'asc', limit: 200 });
      expect(hands.ok && hands.hands.length).toBe(page.tournaments[0].hands);
      expect((await reader.call('tournaments', { ...a, cursor: 'x' })).ok).toBe(false);
    } finally {
      await reader.close();
      store.close();
    }
  });
});
