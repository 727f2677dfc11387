/**
 * The history's long jobs, off the main thread (DESIGN.md §3 "Long work (bulk import, export) runs
 * off the main thread"): a worker_threads entry started by jobs.ts for one job, with its own
 * connection to the same history file.
 *
 * - import: reads the uploaded file, recognises its format, and has shared/exchange play every hand
 *   again (all or nothing: a corrupt file reports its line and stores nothing), then stores them in
 *   ONE transaction (`importer({ batch: Infinity })`): a cancel, an error or a crash rolls everything
 *   back, so a file is stored whole or not at all. Duplicates (hands already stored) are counted.
 * - export: pages the filtered hands oldest first, decodes them and writes the file a chunk at a time
 *   (a year of hands never sits in memory as one text), exactly as `exportHands` writes the whole.
 *
 * Cancel: `control` is shared memory (Int32Array [cancel, writing]). The main thread sets `cancel`;
 * the worker checks it between chunks. Before writing anything the worker claims `writing` (0 → 1);
 * main claims it (0 → -1) to stop a job that has not started writing, and then terminates the
 * worker outright (nothing to roll back): parsing a big file is one long call that cannot look at
 * the flag. The job reports with messages: progress, then done or failed or cancelled.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  detectFormat,
  exchangeFileTooLarge,
  exportHands,
  importHands,
  isSiteText,
  isSummaryText,
  readPokerstarsSummaries,
  writePokerstarsSummaries,
  type ExchangeFormat,
  type ExchangeHand,
  type ImportResult,
} from '../../../shared/exchange';
import type { HistoryFilter } from '../../../shared/api';
import { EXCHANGE_FILE_MAX_BYTES, TABLE_ID_MAX } from '../../../shared/protocol/limits';
import type { ReaderData } from './reader';
import { runReader } from './reader-worker';
import { isSiteFile, refusalsText, SiteImport } from './site-import';
import { HistoryStore, type HandMeta } from './store';
import type { HandRecord } from '../../../shared/rules/record';
import { bookOf, exchangeMetaOf, heroOfTournament, localTournamentId, summariesOf, summaryTournaments, tournamentLookup } from './tournament-exchange';

/** What an export writes: hands in an exchange format, or the tournaments' summaries. */
export type ExportFormat = ExchangeFormat | 'pokerstars-summary';
/** What an import reads: a format, or `auto` (hands in any format, or PokerStars tournament summaries). */
export type ImportFormat = ExchangeFormat | 'pokerstars-summary' | 'auto';

export type WorkerJob = { cercleHistoryJob: true } & (
  | { kind: 'import'; history: string; input: string; format: ImportFormat; heroNames: string[]; now: number; control: SharedArrayBuffer }
  | { kind: 'export'; history: string; out: string; format: ExportFormat; filter: HistoryFilter; handId?: string; heroNames?: string[]; control: SharedArrayBuffer }
);

export type WorkerReport =
  | { type: 'progress'; phase: 'read' | 'parse' | 'store' | 'export'; done: number; total: number }
  | { type: 'done'; done: number; total: number; stored: number; duplicates: number; skipped: number; observed?: number; refused?: number; line?: number | null; message?: string | null }
  | { type: 'cancelled'; done: number; total: number }
  | { type: 'failed'; message: string; line: number | null };

export const CANCEL = 0;
export const WRITING = 1;

const STORE_CHUNK = 500;
/** Hands parsed a piece at a time (progress, cancel). */
const PARSE_CHUNK = 200;
const EXPORT_CHUNK = 500;
/** Longest table id the client API carries. */

function post(r: WorkerReport): void {
  parentPort?.postMessage(r);
}

/**
 * Whose hands these are: the files carry no "hero". The player is the name found in the most hands
 * (a player's own history: every hand), preferring the names given (the account's); in each hand the
 * hero is that player's seat, else the one seat whose cards are all known (a seat's own view).
 */
