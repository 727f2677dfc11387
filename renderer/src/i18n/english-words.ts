/**
 * English words that French never uses: the Vitest over the French bundles
 * (french.test.ts) and the browser flow over the French pages (tests/e2e/browser/french.spec.ts)
 * look for them. Poker terms French players use as they are, the decree's game names and English
 * glosses in parentheses or guillemets are not in the list or are skipped.
 */
import { VARIANTS } from '../../../shared/rules/variants';

export const ENGLISH_WORDS = [
  'the', 'and', 'with', 'from', 'your', 'you', 'is', 'are', 'not', 'of', 'to', 'for', 'this', 'that', 'these', 'has', 'have',
  'fewer', 'than', 'players', 'player', 'dealt', 'hand', 'hands', 'error', 'failed', 'cannot', 'between', 'please', 'click',
  'practice', 'waiting', 'balance', 'settings', 'history', 'results', 'lobby', 'seat', 'seats', 'chips', 'today', 'leave',
  'join', 'fold', 'check', 'call', 'raise', 'bet', 'showdown', 'wins', 'won', 'lost', 'none', 'unknown', 'connected', 'offline',
];
/** Short tags written in English ("SD", "AI") are English too. */
const ENGLISH_TAGS = ['SD', 'AI'];
/** English words in a text (placeholders `{x}` and markup ignored). */
export function englishIn(text: string): string[] {
  // A gloss in parentheses or guillemets names the English term on purpose: « Passer (fold) ».
  let plain = text.replace(/\{[^}]*\}/g, ' ').replace(/<[^>]*>/g, ' ');
  // The decree's own French names of the games ("Triple draw deuce to seven (2-7) Lowball") are French law.
  for (const v of Object.values(VARIANTS)) plain = plain.split(v.nameFr).join(' ');
  plain = plain.replace(/\([^)]*\)|«[^»]*»/g, ' ');
  const words = plain.split(/[^A-Za-zÀ-ÿ'’-]+/).filter((w) => w !== '');
  const found = words.filter((w) => ENGLISH_WORDS.includes(w.toLowerCase()) || ENGLISH_TAGS.includes(w));
  return [...new Set(found)];
}

