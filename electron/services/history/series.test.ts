/**
 * The results graph read from the hour pieces (schema version 5): every kept point is
 * the per-hand truth computed here from the hands themselves, the end and the extremes are exact,
 * showdown + non-showdown = total, under the filters the pieces serve, with hands arriving out of
 * order; a version 4 file gets its pieces when opened (migration 5, a real file); removing old hands
 * keeps the pieces true.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryFilter } from '../../../shared/api';
import { allInEquity } from '../../../shared/history/equity';
import { playRecord, prng, randInt, randomConfig } from '../../../shared/history/test-support';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { resultsSeries } from './results';
import { HistoryStore, stakesOf, type HandMeta } from './store';
import type { HandRecord } from '../../../shared/rules/record';
import { UNDO_V6, UNDO_V7, UNDO_V8, UNDO_V9 } from './schema/undo';
import { HISTORY_MIGRATIONS } from './schema';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-series-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Played {
  meta: HandMeta;
  record: HandRecord;
}

/** `n` hands over `hours` hours (hundreds an hour: several per millisecond bucket too), a few stakes per game. */
function hands(n: number, seed: number, hours: number): Played[] {
  const rng = prng(seed);
  const out: Played[] = [];
  for (let i = 0; i < n; i++) {
    const code = VARIANT_CODES[randInt(rng, 3)];
    const config = randomConfig(code, rng, { maxSeats: 6 });
    const hero = config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)];
    const record = playRecord({ ...config, handId: `t-${seed}-${i}` }, rng, hero);
    // Times on a coarse grid: many hands share a millisecond (the order is then the storing order).
    const playedAt = T0 + randInt(rng, (hours * HOUR) / 60_000) * 60_000;
    out.push({ meta: { playedAt, tableId: `t${randInt(rng, 4)}`, money: rng() < 0.7 ? 'real' : 'play', heroSeat: hero }, record });
  }
  return out;
}

const heroOf = (p: Played) => p.record.seats.find((s) => s.seat === p.meta.heroSeat)!;

/** The per-hand line of the stored hands under a filter: the order is (time, storing order). */
function truth(stored: Played[], f: HistoryFilter): { at: number[]; total: number[]; sd: number[]; adj: number[] } {
  const mine = stored
    .map((p, order) => ({ p, order }))
    .filter(({ p }) => (f.money === undefined || p.meta.money === f.money) && (f.variant === undefined || p.record.variant === f.variant))
    .filter(({ p }) => (f.stakes === undefined || stakesOf(p.record) === f.stakes) && (f.from === undefined || p.meta.playedAt >= f.from) && (f.to === undefined || p.meta.playedAt < f.to))
    .sort((a, b) => a.p.meta.playedAt - b.p.meta.playedAt || a.order - b.order)
    .map(({ p }) => p);
  const line = { at: [0], total: [0], sd: [0], adj: [0] };
  for (const p of mine) {
    const h = heroOf(p);
    const showdown = p.record.showdown && h.dealtIn && !h.folded;
    line.at.push(p.meta.playedAt);
    line.total.push(line.total.at(-1)! + h.net);
    line.sd.push(line.sd.at(-1)! + (showdown ? h.net : 0));
    line.adj.push(line.adj.at(-1)! + (allInEquity(p.record, p.meta.heroSeat!)?.adjustedNet ?? h.net));
  }
  return line;
}

function expectTrue(store: HistoryStore, stored: Played[], f: HistoryFilter, maxPoints: number): void {
  const t = truth(stored, f);
  const n = t.total.length - 1;
  // The pieces serve this filter (structural: not the per-hand path).
  const pieces = store.seriesPieces(f);
  expect(pieces !== null && pieces.ok && pieces.pieces.hours.length > 0).toBe(true);
  const s = resultsSeries(store, f, maxPoints);
  expect(s.hands.length).toBeLessThanOrEqual(maxPoints);
  expect(n + 1).toBeGreaterThan(maxPoints);
  expect(s.hands.at(-1)).toBe(n);
  expect(s.total.at(-1)).toBe(t.total[n]);
  expect(Math.max(...s.total)).toBe(Math.max(...t.total));
  expect(Math.min(...s.total)).toBe(Math.min(...t.total));
  expect(s.at[0]).toBe(t.at[1]);
  for (let i = 0; i < s.hands.length; i++) {
    const k = s.hands[i];
    expect(s.showdown[i] + s.noShowdown[i]).toBe(s.total[i]);
    if (k === 0) continue;
    expect([s.total[i], s.showdown[i], s.allInAdjusted[i], s.at[i]]).toEqual([t.total[k], t.sd[k], t.adj[k], t.at[k]]);
  }
  for (let i = 1; i < s.hands.length; i++) expect(s.hands[i]).toBeGreaterThan(s.hands[i - 1]);
}