export function heroSeats(hands: readonly { record: HandRecord }[], heroNames: readonly string[]): (number | null)[] {
  const count = new Map<string, number>();
  for (const h of hands) for (const s of h.record.seats) if (s.dealtIn) count.set(s.player, (count.get(s.player) ?? 0) + 1);
  let hero: string | null = null;
  for (const n of heroNames) if ((count.get(n) ?? 0) > 0 && (hero === null || count.get(n)! > count.get(hero)!)) hero = n;
  if (hero === null) {
    let best = 0;
    for (const [n, c] of count) if (c > best) [hero, best] = [n, c];
  }
  return hands.map((h) => {
    const mine = h.record.seats.find((s) => s.player === hero && s.dealtIn);
    if (mine) return mine.seat;
    const known = h.record.seats.filter((s) => s.dealtIn && s.cards.length > 0 && s.cards.every((c) => c !== null));
    return known.length === 1 ? known[0].seat : null;
  });
}

/** Where each hand of a file starts (0-based line), when the file has the plain shape Cercle writes; else null. */
function handStarts(format: ExchangeFormat, lines: readonly string[]): number[] | null {
  const starts: number[] = [];
  if (format === 'pokerstars') {
    for (let i = 0; i < lines.length; i++) if (lines[i].startsWith('PokerStars Hand #')) starts.push(i);
  } else if (format === 'phh') {
    for (let i = 0; i < lines.length; i++) if (/^\[[^\]]+\]\s*$/.test(lines[i])) starts.push(i);
  } else {
    // One <Evenements> root right after the declaration, one <POJEU> per hand at the first level.
    let last = lines.length - 1;
    while (last > 0 && lines[last].trim() === '') last--;
    if (!/^<\?xml[^>]*\?>$/.test(lines[0] ?? '') || lines[1] !== '<Evenements>' || lines[last] !== '</Evenements>') return null;
    for (let i = 2; i < last; i++) {
      if (lines[i] === '  <POJEU>') starts.push(i);
      else if (/^\S|^ [^ ]|^ {2}[^ <]|^ {2}<(?!\/?POJEU>)/.test(lines[i])) return null; // anything else at the first level
    }
  }
  return starts.length > 0 ? starts : null;
}

/**
 * `importHands` a piece at a time, for progress and cancel: the file is cut where hands start (only
 * when it has the plain shape: PokerStars hands, PHH tables `[n]`, POJEU `<POJEU>` elements of one
 * `<Evenements>` root), each piece is read as its own text and a problem's line is mapped back to the
 * file's. Any other shape is read whole. The result is the same as reading the whole text.
 */
export function parseInChunks(format: ExchangeFormat, text: string, progress: (done: number, total: number) => void, cancelled: () => boolean, chunk = PARSE_CHUNK): ImportResult | 'cancelled' {
  const lines = text.split('\n');
  const starts = handStarts(format, lines);
  if (starts === null || starts.length <= chunk) {
    const r = importHands(format, text);
    progress(starts?.length ?? 0, starts?.length ?? 0);
    return r;
  }
  const pojeu = format === 'pojeu';
  const end = pojeu ? lines.lastIndexOf('</Evenements>') : lines.length;
  const hands: ExchangeHand[] = [];
  for (let k = 0; k < starts.length; k += chunk) {
    if (cancelled()) return 'cancelled';
    const from = k === 0 && !pojeu ? 0 : starts[k];
    const to = k + chunk < starts.length ? starts[k + chunk] : end;
    let piece = lines.slice(from, to).join('\n');
    let offset = from;
    if (pojeu) {
      piece = `${lines[0]}\n<Evenements>\n${piece}\n</Evenements>\n`;
      offset -= 2;
    }
    const r = importHands(format, piece);
    if (!r.ok) return { ok: false, line: r.line + offset, message: r.message };
    for (const h of r.hands) hands.push(h);
    progress(Math.min(starts.length, k + chunk), starts.length);
  }
  return { ok: true, hands };
}

