import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { playRecord, prng, randInt, randomConfig } from '../../../shared/history/test-support';
import type { HandRecord } from '../../../shared/rules/record';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { HISTORY_MIGRATIONS, HistoryStore, HistoryTooNewError, NotAHistoryError, splitHandId, stakesOf, type HandFilter, type HandMeta, type MoneyKind, type PageRequest } from './store';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);
const NOW = T0 + 400 * DAY;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-history-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Played {
  meta: HandMeta;
  record: HandRecord;
}

/** Random hands as the hero saw them: every variant, a few tables and opponents, a year and more of times. */
function hands(n: number, seed: number, options: { span?: number; start?: number } = {}): Played[] {
  const rng = prng(seed);
  const out: Played[] = [];
  const names = ['ana', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus', 'hal', 'ivy', 'jo', 'kim', 'lou'];
  for (let i = 0; i < n; i++) {
    const code = VARIANT_CODES[randInt(rng, VARIANT_CODES.length)];
    const config = randomConfig(code, rng, { maxSeats: 6 });
    // Names without the seat suffix so that players meet again across hands.
    config.seats = config.seats.map((s) => (s === null ? null : { ...s, player: names[randInt(rng, names.length)] + (rng() < 0.5 ? '' : '2') }));
    const used = new Set<string>();
    config.seats = config.seats.map((s, k) => {
      if (s === null) return null;
      const player = used.has(s.player) ? `${s.player}-${k}` : s.player;
      used.add(player);
      return { ...s, player };
    });
    const hero = config.plan.dealtIn[randInt(rng, config.plan.dealtIn.length)];
    const table = `${code.toLowerCase()}-${randInt(rng, 3)}`;
    const record = playRecord({ ...config, handId: `${table}-run${seed}-${i}` }, rng, hero);
    const playedAt = (options.start ?? T0) + randInt(rng, options.span ?? 390 * DAY);
    out.push({ meta: { playedAt, tableId: table, money: rng() < 0.7 ? 'real' : 'play', heroSeat: hero }, record });
  }
  return out;
}

function hero(p: Played) {
  return p.record.seats.find((s) => s.seat === p.meta.heroSeat)!;
}

function matches(p: Played, f: HandFilter): boolean {
  const h = hero(p);
  if (f.from !== undefined && p.meta.playedAt < f.from) return false;
  if (f.to !== undefined && p.meta.playedAt >= f.to) return false;
  if (f.variant !== undefined && p.record.variant !== f.variant) return false;
  if (f.stakes !== undefined && stakesOf(p.record) !== f.stakes) return false;
  if (f.tableId !== undefined && p.meta.tableId !== f.tableId) return false;
  if (f.money !== undefined && p.meta.money !== f.money) return false;
  if (f.result === 'won' && !(h.net > 0)) return false;
  if (f.result === 'lost' && !(h.net < 0)) return false;
  const showdown = p.record.showdown && h.dealtIn && !h.folded;
  if (f.showdown !== undefined && showdown !== f.showdown) return false;
  const allIn = p.record.actions.some((a) => 'allIn' in a && a.allIn && a.seat === h.seat);
  if (f.allIn !== undefined && allIn !== f.allIn) return false;
  if (f.player !== undefined && !p.record.seats.some((s) => s.player === f.player)) return false;
  return true;
}

function sha(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

describe('the hand history store (R-HISTORY)', () => {
  it('creates a WAL file at the current schema version (3), and opens it again with its hands', () => {
    const file = join(dir, 'sub', 'history.sqlite');
    const store = HistoryStore.open(file);
    const [p] = hands(1, 1);
    expect(store.addHand(p.meta, p.record)).toEqual({ stored: true, duplicate: false });
    store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const again = HistoryStore.open(file);
    expect(again.count()).toBe(1);
    expect(again.getHand(p.record.handId!)).toMatchObject({ ok: true, record: p.record });
    again.close();
  });

  it('refuses a file written by a newer build, with a clear error, and leaves it untouched', () => {
    const file = join(dir, 'newer.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE future (x)');
    db.pragma('application_id = 1129464648');
    db.pragma(`user_version = ${HISTORY_MIGRATIONS.length + 1}`);
    db.close();
    const before = sha(file);
    expect(() => HistoryStore.open(file)).toThrow(HistoryTooNewError);
    expect(() => HistoryStore.open(file)).toThrow(new RegExp(`schema version ${HISTORY_MIGRATIONS.length + 1}.*only knows versions up to ${HISTORY_MIGRATIONS.length}.*left untouched`));
    expect(sha(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a SQLite file that is not a hand history, untouched', () => {
    const file = join(dir, 'other.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE accounts (id INTEGER PRIMARY KEY)');
    db.close();
    const before = sha(file);
    expect(() => HistoryStore.open(file)).toThrow(NotAHistoryError);
    expect(sha(file)).toBe(before);
  });

  it('stores a hand once by its id: a re-sent hand is reported as a duplicate, in one call or in bulk', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const list = hands(60, 2);
    expect(store.addHand(list[0].meta, list[0].record)).toEqual({ stored: true, duplicate: false });
    expect(store.addHand({ ...list[0].meta, playedAt: list[0].meta.playedAt + 5 }, list[0].record)).toEqual({ stored: false, duplicate: true });
    const noId = { meta: list[1].meta, record: { ...list[1].record, handId: null } };
    const badSeat = { meta: { ...list[2].meta, heroSeat: 99 }, record: list[2].record };
    const r = store.addHands([...list, list[5], noId, badSeat, list[7]]);
    expect(r.stored).toBe(59);
    expect(r.duplicates).toBe(3);
    expect(r.refused.map((x) => x.index)).toEqual([61, 62]);
    expect(r.refused[0].reason).toMatch(/id/);
    expect(store.count()).toBe(60);
    expect(store.addHand(badSeat.meta, badSeat.record)).toMatchObject({ stored: false, duplicate: false, reason: expect.stringContaining('seat 99') });
    // The totals counted each hand once.
    const all = store.results({ from: 0, to: NOW });
    expect(all.ok && all.real.hands + all.play.hands).toBe(60);
    store.close();
  });

  it('imports in chunks through one importer; a failure drops only the open batch, and importing again completes it', () => {
    const file = join(dir, 'h.sqlite');
    const store = HistoryStore.open(file);
    const list = hands(300, 12);
    const imp = store.importer();
    expect(() => store.importer()).toThrow(/already open/);
    expect(imp.add(list.slice(0, 100))).toMatchObject({ stored: 100, duplicates: 0 });
    expect(imp.add([...list.slice(90, 150), { meta: list[0].meta, record: { ...list[0].record, handId: null } }])).toMatchObject({
      stored: 50,
      duplicates: 10,
      refused: [{ index: 60, reason: expect.any(String) }],
    });
    expect(imp.finish()).toMatchObject({ stored: 150, duplicates: 10, refused: [{ index: 160 }] });
    expect(store.count()).toBe(150);
    // A record no engine makes (a card code 60) is a bug: the import throws and its open batch is dropped.
    const broken = { meta: list[200].meta, record: { ...list[200].record, board: [60], actions: [...list[200].record.actions, { round: 'river' as const, kind: 'deal' as const, seat: null, cards: [60], up: [true] }] } };
    const again = store.importer();
    expect(() => again.add([...list.slice(150, 200), broken])).toThrow(RangeError);
    expect(store.count()).toBe(150);
    const last = store.addHands(list);
    expect(last).toMatchObject({ stored: 150, duplicates: 150 });
    const all = store.results({ from: 0, to: NOW });
    expect(all.ok && all.real.hands + all.play.hands).toBe(300);
    store.close();
  });

  it('gives back every hand exactly as it was stored, with its summary', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const list = hands(400, 3);
    store.addHands(list);
    for (const p of list) {
      const got = store.getHand(p.record.handId!);
      if (!got.ok) throw new Error(got.reason);
      expect(got.record).toEqual(p.record);
      expect(got.summary).toMatchObject({ handId: p.record.handId, playedAt: p.meta.playedAt, tableId: p.meta.tableId, money: p.meta.money, net: hero(p).net });
    }
    expect(store.getHand('nope-1')).toEqual({ ok: false, reason: 'hand nope-1 is not in the history' });
    store.close();
  });

  it('splits hand ids into a shared prefix and a number, and back, for any id', () => {
    for (const id of ['thnl-5-10-1-lq3k9a2b-1234', 'abc', '', '0', '7', 'h007', 'x-00', 'x-123456789012345678', 'é-1', 'a\nb-9', 'z-9007199254740991']) {
      const { prefix, number } = splitHandId(id);
      expect(number < 0 ? prefix : prefix + String(number)).toBe(id);
      expect(Number.isSafeInteger(number)).toBe(true);
    }
    const store = HistoryStore.open(join(dir, 'h.sqlite'));
    const [p] = hands(1, 4);
    for (const id of ['abc', 'h007', 'h07', 'h7', 'x-123456789012345678', 'x-12345678901234567']) {
      expect(store.addHand(p.meta, { ...p.record, handId: id })).toEqual({ stored: true, duplicate: false });
    }
    for (const id of ['abc', 'h007', 'h07', 'h7', 'x-123456789012345678']) expect(store.getHand(id)).toMatchObject({ ok: true, record: { handId: id } });
    store.close();
  });

  it('refuses to open a hand whose bytes were damaged, with the reason, without throwing', () => {
    const file = join(dir, 'h.sqlite');
    const store = HistoryStore.open(file);
    const [p] = hands(1, 5);
    store.addHand(p.meta, p.record);
    store.close();
    const db = new Database(file);
    db.prepare('UPDATE hands SET record = substr(record, 1, 10)').run();
    db.close();
    const again = HistoryStore.open(file);
    expect(again.getHand(p.record.handId!)).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be read') });
    again.close();
  });

  // planThreshold 40: the "many hands" plans (net index, membership check for a frequent player) run too.
  for (const planThreshold of [5000, 40]) {
    it(`pages through any filter in time or net order, newest or oldest first, each hand once, as a brute force finds them (plan threshold ${planThreshold})`, () => {
      const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => NOW, planThreshold });
      const list = hands(2500, 6);
      store.addHands(list);
      const rng = prng(66);
      const filters: HandFilter[] = [
        {},
        { variant: 'THNL' },
        { variant: '7SLL', result: 'lost' },
        { tableId: 'o4jl-1' },
        { tableId: 'o4jl-1', variant: 'O4JL', money: 'real' },
        { from: T0 + 30 * DAY, to: T0 + 90 * DAY },
        { from: T0 + 30 * DAY, to: T0 + 31 * DAY, showdown: true },
        { allIn: true },
        { result: 'won', money: 'play' },
        { player: 'ana' },
        { player: 'bob2', result: 'won', from: T0 + 100 * DAY },
        { player: 'nobody' },
        { tableId: 'no-such-table' },
        { stakes: 20, variant: '2T7TD', showdown: false },
      ];
      for (const f of filters) {
        for (const sort of ['time', 'net'] as const) {
          for (const dir of ['desc', 'asc'] as const) {
            const expected = list
              .filter((p) => matches(p, f))
              .map((p) => ({ p, key: sort === 'time' ? p.meta.playedAt : hero(p).net }))
              .sort((a, b) => a.key - b.key)
              .map((x) => x);
            const seen: string[] = [];
            let cursor: string | null = null;
            const limit = 5 + randInt(rng, 150);
            for (let pages = 0; pages < 3000; pages++) {
              const req: PageRequest = { sort, dir, limit, cursor };
              const r = store.page(f, req);
              if (!r.ok) throw new Error(r.reason);
              expect(r.hands.length).toBeLessThanOrEqual(limit);
              for (const h of r.hands) seen.push(h.handId);
              cursor = r.next;
              if (cursor === null) break;
            }
            const keys = new Map(expected.map((x) => [x.p.record.handId!, x.key]));
            expect(new Set(seen).size).toBe(seen.length);
            expect([...seen].sort()).toEqual(expected.map((x) => x.p.record.handId!).sort());
            // In order of the sort key (ties broken by storage order, which the brute force does not know).
            const seenKeys = seen.map((id) => keys.get(id)!);
            const sorted = [...seenKeys].sort((a, b) => (dir === 'asc' ? a - b : b - a));
            expect(seenKeys).toEqual(sorted);
          }
        }
      }
      expect(store.page({}, { sort: 'time', dir: 'desc', limit: 201 })).toMatchObject({ ok: false });
      expect(store.page({}, { sort: 'time', dir: 'desc', limit: 0 })).toMatchObject({ ok: false });
      expect(store.page({}, { sort: 'time', dir: 'desc', limit: 5, cursor: 'net:1:2' })).toMatchObject({ ok: false });
      expect(store.page({}, { sort: 'time', dir: 'desc', limit: 5, cursor: 'garbage' })).toMatchObject({ ok: false });
      store.close();
    });
  }

  describe('results of a period, read from the totals (R-TRACKER, R-RESULTS)', () => {
    function brute(list: Played[], from: number, to: number, money: MoneyKind) {
      // No tournament here: a period's tournament entries and prizes are 0.
      const t = { hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
      for (const p of list) {
        if (p.meta.money !== money || p.meta.playedAt < from || p.meta.playedAt >= to) continue;
        t.hands++;
        t.net += hero(p).net;
        t.rake += hero(p).rake;
      }
      return t;
    }

    it('any period, to the millisecond, by variant and by variant and stakes, equals the sum of the stored hands', () => {
      const store = HistoryStore.open(join(dir, 'h.sqlite'));
      const list = hands(1500, 7, { span: 60 * DAY });
      store.addHands(list.slice(0, 700));
      for (const p of list.slice(700)) store.addHand(p.meta, p.record);
      const rng = prng(77);
      const periods: [number, number][] = [
        [0, NOW],
        [T0, T0],
        [T0 + 3 * DAY, T0 + 4 * DAY],
        [T0 + 3 * DAY + 5 * HOUR, T0 + 3 * DAY + 9 * HOUR],
      ];
      for (let k = 0; k < 60; k++) {
        const a = T0 - DAY + randInt(rng, 62 * DAY);
        periods.push([a, a + randInt(rng, rng() < 0.5 ? 2 * HOUR : 40 * DAY)]);
      }
      for (const [from, to] of periods) {
        for (const groupBy of [undefined, 'variant', 'stakes'] as const) {
          const r = store.results({ from, to, groupBy });
          if (!r.ok) throw new Error(r.reason);
          expect(r.real).toEqual(brute(list, from, to, 'real'));
          expect(r.play).toEqual(brute(list, from, to, 'play'));
          if (groupBy !== undefined) {
            for (const g of r.groups) {
              const sub = list.filter((p) => p.record.variant === g.variant && (groupBy === 'variant' || stakesOf(p.record) === g.stakes));
              expect({ hands: g.hands, net: g.net, rake: g.rake, entries: 0, prizes: 0 }).toEqual(brute(sub, from, to, g.money as MoneyKind));
            }
            expect(r.groups.reduce((s, g) => s + g.hands, 0)).toBe(r.real.hands + r.play.hands);
          }
        }
        const onlyPlay = store.results({ from, to, money: 'play' });
        expect(onlyPlay.ok && onlyPlay.real.hands).toBe(0);
      }
      expect(store.results({ from: 5, to: 4 })).toMatchObject({ ok: false });
      store.close();
    });

    for (const [zone, offset] of [
      ['UTC+1', () => 60],
      ['UTC+5:30 (days start off the hour)', () => 330],
      ['UTC−4 in summer, −5 in winter (DST)', (ms: number) => (ms >= T0 + 70 * DAY && ms < T0 + 300 * DAY ? -240 : -300)],
    ] as const) {
      it(`by local day in ${zone}: each day from its local midnight, equal to the stored hands`, () => {
        const store = HistoryStore.open(join(dir, 'h.sqlite'), { utcOffsetMinutes: offset });
        const list = hands(1200, 8, { start: T0 + 60 * DAY, span: 20 * DAY });
        store.addHands(list);
        const from = T0 + 61 * DAY + 7 * 60_000;
        const to = T0 + 78 * DAY + 13 * HOUR;
        const r = store.results({ from, to, groupBy: 'day' });
        if (!r.ok) throw new Error(r.reason);
        const expected = new Map<string, { hands: number; net: number; rake: number }>();
        for (const p of list) {
          if (p.meta.playedAt < from || p.meta.playedAt >= to) continue;
          const day = new Date(p.meta.playedAt + offset(p.meta.playedAt) * 60_000).toISOString().slice(0, 10);
          const key = `${p.meta.money}:${day}`;
          const t = expected.get(key) ?? { hands: 0, net: 0, rake: 0 };
          t.hands++;
          t.net += hero(p).net;
          t.rake += hero(p).rake;
          expected.set(key, t);
        }
        expect(new Map(r.groups.map((g) => [`${g.money}:${g.day}`, { hands: g.hands, net: g.net, rake: g.rake }]))).toEqual(expected);
        expect(r.real).toEqual(brute(list, from, to, 'real'));
        store.close();
      });
    }
  });

  it('keeps 366 days whatever is asked, and removes older hands only on request, totals included', () => {
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => NOW });
    const list = hands(800, 9, { start: NOW - 500 * DAY, span: 500 * DAY });
    store.addHands(list);
    expect(store.removeOlderThan(NOW - 365 * DAY)).toMatchObject({ ok: false, reason: expect.stringContaining('366') });
    expect(store.count()).toBe(800);
    const cut = NOW - 366 * DAY - 3 * HOUR - 17;
    const r = store.removeOlderThan(cut);
    const old = list.filter((p) => p.meta.playedAt < cut);
    expect(r).toEqual({ ok: true, removed: old.length });
    expect(old.length).toBeGreaterThan(100);
    expect(store.count()).toBe(800 - old.length);
    expect(store.getHand(old[0].record.handId!)).toMatchObject({ ok: false });
    const kept = list.filter((p) => p.meta.playedAt >= cut);
    expect(store.getHand(kept[0].record.handId!)).toMatchObject({ ok: true, record: kept[0].record });
    const all = store.results({ from: 0, to: NOW + DAY });
    expect(all.ok && all.real.hands + all.play.hands).toBe(kept.length);
    const day = store.results({ from: cut - 2 * DAY, to: cut + 2 * DAY });
    expect(day.ok && day.real.hands + day.play.hands).toBe(kept.filter((p) => p.meta.playedAt < cut + 2 * DAY).length);
    // Re-adding a removed hand stores it again (it is no longer there).
    expect(store.addHand(old[0].meta, old[0].record)).toEqual({ stored: true, duplicate: false });
    store.close();
  });
});


