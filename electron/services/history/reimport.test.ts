/**
 * Re-importing your own export changes nothing. Every generated hand (all 11
 * variants, real and play money) is exported in each format, read back, mapped as the import worker
 * maps it, and stored into the history that already holds it: nothing is stored, and every hand,
 * total and result reads as before (no duplicate, no play chips turned into euros). Formats are
 * chained (PokerStars first: its hand number is the only identity it carries) so a hand that came
 * through one format is still recognised through the others.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportHands, importHands, type ExchangeFormat, type ExchangeHand } from '../../../shared/exchange';
import { generateHands, type GeneratedHand } from '../../../shared/history/generate';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import type { HandRecord } from '../../../shared/rules/record';
import { WriteGate } from './jobs';
import { HistoryStore, type HandSummary } from './store';
import { importedHands } from './worker';
import { UNDO_V6, UNDO_V7, UNDO_V8, UNDO_V9 } from './schema/undo';

const END = Date.UTC(2026, 10, 1);
let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-reimport-'));
  store = HistoryStore.open(join(dir, 'history.sqlite'), { now: () => END });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every stored hand, oldest first, with its line of the history list. */
function stored(s: HistoryStore): { summary: HandSummary; record: HandRecord }[] {
  const out: { summary: HandSummary; record: HandRecord }[] = [];
  let cursor: string | null = null;
  do {
    const p = s.page({}, { sort: 'time', dir: 'asc', limit: 200, cursor });
    if (!p.ok) throw new Error(p.reason);
    for (const h of p.hands) {
      const x = s.getHand(h.handId);
      if (!x.ok) throw new Error(x.reason);
      out.push({ summary: x.summary, record: x.record });
    }
    cursor = p.next;
  } while (cursor !== null);
  return out;
}

/** Everything a player can see of the history: every hand's line and record, the results. */
function snapshot(s: HistoryStore): unknown {
  return { count: s.count(), hands: stored(s), results: s.results({ from: 0, to: END + 1, groupBy: 'stakes' }) };
}

/** The history's hands as the export worker hands them to the writers. */
function exported(s: HistoryStore): ExchangeHand[] {
  return stored(s).map(({ summary: h, record }) => ({ record, meta: { tableName: h.tableId, endedAt: h.playedAt, money: h.money === 'play' ? 'play' : 'real' } }));
}

