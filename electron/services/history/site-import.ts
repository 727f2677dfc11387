/**
 * Importing the hand histories PokerStars and Winamax write (docs/exchange.md "Site files"), hand by
 * hand: every hand that can be read and played is stored, each other one is listed with its file,
 * line, hand id and reason, and a summary counts them (imported, already there, observed, refused by
 * kind). A hand without the player is stored as an observed hand, in no result; a hand keeps its
 * file's money (euros, dollars, pounds, play money, a tournament's chips), never converted (R-RESULTS). A file is streamed (64 KiB at a time, one hand held at a time), so a file of
 * many MB takes no more memory than a small one; hands are written 500 to a transaction. The same
 * hand imported again is recognised by its id (store.ts) and adds nothing.
 */
import { closeSync, createReadStream, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SiteHandSplitter, isSiteText, noHands, readSiteHand, type RefusalKind, type SiteChunk, type SiteHand } from '../../../shared/exchange/sites';
import { TABLE_ID_MAX } from '../../../shared/protocol/limits';
import type { HandRecord } from '../../../shared/rules/record';
import { moneyOfCurrency, type HandMoney } from '../../../shared/history/money';
import type { HandMeta, HistoryStore } from './store';

export interface RefusedHand {
  file: string;
  line: number;
  handId: string | null;
  kind: RefusalKind | 'store';
  reason: string;
}

export interface SiteImportSummary {
  files: number;
  /** Hand headers met. */
  hands: number;
  /** Stored now, observed hands included. */
  imported: number;
  already: number;
  /**
   * Of the hands stored now, those without the player (none of their names at the table, no seat's
   * cards dealt face down to the file's writer): kept as observed hands, in no result.
   */
  observed: number;
  refused: RefusedHand[];
  /** Refusals counted by kind. */
  byKind: Partial<Record<RefusedHand['kind'], number>>;
  /** Hands stored, by currency (`EUR`, `USD`, `GBP`, `play money`, `tournament chips`): never converted. */
  currencies: Record<string, number>;
}

/** A longer line is cut (a binary file, a hostile one): the hand it is in is then refused. */
const LINE_MAX = 64 * 1024;
const BATCH = 500;

/** The player's seat: one of their names, else the one seat whose face-down cards the file gives (the writer's own). */
export function heroSeatOf(record: HandRecord, heroNames: readonly string[]): number | null {
  const mine = record.seats.find((s) => s.dealtIn && heroNames.includes(s.player));
  if (mine) return mine.seat;
  const known = record.seats.filter((s) => s.dealtIn && s.cards.length > 0 && s.cards.every((c) => c !== null));
  if (known.length === 1) return known[0].seat;
  const dealt = new Set<number>();
  for (const e of record.actions) if (e.kind === 'deal' && e.seat !== null && e.cards.some((c, k) => c !== null && !e.up[k])) dealt.add(e.seat);
  return dealt.size === 1 ? [...dealt][0] : null;
}

/** The files of the paths given: a folder gives its `.txt` files, sorted, not its subfolders. */
export function siteFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) {
      for (const f of readdirSync(p).sort()) if (/\.txt$/i.test(f) && statSync(join(p, f)).isFile()) files.push(join(p, f));
    } else files.push(p);
  }
  return { files, missing };
}

/** The text encoding of a file from its first bytes: UTF-16 with its mark, else UTF-8, else Windows-1252 (older Winamax files). */
function encodingOf(file: string): { encoding: string; binary: boolean } {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    const b = head.subarray(0, n);
    if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', binary: false };
    if (b.includes(0)) return { encoding: 'utf-8', binary: true };
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b, { stream: true });
      return { encoding: 'utf-8', binary: false };
    } catch {
      return { encoding: 'windows-1252', binary: false };
    }
  } finally {
    closeSync(fd);
  }
}

/** The lines of a file, streamed. */
async function* linesOf(file: string, encoding: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding);
  let rest = '';
  for await (const buf of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    rest += decoder.decode(buf as Buffer, { stream: true });
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at).replace(/\r$/, '');
      rest = rest.slice(at + 1);
    }
    if (rest.length > LINE_MAX) {
      yield rest.slice(0, LINE_MAX);
      rest = '';
    }
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}

export class SiteImport {
  private readonly pending: { meta: HandMeta; record: HandRecord }[] = [];
  private readonly summary: SiteImportSummary = { files: 0, hands: 0, imported: 0, already: 0, observed: 0, refused: [], byKind: {}, currencies: {} };

  constructor(
    private readonly store: HistoryStore,
    private readonly heroNames: readonly string[],
    /** Asked between hands: true stops the reading (what is stored stays: each hand stands alone). */
    private readonly cancelled: () => boolean = () => false,
  ) {}