/**
 * The hands of a file as the store takes them: the hero's seat found (hands without one are skipped),
 * the time, table and money kind the file says. A file that does not say its money kind (PHH or
 * PokerStars text from another tool) is real money: other tools' files most often are; Cercle's own
 * exports always say it (docs/exchange.md).
 */
export function importedHands(
  hands: readonly ExchangeHand[],
  format: ExchangeFormat,
  heroNames: readonly string[],
  now: number,
  /** The stored tournament a file's tournament id is (tournament-exchange.ts `localTournamentId`). */
  localId: (tournamentId: string) => string = (id) => id,
): { list: { meta: HandMeta; record: HandRecord }[]; skipped: number } {
  const seats = heroSeats(hands, heroNames);
  const list: { meta: HandMeta; record: HandRecord }[] = [];
  let skipped = 0;
  for (let i = 0; i < hands.length; i++) {
    const seat = seats[i];
    if (seat === null) {
      skipped++;
      continue;
    }
    const m = hands[i].meta;
    list.push({
      record: hands[i].record,
      meta: {
        playedAt: m.endedAt ?? now,
        tableId: (m.tableName ?? `import-${format}`).slice(0, TABLE_ID_MAX) || `import-${format}`,
        money: m.money ?? 'real',
        heroSeat: seat,
        // A tournament's hand keeps its tournament and level; its entry is the summary's.
        ...(m.tournament !== undefined ? { tournament: { tournamentId: localId(m.tournament.tournamentId), level: m.tournament.level } } : {}),
      },
    });
  }
  return { list, skipped };
}

/**
 * A file as PokerStars or Winamax write it (docs/exchange.md "Site files"): streamed and read hand by
 * hand (site-import.ts), each readable hand stored, each other one counted and the first named.
 */
async function runSiteImport(job: Extract<WorkerJob, { kind: 'import' }>, control: Int32Array): Promise<void> {
  if (Atomics.compareExchange(control, WRITING, 0, 1) !== 0 || Atomics.load(control, CANCEL) !== 0) {
    post({ type: 'cancelled', done: 0, total: 0 });
    return;
  }
  const store = HistoryStore.open(job.history);
  try {
    const imp = new SiteImport(store, job.heroNames, () => Atomics.load(control, CANCEL) !== 0);
    await imp.file(job.input);
    const s = imp.finish();
    const first = s.refused[0];
    // Nothing in the file could be read: the import failed, at its first refused hand's line.
    if (first && s.imported + s.already === 0) post({ type: 'failed', line: first.line > 0 ? first.line : null, message: refusalsText(s)! });
    else post({ type: 'done', done: s.hands, total: s.hands, stored: s.imported, duplicates: s.already, skipped: 0, observed: s.observed, refused: s.refused.length, line: first && first.line > 0 ? first.line : null, message: refusalsText(s) });
  } finally {
    store.close();
  }
}

/** The first header of Cercle's own PokerStars-style export (shared/exchange/pokerstars.ts writes it so). */
const CERCLE_OWN = /^\uFEFF?PokerStars Hand #\d+: (?:[^(\n]+ \(\d+\/\d+\) - [\d/: ]+ UTC \[|Tournament #\d+, (?:€[\d.]+\+€[\d.]+ EUR|\d+\+\d+|Freeroll ) )/;

