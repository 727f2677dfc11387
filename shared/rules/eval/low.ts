/**
 * Low hands: A-5 low 8-or-better (R-LOW8, D art. 6 III), Razz (R-RAZZ, D art. 6 II) and 2-7 lowball
 * in its two readings (R-27, D art. 6 II, art. 7 IV). Higher value = better low; equal = exact tie.
 *
 * - `evalLow8`, `evalOmahaLow8`: 8..225 (= 256 − the mask of the five ranks, ace = bit 0 … eight =
 *   bit 7), 0 when no low qualifies. The wheel 5-4-3-2-A is 225; 8-7-6-5-4 is 8.
 * - `evalRazz`: 1..6,175; 5-4-3-2-A is 6,175. Ace low, straights and flushes ignored, any pair worse
 *   than any unpaired hand, then two pair, three of a kind, full house, four of a kind; within a
 *   category the lower combination, then the lower kickers from the highest down, win.
 * - `eval27`: ace always high. `'decree'`: straights and flushes are not counted (1..6,175; 7-5-4-3-2
 *   of any suits is 6,175). `'international'`: straights and flushes count against the hand, i.e.
 *   the normal high ranking inverted with A-2-3-4-5 an ace-high hand (1..7,462; 7-5-4-3-2 unsuited
 *   is 7,462).
 *
 * Reading note: D art. 6 II 3° repeats for low hands the high rule "the higher three of a full house
 * wins"; we read low hands consistently (the lower full house wins), as every lowball rule does.
 */
import type { Card } from '../cards';
import * as tables from './tables';

// Tables as module-local constants: a property read through an import binding (a getter in
// CommonJS and test transforms) on every lookup costs more than the lookup itself.
const DEUCE_DECREE5 = tables.DEUCE_DECREE5;
const DEUCE_INTL5 = tables.DEUCE_INTL5;
const DEUCE_INTL_FLUSH = tables.DEUCE_INTL_FLUSH;
const HIGH_OFFSET5 = tables.HIGH_OFFSET5;
const HIGH_OFFSET6 = tables.HIGH_OFFSET6;
const HIGH_OFFSET7 = tables.HIGH_OFFSET7;
const LOW8_BY_MASK = tables.LOW8_BY_MASK;
const LOW_BIT = tables.LOW_BIT;
const LOW_INDEX = tables.LOW_INDEX;
const RANK_BIT = tables.RANK_BIT;
const RANK_KEY = tables.RANK_KEY;
const RAZZ5 = tables.RAZZ5;
const RAZZ6 = tables.RAZZ6;
const RAZZ7 = tables.RAZZ7;

/** The 2-7 table rule: `decree` (default of the reference operator) or `international`. */
export type DeuceReading = 'decree' | 'international';

/** Best qualifying A-5 low of the cards: 8 or better, five distinct ranks (R-LOW8). */
export const LOW8_BEST = 225;
export const RAZZ_BEST = 6175;
export const DEUCE_DECREE_BEST = 6175;
export const DEUCE_INTL_BEST = 7462;

/** Best A-5 low 8-or-better of 5..7 cards (Stud high/low), 0 when none qualifies (R-LOW8). */
export function evalLow8(cards: readonly Card[]): number {
  const n = cards.length;
  if (n < 5 || n > 7) throw new RangeError(`evalLow8 takes 5..7 cards, not ${n}`);
  let m = 0;
  for (let i = 0; i < n; i++) m |= LOW_BIT[cards[i]];
  return LOW8_BY_MASK[m];
}

// Scratch space for Omaha (synchronous, never re-entered).
const holeLowMasks = new Int32Array(15);
const boardLowMasks = new Int32Array(10);

/** Two low bits when the card pair is two different ranks A..8, else 0. */
function pairLowMask(a: Card, b: Card): number {
  const la = LOW_BIT[a];
  const lb = LOW_BIT[b];
  return la !== 0 && lb !== 0 && la !== lb ? la | lb : 0;
}

/**
 * Best Omaha A-5 low 8-or-better: exactly 2 private (2..6) + 3 board (3..5) cards of five distinct
 * ranks ≤ 8, chosen independently of the high hand; 0 when none qualifies (R-LOW8, D art. 6 III).
 */