describe('re-importing an export', () => {
  it('every generated hand, every variant, through each format and back, into the history that holds it, changes nothing', () => {
    // Ten hands of each game and money kind met in three seeds' periods. The generator opens each game
    // once, in order, at a period's first tables, so short periods of many seeds all hold the
    // same first games: a period of 60 days meets all 11.
    const generated: GeneratedHand[] = [];
    for (let seed = 1; seed <= 3; seed++) {
      const kept = new Map<string, number>();
      for (const h of generateHands({ hands: 1500, seed, end: END - seed * 86_400_000, days: 60 })) {
        const key = `${h.record.variant} ${h.meta.money}`;
        const n = kept.get(key) ?? 0;
        if (n >= 10) continue;
        kept.set(key, n + 1);
        generated.push(h);
      }
    }
    // The property covers every variant and both kinds of money.
    expect(new Set(generated.map((h) => h.record.variant))).toEqual(new Set(VARIANT_CODES));
    expect(new Set(generated.map((h) => h.meta.money))).toEqual(new Set(['real', 'play']));
    expect(store.addHands(generated)).toMatchObject({ stored: generated.length, duplicates: 0, refused: [] });
    const before = snapshot(store);
    const orders: ExchangeFormat[] = ['pokerstars', 'phh', 'pojeu', 'pokerstars'];
    for (const format of orders) {
      const hands = exported(store);
      const read = importHands(format, exportHands(format, hands));
      if (!read.ok) throw new Error(`${format} line ${read.line}: ${read.message}`);
      // Each format reads back the hand's identity and its money kind.
      expect(read.hands.map((h) => h.meta.money), format).toEqual(hands.map((h) => h.meta.money));
      const { list, skipped } = importedHands(read.hands, format, ['me'], END);
      expect(skipped).toBe(0);
      const r = store.addHands(list);
      expect(r, format).toEqual({ stored: 0, duplicates: generated.length, refused: [] });
      expect(snapshot(store), format).toEqual(before);
    }
  }, 120_000);

  it('a hand first met through PokerStars text is the same hand when it comes through PHH, POJEU or the live table', () => {
    const generated = [...generateHands({ hands: 40, seed: 21, end: END, days: 3 })];
    const hands = generated.map((h) => ({ record: h.record, meta: { tableName: h.meta.tableId, endedAt: h.meta.playedAt, money: h.meta.money } }));
    const ps = importHands('pokerstars', exportHands('pokerstars', hands));
    if (!ps.ok) throw new Error(ps.message);
    const first = importedHands(ps.hands, 'pokerstars', ['me'], END);
    expect(store.addHands(first.list)).toMatchObject({ stored: 40, duplicates: 0 });
    // Play chips stay play chips.
    const summaries = store.page({}, { sort: 'time', dir: 'asc', limit: 200 });
    if (!summaries.ok) throw new Error(summaries.reason);
    const key = (at: number, table: string, money: string) => `${Math.floor(at / 1000)} ${table} ${money}`;
    expect(summaries.hands.map((h) => key(h.playedAt, h.tableId, h.money)).sort()).toEqual(generated.map((h) => key(h.meta.playedAt, h.meta.tableId, h.meta.money)).sort());
    for (const format of ['phh', 'pojeu'] as ExchangeFormat[]) {
      const read = importHands(format, exportHands(format, hands));
      if (!read.ok) throw new Error(read.message);
      expect(store.addHands(importedHands(read.hands, format, ['me'], END).list), format).toMatchObject({ stored: 0, duplicates: 40 });
    }
    // The client's own copy (the live table, the sync) is a duplicate too.
    for (const h of generated) expect(store.addHand(h.meta, h.record)).toEqual({ stored: false, duplicate: true });
    expect(store.count()).toBe(40);
  });

  it('while an import holds the file, main’s copy of a stored hand under another id is a duplicate, not held (the import buffer, jobs.ts)', () => {
    store.addHands([...generateHands({ hands: 12, seed: 5, end: END, days: 1 })]);
    const read = importHands('pokerstars', exportHands('pokerstars', exported(store)));
    if (!read.ok) throw new Error(read.message);
    const copies = importedHands(read.hands, 'pokerstars', ['me'], END).list;
    expect(copies.every((c) => !store.getHand(c.record.handId!).ok)).toBe(true); // another id each
    const gate = new WriteGate(store);
    gate.begin();
    for (const c of copies) expect(gate.addHand(c.meta, c.record)).toEqual({ stored: false, duplicate: true });
    expect(gate.heldCount).toBe(0);
    gate.end();
    expect(store.count()).toBe(12);
  });

  it('a version 2 history gets its hands numbered and the hero cards listed when opened (migrations 3, 4): PokerStars copies of them are duplicates', () => {
    const generated = [...generateHands({ hands: 30, seed: 4, end: END, days: 2 })];
    store.addHands(generated);
    const before = snapshot(store);
    store.close();
    const db = new Database(join(dir, 'history.sqlite'));
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7 + UNDO_V6);
    db.exec('DROP TABLE hour_series; DROP INDEX hands_by_xnum; ALTER TABLE hands DROP COLUMN xnum; ALTER TABLE hands DROP COLUMN hero_cards;'); // versions 5, 3 and 4
    db.pragma('user_version = 2');
    db.close();
    store = HistoryStore.open(join(dir, 'history.sqlite'), { now: () => END });
    expect(snapshot(store)).toEqual(before);
    const read = importHands('pokerstars', exportHands('pokerstars', exported(store)));
    if (!read.ok) throw new Error(read.message);
    expect(store.addHands(importedHands(read.hands, 'pokerstars', ['me'], END).list)).toEqual({ stored: 0, duplicates: 30, refused: [] });
  });
});

describe('the player’s cards in the History list', () => {
  it('every listed hand carries the hero’s own cards as its record knows them', () => {
    const generated = [...generateHands({ hands: 60, seed: 8, end: END, days: 2 })];
    store.addHands(generated);
    for (const { summary, record } of stored(store)) {
      const hero = record.seats.find((s) => s.seat === summary.heroSeat)!;
      expect(summary.cards).toEqual(hero.cards.filter((c) => c !== null));
      expect(summary.cards.length).toBeGreaterThan(0);
    }
  });
});