function runImport(job: Extract<WorkerJob, { kind: 'import' }>, control: Int32Array): void | Promise<void> {
  post({ type: 'progress', phase: 'read', done: 0, total: 0 });
  // Refused up front, before it is read, over the bound docs/exchange.md states.
  const size = statSync(job.input).size;
  // A site's file is streamed: no bound on its size (one hand is held at a time).
  if (size > EXCHANGE_FILE_MAX_BYTES && job.format === 'auto' && isSiteFile(job.input)) return runSiteImport(job, control);
  if (size > EXCHANGE_FILE_MAX_BYTES) {
    post({ type: 'failed', message: exchangeFileTooLarge(size), line: null });
    return;
  }
  const text = readFileSync(job.input, 'utf8');
  if (job.format === 'pokerstars-summary' || (job.format === 'auto' && isSummaryText(text))) {
    runSummaryImport(job, text, control);
    return;
  }
  const format = job.format === 'auto' ? detectFormat(text) : job.format;
  if (format === null && job.format === 'auto' && isSiteText(text)) return runSiteImport(job, control);
  if (format === null) {
    post({ type: 'failed', message: 'not a POJEU, PHH or PokerStars hand history', line: 1 });
    return;
  }
  post({ type: 'progress', phase: 'parse', done: 0, total: 0 });
  const parsed = parseInChunks(
    format,
    text,
    (done, total) => post({ type: 'progress', phase: 'parse', done, total }),
    () => Atomics.load(control, CANCEL) !== 0,
  );
  if (parsed === 'cancelled') {
    post({ type: 'cancelled', done: 0, total: 0 });
    return;
  }
  // Not Cercle's own PokerStars text (its cash hands are dated `… UTC [… ET]`, its tournament
  // tables named `'<n> <t>'`): the site's, read hand by hand.
  if (!parsed.ok && job.format === 'auto' && format === 'pokerstars' && isSiteText(text) && !CERCLE_OWN.test(text.slice(0, 400))) return runSiteImport(job, control);
  if (!parsed.ok) {
    post({ type: 'failed', message: parsed.message, line: parsed.line });
    return;
  }
  // A PokerStars tournament number is the stored tournament that has it (importing one's own export adds nothing).
  let localId: (id: string) => string = (id) => id;
  if (parsed.hands.some((h) => h.meta.tournament !== undefined)) {
    const reader = HistoryStore.open(job.history, { readonly: true });
    try {
      localId = localTournamentId(bookOf(reader));
    } finally {
      reader.close();
    }
  }
  const { list, skipped } = importedHands(parsed.hands, format, job.heroNames, job.now, localId);
  // From here on the file is written: main may no longer terminate this thread, only ask it to stop.
  if (Atomics.compareExchange(control, WRITING, 0, 1) !== 0 || Atomics.load(control, CANCEL) !== 0) {
    post({ type: 'cancelled', done: 0, total: list.length });
    return;
  }
  const store = HistoryStore.open(job.history);
  try {
    const imp = store.importer({ batch: Infinity });
    let done = 0;
    let refused = 0;
    for (let i = 0; i < list.length; i += STORE_CHUNK) {
      if (Atomics.load(control, CANCEL) !== 0) {
        imp.abort();
        post({ type: 'cancelled', done, total: list.length });
        return;
      }
      const r = imp.add(list.slice(i, i + STORE_CHUNK));
      refused += r.refused.length;
      done = Math.min(list.length, i + STORE_CHUNK);
      post({ type: 'progress', phase: 'store', done, total: list.length });
    }
    if (refused > 0) {
      // A hand the store refuses (should not happen after the engine played it): all or nothing.
      imp.abort();
      post({ type: 'failed', message: `${refused} hand(s) could not be stored`, line: null });
      return;
    }
    const total = imp.finish();
    post({ type: 'done', done: list.length, total: list.length, stored: total.stored, duplicates: total.duplicates, skipped });
  } finally {
    store.close();
  }
}

/**
 * A file of PokerStars tournament summaries: every summary read (all or nothing, the
 * line of the first problem), then stored as tournaments in ONE transaction (store.ts
 * `addTournaments`): one that cannot be stored is named (its place, tournament and line) and none of
 * the file is stored; a tournament already stored is a duplicate and stays as it is.
 */
