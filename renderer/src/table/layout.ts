/**
 * Where things sit on the oval table, and how amounts read. Pure: positions are percentages of the
 * table's box, so the same layout serves a full window and a small tile.
 */
import { centsText } from '../../../shared/rules/money';
import { formatAmount } from '../format';

export { formatAmount };

export interface Point {
  /** Percent of the table's width and height from its top left corner. */
  x: number;
  y: number;
}

/**
 * The place of `seat` around a table of `size` seats, our seat (or seat 0 when we are not seated) at
 * the bottom and the next seats going clockwise (to our left). `radius` scales the ellipse: 1 for
 * the seats, smaller for the bets in front of them.
 */
export function seatPoint(seat: number, size: number, ourSeat: number | null, radius = 1): Point {
  const n = Math.max(2, size);
  const p = (((seat - (ourSeat ?? 0)) % n) + n) % n;
  const angle = Math.PI / 2 + (2 * Math.PI * p) / n;
  return { x: round1(50 + 41 * radius * Math.cos(angle)), y: round1(50 + 40 * radius * Math.sin(angle)) };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The amount for the bet input: plain digits (chips) or euros with two decimals (real money). */
export function amountForInput(amount: number, money: 'real' | 'play', locale: string): string {
  if (money === 'play') return String(amount);
  const sep = locale.startsWith('fr') ? ',' : '.';
  return centsText(amount).replace('.', sep);
}

/** Milliseconds left on a clock started at `startedAt` with `ms` to run (never negative). */
export function remaining(ms: number, startedAt: number, now: number): number {
  // Never more than the clock's own time (a clock mounted while the shared
  // ticker still held an old time showed 18 s at a table whose decision time is 15 s).
  const left = Math.min(ms, ms - (now - startedAt));
  return left > 0 ? left : 0;
}

const RANK_TEXT = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const SUIT_GLYPH = ['♣', '♦', '♥', '♠'];
const SUIT_KEY = ['c', 'd', 'h', 's'] as const;

export interface CardFace {
  /** `2`…`10`, `J`, `Q`, `K`, `A`. */
  rank: string;
  /** 2..14, for the i18n name (`table.card.rank.r14`). */
  rankNo: number;
  suit: string;
  suitKey: (typeof SUIT_KEY)[number];
}

/** What a card code shows (R-CARDCODE: 4 × (rank − 2) + suit). */
export function cardFace(code: number): CardFace {
  const r = code >> 2;
  const s = code & 3;
  return { rank: RANK_TEXT[r], rankNo: r + 2, suit: SUIT_GLYPH[s], suitKey: SUIT_KEY[s] };
}

/** Cards as short text for a line of text: `A♠ 10♦`. */
export function cardsText(cards: readonly number[]): string {
  return cards.map((c) => cardFace(c).rank + cardFace(c).suit).join(' ');
}
