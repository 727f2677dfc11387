/**
 * Tournament money in the results (R-TRACKER, R-RESULTS;
 * schema version 7): on real SQLite files,
 * - a day's and a game's line of a period's results carries its tournament entries and prizes, and the
 *   groups add up to the period's totals (cash hands and tournaments across days and games);
 * - a running tournament counts from the moment its entry is paid (totals, tournament results, graph),
 *   its rebuys when bought, its bounties when won, its prize at the end, never twice: before and after
 *   the end the history's figures equal the tracker's session fed the same money;
 * - a refunded registration is stored as refunded, listed as such and in no result; a registration
 *   after it is a new record;
 * - a version 6 file gets version 7: its refunded registrations marked, its records' money dated.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankTournamentRecord, type TournamentRecordView } from '../../../shared/api/tournaments';
import { generateHands, type GeneratedHand } from '../../../shared/history/generate';
import { tournamentFigures } from '../../../shared/history/tournaments';
import { fillHistory } from './generate';
import { tournamentSeries } from './results';
import { HISTORY_MIGRATIONS } from './schema';
import { UNDO_V7, UNDO_V8, UNDO_V9 } from './schema/undo';
import { HistoryStore, type ResultGroup } from './store';
import { Tracker } from './tracker';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const END = Date.UTC(2026, 2, 20);
const OPTIONS = { hands: 5000, seed: 23, end: END, days: 30, tournaments: 0.3 };
/** Paris in winter: local days start at 23:00 UTC, so a day's line is not a UTC day. */
const OFFSET = (): number => 60;
const localDay = (ms: number): string => new Date(ms + 60 * 60_000).toISOString().slice(0, 10);

let dir: string;
let all: GeneratedHand[];
let finished: TournamentRecordView[];
let store: HistoryStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-tournament-money-'));
  all = [...generateHands(OPTIONS)];
  finished = all.flatMap((h) => (h.finished ? [h.finished] : []));
  store = HistoryStore.open(join(dir, 'both.sqlite'), { utcOffsetMinutes: OFFSET });
  expect(fillHistory(store, OPTIONS).stored).toBe(all.length);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEYS = ['hands', 'net', 'rake', 'entries', 'prizes'] as const;
