/**
 * Export and import of hands (SPEC.md §5, issue 6 part 5): POJEU XML (ARJEL decision 2016-064),
 * PHH, and PokerStars-style text. One uniform API; every import is all-or-nothing: a file with one
 * bad hand imports nothing and names the line. docs/exchange.md.
 */
import type { ExchangeHand, ImportResult } from './core';
import { readPhhHands, writePhhHands } from './phh';
import { readPojeu, writePojeu, type PojeuWriteOptions } from './pojeu';
import { readPokerstars, writePokerstars } from './pokerstars';

export type ExchangeFormat = 'pojeu' | 'phh' | 'pokerstars';
export const EXCHANGE_FORMATS: readonly ExchangeFormat[] = ['pojeu', 'phh', 'pokerstars'];

export type { ExchangeHand, ExchangeMeta, ImportResult } from './core';
export { canonicalRecord } from './core';
export { handNumber } from './handNumber';
export { pokerstarsCarriedRules } from './pokerstars';
export { parsePojeuDocs, type PojeuDoc } from './pojeu';

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
    switch (format) {
      case 'pojeu':
        return readPojeu(text);
      case 'phh':
        return readPhhHands(text);
      case 'pokerstars':
        return readPokerstars(text);
    }
  } catch (e) {
    // A bug met on odd input still reports, never takes the caller down.
    return { ok: false, line: 1, message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
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
