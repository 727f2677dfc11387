/**
 * Tournaments in the local history (schema version 6): a generated history with
 * sit & go's (shared/history/generate.ts `tournaments`) stored through the bulk importer as the client
 * stores it; the results (net, ROI, ITM, average finish, by format, game and buy-in) against a brute
 * force over the generated records; tournament hands never in the cash totals, graph or statistics;
 * a tournament stored once whatever is put again; the history's kind / tournament filters; a version 5
 * file brought to version 6 with its hands intact.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryFilter } from '../../../shared/api';
import type { TournamentRecordView } from '../../../shared/api/tournaments';
import { generateHands, type GeneratedHand } from '../../../shared/history/generate';
import { sumTournaments, tournamentFigures } from '../../../shared/history/tournaments';
import { fillHistory } from './generate';
import { playerStats, resultsSeries, resultsSessions, tournamentHistory, tournamentResults, tournamentSeries } from './results';
import { HISTORY_MIGRATIONS } from './schema';
import { UNDO_V6, UNDO_V7, UNDO_V8, UNDO_V9 } from './schema/undo';
import { HistoryStore, type HandMeta } from './store';

const DAY = 86_400_000;
const END = Date.UTC(2026, 3, 1);
const OPTIONS = { hands: 6000, seed: 11, end: END, days: 40, tournaments: 0.3 };

let dir: string;
let all: GeneratedHand[];
let finished: TournamentRecordView[];
let both: HistoryStore;
let cashOnly: HistoryStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-tournaments-'));
  all = [...generateHands(OPTIONS)];
  finished = all.flatMap((h) => (h.finished ? [h.finished] : []));
  both = HistoryStore.open(join(dir, 'both.sqlite'));
  const filled = fillHistory(both, OPTIONS);
  expect(filled.stored).toBe(all.length);
  cashOnly = HistoryStore.open(join(dir, 'cash.sqlite'));
  expect(cashOnly.addHands(all.filter((h) => h.meta.tournament === undefined)).refused).toEqual([]);
});
afterAll(() => {
  both.close();
  cashOnly.close();
  rmSync(dir, { recursive: true, force: true });
});

const filterOf = (x: { money?: 'real' | 'play'; variant?: TournamentRecordView['variant']; format?: TournamentRecordView['format']; from?: number; to?: number }) => x;

describe('the generated history has tournaments (shared/history/generate.ts)', () => {
  it('about a fifth to a third of its hands, every finish place, prizes, bounties, both formats, seeded', () => {
    const share = all.filter((h) => h.meta.tournament !== undefined).length / all.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.45);
    expect(finished.length).toBeGreaterThan(20);
    expect(new Set(finished.map((t) => t.place))).toContain(1);
    expect(finished.some((t) => t.prize === 0)).toBe(true);
    expect(finished.some((t) => t.bounties > 0)).toBe(true);
    expect(new Set(finished.map((t) => t.format))).toEqual(new Set(['sit-and-go', 'scheduled']));
    // Inside the period, tournaments too.
    expect(Math.max(...all.map((h) => h.meta.playedAt))).toBeLessThanOrEqual(END);
    // Each tournament's hands: its id, levels rising from 0, all before its end.
    for (const t of finished) {
      const mine = all.filter((h) => h.meta.tournament?.tournamentId === t.tournamentId);
      expect(mine.length).toBe(t.hands);
      expect(mine[0].meta.tournament!.level).toBe(0);
      expect(mine.every((h) => h.meta.playedAt <= t.endedAt!)).toBe(true);
    }
    const again = [...generateHands(OPTIONS)];
    expect(JSON.stringify(again)).toBe(JSON.stringify(all));
  });

  it('without the option, the same hands as a generator without tournaments (no tournament field)', () => {
    const plain = [...generateHands({ ...OPTIONS, tournaments: undefined, hands: 500 })];
    expect(plain.every((h) => h.meta.tournament === undefined && h.finished === undefined)).toBe(true);
    expect(JSON.stringify([...generateHands({ ...OPTIONS, tournaments: 0, hands: 500 })])).toBe(JSON.stringify(plain));
  });
});

describe('tournament results (R-RESULTS): net, ROI, ITM, average finish, by format, game and buy-in', () => {
  it('the totals per money kind equal the brute force over the generated records', () => {
    const r = tournamentResults(both, { filter: {}, groupBy: 'format' });
    for (const money of ['real', 'play'] as const) {
      const mine = finished.filter((t) => t.money === money);
      expect(r[money]).toEqual(sumTournaments(mine));
      const f = tournamentFigures(r[money]);
      if (mine.length === 0) continue;
      const spent = mine.reduce((a, t) => a + t.spent, 0);
      const won = mine.reduce((a, t) => a + t.prize + t.bounties, 0);
      expect(f.net).toBe(won - spent);
      expect(f.roi).toBeCloseTo((won - spent) / spent, 12);
      expect(f.itm).toBeCloseTo(mine.filter((t) => t.prize > 0).length / mine.length, 12);
      expect(f.averageFinish).toBeCloseTo(mine.reduce((a, t) => a + t.place!, 0) / mine.length, 12);
      expect(f.averageField).toBeCloseTo(mine.reduce((a, t) => a + t.entries, 0) / mine.length, 12);
    }
    expect(r.real.count + r.play.count).toBe(finished.length);
  });

  it('groups by format, game and buy-in: each the brute force of its tournaments, together the totals', () => {
    const keyOf = {
      format: (t: TournamentRecordView) => t.format,
      variant: (t: TournamentRecordView) => t.variant,
      buyIn: (t: TournamentRecordView) => `${t.buyIn}+${t.fee}`,
    };
    for (const groupBy of ['format', 'variant', 'buyIn'] as const) {
      const r = tournamentResults(both, { filter: {}, groupBy });
      const expected = new Map<string, TournamentRecordView[]>();
      for (const t of finished) {
        const k = `${t.money}:${keyOf[groupBy](t)}`;
        expected.set(k, [...(expected.get(k) ?? []), t]);
      }
      expect(r.groups.length).toBe(expected.size);
      for (const g of r.groups) {
        const { money, key, ...totals } = g;
        expect(totals, `${groupBy} ${money} ${key}`).toEqual(sumTournaments(expected.get(`${money}:${key}`) ?? []));
      }
    }
    expect(new Set(tournamentResults(both, { filter: {}, groupBy: 'variant' }).groups.map((g) => g.key)).size).toBeGreaterThan(3);
  });

  it('a filter by period (end time), money, game and format counts exactly its tournaments', () => {
    const t = finished[Math.floor(finished.length / 2)];
    const cases = [
      filterOf({ money: 'real' }),
      filterOf({ variant: t.variant }),
      filterOf({ format: 'scheduled' }),
      filterOf({ from: t.endedAt!, to: END }),
      filterOf({ from: END - 20 * DAY, to: t.endedAt! + 1, money: t.money }),
    ];
    for (const f of cases) {
      const mine = finished.filter(
        (x) =>
          (f.money === undefined || x.money === f.money) &&
          (f.variant === undefined || x.variant === f.variant) &&
          (f.format === undefined || x.format === f.format) &&
          (f.from === undefined || x.endedAt! >= f.from) &&
          (f.to === undefined || x.endedAt! < f.to),
      );
      const r = tournamentResults(both, { filter: f, groupBy: 'format' });
      expect(r.real.count + r.play.count, JSON.stringify(f)).toBe(mine.length);
      expect(r.real.net + r.play.net).toBe(mine.reduce((a, x) => a + x.prize + x.bounties - x.spent, 0));
    }
  });

  it('the graph of tournaments: a point when each entry is paid and when each prize is won, ending on the net, counting tournaments', () => {
    const real = finished.filter((t) => t.money === 'real');
    // A record stored whole (an import, the sync) pays at its registration and wins at its end (schema version 7).
    const moves = real
      .flatMap((t) => [
        { at: t.registeredAt, step: -t.spent, t },
        ...(t.prize + t.bounties > 0 ? [{ at: t.endedAt!, step: t.prize + t.bounties, t }] : []),
      ])
      .sort((a, b) => a.at - b.at);
    const s = tournamentSeries(both, { kind: 'tournament', money: 'real' }, 10_000);
    expect(s.at.slice(1)).toEqual(moves.map((m) => m.at));
    let run = 0;
    expect(s.total.slice(1)).toEqual(moves.map((m) => (run += m.step)));
    expect(s.total[s.total.length - 1]).toBe(real.reduce((a, t) => a + t.prize + t.bounties - t.spent, 0));
    const seen = new Set<string>();
    expect(s.hands.slice(1)).toEqual(moves.map((m) => seen.add(m.t.tournamentId).size));
    expect(s.hands[s.hands.length - 1]).toBe(real.length);
    expect(resultsSeries(both, { kind: 'tournament', money: 'real' }, 10_000)).toEqual(s);
  });
});

describe('tournament hands are not money: the cash results are the same with or without them', () => {
  const filters: HistoryFilter[] = [{}, { money: 'real' }, { money: 'play' }, { kind: 'cash', money: 'real' }, { from: END - 10 * DAY, to: END - 3 * DAY - 1234 }, { variant: 'THNL' }, { result: 'won' }, { showdown: true, money: 'real' }];

  it('period totals (days, hours, partial hours), statistics, graph and sessions', () => {
    for (const [from, to] of [
      [END - 40 * DAY, END],
      [END - 17 * DAY + 1234567, END - 2 * DAY - 7654321],
      [END - 5 * DAY + 60_000, END - 5 * DAY + 3_000_000],
    ]) {
      for (const groupBy of [undefined, 'variant', 'stakes', 'day'] as const) {
        const a = both.results({ from, to, groupBy });
        const b = cashOnly.results({ from, to, groupBy });
        if (!a.ok || !b.ok) throw new Error('refused');
        // The cash part of each group is the cash history's; a group of tournament money only has no hands.
        expect(a.groups.filter((g) => g.hands > 0).map((g) => ({ ...g, entries: 0, prizes: 0 }))).toEqual(b.groups);
        for (const m of ['real', 'play'] as const) expect({ ...a[m], entries: 0, prizes: 0 }).toEqual(b[m]);
      }
    }
    for (const f of filters) {
      expect(playerStats(both, f), JSON.stringify(f)).toEqual(playerStats(cashOnly, f));
      expect(resultsSeries(both, f, 500), JSON.stringify(f)).toEqual(resultsSeries(cashOnly, f, 500));
      expect(resultsSessions(both, f, 30)).toEqual(resultsSessions(cashOnly, f, 30));
    }
  });

  it('the totals tables themselves (day, hour, statistics, graph pieces) are those of the cash hands', () => {
    both.checkpoint();
    cashOnly.checkpoint();
    const read = (file: string, sql: string): unknown[] => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).raw().all();
      } finally {
        db.close();
      }
    };
    for (const table of ['day_totals', 'hour_totals', 'hour_stats', 'hour_series']) {
      const sql = `SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`;
      expect(read(both.file, sql), table).toEqual(read(cashOnly.file, sql));
    }
  });

  it("a period's tournament entries (spent of those registered in it) and prizes (of those ended in it)", () => {
    for (const [from, to] of [
      [END - 40 * DAY, END],
      [END - 20 * DAY + 999, END - 6 * DAY],
    ]) {
      const r = both.results({ from, to });
      if (!r.ok) throw new Error(r.reason);
      for (const m of ['real', 'play'] as const) {
        const mine = finished.filter((t) => t.money === m);
        expect(r[m].entries).toBe(mine.filter((t) => t.registeredAt >= from && t.registeredAt < to).reduce((a, t) => a + t.spent, 0));
        expect(r[m].prizes).toBe(mine.filter((t) => t.endedAt! >= from && t.endedAt! < to).reduce((a, t) => a + t.prize + t.bounties, 0));
      }
    }
  });

  it('a hand refused with a bad tournament is not stored', () => {
    const h = all.find((x) => x.meta.tournament !== undefined)!;
    const bad: HandMeta = { ...h.meta, tournament: { tournamentId: 'no spaces allowed', level: 0 } };
    const r = cashOnly.addHand(bad, { ...h.record, handId: 'x-bad-1' });
    expect(r.stored).toBe(false);
    expect(r.stored === false && !r.duplicate && r.reason).toMatch(/tournament/);
    expect(cashOnly.addHand({ ...h.meta, tournament: { tournamentId: 'ok', level: -1 } }, { ...h.record, handId: 'x-bad-2' }).stored).toBe(false);
  });
});

describe('the history page and the tournament list', () => {
  it('kind and tournamentId filter the hands; each summary names its tournament and level', () => {
    const t = finished[3];
    const page = (f: HistoryFilter) => {
      const out: string[] = [];
      for (let cursor: string | null = null; ; ) {
        const r = both.page(f, { sort: 'time', dir: 'desc', limit: 200, cursor });
        if (!r.ok) throw new Error(r.reason);
        for (const h of r.hands) {
          expect(h.tournament === null).toBe(f.kind === 'cash' ? true : f.kind === 'tournament' || f.tournamentId ? false : h.tournament === null);
          out.push(h.handId);
        }
        if (r.next === null) return out;
        cursor = r.next;
      }
    };
    const mine = all.filter((h) => h.meta.tournament?.tournamentId === t.tournamentId);
    expect(new Set(page({ tournamentId: t.tournamentId }))).toEqual(new Set(mine.map((h) => h.record.handId)));
    expect(page({ kind: 'tournament' }).length).toBe(all.filter((h) => h.meta.tournament !== undefined).length);
    expect(page({ kind: 'cash', money: 'real' }).length).toBe(all.filter((h) => h.meta.tournament === undefined && h.meta.money === 'real').length);
    expect(page({ tournamentId: 'never-seen' })).toEqual([]);
    const one = both.getHand(mine[mine.length - 1].record.handId as string);
    expect(one.ok && one.summary.tournament).toEqual(mine[mine.length - 1].meta.tournament);
  });

  it('lists the tournaments newest registration first, each once across pages, with their hands counted', () => {
    const seen: TournamentRecordView[] = [];
    for (let cursor: string | null = null; ; ) {
      const r = tournamentHistory(both, { filter: {}, limit: 7, cursor });
      expect(r.ok).toBe(true);
      seen.push(...r.tournaments);
      if (r.next === null) break;
      cursor = r.next;
    }
    const expected = [...finished].sort((a, b) => b.registeredAt - a.registeredAt);
    expect(seen.map((t) => t.tournamentId)).toEqual(expected.map((t) => t.tournamentId));
    expect(seen).toEqual(expected);
    const f = tournamentHistory(both, { filter: { money: 'play', from: END - 30 * DAY }, limit: 200, cursor: null });
    expect(f.tournaments.map((t) => t.tournamentId)).toEqual(expected.filter((t) => t.money === 'play' && t.registeredAt >= END - 30 * DAY).map((t) => t.tournamentId));
    expect(tournamentHistory(both, { filter: {}, limit: 5, cursor: 'nonsense' }).ok).toBe(false);
  });
});

describe('a tournament is stored once (never double counted)', () => {
  it('registered, finished, put again: one row; its hands before its record make no listed row', () => {
    const store = HistoryStore.open(join(dir, 'once.sqlite'));
    try {
      const t = finished.find((x) => x.money === 'real' && x.prize > 0)!;
      const hands = all.filter((h) => h.meta.tournament?.tournamentId === t.tournamentId);
      // The hands first (the operator sync can bring them before the record).
      expect(store.addHands(hands).stored).toBe(hands.length);
      expect(store.tournamentHistory({}, 10, null)).toEqual({ ok: true, tournaments: [], next: null });
      const registered = { ...t, endedAt: null, place: null, prize: 0, bounties: 0, hands: 0 };
      expect(store.putTournament(registered)).toEqual({ ok: true });
      expect(store.tournament(t.tournamentId)).toEqual({ ...registered, hands: hands.length });
      const day = { from: t.registeredAt - DAY, to: t.endedAt! + DAY };
      const before = store.results(day);
      expect(before.ok && before.real).toMatchObject({ entries: t.spent, prizes: 0, hands: 0 });
      expect(store.putTournament(t)).toEqual({ ok: true });
      expect(store.putTournament(t)).toEqual({ ok: true });
      const r = store.results(day);
      expect(r.ok && r.real).toMatchObject({ entries: t.spent, prizes: t.prize + t.bounties, hands: 0, net: 0 });
      expect(store.tournamentResults({}, 'format')).toMatchObject({ real: { count: 1, net: t.prize + t.bounties - t.spent } });
      expect(store.tournamentHistory({}, 10, null)).toEqual({ ok: true, tournaments: [t], next: null });
      // A record that does not fit the API's shape is refused, the stored one kept.
      expect(store.putTournament({ ...t, prize: -1 }).ok).toBe(false);
      expect(store.putTournament({ ...t, endedAt: t.registeredAt - 1 }).ok).toBe(false);
      expect(store.tournament(t.tournamentId)).toEqual(t);
    } finally {
      store.close();
    }
  });

  it('removing old hands keeps the cash totals right and drops the old tournaments with their hands', () => {
    const file = join(dir, 'remove.sqlite');
    const store = HistoryStore.open(file, { now: () => END + 400 * DAY });
    const cash = HistoryStore.open(join(dir, 'remove-cash.sqlite'), { now: () => END + 400 * DAY });
    try {
      const slice = all.slice(0, 2500);
      store.addHands(slice);
      for (const h of slice) if (h.finished) store.putTournament(h.finished);
      cash.addHands(slice.filter((h) => h.meta.tournament === undefined));
      const cut = slice[1200].meta.playedAt;
      expect(store.removeOlderThan(cut).ok).toBe(true);
      cash.removeOlderThan(cut);
      const period = { from: END - 60 * DAY, to: END };
      const a = store.results(period);
      const b = cash.results(period);
      expect(a.ok && b.ok && { ...a.real, entries: 0, prizes: 0 }).toEqual(b.ok && b.real);
      const left = store.tournamentHistory({}, 200, null);
      expect(left.ok && left.tournaments.every((t) => t.registeredAt >= cut || t.hands > 0)).toBe(true);
      expect(left.ok && left.tournaments.length).toBe(slice.filter((h) => h.finished && (h.finished.registeredAt >= cut || slice.some((x) => x.meta.playedAt >= cut && x.meta.tournament?.tournamentId === h.finished!.tournamentId))).length);
    } finally {
      store.close();
      cash.close();
    }
  });
});

describe('schema version 6 (a frozen migration)', () => {
  it('a version 5 file gets version 6 with its hands, totals, graph and statistics intact', () => {
    const file = join(dir, 'v5.sqlite');
    const store = HistoryStore.open(file);
    const cash = all.filter((h) => h.meta.tournament === undefined).slice(0, 1500);
    store.addHands(cash);
    const snapshot = (s: HistoryStore) => ({
      count: s.count(),
      page: s.page({}, { sort: 'net', dir: 'desc', limit: 50 }),
      results: s.results({ from: END - 40 * DAY, to: END, groupBy: 'stakes' }),
      series: resultsSeries(s, { money: 'real' }, 200),
      stats: playerStats(s, {}),
    });
    const before = snapshot(store);
    store.close();
    // A real version 5 file: what version 6 added taken away.
    const db = new Database(file);
    db.exec(UNDO_V9 + UNDO_V8 + UNDO_V7 + UNDO_V6);
    db.pragma('user_version = 5');
    db.close();
    const again = HistoryStore.open(file);
    try {
      expect(snapshot(again)).toEqual(before);
      const raw = new Database(file, { readonly: true });
      expect(raw.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
      expect(raw.prepare('SELECT count(*) FROM hands WHERE tournament IS NOT NULL OR flags & 32').pluck().get()).toBe(0);
      raw.close();
      // And it takes tournaments now.
      const t = finished[0];
      expect(again.putTournament(t)).toEqual({ ok: true });
      expect(again.tournament(t.tournamentId)).toEqual({ ...t, hands: 0 });
    } finally {
      again.close();
    }
  });
});