function sumOf(groups: ResultGroup[], money: 'real' | 'play'): Record<(typeof KEYS)[number], number> {
  const s = { hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
  for (const g of groups) if (g.money === money) for (const k of KEYS) s[k] += g[k];
  return s;
}

describe("a period's groups carry their tournament money", () => {
  it('by day, by game and by game and stakes: each line its entries and prizes, the lines adding up to the totals', () => {
    // Cash hands and tournaments of several games across the month.
    expect(new Set(finished.map((t) => t.variant)).size).toBeGreaterThan(3);
    expect(new Set(finished.map((t) => localDay(t.registeredAt))).size).toBeGreaterThan(4);
    expect(all.some((h) => h.meta.tournament === undefined)).toBe(true);
    for (const [from, to] of [
      [END - 31 * DAY, END + DAY],
      [END - 17 * DAY + 1_234_567, END - 4 * DAY - 7_654_321],
    ]) {
      const total = store.results({ from, to });
      if (!total.ok) throw new Error(total.reason);
      for (const groupBy of ['day', 'variant', 'stakes'] as const) {
        const r = store.results({ from, to, groupBy });
        if (!r.ok) throw new Error(r.reason);
        for (const m of ['real', 'play'] as const) {
          // The lines add up to the totals, tournament money included; a line's result is cash + tournaments.
          expect(sumOf(r.groups, m), `${groupBy} ${m}`).toEqual({ hands: r[m].hands, net: r[m].net, rake: r[m].rake, entries: r[m].entries, prizes: r[m].prizes });
          expect({ ...r[m] }).toEqual({ ...total[m] });
          const lineResults = r.groups.filter((g) => g.money === m).reduce((a, g) => a + g.net + g.prizes - g.entries, 0);
          expect(lineResults).toBe(r[m].net + r[m].prizes - r[m].entries);
          // Each line's tournament money is that of its day or game (a record stored whole pays at its
          // registration and wins at its end).
          const keyOf = (t: TournamentRecordView, at: number): string => (groupBy === 'day' ? localDay(at) : t.variant);
          const expected = new Map<string, { entries: number; prizes: number }>();
          for (const t of finished.filter((x) => x.money === m)) {
            const add = (at: number, entries: number, prizes: number): void => {
              if (at < from || at >= to || entries + prizes === 0) return;
              const e = expected.get(keyOf(t, at)) ?? { entries: 0, prizes: 0 };
              e.entries += entries;
              e.prizes += prizes;
              expected.set(keyOf(t, at), e);
            };
            add(t.registeredAt, t.spent, 0);
            add(t.endedAt!, 0, t.prize + t.bounties);
          }
          const got = new Map<string, { entries: number; prizes: number }>();
          for (const g of r.groups.filter((x) => x.money === m && x.entries + x.prizes > 0)) {
            const k = groupBy === 'day' ? g.day! : g.variant!;
            const e = got.get(k) ?? { entries: 0, prizes: 0 };
            e.entries += g.entries;
            e.prizes += g.prizes;
            got.set(k, e);
          }
          expect(got, `${groupBy} ${m}`).toEqual(expected);
          // Tournament money has no stakes: by stakes, it is its game's line without stakes.
          if (groupBy === 'stakes') for (const g of r.groups) if (g.entries + g.prizes > 0) expect(g.stakes).toBeUndefined();
        }
        expect(r.groups.some((g) => g.entries > 0 && g.hands > 0) || groupBy === 'stakes').toBe(true);
      }
    }
  });
});

/** A play-money tournament record (the client's, shared/api/tournaments.ts) registered at `at`. */
function record(id: string, at: number, over: Partial<TournamentRecordView> = {}): TournamentRecordView {
  const head = { name: `SNG ${id}`, variant: 'THNL', money: 'play', format: 'sit-and-go', kinds: 'K', buyIn: 1000, fee: 100, entries: 6 } as const;
  return { ...blankTournamentRecord(id, head, at), spent: 1100, ...over };
}

describe('a running tournament counts from the moment its entry is paid (R-TRACKER)', () => {
  it('entry, next-day rebuy and bounty, then the prize: today, the periods, the tournament results and the graph equal the tracker, never twice', () => {
    // Registered at 23:30 in Paris, a rebuy and a bounty after midnight, the end at 01:40.
    const t0 = Date.UTC(2026, 0, 14, 22, 30);
    let now = t0;
    const s = HistoryStore.open(join(dir, 'running.sqlite'), { now: () => now, utcOffsetMinutes: OFFSET });
    const tracker = new Tracker(s, { now: () => now });
    try {
      // What the client does (client/tournaments.ts): the tracker as money moves, the record put at main's clock.
      let rec = record('R1', t0);
      const put = (r: TournamentRecordView): void => expect(s.putTournament(r, now)).toEqual({ ok: true });
      tracker.tournamentEntry('R1', 'play', 1100, 'THNL');
      put(rec);
      const check = (why: string): void => {
        const session = tracker.session().play;
        // Today (from local midnight) and the session's span.
        const span = s.results({ from: t0, to: now + 1 });
        if (!span.ok) throw new Error(span.reason);
        expect({ entries: span.play.entries, prizes: span.play.prizes }, why).toEqual({ entries: session.entries, prizes: session.prizes });
        const byDay = s.results({ from: t0 - DAY, to: now + 1, groupBy: 'day' });
        if (!byDay.ok) throw new Error(byDay.reason);
        const today = tracker.today();
        if (!today.ok) throw new Error(today.reason);
        const todayLine = byDay.groups.find((g) => g.day === localDay(now));
        expect(today.play.prizes - today.play.entries, why).toBe(todayLine ? todayLine.prizes - todayLine.entries : 0);
        // The tournament results over the session (a running one by its registration) and the graph end on the same net.
        const tr = s.tournamentResults({ from: t0, to: now + 1 }, 'format');
        if (!tr.ok) throw new Error(tr.reason);
        expect(tournamentFigures(tr.play).net, why).toBe(session.result);
        const line = tournamentSeries(s, { from: t0, to: now + 1, money: 'play', kind: 'tournament' }, 1000);
        expect(line.total.at(-1), why).toBe(session.result);
        expect(line.hands.at(-1), why).toBe(1);
      };
      check('registered: the entry is lost until a prize comes');
      const tr0 = s.tournamentResults({}, 'format');
      expect(tr0.ok && tr0.play).toMatchObject({ count: 0, running: 1, spent: 1100, runningSpent: 1100, net: -1100 });
      // Before midnight, today is the entry.
      const today0 = tracker.today();
      expect(today0.ok && today0.play).toMatchObject({ entries: 1100, prizes: 0 });

      now = t0 + 50 * 60_000; // 00:20 in Paris: the next local day
      rec = { ...rec, startedAt: t0 + 5 * 60_000, rebuys: 1, spent: 2200 };
      tracker.tournamentEntry('R1', 'play', 1100, 'THNL');
      put(rec);
      check('a rebuy after midnight');
      // Today (the new local day) has the rebuy, not the entry of yesterday.
      const today1 = tracker.today();
      expect(today1.ok && today1.play).toMatchObject({ entries: 1100, prizes: 0 });

      now = t0 + 80 * 60_000;
      rec = { ...rec, bounties: 400 };
      tracker.tournamentPrize('R1', 'play', 400, 'THNL');
      put(rec);
      check('a bounty won while it runs');
      const today2 = tracker.today();
      expect(today2.ok && today2.play).toMatchObject({ entries: 1100, prizes: 400 });
      const tr2 = s.tournamentResults({}, 'variant');
      expect(tr2.ok && tr2.play).toMatchObject({ count: 0, running: 1, spent: 2200, bounties: 400, runningBounties: 400, net: -1800 });
      expect(tr2.ok && tr2.groups).toEqual([{ money: 'play', key: 'THNL', ...(tr2.ok ? tr2.play : {}) }]);
      // A game's line of today: its tournament money (session groups too, by game).
      const games = s.results({ from: s.localDayStart(now), to: now + 1, groupBy: 'variant' });
      expect(games.ok && games.groups).toEqual([{ money: 'play', variant: 'THNL', hands: 0, net: 0, rake: 0, entries: 1100, prizes: 400 }]);
      expect(tracker.session().groups).toEqual([{ money: 'play', variant: 'THNL', hands: 0, net: 0, rake: 0, entries: 2200, prizes: 400 }]);

      now = t0 + 130 * 60_000;
      rec = { ...rec, place: 1, prize: 3000, bounties: 600, endedAt: now };
      tracker.tournamentPrize('R1', 'play', 200, 'THNL');
      tracker.tournamentPrize('R1', 'play', 3000, 'THNL');
      put(rec);
      check('finished: its prize and its last bounty');
      // Put again (the sync, a restart): nothing moves twice.
      now += 10 * 60_000;
      put(rec);
      put({ ...rec, hands: 0 });
      check('put again');
      const tr3 = s.tournamentResults({}, 'format');
      expect(tr3.ok && tr3.play).toMatchObject({ count: 1, running: 0, spent: 2200, prizes: 3000, bounties: 600, net: 1400, runningSpent: 0 });
      expect(tr3.ok && tournamentFigures(tr3.play).roi).toBeCloseTo(1400 / 2200, 12);
      const all3 = s.results({ from: t0 - DAY, to: now + DAY });
      expect(all3.ok && all3.play).toMatchObject({ entries: 2200, prizes: 3600 });
      const line = tournamentSeries(s, { money: 'play', kind: 'tournament' }, 1000);
      expect(line.at).toEqual([t0, t0, t0 + 50 * 60_000, t0 + 80 * 60_000, t0 + 130 * 60_000]);
      expect(line.total).toEqual([0, -1100, -2200, -1800, 1400]);
    } finally {
      s.close();
    }
  });
});

describe('a refunded registration', () => {
  it('is stored as refunded, listed as such and in no result; registering again makes a new record', () => {
    const t0 = Date.UTC(2026, 0, 20, 10, 0);
    let now = t0;
    const s = HistoryStore.open(join(dir, 'refund.sqlite'), { now: () => now, utcOffsetMinutes: OFFSET });
    try {
      const first = record('F1', t0);
      expect(s.putTournament(first, now)).toEqual({ ok: true });
      expect(s.results({ from: t0, to: t0 + DAY })).toMatchObject({ play: { entries: 1100 } });
      now = t0 + 5 * 60_000;
      const refunded = { ...first, spent: 0, endedAt: now, refundedAt: now };
      expect(s.putTournament(refunded, now)).toEqual({ ok: true });
      expect(s.tournament('F1')).toEqual(refunded);
      const empty = { count: 0, running: 0, spent: 0, net: 0 };
      expect(s.tournamentResults({}, 'format')).toMatchObject({ play: empty, groups: [] });
      expect(s.results({ from: t0, to: t0 + DAY })).toMatchObject({ play: { entries: 0, prizes: 0 } });
      expect(tournamentSeries(s, { money: 'play', kind: 'tournament' }, 100).at).toEqual([]);
      // A refund before its registration is refused.
      expect(s.putTournament({ ...refunded, refundedAt: t0 - 1 }).ok).toBe(false);

      // Registered again: a new record, the refunded one kept and listed apart.
      now = t0 + 20 * 60_000;
      const again = record('F1', now);
      expect(s.putTournament(again, now)).toEqual({ ok: true });
      expect(s.tournament('F1')).toEqual(again);
      const list = s.tournamentHistory({}, 10, null);
      expect(list.ok && list.tournaments).toEqual([again, refunded]);
      expect(s.tournamentResults({}, 'format')).toMatchObject({ play: { count: 0, running: 1, spent: 1100, net: -1100 } });
      expect(s.results({ from: t0, to: t0 + DAY })).toMatchObject({ play: { entries: 1100, prizes: 0 } });
      // Its hands are the new registration's; it finishes; put again, still two records.
      now = t0 + 90 * 60_000;
      const done = { ...again, startedAt: t0 + 30 * 60_000, endedAt: now, place: 2, prize: 1500 };
      expect(s.putTournament(done, now)).toEqual({ ok: true });
      expect(s.putTournament(done, now)).toEqual({ ok: true });
      const list2 = s.tournamentHistory({}, 10, null);
      expect(list2.ok && list2.tournaments).toEqual([done, refunded]);
      expect(s.tournamentResults({}, 'format')).toMatchObject({ play: { count: 1, running: 0, spent: 1100, prizes: 1500, net: 400 } });
      expect(s.results({ from: t0, to: t0 + DAY })).toMatchObject({ play: { entries: 1100, prizes: 1500 } });
    } finally {
      s.close();
    }
  });
});

describe('schema version 7 (a frozen migration)', () => {
  it('a version 6 file: refunded registrations marked, each record paying at its registration and winning at its end', () => {
    const file = join(dir, 'v6.sqlite');
    const s = HistoryStore.open(file);
    const t0 = Date.UTC(2026, 0, 10, 12);
    const done = record('D1', t0, { startedAt: t0 + HOUR, endedAt: t0 + 3 * HOUR, place: 1, prize: 2500, bounties: 300 });
    const running = record('G1', t0 + DAY);
    const refunded = record('U1', t0 + 2 * DAY, { spent: 0, endedAt: t0 + 2 * DAY + 60_000 });
    for (const t of [done, running, refunded]) expect(s.putTournament(t)).toEqual({ ok: true });
    s.close();
    // A real version 6 file: what version 7 added taken away (version 6 stored a refund as ended, unplaced, spent 0).
    const db = new Database(file);
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7);
    db.pragma('user_version = 6');
    db.close();
    const again = HistoryStore.open(file);
    try {
      const raw = new Database(file, { readonly: true });
      expect(raw.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
      raw.close();
      expect(again.tournament('U1')).toEqual({ ...refunded, refundedAt: refunded.endedAt });
      expect(again.tournament('D1')).toEqual(done);
      expect(again.tournamentResults({}, 'format')).toMatchObject({ play: { count: 1, running: 1, spent: 2200, prizes: 2500, bounties: 300, net: 600 } });
      const line = tournamentSeries(again, { money: 'play', kind: 'tournament' }, 100);
      expect(line.at).toEqual([t0, t0, t0 + 3 * HOUR, t0 + DAY]);
      expect(line.total).toEqual([0, -1100, 1700, 600]);
      expect(again.results({ from: t0 + 2 * HOUR, to: t0 + 5 * DAY })).toMatchObject({ play: { entries: 1100, prizes: 2800 } });
    } finally {
      again.close();
    }
  });
});
