/**
 * The history store at scale (DESIGN.md §5): bulk import ≥ 20,000 hands/s; results for any period
 * ≤ 20 ms, a filtered page of hands ≤ 20 ms, opening a hand ≤ 2 ms; ≤ 400 bytes per hand on disk.
 *
 * A year of a player's sessions: 2 to 5 six-max tables at once, of every variant and two stakes each,
 * real money (raked) and play money, about 70 hands an hour per table; opponents drawn from a pool
 * of a few thousand and staying a while; stacks carried from hand to hand. Every hand is played by
 * the engine with random legal moves (fold-heavy, as at a real table) and stored as the client gets
 * it: `recordOf(viewFor(final, hero))` (others' cards unknown unless shown). Hands are generated in
 * chunks outside the timing and fed to one `importer()` (commits every 20,000 hands); only its `add`
 * and `finish` calls are timed. N from `CERCLE_BENCH_HANDS` (default 200,000; the bars of §5 are
 * for 1,000,000); `CERCLE_BENCH_KEEP=1` keeps the file for inspection. Per-filter page times and
 * the worst cases go to stderr.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryStore, type HandFilter, type HandMeta, type PageRequest } from '../../electron/services/history/store';
import type { Card } from '../../shared/rules/cards';
import { apply, legalActions, reshuffleCards, startHand, viewFor } from '../../shared/rules/engine';
import type { Action, HandConfig, HandState, LegalActions } from '../../shared/rules/engine';
import { recordOf, type HandRecord } from '../../shared/rules/record';
import { makeTableRules, type TableRules } from '../../shared/rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../shared/rules/variants';
import type { BenchResult } from './types';

const N = Number(process.env.CERCLE_BENCH_HANDS ?? 200_000);
const CHUNK = 2_000; // small chunks: records waiting in memory would make the import pay for their garbage collection
const DAY = 86_400_000;
const HOUR = 3_600_000;
const YEAR_START = Date.UTC(2025, 0, 1);

// xorshift32: seeded, so that every run measures the same year.
let seed = 0x2545f491;
function rnd(n: number): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return ((seed >>> 0) % n) | 0;
}
function chance(p: number): boolean {
  return rnd(1_000_000) < p * 1_000_000;
}

// ---------------------------------------------------------------------------------------------
// Random legal play with a deck (R-DEAL).

const deck: Card[] = [];
let pos = 0;
function shuffle(from: number, to: number): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + rnd(i - from + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
}

function dealerMove(state: HandState, legal: LegalActions): Action {
  const req = legal.deal!;
  if (req.reshuffle) {
    const extra = reshuffleCards(state);
    const rest = deck.slice(pos);
    deck.length = 0;
    for (const c of rest) deck.push(c);
    for (const c of extra) if (c !== null) deck.push(c);
    pos = 0;
    shuffle(0, deck.length);
    return { type: 'reshuffle' };
  }
  const cards = deck.slice(pos, pos + req.count);
  pos += req.count;
  return { type: 'deal', seat: req.seat, cards };
}

function playerMove(state: HandState, legal: LegalActions): Action {
  const seat = legal.seat as number;
  if (legal.next === 'show') return legal.muck && chance(0.4) ? { type: 'muck', seat } : { type: 'show', seat };
  if (legal.next === 'draw') return { type: 'draw', seat, discards: state.seats[seat].hole.slice(0, rnd(Math.min(legal.draw!.max, 3) + 1)) };
  if (legal.bringIn !== null) return legal.bet !== null && chance(0.25) ? { type: 'bet', seat, to: legal.bet.min } : { type: 'bringIn', seat };
  const b = legal.bet;
  const x = rnd(100);
  // Fold-heavy before the flop, as at a real six-max table; bets are mostly the minimum or a pot-ish size.
  const foldP = state.street === 0 ? 62 : 40;
  if (legal.fold && x < foldP) return { type: 'fold', seat };
  if (b !== null && x >= 86) {
    const to = b.exact || x < 93 ? b.min : x < 97 ? Math.min(b.max, b.min * 2) : b.min + rnd(b.max - b.min + 1);
    return { type: 'bet', seat, to };
  }
  if (legal.call !== null) return { type: 'call', seat };
  if (legal.check) return { type: 'check', seat };
  return { type: 'fold', seat };
}

function play(config: HandConfig): HandState {
  let s = startHand(config);
  deck.length = 0;
  for (let c = 0; c < 52; c++) deck.push(c);
  pos = 0;
  shuffle(0, 52);
  for (;;) {
    const legal = legalActions(s);
    if (legal.next === 'done') return s;
    const r = apply(s, legal.next === 'deal' ? dealerMove(s, legal) : playerMove(s, legal));
    if (!r.ok) throw new Error(`${r.rule}: ${r.reason}`);
    s = r.state;
  }
}

// ---------------------------------------------------------------------------------------------
// A year of sessions.

interface TableKind {
  code: VariantCode;
  rules: TableRules;
  money: 'real' | 'play';
  buyIn: number;
  name: string;
}

const KINDS: TableKind[] = [];
for (const code of VARIANT_CODES) {
  const stud = VARIANTS[code].forcedBets === 'ante-bring-in';
  for (const [k, bb] of [20, 100].entries()) {
    const money = k === 1 && chance(0.3) ? 'play' : 'real';
    const rake = money === 'real' ? { basisPoints: 500, cap: bb * 3, noFlopNoDrop: true } : undefined;
    const rules = stud
      ? makeTableRules(code, { ante: bb / 10, bringIn: bb / 4, smallBet: bb / 2 }, { rake })
      : makeTableRules(code, { smallBlind: bb / 2, bigBlind: bb }, { rake });
    KINDS.push({ code, rules, money, buyIn: bb * 100, name: `${code.toLowerCase()}-${bb / 2}-${bb}` });
  }
}
// The player's favourites: Hold'em no limit and Omaha most, every variant sometimes.
const WEIGHTED: number[] = [];
for (let i = 0; i < KINDS.length; i++) {
  const w = KINDS[i].code === 'THNL' ? 8 : KINDS[i].code === 'O4HPL' ? 4 : 1;
  for (let k = 0; k < w; k++) WEIGHTED.push(i);
}
const POOL = Array.from({ length: 3000 }, (_, i) => `player${i.toString(36)}${i % 7 === 0 ? '_fr' : ''}`);

interface OpenTable {
  kind: TableKind;
  id: string;
  run: string;
  handNo: number;
  seats: { player: string; stack: number }[];
  hero: number;
  button: number;
  at: number;
}

function openTable(at: number): OpenTable {
  const kind = KINDS[WEIGHTED[rnd(WEIGHTED.length)]];
  const seats = Array.from({ length: 6 }, () => ({ player: POOL[rnd(POOL.length)], stack: kind.buyIn / 2 + rnd(kind.buyIn * 2) }));
  const hero = rnd(6);
  seats[hero] = { player: 'me', stack: kind.buyIn };
  return { kind, id: `${kind.name}-${1 + rnd(4)}`, run: (at + rnd(1e9)).toString(36), handNo: 0, seats, hero, button: rnd(6), at };
}

function nextHand(t: OpenTable): { meta: HandMeta; record: HandRecord } {
  const stud = t.kind.rules.bringIn > 0;
  // Opponents come and go; busted or deep stacks are replaced by a fresh buy-in.
  for (let i = 0; i < 6; i++) {
    const s = t.seats[i];
    if (i !== t.hero && (chance(0.02) || s.stack === 0)) t.seats[i] = { player: POOL[rnd(POOL.length)], stack: t.kind.buyIn / 2 + rnd(t.kind.buyIn * 2) };
    else if (i === t.hero && (s.stack === 0 || s.stack > t.kind.buyIn * 4)) s.stack = t.kind.buyIn;
  }
  t.button = (t.button + 1) % 6;
  const order = [1, 2, 3, 4, 5, 6].map((k) => (t.button + k) % 6);
  const config: HandConfig = {
    rules: t.kind.rules,
    seats: t.seats.map((s) => ({ ...s })),
    plan: stud
      ? { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: [0, 1, 2, 3, 4, 5] }
      : { button: t.button, smallBlind: order[0], bigBlind: order[1], extraBigBlinds: [], deadSmallBlinds: [], dealtIn: order },
    handId: `${t.id}-${t.run}-${++t.handNo}`,
  };
  const final = play(config);
  for (let i = 0; i < 6; i++) t.seats[i].stack = final.seats[i].stack;
  t.at += 35_000 + rnd(30_000);
  return { meta: { playedAt: t.at, tableId: t.id, money: t.kind.money, heroSeat: t.hero }, record: recordOf(viewFor(final, t.hero)) };
}

/** Sessions spread over the year, each 1 to 3 hours on 2 to 5 tables, until `n` hands. */
function* year(n: number): Generator<{ meta: HandMeta; record: HandRecord }> {
  let made = 0;
  const sessions = Math.max(1, Math.round(n / (3.5 * 2 * 70)));
  const starts = Array.from({ length: sessions }, () => YEAR_START + rnd(365 * 24) * HOUR + rnd(HOUR)).sort((a, b) => a - b);
  for (let k = 0; made < n; k++) {
    const start = starts[k % sessions] + Math.floor(k / sessions) * 7 * HOUR;
    const end = start + HOUR + rnd(2 * HOUR);
    const tables = Array.from({ length: 2 + rnd(4) }, () => openTable(start + rnd(60_000)));
    for (let live = true; live && made < n; ) {
      live = false;
      for (const t of tables) {
        if (t.at >= end || made >= n) continue;
        live = true;
        yield nextHand(t);
        made++;
      }
    }
  }
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

export default async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cercle-history-bench-'));
  const file = join(dir, 'history.sqlite');
  try {
    const store = HistoryStore.open(file, { utcOffsetMinutes: () => 60 });
    let importMs = 0;
    let genMs = 0;
    const ids: string[] = [];
    const players = new Set<string>();
    const gen = year(N);
    const imp = store.importer();
    for (let done = 0; done < N; ) {
      const chunk: { meta: HandMeta; record: HandRecord }[] = [];
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
      });
      done += chunk.length;
      if (done % 100_000 === 0 || done === N) process.stderr.write(`\n  history: ${done.toLocaleString('en')} hands (generated in ${(genMs / 1000).toFixed(1)} s, imported in ${(importMs / 1000).toFixed(1)} s)`);
    }
    importMs += time(() => imp.finish());
    process.stderr.write('\n');
    store.checkpoint();
    const bytes = statSync(file).size;

    // Results of a period: 20 random periods of 1 to 365 days, boundaries to the ms, by variant and stakes.
    const periodTimes: number[] = [];
    for (let k = 0; k < 21; k++) {
      const from = YEAR_START - 10 * DAY + rnd(300) * DAY + rnd(DAY);
      const to = from + (1 + rnd(365)) * DAY + rnd(DAY);
      const t = time(() => {
        const r = store.results({ from, to, groupBy: 'stakes' });
        if (!r.ok) throw new Error(r.reason);
      });
      if (k > 0) periodTimes.push(t); // the first warms the statements
    }

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
    const n = store.count();
    store.close();
    process.stderr.write(
      `  history: ${n.toLocaleString('en')} hands, ${(bytes / 1e6).toFixed(1)} MB; worst period ${Math.max(...periodTimes).toFixed(2)} ms, ` +
        `worst page ${Math.max(...pageTimes).toFixed(2)} ms, worst open ${Math.max(...openTimes).toFixed(2)} ms\n`,
    );
    return [
      { name: 'history-import-hands-per-s:cercle', unit: 'hands/s', value: (n * 1000) / importMs },
      { name: 'history-results-period-ms:cercle', unit: 'ms', value: median(periodTimes) },
      { name: 'history-page-ms:cercle', unit: 'ms', value: median(pageTimes) },
      { name: 'history-open-hand-ms:cercle', unit: 'ms', value: median(openTimes) },
      { name: 'history-bytes-per-hand:cercle', unit: 'bytes', value: bytes / n },
    ];
  } finally {
    if (!process.env.CERCLE_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${file}\n`);
  }
}
