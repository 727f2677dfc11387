/**
 * Hands missing locally, fetched from the operator's history (R-HISTORY: "the client keeps at least
 * 366 days locally and can fetch it from the operator"): hands this account played on another
 * device, or here while the client was not running to store them (a crash, an import holding main's
 * writes when the client stopped).
 *
 * On every authenticated connection (client/history.ts), the operator's history of this account is read newest
 * first, a page at a time (`link.history`, 50 hands a page), and every hand not stored yet is stored
 * (the store keeps a hand once by its id: a hand already here is a duplicate, not an error). Where
 * to stop: a mark kept per operator and account (`history-sync.json` in the data folder) says up to
 * when every hand of the operator's history is known here; the next sync reads back to that time (less
 * a margin), not the whole year again. The first sync reads the whole year the operator keeps.
 *
 * What the local store needs besides the record (HandMeta): `playedAt` is the hand's `endedAt`, the
 * table id the operator's, the hero seat the seat of this account's username in the record (a hand
 * without it is not the player's and is skipped), and the money kind is the table's in the lobby; the
 * history protocol does not carry it, so a table no longer in the lobby is play money for a guest
 * (guests play only play money) and real money for an account. A tournament's hand carries its
 * tournament and level (`HistoryHand.tournament`), kept in `HandMeta.tournament`.
 *
 * Tournaments: after the hands, the account's finished tournaments are read the same
 * way (`tournament.results`, newest first, a page at a time) and each is stored with `putTournament`
 * (an upsert by tournament id: twice is once), back to a mark of their own in the same file (the key
 * `<operator> <username> tournaments`).
 */
import { readFileSync, mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../../shared/node/atomic-file';
import { dirname } from 'node:path';
import type { TournamentRecordView } from '../../../shared/api/tournaments';
import type { HistoryHand } from '../../../shared/protocol/messages';
import type { TournamentResult } from '../../../shared/protocol/tournament';
import type { HandRecord } from '../../../shared/rules/record';
import type { AddResult, HandMeta, MoneyKind } from './store';

export const SYNC_FILE = 'history-sync.json';
/** Hands of a page may end a little out of order: read back this far past the mark. */
const MARGIN_MS = 10 * 60_000;
/** At most this many pages a sync (a year of heavy play is about 4,000). */
const MAX_PAGES = 20_000;

type Reply<T> = ({ ok: true } & T) | { ok: false; code: string; message: string };

export interface SyncSource {
  history(cursor: string | null, limit?: number): Promise<Reply<{ hands: HistoryHand[]; next: string | null }>>;
}

export interface TournamentSyncSource {
  tournamentResults(cursor: string | null, limit?: number): Promise<Reply<{ results: TournamentResult[]; next: string | null }>>;
}

export interface SyncOptions {
  source: SyncSource;
  /** The account signed in. */
  username: string;
  guest: boolean;
  /** Which operator (its URL): marks are kept per operator and account. */
  operator: string;
  /** Where stored hands go (main's write gate, jobs.ts). */
  add: (meta: HandMeta, record: HandRecord) => AddResult;
  /** The money kind of a table of the lobby, or null. */
  moneyOf: (tableId: string) => MoneyKind | null;
  /** The marks file (`<dataDir>/history-sync.json`). */
  marksFile: string;
  /** Stop early (the link changed, the client closes). */
  stopped?: () => boolean;
  /** The account's finished tournaments, and where they are stored. */
  tournaments?: { source: TournamentSyncSource; put: (t: TournamentRecordView) => void };
}

export interface SyncResult {
  ok: boolean;
  /** Why it stopped early (a refused request, the link gone). */
  reason?: string;
  pages: number;
  fetched: number;
  stored: number;
  duplicates: number;
  /** Hands without this account's seat, or refused by the store. */
  skipped: number;
  /** Finished tournaments read and stored (upserted). */
  tournaments?: number;
}

function readMarks(file: string): Record<string, number> {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof v !== 'object' || v === null) return {};
    const out: Record<string, number> = {};
    for (const [k, x] of Object.entries(v)) if (Number.isSafeInteger(x)) out[k] = x as number;
    return out;
  } catch {
    return {};
  }
}

