/**
 * Hand histories as the poker sites write them (PokerStars, Winamax; docs/exchange.md "Site files"),
 * read hand by hand: a file mixes hands Cercle can replay, hands of games outside the decree and the
 * odd broken hand, and every readable hand is kept while each other one is named with its line, its
 * id and the reason (unlike Cercle's own formats, read all or nothing). The file is fed a line at a
 * time (`SiteHandSplitter`), so a caller may stream a file of any size and hold one hand at a time.
 * Pure: no Node module, no DOM (DESIGN.md §2).
 */
import { handRecordSchema } from '../protocol/game';
import { HAND_ID_MAX, PLAYER_NAME_MAX } from '../protocol/limits';
import { validate } from '../validate';
import type { ExchangeHand, Fail } from './core';

export type Site = 'pokerstars' | 'winamax';

/** Why a hand was not imported: one word each, so a summary can count them (docs/exchange.md). */
export type RefusalKind =
  /** A game the decree does not list (Badugi, 6+ Hold'em, Courchevel, 5-card draw…): D art. 1. */
  | 'game'
  /** A line or a header Cercle cannot read. */
  | 'format'
  /** The file's own amounts do not add up (collected, pots, rake, returns). */
  | 'money'
  /** The rules engine refuses an action as written (its rule is in the reason). */
  | 'rules'
  /** Something the engine does not model: run it twice, an all-in cash-out, a cancelled hand. */
  | 'unsupported'
  /** Over a bound every later call must be able to return (shared/protocol/limits.ts). */
  | 'limits'
  /** The file ends in the middle of the hand. */
  | 'truncated';

export interface SiteRefusal {
  ok: false;
  line: number;
  handId: string | null;
  kind: RefusalKind;
  reason: string;
}

/** A hand read: the currency is kept as the site writes it (`EUR`, `USD`, `GBP`), null for chips. */
export interface SiteHand {
  ok: true;
  line: number;
  handId: string;
  hand: ExchangeHand;
  currency: string | null;
}

export type SiteHandResult = SiteHand | SiteRefusal;

/** The lines of one hand, with their line numbers in the file. */
export interface SiteChunk {
  site: Site;
  lines: { text: string; line: number }[];
  /** More lines than any hand has (10 seats, 1,000 log entries): the rest was not kept. */
  overflow?: boolean;
}

/** A hand has at most 10 seats and 1,000 log entries (shared/protocol/limits.ts): well under this many lines. */
export const HAND_LINES_MAX = 4000;

const STARS_START = /^PokerStars (?:Zoom |Home Game |FastPoker )?(?:Hand|Game) #/;
const WINAMAX_START = /^Winamax Poker - /;

/** The site whose hand starts on this line, or null. */
export function siteOfLine(text: string): Site | null {
  if (STARS_START.test(text)) return 'pokerstars';
  if (WINAMAX_START.test(text)) return 'winamax';
  return null;
}

/** Whether a text's first meaningful line starts a site's hand (the import picks this reader then). */
export function isSiteText(text: string): boolean {
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n?|\n/, 50)) {
    const t = raw.trim();
    if (t !== '') return siteOfLine(t) !== null;
  }
  return false;
}

/**
 * Cuts a stream of lines into hands: a hand starts at a site's header line and runs to the next
 * one. Lines before the first header (another format, binary) are reported once as a refusal.
 */
export class SiteHandSplitter {
  private current: SiteChunk | null = null;
  private junk: { line: number; text: string } | null = null;
  private lineNo = 0;

  /** Feeds one line (without its end); returns the hand it closed, if any. */
  push(raw: string): SiteChunk | null {
    this.lineNo++;
    // The site's archive form indents every line and numbers the hands between rows of stars.
    const text = (this.lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (/^\*{5,} # \d+ \*{5,}$/.test(text)) return null;
    const site = siteOfLine(text);
    if (site !== null) {
      const done = this.current;
      this.current = { site, lines: [{ text, line: this.lineNo }] };
      return done;
    }
    if (text === '') return null;
    if (this.current === null) this.junk ??= { line: this.lineNo, text };
    else if (this.current.lines.length >= HAND_LINES_MAX) this.current.overflow = true;
    else this.current.lines.push({ text, line: this.lineNo });
    return null;
  }

  /** The last hand, at the end of the stream. */
  end(): SiteChunk | null {
    const done = this.current;
    this.current = null;
    return done;
  }

  /** The first line that belongs to no hand (text before the first header), or null. */
  stray(): { line: number; text: string } | null {
    return this.junk;
  }
}

/** The refusal of a hand from what the reader said; `kind` from the reason when not given. */
export function refusal(line: number, handId: string | null, reason: string, kind?: RefusalKind): SiteRefusal {
  return { ok: false, line, handId, kind: kind ?? kindOf(reason), reason };
}

/** Sorts a reader's or the engine's message into a kind a summary counts. */
export function kindOf(reason: string): RefusalKind {
  if (/^R-[A-Z0-9-]+:/.test(reason)) return 'rules';
  if (/is not a game of the decree/.test(reason)) return 'game';
  if (/collect|total pot|pots do not add up|returns|uncalled|rake|posts \S+ but/i.test(reason)) return 'money';
  if (/no \*\*\* SUMMARY \*\*\*|ends before the hand/.test(reason)) return 'truncated';
  return 'format';
}

/** A hand's engine failure as a refusal. */
export function refusalOfFail(f: Fail, handId: string | null): SiteRefusal {
  return refusal(f.line, handId, f.message, f.rule !== undefined ? 'rules' : undefined);
}

/** What is over the bounds the API carries (shared/protocol/limits.ts), or null: checked per hand. */
export function handOverLimits(h: ExchangeHand): string | null {
  const id = h.record.handId;
  if (id !== null && id.length > HAND_ID_MAX) return `the hand id has ${id.length} characters; at most ${HAND_ID_MAX}`;
  for (const s of h.record.seats) {
    if (s.player.length > PLAYER_NAME_MAX) return `the player name at seat ${s.seat + 1} has ${s.player.length} characters; at most ${PLAYER_NAME_MAX}`;
  }
  const v = validate(handRecordSchema, h.record, 'hand');
  return v.ok ? null : v.error;
}

/** Amount text as the sites write it (`$1,000.50`, `0.50€`, `1 500`) to integer units of `scale` decimals; null when it is not one. */
export function siteUnits(text: string, scale: 0 | 2): number | null {
  const t = text.replace(/[$€£,\u00a0 ]/g, '');
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return null;
  if (scale === 0) return m[2] === undefined || /^0+$/.test(m[2]) ? Number(m[1]) : null;
  const v = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(v) ? v : null;
}
