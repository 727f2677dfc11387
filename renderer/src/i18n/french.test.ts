/**
 * The French UI is French. Every French message (every bundle, errors included)
 * is checked for English words that French never uses; the English bundle mirrors the French one key
 * for key. Poker terms French players use as they are (blinds, bring-in, rake, no limit, pot limit,
 * the decree's own game names: "Seven Card Stud Poker High limit", "Omaha 4 High/Low"), and English
 * terms given as a gloss in parentheses or guillemets ("Passer (fold)"), are allowed:
 * the list below is of English function words and UI words, not of poker terms.
 */
import { describe, expect, it } from 'vitest';
import en from './en';
import fr from './fr';
import { englishIn } from './english-words';

/** Values that are English on purpose: the button that switches the page to English. */
const ALLOWED = new Set(['English']);

function entries(x: unknown, prefix = ''): [string, string][] {
  if (typeof x === 'string') return [[prefix, x]];
  if (typeof x !== 'object' || x === null) return [];
  return Object.entries(x).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}

describe('French everywhere', () => {
  it('no French message holds an English word', () => {
    const bad = entries(fr)
      .filter(([, v]) => !ALLOWED.has(v))
      .map(([k, v]) => [k, englishIn(v)] as const)
      .filter(([, w]) => w.length > 0);
    expect(bad).toEqual([]);
  });

  it('English mirrors French key for key', () => {
    expect(entries(en).map(([k]) => k).sort()).toEqual(entries(fr).map(([k]) => k).sort());
  });

  it('counts are written with plural forms, not "(s)", in the lists the issue names', () => {
    const fr2 = fr as unknown as { tables: Record<string, string> };
    expect(fr2.tables.count).not.toMatch(/\(s\)/);
    expect(fr2.tables.waiting).not.toMatch(/\(s\)/);
  });
});