function writeMarks(file: string, marks: Record<string, number>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify(marks, null, 1)); // whole or not at all (shared/node/atomic-file.ts)
}

export async function syncHistory(o: SyncOptions): Promise<SyncResult> {
  const key = `${o.operator} ${o.username}`;
  const marks = readMarks(o.marksFile);
  const mark = marks[key] ?? null;
  const r: SyncResult = { ok: true, pages: 0, fetched: 0, stored: 0, duplicates: 0, skipped: 0 };
  let newest: number | null = null;
  let cursor: string | null = null;
  for (;;) {
    if (o.stopped?.()) return { ...r, ok: false, reason: 'stopped' };
    if (r.pages >= MAX_PAGES) break;
    const page = await o.source.history(cursor);
    if (!page.ok) return { ...r, ok: false, reason: `${page.code}: ${page.message}` };
    r.pages++;
    let reachedMark = false;
    for (const h of page.hands) {
      r.fetched++;
      if (newest === null || h.endedAt > newest) newest = h.endedAt;
      if (mark !== null && h.endedAt < mark - MARGIN_MS) reachedMark = true;
      const seat = h.record.seats.find((s) => s.player === o.username && s.dealtIn);
      if (seat === undefined) {
        r.skipped++;
        continue;
      }
      const money = o.moneyOf(h.tableId) ?? (o.guest ? 'play' : 'real');
      const meta: HandMeta = { playedAt: h.endedAt, tableId: h.tableId, money, heroSeat: seat.seat };
      if (h.tournament) meta.tournament = h.tournament; // chips, not money
      const a = o.add(meta, h.record);
      if (a.stored) r.stored++;
      else if (a.duplicate) r.duplicates++;
      else r.skipped++;
    }
    if (reachedMark || page.next === null) break;
    cursor = page.next;
  }
  // Everything up to the newest hand read is known here now.
  if (newest !== null && (mark === null || newest > mark)) setMark(o.marksFile, key, newest);
  if (o.tournaments) {
    const t = await syncTournaments(o, o.tournaments);
    r.tournaments = t.stored;
    if (!t.ok) return { ...r, ok: false, reason: t.reason };
  }
  return r;
}

function setMark(file: string, key: string, value: number): void {
  const marks = readMarks(file);
  marks[key] = value;
  try {
    writeMarks(file, marks);
  } catch {
    // Not kept: the next sync reads further back, nothing is lost.
  }
}

/** A finished tournament of the operator's results as the local record keeps it. */
export function tournamentRecordOf(t: TournamentResult): TournamentRecordView {
  // The operator's results do not say when the player registered: the start stands for it.
  return { ...t, registeredAt: t.startedAt, hands: 0 };
}

/** The account's finished tournaments back to the mark, each stored once (an upsert by id). */
async function syncTournaments(o: SyncOptions, t: NonNullable<SyncOptions['tournaments']>): Promise<{ ok: boolean; reason?: string; stored: number }> {
  const key = `${o.operator} ${o.username} tournaments`;
  const mark = readMarks(o.marksFile)[key] ?? null;
  let stored = 0;
  let failed = 0;
  let newest: number | null = null;
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    if (o.stopped?.()) return { ok: false, reason: 'stopped', stored };
    const page = await t.source.tournamentResults(cursor);
    if (!page.ok) return { ok: false, reason: `${page.code}: ${page.message}`, stored };
    let reachedMark = false;
    for (const x of page.results) {
      if (newest === null || x.endedAt > newest) newest = x.endedAt;
      if (mark !== null && x.endedAt < mark - MARGIN_MS) reachedMark = true;
      try {
        t.put(tournamentRecordOf(x));
        stored++;
      } catch {
        // Refused by the store (it says why in its answer): the others are still stored; the next sync tries it again.
        failed++;
      }
    }
    if (reachedMark || page.next === null) break;
    cursor = page.next;
  }
  // The mark moves only when every one was stored: a refused one is read again next time.
  if (failed === 0 && newest !== null && (mark === null || newest > mark)) setMark(o.marksFile, key, newest);
  return failed === 0 ? { ok: true, stored } : { ok: false, reason: `${failed} tournament(s) not stored`, stored };
}