  /** Reads one file, hand by hand; what it stores is committed before it returns. */
  async file(file: string): Promise<void> {
    this.summary.files++;
    const { encoding, binary } = encodingOf(file);
    if (binary) {
      this.refuse({ file, line: 1, handId: null, kind: 'format', reason: 'a binary file, not a hand history' });
      return;
    }
    const before = this.summary.hands;
    const split = new SiteHandSplitter();
    for await (const line of linesOf(file, encoding)) {
      const c = split.push(line);
      if (c !== null) this.hand(file, c);
      if (c !== null && this.cancelled()) {
        this.flush(file);
        return;
      }
    }
    const last = split.end();
    if (last !== null) this.hand(file, last);
    const stray = split.stray();
    if (stray !== null) {
      const r = this.summary.hands === before ? noHands(stray) : { line: stray.line, handId: null, kind: 'format' as const, reason: `line ${stray.line} comes before the first hand and belongs to none` };
      this.refuse({ file, line: r.line, handId: null, kind: r.kind, reason: r.reason });
    }
    this.flush(file);
  }

  /** The summary of every file read so far. */
  finish(): SiteImportSummary {
    return this.summary;
  }

  private hand(file: string, chunk: SiteChunk): void {
    this.summary.hands++;
    const r = readSiteHand(chunk);
    if (!r.ok) {
      this.refuse({ file, line: r.line, handId: r.handId, kind: r.kind, reason: r.reason });
      return;
    }
    this.keep(file, r);
    if (this.pending.length >= BATCH) this.flush(file);
  }

  private keep(file: string, r: SiteHand): void {
    const m = r.hand.meta;
    const money = moneyOf(r);
    if (money === null) {
      // A currency kept apart from none of the others would be added to one of them: refused, said.
      this.refuse({ file, line: r.line, handId: r.handId, kind: 'store', reason: `the currency ${String(r.currency)} is not one the results keep apart (EUR, USD, GBP)` });
      return;
    }
    const currency = r.currency ?? (m.tournament !== undefined ? 'tournament chips' : 'play money');
    this.summary.currencies[currency] = (this.summary.currencies[currency] ?? 0) + 1;
    this.pending.push({
      record: r.hand.record,
      meta: {
        playedAt: m.endedAt ?? 0,
        tableId: (m.tableName ?? 'import').slice(0, TABLE_ID_MAX) || 'import',
        money,
        heroSeat: heroSeatOf(r.hand.record, this.heroNames),
        ...(m.tournament !== undefined ? { tournament: { tournamentId: m.tournament.tournamentId, level: m.tournament.level } } : {}),
      },
    });
  }

  private flush(file: string): void {
    if (this.pending.length === 0) return;
    const list = this.pending.splice(0);
    // The observed hands apart, so that the summary says how many of those stored are observed.
    for (const observed of [false, true]) {
      const part = list.filter((h) => (h.meta.heroSeat === null) === observed);
      if (part.length === 0) continue;
      const r = this.store.addHands(part);
      this.summary.imported += r.stored;
      this.summary.already += r.duplicates;
      if (observed) this.summary.observed += r.stored;
      for (const x of r.refused) this.refuse({ file, line: 0, handId: part[x.index].record.handId, kind: 'store', reason: x.reason });
    }
  }

  private refuse(r: RefusedHand): void {
    this.summary.refused.push(r);
    this.summary.byKind[r.kind] = (this.summary.byKind[r.kind] ?? 0) + 1;
  }
}

/**
 * The money a site's hand is counted in: a tournament's hand is in its chips; a cash hand in its
 * file's currency, or play money when the file names none; null for a currency not kept apart.
 */
function moneyOf(r: SiteHand): HandMoney | null {
  if (r.hand.meta.tournament !== undefined) return 'chips';
  if (r.currency === null) return 'play';
  return moneyOfCurrency(r.currency);
}

/** Imports the files and folders given into the store; the summary says what became of every hand. */
export async function importSiteFiles(store: HistoryStore, files: readonly string[], heroNames: readonly string[]): Promise<SiteImportSummary> {
  const imp = new SiteImport(store, heroNames);
  for (const f of files) await imp.file(f);
  return imp.finish();
}

/** Whether a file starts with a site's hand (its first 64 KiB, in any of the encodings read). */
export function isSiteFile(file: string): boolean {
  const { encoding, binary } = encodingOf(file);
  if (binary) return false;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = readSync(fd, head, 0, head.length, 0);
    return isSiteText(new TextDecoder(encoding).decode(head.subarray(0, n)));
  } finally {
    closeSync(fd);
  }
}

/** One line for the History page's job: the refusals by kind and the first one, with its line and hand. */
export function refusalsText(s: SiteImportSummary): string | null {
  if (s.refused.length === 0) return null;
  const kinds = Object.entries(s.byKind).map(([k, n]) => `${k} ${n}`).join(', ');
  const r = s.refused[0];
  return `${s.refused.length} hand(s) refused (${kinds}); first at line ${r.line}${r.handId !== null ? `, hand ${r.handId}` : ''}: ${r.reason}`;
}