export function evalOmahaLow8(hole: readonly Card[], board: readonly Card[]): number {
  const nh = hole.length;
  const nb = board.length;
  if (nh < 2 || nh > 6 || nb < 3 || nb > 5) {
    throw new RangeError(`evalOmahaLow8 takes 2..6 private and 3..5 board cards, not ${nh} and ${nb}`);
  }
  let nbm = 0;
  for (let i = 0; i < nb; i++) {
    for (let j = i + 1; j < nb; j++) {
      const mij = pairLowMask(board[i], board[j]);
      if (mij === 0) continue;
      for (let k = j + 1; k < nb; k++) {
        const lk = LOW_BIT[board[k]];
        if (lk !== 0 && (mij & lk) === 0) boardLowMasks[nbm++] = mij | lk;
      }
    }
  }
  if (nbm === 0) return 0; // the board cannot give three different low ranks
  let nhm = 0;
  for (let a = 0; a < nh; a++) {
    for (let b = a + 1; b < nh; b++) {
      const m = pairLowMask(hole[a], hole[b]);
      if (m !== 0) holeLowMasks[nhm++] = m;
    }
  }
  let best = 0;
  for (let a = 0; a < nhm; a++) {
    const hm = holeLowMasks[a];
    for (let t = 0; t < nbm; t++) {
      const bm = boardLowMasks[t];
      // a private card that pairs a board card counterfeits this combination
      if ((hm & bm) === 0) {
        const v = 256 - (hm | bm);
        if (v > best) best = v;
      }
    }
  }
  return best;
}

/** Razz value of seven cards, the fastest entry (R-RAZZ). */
export function evalRazz7(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card, c5: Card, c6: Card): number {
  const k =
    RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4] + RANK_KEY[c5] + RANK_KEY[c6];
  return RAZZ7[HIGH_OFFSET7[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

/** Best Razz (A-5 low, no qualifier) of 5..7 cards (R-RAZZ, D art. 6 II). */
export function evalRazz(cards: readonly Card[]): number {
  const n = cards.length;
  if (n === 7) return evalRazz7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6]);
  if (n < 5 || n > 7) throw new RangeError(`evalRazz takes 5..7 cards, not ${n}`);
  let k = 0;
  for (let i = 0; i < n; i++) k += RANK_KEY[cards[i]];
  return n === 5
    ? RAZZ5[HIGH_OFFSET5[k >>> 17] + LOW_INDEX[k & 0x1ffff]]
    : RAZZ6[HIGH_OFFSET6[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

/** 2-7 value of exactly five cards. */
export function eval27Five(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card, reading: DeuceReading): number {
  const k = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4];
  const index = HIGH_OFFSET5[k >>> 17] + LOW_INDEX[k & 0x1ffff];
  if (reading === 'decree') return DEUCE_DECREE5[index]; // D art. 6 II: straights, flushes not counted
  if (((c0 ^ c1) & 3) === 0 && ((c0 ^ c2) & 3) === 0 && ((c0 ^ c3) & 3) === 0 && ((c0 ^ c4) & 3) === 0) {
    return DEUCE_INTL_FLUSH[RANK_BIT[c0] | RANK_BIT[c1] | RANK_BIT[c2] | RANK_BIT[c3] | RANK_BIT[c4]];
  }
  return DEUCE_INTL5[index];
}

/**
 * Best 2-7 lowball value of 5 cards (Triple Draw), or of the best five of 6 or 7 cards (R-27,
 * D art. 7 IV: the ace is always high).
 */
export function eval27(cards: readonly Card[], reading: DeuceReading): number {
  const n = cards.length;
  if (n === 5) return eval27Five(cards[0], cards[1], cards[2], cards[3], cards[4], reading);
  if (n < 5 || n > 7) throw new RangeError(`eval27 takes 5..7 cards, not ${n}`);
  let best = 0;
  // best five of six or seven: at most 21 choices
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const v = eval27Five(cards[a], cards[b], cards[c], cards[d], cards[e], reading);
            if (v > best) best = v;
          }
  return best;
}
