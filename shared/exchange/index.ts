/**
 * Export and import of hands (SPEC.md §5): POJEU XML (ARJEL decision 2016-064),
 * PHH, and PokerStars-style text. One uniform API; every import is all-or-nothing: a file with one
 * bad hand imports nothing and names the line. docs/exchange.md.
 */
import { handRecordSchema } from '../protocol/game';
import { EXCHANGE_FILE_MAX_BYTES, HAND_ID_MAX, PLAYER_NAME_MAX } from '../protocol/limits';
import { validate } from '../validate';
import type { ExchangeHand, ImportResult } from './core';
import { readPhhHands, writePhhHands } from './phh/record';
import { readPojeu, writePojeu, type PojeuWriteOptions } from './pojeu';
import { readPokerstars, writePokerstars } from './pokerstars';

export type ExchangeFormat = 'pojeu' | 'phh' | 'pokerstars';
export const EXCHANGE_FORMATS: readonly ExchangeFormat[] = ['pojeu', 'phh', 'pokerstars'];

export type { ExchangeHand, ExchangeMeta, ExchangeTournament, ImportResult } from './core';
export { canonicalRecord } from './core';
export { EXCHANGE_FILE_MAX_BYTES } from '../protocol/limits';
export { handNumber, tournamentNumber } from './handNumber';
export { isSummaryText, pokerstarsSummary, readPokerstarsSummaries, summaryReady, writePokerstarsSummaries, type SummaryExport, type SummaryImport } from './summary';
export { pokerstarsCarriedRules } from './pokerstars';
export { parsePojeuDocs, type PojeuDoc } from './pojeu';
// The sites' own files (PokerStars, Winamax), read hand by hand: docs/exchange.md "Site files".
export { isSiteText, readSiteHand, readSiteText, SiteHandSplitter, type RefusalKind, type SiteHandResult } from './sites';

export interface ExportOptions {
  /** POJEU: decimals of the amounts (2: units are cents; 0: chips); default per hand from `meta.money`. */
  pojeuScale?: PojeuWriteOptions['scale'];
}

/** The hands as one text in `format`. */
export function exportHands(format: ExchangeFormat, hands: readonly ExchangeHand[], o: ExportOptions = {}): string {
  switch (format) {
    case 'pojeu':
      return writePojeu(hands, { scale: o.pojeuScale });
    case 'phh':
      return writePhhHands(hands);
    case 'pokerstars':
      return writePokerstars(hands);
  }
}

/** Every hand of a text in `format`, or the line of the first problem and nothing else. */
export function importHands(format: ExchangeFormat, text: string): ImportResult {
  try {
    const r = readHands(format, text);
    return r.ok ? withinLimits(r.hands, text) : r;
  } catch (e) {
    // A bug met on odd input still reports, never takes the caller down.
    return { ok: false, line: 1, message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function readHands(format: ExchangeFormat, text: string): ImportResult {
  switch (format) {
    case 'pojeu':
      return readPojeu(text);
    case 'phh':
      return readPhhHands(text);
    case 'pokerstars':
      return readPokerstars(text);
  }
}

/** The line of the text where `value` first appears (1 when it cannot be found as written). */
function lineOfValue(text: string, value: string): number {
  const at = text.indexOf(value);
  if (at < 0) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Only what every later call can return is imported. Each hand is checked against
 * the API's own validator of a hand record (limits.ts: ids, names, counts); the first one over a
 * limit refuses the whole file, naming the line where the value is written.
 */
function withinLimits(hands: ExchangeHand[], text: string): ImportResult {
  for (const [i, h] of hands.entries()) {
    const id = h.record.handId;
    if (id !== null && id.length > HAND_ID_MAX) {
      return { ok: false, line: lineOfValue(text, id), message: `hand ${i + 1}: its id has ${id.length} characters; at most ${HAND_ID_MAX}` };
    }
    for (const s of h.record.seats) {
      if (s.player.length > PLAYER_NAME_MAX) {
        return { ok: false, line: lineOfValue(text, s.player), message: `hand ${i + 1}: the player name at seat ${s.seat + 1} has ${s.player.length} characters; at most ${PLAYER_NAME_MAX}` };
      }
    }
    const v = validate(handRecordSchema, h.record, 'hand');
    if (!v.ok) return { ok: false, line: id !== null ? lineOfValue(text, id) : 1, message: `hand ${i + 1}: ${v.error}` };
  }
  return { ok: true, hands };
}

/** The refusal of a file over {@link EXCHANGE_FILE_MAX_BYTES} (docs/exchange.md). */
export function exchangeFileTooLarge(bytes: number): string {
  const mib = (n: number) => (n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1);
  return `the file has ${mib(bytes)} MiB; at most ${mib(EXCHANGE_FILE_MAX_BYTES)} MiB are read at once: split it (docs/exchange.md)`;
}

/** The format of a text from its first meaningful line, or null. */
export function detectFormat(text: string): ExchangeFormat | null {
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n?|\n/)) {
    const t = raw.trim();
    if (t === '' || t.startsWith('#')) continue;
    if (t.startsWith('<')) return 'pojeu';
    if (t.startsWith('PokerStars Hand #')) return 'pokerstars';
    if (/^(\[[^\]]+\]|[A-Za-z_][A-Za-z0-9_-]*\s*=)/.test(t)) return 'phh';
    return null;
  }
  return null;
}
