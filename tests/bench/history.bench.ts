/**
 * The history store at scale (DESIGN.md §5): bulk import ≥ 20,000 hands/s; results for any period
 * ≤ 20 ms, a filtered page of hands ≤ 20 ms, opening a hand ≤ 2 ms; ≤ 400 bytes per hand on disk.
 *
 * A year of a player's sessions (shared/history/generate.ts): 2 to 5 tables at once, of every variant and two stakes each,
 * real money (raked) and play money, about 70 hands an hour per table; opponents drawn from a pool
 * of a few thousand and staying a while; stacks carried from hand to hand. Every hand is played by
 * the engine with random legal moves (fold-heavy, as at a real table) and stored as the client gets
 * it: `recordOf(viewFor(final, hero))` (others' cards unknown unless shown). Hands are generated in
 * chunks outside the timing and fed to one `importer()` (commits every 20,000 hands); only its `add`
 * and `finish` calls are timed. N from `CERCLE_BENCH_HANDS` (default 200,000; the bars of §5 are
 * for 1,000,000); `CERCLE_BENCH_KEEP=1` keeps the file for inspection; `CERCLE_BENCH_STORE=<file>` runs
 * the queries on a history already filled (`npm run cercle -- generate --hands 1000000 --data <dir>`)
 * without timing an import. Per-filter page times and
 * the worst cases go to stderr. The results page (docs/stats.md): the graph's lines
 * (`history-series-ms`) and the statistics (`history-stats-ms`) of a period of 1 to 31 days, real
 * money, 2,000 points; a whole year's lines (`history-series-year-ms`, ≤ 50 ms at 1,000,000 hands) with
 * their per-hand peer in the same run; the year's statistics go to stderr. With 20 % tournament hands
 * by default (`CERCLE_BENCH_TOURNAMENTS`).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playerStats, resultsSeries } from '../../electron/services/history/results';
import { seriesFromRows } from '../../electron/services/history/series';
import { HistoryStore, type HandFilter, type PageRequest } from '../../electron/services/history/store';
import { generateHands, type GeneratedHand } from '../../shared/history/generate';
import type { BenchResult } from './types';

const N = Number(process.env.CERCLE_BENCH_HANDS ?? 200_000);
/**
 * The share of sit & go tables (the bars hold with 20 % tournament hands): their hands
 * are stored with their tournament and level, each tournament's record as it ends (`putTournament`, timed
 * with the import). `CERCLE_BENCH_TOURNAMENTS=0` measures a history of cash hands only.
 */
const TOURNAMENTS = Number(process.env.CERCLE_BENCH_TOURNAMENTS ?? 0.2);
const CHUNK = 2_000; // small chunks: records waiting in memory would make the import pay for their garbage collection
const DAY = 86_400_000;
let YEAR_START = Date.UTC(2025, 0, 1);
/**
 * A history file already filled, e.g. by `npm run cercle -- generate --hands 1000000 --data <dir>`:
 * the queries run on it (the period starts at its oldest hand) and no import is timed.
 */
const EXISTING = process.env.CERCLE_BENCH_STORE;

// xorshift32 for the queries' random periods and picks (the hands come from shared/history/generate.ts).
let seed = 0x2545f491;
function rnd(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) % n) | 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/**
 * The peer for the import rate, in the same run: better-sqlite3 alone inserting rows of the same size
 * (a text key, a time, a blob of the store's bytes per hand) into one indexed table, 20,000 a
 * transaction, WAL as the store. No record to check, encode or count: the floor of what storing costs.
 */
function bareInserts(file: string, rows: number, rowBytes: number): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, at INTEGER NOT NULL, body BLOB NOT NULL) WITHOUT ROWID; CREATE INDEX t_at ON t(at)');
  const ins = db.prepare('INSERT INTO t (id, at, body) VALUES (?, ?, ?)');
  const body = Buffer.alloc(Math.max(1, Math.round(rowBytes) - 40));
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      body.writeUInt32LE(i, 0);
      ins.run(`peer-${i}`, YEAR_START + i * 1000, body);
    }
  });
  const ms = time(() => {
    for (let i = 0; i < rows; i += 20_000) batch(i, Math.min(rows, i + 20_000));
  });
  db.close();
  return (rows * 1000) / ms;
}