describe('the results graph from the hour pieces (schema version 5)', () => {
  it('every kept point is the per-hand truth; end and extremes exact; hands stored out of order, one by one and in bulk', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const list = hands(1500, 21, 6);
    // Out of order: the later half first in bulk, then the earlier half, its last 40 one hand at a time.
    const stored = [...list.slice(750), ...list.slice(0, 750)];
    store.addHands(stored.slice(0, 750));
    store.addHands(stored.slice(750, 1460));
    for (const p of stored.slice(1460)) expect(store.addHand(p.meta, p.record).stored).toBe(true);
    const first = list[0].record;
    for (const f of [
      {},
      { money: 'real' },
      { money: 'play', variant: first.variant },
      { stakes: stakesOf(first) },
      { money: 'real', from: T0 + HOUR / 2 + 17, to: T0 + 5 * HOUR + 12_345 },
    ] as HistoryFilter[]) {
      expectTrue(store, stored, f, 40);
    }
    store.close();
  });

  it('hands stored in time order (play, an import in order) extend the pieces: the per-hand truth, as after a recomputation', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    // In time order; hands of the same millisecond in storing order.
    const stored = hands(1200, 24, 5).sort((a, b) => a.meta.playedAt - b.meta.playedAt);
    store.addHands(stored.slice(0, 500));
    for (const p of stored.slice(500, 560)) expect(store.addHand(p.meta, p.record).stored).toBe(true);
    store.addHands(stored.slice(560));
    const filters = [{}, { money: 'real' }, { money: 'play', variant: stored[0].record.variant }, { stakes: stakesOf(stored[0].record) }] as HistoryFilter[];
    for (const f of filters) expectTrue(store, stored, f, 40);
    store.close();
    // The same file with every hour recomputed from its hands (migration 5 again): still the truth.
    const file = join(dir, 'h.sqlite');
    const db = new Database(file);
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7 + UNDO_V6);
    db.exec('DROP TABLE hour_series');
    db.pragma('user_version = 4');
    db.close();
    const again = HistoryStore.open(file);
    for (const f of filters) expectTrue(again, stored, f, 40);
    again.close();
  });

  it('a version 4 file gets the pieces of its hands when it is opened (migration 5, a real file)', () => {
    const file = join(dir, 'v4.sqlite');
    const store = HistoryStore.open(file);
    const list = hands(800, 22, 4);
    store.addHands(list);
    const before = resultsSeries(store, { money: 'real' }, 30);
    store.close();
    // Make it a version 4 file: no pieces.
    const db = new Database(file);
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7 + UNDO_V6);
    db.exec('DROP TABLE hour_series');
    db.pragma('user_version = 4');
    db.close();
    const again = HistoryStore.open(file);
    expect(resultsSeries(again, { money: 'real' }, 30)).toEqual(before);
    expectTrue(again, list, { money: 'real' }, 30);
    expectTrue(again, list, {}, 30);
    again.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
    expect(raw.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'series_pending'").pluck().get()).toBe(0);
    raw.close();
  });

  it('removing old hands (cut inside an hour) keeps the pieces true', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => T0 + 400 * 24 * HOUR });
    const list = hands(900, 23, 5);
    store.addHands(list);
    const cut = T0 + 2 * HOUR + 30 * 60_000;
    const r = store.removeOlderThan(cut);
    expect(r.ok && r.removed).toBe(list.filter((p) => p.meta.playedAt < cut).length);
    const kept = list.filter((p) => p.meta.playedAt >= cut);
    expectTrue(store, kept, {}, 20);
    expectTrue(store, kept, { money: 'real' }, 20);
    store.close();
  });
});
