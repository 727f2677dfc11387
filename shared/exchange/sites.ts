/**
 * Reading the sites' hand histories hand by hand (site.ts): each hand goes to its site's reader
 * (stars-site.ts, winamax.ts). `readSiteText` reads a whole text (tests, small files); a large file
 * is fed a line at a time to a `SiteHandSplitter` and each hand to `readSiteHand` (the history's
 * import streams it so, electron/services/history/site-import.ts).
 */
import { HAND_LINES_MAX, SiteHandSplitter, refusal, type SiteChunk, type SiteHandResult, type SiteRefusal } from './site';
import { readStarsHand } from './stars-site';
import { readWinamaxHand } from './winamax';

export { SiteHandSplitter, isSiteText, siteOfLine, type RefusalKind, type Site, type SiteChunk, type SiteHand, type SiteHandResult, type SiteRefusal } from './site';

/** One hand of a site's file, read and played; a bug met on odd input is a refusal, not a crash. */
export function readSiteHand(chunk: SiteChunk): SiteHandResult {
  if (chunk.overflow) return refusal(chunk.lines[0].line, null, `the hand has more than ${HAND_LINES_MAX} lines: no hand of at most 10 seats has so many`, 'limits');
  try {
    return chunk.site === 'pokerstars' ? readStarsHand(chunk) : readWinamaxHand(chunk);
  } catch (e) {
    return refusal(chunk.lines[0].line, null, `internal error: ${e instanceof Error ? e.message : String(e)}`, 'format');
  }
}

/** The refusal of text that holds no site hand at all (another format, binary). */
export function noHands(stray: { line: number; text: string } | null): SiteRefusal {
  const shown = stray === null ? 'the file is empty' : `line ${stray.line} is not a PokerStars or Winamax hand header`;
  return refusal(stray?.line ?? 1, null, `no PokerStars or Winamax hand: ${shown}`, 'format');
}

/** Every hand of a text, read one by one (a hand's refusal loses no other hand). */
export function readSiteText(text: string): { hands: SiteHandResult[]; stray: SiteRefusal | null } {
  const split = new SiteHandSplitter();
  const hands: SiteHandResult[] = [];
  for (const line of text.split(/\r\n?|\n/)) {
    const c = split.push(line);
    if (c !== null) hands.push(readSiteHand(c));
  }
  const last = split.end();
  if (last !== null) hands.push(readSiteHand(last));
  const stray = split.stray();
  return { hands, stray: stray === null ? null : hands.length === 0 ? noHands(stray) : refusal(stray.line, null, `line ${stray.line} comes before the first hand and belongs to none`, 'format') };
}
