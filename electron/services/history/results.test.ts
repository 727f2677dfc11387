import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryFilter } from '../../../shared/api';
import { allInEquity } from '../../../shared/history/equity';
import { handStats, sumStats } from '../../../shared/history/stats';
import { playRecord, prng, randInt, randomConfig } from '../../../shared/history/test-support';
import { startHand } from '../../../shared/rules/engine';
import { run, tableConfig } from '../../../shared/rules/engine/test-support';
import { recordOf, type HandRecord } from '../../../shared/rules/record';
import { makeTableRules } from '../../../shared/rules/tableRules';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { playerStats, resultsSeries, resultsSessions } from './results';
import { HistoryStore, stakesOf, type HandMeta } from './store';
import { UNDO_V6, UNDO_V7, UNDO_V8, UNDO_V9 } from './schema/undo';
import { HISTORY_MIGRATIONS } from './schema';

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-results-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Played {
  meta: HandMeta;
  record: HandRecord;
}

/** Random hands of every variant as the hero saw them, spread over `span` ms, real and play money. */
function hands(n: number, seed: number, span = 30 * DAY): Played[] {
  const rng = prng(seed);
  const out: Played[] = [];
  for (let i = 0; i < n; i++) {
    const code = VARIANT_CODES[randInt(rng, VARIANT_CODES.length)];
    const config = randomConfig(code, rng, { maxSeats: 6 });
    const hero = config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)];
    const table = `${code.toLowerCase()}-${randInt(rng, 3)}`;
    const record = playRecord({ ...config, handId: `${table}-s${seed}-${i}` }, rng, hero);
    out.push({ meta: { playedAt: T0 + randInt(rng, span), tableId: table, money: rng() < 0.7 ? 'real' : 'play', heroSeat: hero }, record });
  }
  return out;
}

const net = (p: Played): number => p.record.seats.find((s) => s.seat === p.meta.heroSeat)!.net;
const showdown = (p: Played): boolean => {
  const h = p.record.seats.find((s) => s.seat === p.meta.heroSeat)!;
  return p.record.showdown && h.dealtIn && !h.folded;
};
const byTime = (a: Played, b: Played): number => a.meta.playedAt - b.meta.playedAt;

