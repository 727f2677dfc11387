/**
 * Cards and their codes (R-CARDCODE, A 1.3.6.d.3).
 *
 * A card is a plain integer 0..51: `4 × (rank − 2) + suit`, ranks 2..14 (ace 14), suits clubs 0,
 * diamonds 1, hearts 2, spades 3; so 2♣ = 0 and A♠ = 51. Integers cross IPC, the wire and the
 * database without conversion, and index the evaluator's lookup tables directly.
 *
 * Text form: one rank letter `2`-`9`, `T`, `J`, `Q`, `K`, `A` and one suit letter `c`, `d`, `h`, `s`
 * (`As`, `Td`, `2c`), as in PHH and PokerStars-style histories.
 */

/** A card code 0..51 (R-CARDCODE). */
export type Card = number;

/** Rank 2..14, ace 14. */
export type Rank = number;

/** Suit 0..3: clubs 0, diamonds 1, hearts 2, spades 3 (R-CARDCODE). */
export type Suit = 0 | 1 | 2 | 3;

export const CLUBS = 0;
export const DIAMONDS = 1;
export const HEARTS = 2;
export const SPADES = 3;

/** Rank letters indexed by `rank − 2`. */
export const RANK_CHARS = '23456789TJQKA';
/** Suit letters indexed by suit code (R-CARDCODE order). */
export const SUIT_CHARS = 'cdhs';

/** The code of the card of this rank (2..14) and suit (0..3). */
export function makeCard(rank: Rank, suit: Suit): Card {
  return ((rank - 2) << 2) | suit;
}

/** Rank 2..14 (ace 14) of a card. */
export function rankOf(c: Card): Rank {
  return (c >> 2) + 2;
}

/** Suit 0..3 of a card (clubs 0, diamonds 1, hearts 2, spades 3). */
export function suitOf(c: Card): Suit {
  return (c & 3) as Suit;
}

/** True when `x` is an integer card code 0..51. */
export function isCard(x: unknown): x is Card {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 51;
}

/**
 * `As`, `Td`, `2c` → card code; `null` when the text is not one card. The rank letter may also be
 * lower case and `10` is read as `T` (some exports write it so); the suit letter is case-insensitive.
 */
export function cardFromText(s: string): Card | null {
  let rankText: string;
  let suitText: string;
  if (s.length === 2) {
    rankText = s[0];
    suitText = s[1];
  } else if (s.length === 3 && s[0] === '1' && s[1] === '0') {
    rankText = 'T';
    suitText = s[2];
  } else {
    return null;
  }
  const r = RANK_CHARS.indexOf(rankText.toUpperCase());
  const su = SUIT_CHARS.indexOf(suitText.toLowerCase());
  if (r < 0 || su < 0) return null;
  return (r << 2) | su;
}

/** Card code → `As`, `Td`, `2c`. Throws on a value that is not a card code (a bug, not input). */
export function cardToText(c: Card): string {
  if (!isCard(c)) throw new RangeError(`not a card code: ${String(c)}`);
  return RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3];
}

/**
 * Reads a list of cards written concatenated (`AsKd`), separated by spaces and/or commas
 * (`As Kd`, `As,Kd`, `As, Kd`), or a mix. An empty or blank string is the empty list. `null` when
 * any part is not a card. Repeated cards are returned as written (use `hasDuplicateCards`).
 */
export function parseCards(s: string): Card[] | null {
  const out: Card[] = [];
  const tokens = s.split(/[\s,]+/);
  for (const token of tokens) {
    if (token.length === 0) continue;
    let i = 0;
    while (i < token.length) {
      const width = token[i] === '1' && token[i + 1] === '0' ? 3 : 2;
      const c = cardFromText(token.slice(i, i + width));
      if (c === null) return null;
      out.push(c);
      i += width;
    }
  }
  return out;
}

/** Cards → text, concatenated by default (`AsKd`, the PHH form); pass `' '` for `As Kd`. */
export function formatCards(cs: readonly Card[], separator = ''): string {
  return cs.map(cardToText).join(separator);
}

/** True when some card appears twice (impossible with one 52-card deck, R-DECK). */
export function hasDuplicateCards(cs: readonly Card[]): boolean {
  // two 26-bit masks: 32-bit integer operations, no allocation
  let low = 0;
  let high = 0;
  for (const c of cs) {
    if (c < 26) {
      const bit = 1 << c;
      if ((low & bit) !== 0) return true;
      low |= bit;
    } else {
      const bit = 1 << (c - 26);
      if ((high & bit) !== 0) return true;
      high |= bit;
    }
  }
  return false;
}

/** The 52 cards in code order, 2♣ (0) to A♠ (51) (R-DECK). */
export const FULL_DECK: readonly Card[] = Object.freeze(Array.from({ length: 52 }, (_, i) => i));