function runSummaryImport(job: Extract<WorkerJob, { kind: 'import' }>, text: string, control: Int32Array): void {
  post({ type: 'progress', phase: 'parse', done: 0, total: 0 });
  const r = readPokerstarsSummaries(text, job.heroNames);
  if (!r.ok) {
    post({ type: 'failed', message: r.message, line: r.line });
    return;
  }
  const list = r.summaries.map((s) => s.tournament);
  if (Atomics.compareExchange(control, WRITING, 0, 1) !== 0 || Atomics.load(control, CANCEL) !== 0) {
    post({ type: 'cancelled', done: 0, total: list.length });
    return;
  }
  const store = HistoryStore.open(job.history);
  try {
    post({ type: 'progress', phase: 'store', done: 0, total: list.length });
    const localId = localTournamentId(bookOf(store));
    // One transaction for the file, as for hands: a summary that cannot be stored leaves none stored.
    const done = store.addTournaments(list.map((t) => ({ ...t, tournamentId: localId(t.tournamentId) })));
    if (!done.ok) {
      const i = done.index;
      const which = i === null ? `the ${list.length} summaries` : `summary ${i + 1} of ${list.length} (tournament #${r.summaries[i].tournament.tournamentId}, line ${r.summaries[i].line})`;
      post({ type: 'failed', message: `${which} could not be stored, so none of the file was: ${done.reason}`, line: i === null ? null : r.summaries[i].line });
      return;
    }
    post({ type: 'done', done: list.length, total: list.length, stored: done.stored, duplicates: done.duplicates, skipped: 0 });
  } finally {
    store.close();
  }
}

/**
 * Writes `format` a chunk at a time so that the file equals `exportHands(format, all)`: the POJEU
 * `<Evenements>` root once, PHH tables numbered on, PokerStars hands two blank lines apart. A chunk
 * never holds a single hand unless the whole export is one (a lone hand is written without a root).
 */
export class ChunkedExport {
  private written = 0;
  private pending: ExchangeHand[] = [];
  private readonly fd: number;
  constructor(
    private readonly format: ExchangeFormat,
    file: string,
    private readonly chunk = EXPORT_CHUNK,
  ) {
    this.fd = openSync(file, 'w');
  }

  add(h: ExchangeHand): void {
    this.pending.push(h);
    // A chunk holds two hands at least: a lone hand is written without a root (POJEU) or number (PHH).
    const n = Math.max(2, this.chunk);
    if (this.pending.length >= n + 2) this.flush(n, false);
  }

  private flush(n: number, last: boolean): void {
    const hands = this.pending.splice(0, n);
    const first = this.written === 0;
    this.written += hands.length;
    if (first && last) {
      writeSync(this.fd, exportHands(this.format, hands));
      return;
    }
    let text = exportHands(this.format, hands);
    if (this.format === 'pojeu') {
      const open = text.indexOf('<Evenements>\n') + '<Evenements>\n'.length;
      const close = text.lastIndexOf('</Evenements>');
      text = (first ? text.slice(0, open) : '') + text.slice(open, close) + (last ? text.slice(close) : '');
    } else if (this.format === 'phh') {
      const offset = this.written - hands.length;
      text = text.replace(/^\[(\d+)\]$/gm, (_, k: string) => `[${Number(k) + offset}]`);
      if (!first) text = '\n\n' + text;
      if (!last) text = text.replace(/\n$/, '');
    } else {
      if (!first) text = '\n\n\n' + text;
      if (!last) text = text.replace(/\n$/, '');
    }
    writeSync(this.fd, text);
  }

  /** Writes what is left and closes the file. */
  finish(): void {
    try {
      if (this.pending.length > 0 || this.written === 0) this.flush(this.pending.length, true);
    } finally {
      closeSync(this.fd);
    }
  }

  /** Closes without finishing (the caller removes the file). */
  close(): void {
    closeSync(this.fd);
  }
}