describe('results: the graph, the sessions, the statistics (R-RESULTS, docs/stats.md)', () => {
  it('the lines end on the period’s totals, showdown + non-showdown = total at every point, adjusted = Σ equity results', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const list = hands(600, 7);
    store.addHands(list);
    for (const money of ['real', 'play'] as const) {
      const from = T0 + 3 * DAY + 12_345;
      const to = T0 + 25 * DAY + 777;
      const s = resultsSeries(store, { money, from, to }, 10_000);
      const totals = store.results({ from, to, money });
      if (!totals.ok) throw new Error(totals.reason);
      const t = totals[money];
      expect(s.hands.length).toBe(t.hands + 1);
      expect(s.hands.at(-1)).toBe(t.hands);
      expect(s.total.at(-1)).toBe(t.net);
      for (let i = 0; i < s.total.length; i++) expect(s.showdown[i] + s.noShowdown[i]).toBe(s.total[i]);
      const mine = list.filter((p) => p.meta.money === money && p.meta.playedAt >= from && p.meta.playedAt < to).sort(byTime);
      expect(s.showdown.at(-1)).toBe(mine.filter(showdown).reduce((a, p) => a + net(p), 0));
      const adjusted = mine.reduce((a, p) => a + (allInEquity(p.record, p.meta.heroSeat!)?.adjustedNet ?? net(p)), 0);
      expect(s.allInAdjusted.at(-1)).toBe(adjusted);
      expect(s.at.slice(1)).toEqual(mine.map((p) => p.meta.playedAt));
    }
    store.close();
  });

  it('downsampled to maxPoints keeps every bucket’s lowest and highest total, and the last hand', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    store.addHands(hands(900, 11));
    const full = resultsSeries(store, { money: 'real' }, 10_000);
    const small = resultsSeries(store, { money: 'real' }, 40);
    expect(small.hands.length).toBeLessThanOrEqual(40);
    expect(small.hands.at(-1)).toBe(full.hands.at(-1));
    expect(small.total.at(-1)).toBe(full.total.at(-1));
    expect(Math.max(...small.total)).toBe(Math.max(...full.total));
    expect(Math.min(...small.total)).toBe(Math.min(...full.total));
    // Every kept point is the true point of that hand.
    for (let i = 0; i < small.hands.length; i++) {
      const k = small.hands[i];
      expect([small.total[i], small.showdown[i], small.allInAdjusted[i], small.at[i]]).toEqual([full.total[k], full.showdown[k], full.allInAdjusted[k], full.at[k]]);
    }
    for (let i = 1; i < small.hands.length; i++) expect(small.hands[i]).toBeGreaterThan(small.hands[i - 1]);
    store.close();
  });

  it('sessions are cut at pauses longer than the gap, per money kind, newest first, with their tables', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const base = hands(10, 3);
    // Real: 3 hands within 10 min on two tables, a 40-minute pause, 2 hands; play: 2 hands meanwhile.
    const times = [0, 5, 10, 50, 55].map((m) => T0 + m * MIN);
    const tables = ['a', 'b', 'a', 'c', 'c'];
    const real = times.map((at, i) => ({ meta: { ...base[i].meta, playedAt: at, tableId: tables[i], money: 'real' as const }, record: base[i].record }));
    const play = [2, 7].map((m, i) => ({ meta: { ...base[5 + i].meta, playedAt: T0 + m * MIN, tableId: 'p', money: 'play' as const }, record: base[5 + i].record }));
    store.addHands([...real, ...play]);
    const sessions = resultsSessions(store, {}, 30);
    const sum = (xs: Played[]): number => xs.reduce((a, p) => a + net(p), 0);
    const rake = (xs: Played[]): number => xs.reduce((a, p) => a + p.record.seats.find((s) => s.seat === p.meta.heroSeat)!.rake, 0);
    expect(sessions).toEqual([
      { from: T0 + 50 * MIN, to: T0 + 55 * MIN, hands: 2, net: sum(real.slice(3)), rake: rake(real.slice(3)), money: 'real', tables: 1 },
      { from: T0 + 2 * MIN, to: T0 + 7 * MIN, hands: 2, net: sum(play), rake: rake(play), money: 'play', tables: 1 },
      { from: T0, to: T0 + 10 * MIN, hands: 3, net: sum(real.slice(0, 3)), rake: rake(real.slice(0, 3)), money: 'real', tables: 2 },
    ]);
    // A longer gap joins the two real runs.
    expect(resultsSessions(store, { money: 'real' }, 60)).toEqual([{ from: T0, to: T0 + 55 * MIN, hands: 5, net: sum(real), rake: rake(real), money: 'real', tables: 3 }]);
    store.close();
  });

  it('the statistics add the stored hands up as the per-hand definitions say, under any filter', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const list = hands(700, 5);
    store.addHands(list);
    const filters: HistoryFilter[] = [{ money: 'real' }, { variant: 'THNL' }, { variant: '2T7TD', money: 'play' }, { from: T0 + 5 * DAY, to: T0 + 9 * DAY }, { tableId: 'o4hpl-1' }];
    for (const filter of filters) {
      const mine = list.filter(
        (p) =>
          (filter.money === undefined || p.meta.money === filter.money) &&
          (filter.variant === undefined || p.record.variant === filter.variant) &&
          (filter.from === undefined || p.meta.playedAt >= filter.from) &&
          (filter.to === undefined || p.meta.playedAt < filter.to) &&
          (filter.tableId === undefined || p.meta.tableId === filter.tableId),
      );
      const expected = sumStats(mine.map((p) => ({ stats: handStats(p.record, p.meta.heroSeat!), net: net(p), bigBlind: stakesOf(p.record) })));
      expect(playerStats(store, filter)).toEqual(expected);
    }
    expect(playerStats(store, { player: 'nobody' })).toMatchObject({ hands: 0 });
    store.close();
  });

  it('the statistics of a period read from the hour sums equal the hands’ own sums, before and after old hands are removed', () => {
    const now = T0 + 800 * DAY;
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => now });
    const list = hands(800, 13, 40 * DAY);
    store.addHands(list.slice(0, 400));
    for (const p of list.slice(400, 450)) store.addHand(p.meta, p.record); // one by one, as at the table
    store.addHands(list.slice(450));
    const rng = prng(99);
    const check = (kept: Played[]): void => {
      for (let k = 0; k < 25; k++) {
        const from = T0 + randInt(rng, 40 * DAY);
        const to = from + randInt(rng, 20 * DAY);
        const filter: HistoryFilter = { from, to, ...(k % 3 === 0 ? { money: 'real' as const } : {}), ...(k % 4 === 1 ? { variant: 'THNL' as const } : {}), ...(k % 5 === 2 ? { stakes: 20 } : {}) };
        const mine = kept.filter(
          (p) =>
            p.meta.playedAt >= from &&
            p.meta.playedAt < to &&
            (filter.money === undefined || p.meta.money === filter.money) &&
            (filter.variant === undefined || p.record.variant === filter.variant) &&
            (filter.stakes === undefined || stakesOf(p.record) === filter.stakes),
        );
        expect(playerStats(store, filter)).toEqual(sumStats(mine.map((p) => ({ stats: handStats(p.record, p.meta.heroSeat!), net: net(p), bigBlind: stakesOf(p.record) }))));
      }
    };
    check(list);
    const cut = T0 + 15 * DAY + 1234;
    expect(store.removeOlderThan(cut)).toMatchObject({ ok: true });
    check(list.filter((p) => p.meta.playedAt >= cut));
    store.close();
  });

  it('known hands: a 3-bet all-in won at showdown reads VPIP 1/1, 3-bet 1/1, W$SD 1/1, +13 bb', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
    let s = startHand({ ...tableConfig(rules, { stacks: [1000, 1000, 1000] }), handId: 'k-1' });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 r 300', '0 r 1000', '1 c', '2 f', 'd b 3c4d5h', 'd b 5s', 'd b 9h', '0 sm', '1 sm');
    store.addHand({ playedAt: T0, tableId: 't', money: 'real', heroSeat: 0 }, recordOf(s));
    const st = playerStats(store, {});
    const get = (k: string): [number, number] => {
      const x = st.stats.find((y) => y.key === k)!;
      return [x.num, x.den];
    };
    expect(st.hands).toBe(1);
    expect(get('vpip')).toEqual([1, 1]);
    expect(get('pfr')).toEqual([1, 1]);
    expect(get('threeBet')).toEqual([1, 1]);
    expect(get('wtsd')).toEqual([1, 1]);
    expect(get('wsd')).toEqual([1, 1]);
    expect(get('bb100')).toEqual([1300, 1]);
    const line = resultsSeries(store, {}, 100);
    expect(line.total).toEqual([0, 1300]);
    expect(line.showdown).toEqual([0, 1300]);
    expect(line.allInAdjusted[1]).toBeGreaterThan(800); // AA v KK: about 82 % of 2300, less 1000
    expect(line.allInAdjusted[1]).toBeLessThan(950);
    store.close();
  });

  it('a version 1 file gets the statistics and adjusted nets of its hands when it is opened (migration 2)', () => {
    const file = join(dir, 'old.sqlite');
    const store = HistoryStore.open(file);
    store.addHands(hands(200, 9));
    const stats = playerStats(store, {});
    const series = resultsSeries(store, {}, 10_000);
    store.close();
    // Make it a version 1 file again: no results columns.
    const db = new Database(file);
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7 + UNDO_V6);
    db.exec('DROP TABLE hour_series; DROP TABLE hour_stats; DROP INDEX hands_results; ALTER TABLE hands DROP COLUMN stats; ALTER TABLE hands DROP COLUMN hero_adj;');
    db.exec('DROP INDEX hands_by_xnum; ALTER TABLE hands DROP COLUMN xnum; ALTER TABLE hands DROP COLUMN hero_cards;'); // versions 3 and 4 too
    db.pragma('user_version = 1');
    db.close();
    const again = HistoryStore.open(file);
    expect(playerStats(again, {})).toEqual(stats);
    expect(resultsSeries(again, {}, 10_000)).toEqual(series);
    // The derived values were filled by the current code after the frozen migrations, and the list dropped.
    again.close();
    const db2 = new Database(file, { readonly: true });
    expect(db2.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
    expect(db2.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'derive_pending'").pluck().get()).toBe(0);
    db2.close();
  });

  it('a refused filter throws (the API answers an error)', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    expect(() => resultsSeries(store, { from: 1.5 }, 100)).toThrow(/whole number/);
    expect(resultsSeries(store, {}, 100).hands).toEqual([]);
    expect(resultsSessions(store, {}, 30)).toEqual([]);
    store.close();
  });
});