export default async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cercle-history-bench-'));
  const file = EXISTING ?? join(dir, 'history.sqlite');
  try {
    const store = HistoryStore.open(file, { utcOffsetMinutes: () => 60 });
    let importMs = 0;
    let genMs = 0;
    const ids: string[] = [];
    const players = new Set<string>();
    if (EXISTING) {
      const oldest = store.page({}, { sort: 'time', dir: 'asc', limit: 1 });
      const newest = store.page({}, { sort: 'time', dir: 'desc', limit: 1 });
      if (!oldest.ok || !newest.ok || oldest.hands.length === 0) throw new Error(`no hands in ${EXISTING}`);
      YEAR_START = oldest.hands[0].playedAt;
      const span = newest.hands[0].playedAt - YEAR_START;
      for (let k = 0; k < 400; k++) {
        const p = store.page({ from: YEAR_START + Math.floor((span * rnd(1_000_000)) / 1_000_000) }, { sort: 'time', dir: 'asc', limit: 1 });
        if (!p.ok || p.hands.length === 0) continue;
        ids.push(p.hands[0].handId);
        const h = store.getHand(p.hands[0].handId);
        if (h.ok) players.add(h.record.seats[0].player);
      }
      process.stderr.write(`\n  history: ${store.count().toLocaleString('en')} hands in ${EXISTING}\n`);
    }
    const gen = generateHands({ hands: N, start: YEAR_START, end: YEAR_START + 365 * DAY, tournaments: TOURNAMENTS });
    let tournamentHands = 0;
    let tournaments = 0;
    const imp = store.importer();
    for (let done = 0; done < (EXISTING ? 0 : N); ) {
      const chunk: GeneratedHand[] = [];
      genMs += time(() => {
        for (let i = 0; i < CHUNK && done + chunk.length < N; i++) {
          const x = gen.next();
          if (x.done) break;
          chunk.push(x.value);
        }
      });
      if (chunk.length === 0) break;
      for (let i = 0; i < chunk.length; i += 97) {
        ids.push(chunk[i].record.handId!);
        players.add(chunk[i].record.seats[0].player);
      }
      importMs += time(() => {
        const r = imp.add(chunk);
        if (r.stored !== chunk.length) throw new Error(`stored ${r.stored} of ${chunk.length}: ${JSON.stringify(r.refused.slice(0, 3))}`);
        for (const h of chunk) {
          if (h.finished === undefined) continue;
          const put = store.putTournament(h.finished);
          if (!put.ok) throw new Error(put.reason);
          tournaments++;
        }
      });
      for (const h of chunk) if (h.meta.tournament !== undefined) tournamentHands++;
      done += chunk.length;
      if (done % 100_000 === 0 || done === N) process.stderr.write(`\n  history: ${done.toLocaleString('en')} hands (generated in ${(genMs / 1000).toFixed(1)} s, imported in ${(importMs / 1000).toFixed(1)} s)`);
    }
    importMs += time(() => imp.finish());
    process.stderr.write(`\n  history: ${tournamentHands.toLocaleString('en')} tournament hands (${((100 * tournamentHands) / Math.max(1, N)).toFixed(1)} %), ${tournaments.toLocaleString('en')} tournaments\n`);
    if (!EXISTING) store.checkpoint();
    const bytes = statSync(file).size;

    // Results of a period: 20 random periods of 1 to 365 days, boundaries to the ms, by variant and stakes
    // (tournament money included: schema version 7's movements); the same periods by
    // local day; and their peer in the same run: better-sqlite3 alone summing the day totals of the
    // period's whole days (no edges, no tournaments: the floor of reading a period).
    const periodTimes: number[] = [];
    const periodDayTimes: number[] = [];
    const barePeriodTimes: number[] = [];
    const bare = new Database(file, { readonly: true });
    const bareSum = bare.prepare('SELECT money, variant, stakes, sum(hands), sum(net), sum(rake) FROM day_totals WHERE day >= ? AND day < ? GROUP BY money, variant, stakes').raw();
    for (let k = 0; k < 21; k++) {
      const from = YEAR_START - 10 * DAY + rnd(300) * DAY + rnd(DAY);
      const to = from + (1 + rnd(365)) * DAY + rnd(DAY);
      const t = time(() => {
        const r = store.results({ from, to, groupBy: 'stakes' });
        if (!r.ok) throw new Error(r.reason);
      });
      const td = time(() => {
        const r = store.results({ from, to, groupBy: 'day' });
        if (!r.ok) throw new Error(r.reason);
      });
      const tb = time(() => bareSum.all(Math.ceil(from / DAY), Math.floor(to / DAY)));
      if (k > 0) {
        // the first warms the statements
        periodTimes.push(t);
        periodDayTimes.push(td);
        barePeriodTimes.push(tb);
      }
    }
    bare.close();

    // A filtered page of 50: the filters a player uses, newest first or by result.
    const filters: [HandFilter, PageRequest['sort']][] = [
      [{ variant: 'THNL', result: 'won' }, 'time'],
      [{ tableId: 'o4hpl-10-20-2' }, 'time'],
      [{ from: YEAR_START + 100 * DAY, to: YEAR_START + 130 * DAY, showdown: true }, 'time'],
      [{ allIn: true, money: 'real' }, 'time'],
      [{ player: [...players][1] ?? 'me' }, 'time'],
      [{ variant: '7SHL', stakes: 50 }, 'time'],
      [{ variant: 'THNL' }, 'net'],
      [{ from: YEAR_START + 200 * DAY, to: YEAR_START + 207 * DAY }, 'net'],
      [{ result: 'lost', showdown: true }, 'net'],
      [{ variant: 'O4HPL', result: 'lost', from: YEAR_START + 30 * DAY }, 'time'],
      [{ player: 'me', result: 'won' }, 'net'],
      // Cash or tournament hands.
      [{ kind: 'cash', money: 'real' }, 'time'],
      [{ kind: 'tournament', from: YEAR_START + 60 * DAY }, 'time'],
    ];
    const pageTimes: number[] = [];
    const slowest = filters.map(() => 0);
    for (let round = 0; round < 3; round++) {
      for (const [i, [f, sort]] of filters.entries()) {
        let next: string | null = null;
        const t = time(() => {
          const r = store.page(f, { sort, dir: 'desc', limit: 50 });
          if (!r.ok) throw new Error(r.reason);
          next = r.next;
        });
        const t2 = time(() => {
          const r = store.page(f, { sort, dir: 'desc', limit: 50, cursor: next });
          if (!r.ok) throw new Error(r.reason);
        });
        if (round > 0) {
          pageTimes.push(t, t2);
          slowest[i] = Math.max(slowest[i], t, t2);
        }
      }
    }
    for (const [i, [f, sort]] of filters.entries()) process.stderr.write(`  page ${JSON.stringify(f)} by ${sort}: ${slowest[i].toFixed(2)} ms\n`);

    // Opening a hand: read by id and decoded, hand descriptions recomputed.
    const openTimes: number[] = [];
    for (let k = 0; k < 300; k++) {
      const id = ids[rnd(ids.length)];
      const t = time(() => {
        const r = store.getHand(id);
        if (!r.ok) throw new Error(r.reason);
      });
      if (k >= 20) openTimes.push(t);
    }
    // The results page (docs/stats.md): the graph's lines and the statistics of a period as the page
    // asks for them (this session, today, this week, this month: 1 to 31 days), real money, 2,000 points.
    const seriesTimes: number[] = [];
    const statsTimes: number[] = [];
    for (let k = 0; k < 21; k++) {
      const from = YEAR_START + rnd(330) * DAY + rnd(DAY);
      const filter: HandFilter = { from, to: from + (1 + rnd(31)) * DAY, money: 'real' };
      const ts = time(() => resultsSeries(store, filter, 2000));
      const tst = time(() => playerStats(store, filter));
      if (k > 0) {
        seriesTimes.push(ts);
        statsTimes.push(tst);
      }
    }
    const yearFilter: HandFilter = { from: YEAR_START, to: YEAR_START + 366 * DAY, money: 'real' };
    const yearSeries = time(() => resultsSeries(store, yearFilter, 2000));
    // A whole year's lines (DESIGN.md §5 ≤ 50 ms at 1,000,000 hands): median of 5, from the
    // hour pieces (schema version 5), and its peer in the same run: the same lines from every hand's row
    // (better-sqlite3 reading the covering index, then downsampled), which is how they were read before.
    const yearSeriesTimes: number[] = [];
    const yearRowsTimes: number[] = [];
    for (let k = 0; k < 5; k++) {
      yearSeriesTimes.push(time(() => resultsSeries(store, yearFilter, 2000)));
      yearRowsTimes.push(
        time(() => {
          const rows = store.resultRows(yearFilter);
          if (!rows.ok) throw new Error(rows.reason);
          seriesFromRows(rows, 2000);
        }),
      );
    }
    const yearStats = time(() => playerStats(store, yearFilter));
    process.stderr.write(
      `  results page: worst series ${Math.max(...seriesTimes).toFixed(2)} ms, worst stats ${Math.max(...statsTimes).toFixed(2)} ms (1 to 31 days); ` +
        `a whole year: series ${yearSeries.toFixed(1)} ms, stats ${yearStats.toFixed(1)} ms\n`,
    );
    // Tournaments: the list's first page and the results of a period (a year, by game), stderr only.
    const tournamentTimes: number[] = [];
    for (let k = 0; k < 6; k++) {
      tournamentTimes.push(
        time(() => {
          if (!store.tournamentHistory({}, 50, null).ok) throw new Error('tournament list refused');
          if (!store.tournamentResults({ from: YEAR_START, to: YEAR_START + 366 * DAY, money: 'real' }, 'variant').ok) throw new Error('tournament results refused');
        }),
      );
    }
    process.stderr.write(`  tournaments: list page + year's results ${median(tournamentTimes.slice(1)).toFixed(2)} ms\n`);
    const n = store.count();
    store.close();
    process.stderr.write(
      `  history: ${n.toLocaleString('en')} hands, ${(bytes / 1e6).toFixed(1)} MB; worst period ${Math.max(...periodTimes).toFixed(2)} ms, ` +
        `worst page ${Math.max(...pageTimes).toFixed(2)} ms, worst open ${Math.max(...openTimes).toFixed(2)} ms, worst period by day ${Math.max(...periodDayTimes).toFixed(2)} ms\n`,
    );
    const peer = EXISTING ? [] : [{ name: 'sqlite-insert-rows-per-s:better-sqlite3', unit: 'rows/s', value: bareInserts(join(dir, 'peer.sqlite'), Math.min(n, 200_000), bytes / n) }];
    return [
      ...peer,
      // An existing store (CERCLE_BENCH_STORE) times no import: `cercle generate` prints its own rate.
      ...(EXISTING ? [] : [{ name: 'history-import-hands-per-s:cercle', unit: 'hands/s', value: (n * 1000) / importMs }]),
      { name: 'history-results-period-ms:cercle', unit: 'ms', value: median(periodTimes) },
      { name: 'history-results-period-by-day-ms:cercle', unit: 'ms', value: median(periodDayTimes) },
      { name: 'history-results-period-ms:bare-day-totals-sum', unit: 'ms', value: median(barePeriodTimes) },
      { name: 'history-page-ms:cercle', unit: 'ms', value: median(pageTimes) },
      { name: 'history-open-hand-ms:cercle', unit: 'ms', value: median(openTimes) },
      { name: 'history-bytes-per-hand:cercle', unit: 'bytes', value: bytes / n },
      { name: 'history-series-ms:cercle', unit: 'ms', value: median(seriesTimes) },
      { name: 'history-stats-ms:cercle', unit: 'ms', value: median(statsTimes) },
      { name: 'history-series-year-ms:cercle', unit: 'ms', value: median(yearSeriesTimes) },
      { name: 'history-series-year-ms:per-hand-rows', unit: 'ms', value: median(yearRowsTimes) },
    ];
  } finally {
    if (!process.env.CERCLE_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${file}\n`);
  }
}