/** A page of the hands to export: the filter's, or only the hand asked for (unknown: none). */
function exportPage(store: HistoryStore, job: Extract<WorkerJob, { kind: 'export' }>, cursor: string | null): ReturnType<HistoryStore['page']> {
  if (job.handId === undefined) return store.page(job.filter, { sort: 'time', dir: 'asc', limit: 200, cursor });
  const h = cursor === null ? store.getHand(job.handId) : null;
  return { ok: true, hands: h?.ok ? [h.summary] : [], next: null };
}

function countHands(store: HistoryStore, job: Extract<WorkerJob, { kind: 'export' }>): number {
  let n = 0;
  let cursor: string | null = null;
  do {
    const p = exportPage(store, job, cursor);
    if (!p.ok) throw new Error(p.reason);
    n += p.hands.length;
    cursor = p.next;
  } while (cursor !== null);
  return n;
}

/**
 * The stored tournaments' summaries: those that ended in the filter's period (and
 * its money, game, tournament), oldest first, in the PokerStars summary form. Tournaments not over are
 * left out (counted as skipped).
 */
function runSummaryExport(job: Extract<WorkerJob, { kind: 'export' }>, store: HistoryStore): void {
  const list = summaryTournaments(bookOf(store), job.filter);
  post({ type: 'progress', phase: 'export', done: 0, total: list.length });
  const { summaries, notOver } = summariesOf(list, (id) => heroOfTournament(store, id), job.heroNames ?? []);
  writeFileSync(job.out, writePokerstarsSummaries(summaries));
  post({ type: 'done', done: summaries.length, total: list.length, stored: 0, duplicates: 0, skipped: notOver });
}

function runExport(job: Extract<WorkerJob, { kind: 'export' }>, control: Int32Array): void {
  const store = HistoryStore.open(job.history);
  let out: ChunkedExport | null = null;
  let complete = false;
  try {
    if (job.format === 'pokerstars-summary') {
      runSummaryExport(job, store);
      complete = true;
      return;
    }
    const total = countHands(store, job);
    post({ type: 'progress', phase: 'export', done: 0, total });
    out = new ChunkedExport(job.format, job.out);
    // A tournament hand is written with its tournament's entry and name.
    const tournamentOf = tournamentLookup(bookOf(store));
    let done = 0;
    let cursor: string | null = null;
    do {
      if (Atomics.load(control, CANCEL) !== 0) {
        post({ type: 'cancelled', done, total });
        return;
      }
      const p = exportPage(store, job, cursor);
      if (!p.ok) throw new Error(p.reason);
      for (const s of p.hands) {
        const h = store.getHand(s.handId);
        if (!h.ok) throw new Error(h.reason);
        out.add({ record: h.record, meta: exchangeMetaOf(s, tournamentOf) });
      }
      done += p.hands.length;
      post({ type: 'progress', phase: 'export', done, total });
      cursor = p.next;
    } while (cursor !== null);
    out.finish();
    complete = true;
    post({ type: 'done', done, total, stored: 0, duplicates: 0, skipped: 0 });
  } finally {
    store.close();
    if (!complete) {
      try {
        out?.close();
      } catch {
        // already closed
      }
      try {
        unlinkSync(job.out);
      } catch {
        // never created
      }
    }
  }
}

function main(): void {
  // The same bundle (history-worker.cjs) runs the history's reader thread (reader.ts).
  if ((workerData as Partial<ReaderData> | undefined)?.cercleHistoryReader === true) {
    runReader(workerData as ReaderData);
    return;
  }
  // Only in a thread started by jobs.ts (a test runner's own worker threads import this file too).
  const job = workerData as WorkerJob | undefined;
  if (!parentPort || typeof job !== 'object' || job === null || job.cercleHistoryJob !== true) return;
  const control = new Int32Array(job.control);
  try {
    if (job.kind === 'import') {
      const pending = runImport(job, control);
      pending?.catch((e: unknown) => post({ type: 'failed', message: e instanceof Error ? e.message : String(e), line: null }));
    } else runExport(job, control);
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e), line: null });
  }
}

main();
