/**
 * High hands (R-HIGH, D art. 5, art. 6 I): Hold'em and Stud (best 5 of 5..7), Omaha (exactly 2
 * private + 3 board). Values 1..7,462, higher = stronger, equal = exact tie (D art. 6 IV).
 *
 * Hot path: no allocation, no closures, only typed-array loads and integer arithmetic. Callers pass
 * valid, distinct card codes (R-CARDCODE); the evaluators do not check them.
 */
import type { Card } from '../cards';
import * as tables from './tables';

// Tables as module-local constants: a property read through an import binding (a getter in
// CommonJS and test transforms) on every lookup costs more than the lookup itself.
const FLUSH_HIGH = tables.FLUSH_HIGH;
const HIGH_CATEGORY_OF_VALUE = tables.HIGH_CATEGORY_OF_VALUE;
const HIGH_OFFSET5 = tables.HIGH_OFFSET5;
const HIGH_OFFSET6 = tables.HIGH_OFFSET6;
const HIGH_OFFSET7 = tables.HIGH_OFFSET7;
const LOW_INDEX = tables.LOW_INDEX;
const NOFLUSH_HIGH5 = tables.NOFLUSH_HIGH5;
const NOFLUSH_HIGH6 = tables.NOFLUSH_HIGH6;
const NOFLUSH_HIGH7 = tables.NOFLUSH_HIGH7;
const RANK_BIT = tables.RANK_BIT;
const RANK_KEY = tables.RANK_KEY;
const SUIT_KEY = tables.SUIT_KEY;

/** R-HIGH categories, strongest first. */
export const HIGH_CATEGORIES = [
  'straight-flush',
  'four-of-a-kind',
  'full-house',
  'flush',
  'straight',
  'three-of-a-kind',
  'two-pair',
  'pair',
  'high-card',
] as const;
export type HighCategory = (typeof HIGH_CATEGORIES)[number];

/** Category of a value by the tables' numbering (0 = high card … 8 = straight flush). */
const CATEGORY_BY_INDEX: readonly HighCategory[] = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
];

/** The strongest possible high value (a royal flush). */
export const HIGH_MAX = 7462;

/** Category of a high value (from `evalHigh`, `evalHigh7`, `evalOmahaHigh`…). */
export function highCategoryOf(value: number): HighCategory {
  if (!(value >= 1 && value <= HIGH_MAX)) throw new RangeError(`not a high hand value: ${value}`);
  return CATEGORY_BY_INDEX[HIGH_CATEGORY_OF_VALUE[value]];
}

/** Which suit has five or more cards, from a sum of `SUIT_KEY` (4-bit counters): 0 when none. */
function fiveOfASuit(suitSum: number): number {
  return (suitSum + 0x3333) & 0x8888;
}

/** Best high value of seven cards (R-HIGH). The fastest entry: seven numbers, no array. */
export function evalHigh7(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card, c5: Card, c6: Card): number {
  const f =
    (SUIT_KEY[c0] + SUIT_KEY[c1] + SUIT_KEY[c2] + SUIT_KEY[c3] + SUIT_KEY[c4] + SUIT_KEY[c5] + SUIT_KEY[c6] + 0x3333) &
    0x8888;
  if (f !== 0) {
    // a flush: in 7 cards it excludes quads and full houses, so it is the best hand
    const s = (31 - Math.clz32(f)) >> 2;
    let m = 0;
    if ((c0 & 3) === s) m |= RANK_BIT[c0];
    if ((c1 & 3) === s) m |= RANK_BIT[c1];
    if ((c2 & 3) === s) m |= RANK_BIT[c2];
    if ((c3 & 3) === s) m |= RANK_BIT[c3];
    if ((c4 & 3) === s) m |= RANK_BIT[c4];
    if ((c5 & 3) === s) m |= RANK_BIT[c5];
    if ((c6 & 3) === s) m |= RANK_BIT[c6];
    return FLUSH_HIGH[m];
  }
  const k =
    RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4] + RANK_KEY[c5] + RANK_KEY[c6];
  return NOFLUSH_HIGH7[HIGH_OFFSET7[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

/** Best high value of six cards (R-HIGH). */
export function evalHigh6(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card, c5: Card): number {
  const f = fiveOfASuit(
    SUIT_KEY[c0] + SUIT_KEY[c1] + SUIT_KEY[c2] + SUIT_KEY[c3] + SUIT_KEY[c4] + SUIT_KEY[c5],
  );
  if (f !== 0) {
    const s = (31 - Math.clz32(f)) >> 2;
    let m = 0;
    if ((c0 & 3) === s) m |= RANK_BIT[c0];
    if ((c1 & 3) === s) m |= RANK_BIT[c1];
    if ((c2 & 3) === s) m |= RANK_BIT[c2];
    if ((c3 & 3) === s) m |= RANK_BIT[c3];
    if ((c4 & 3) === s) m |= RANK_BIT[c4];
    if ((c5 & 3) === s) m |= RANK_BIT[c5];
    return FLUSH_HIGH[m];
  }
  const k = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4] + RANK_KEY[c5];
  return NOFLUSH_HIGH6[HIGH_OFFSET6[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

/** High value of five cards (R-HIGH). */
export function evalHigh5(c0: Card, c1: Card, c2: Card, c3: Card, c4: Card): number {
  if (((c0 ^ c1) & 3) === 0 && ((c0 ^ c2) & 3) === 0 && ((c0 ^ c3) & 3) === 0 && ((c0 ^ c4) & 3) === 0) {
    return FLUSH_HIGH[RANK_BIT[c0] | RANK_BIT[c1] | RANK_BIT[c2] | RANK_BIT[c3] | RANK_BIT[c4]];
  }
  const k = RANK_KEY[c0] + RANK_KEY[c1] + RANK_KEY[c2] + RANK_KEY[c3] + RANK_KEY[c4];
  return NOFLUSH_HIGH5[HIGH_OFFSET5[k >>> 17] + LOW_INDEX[k & 0x1ffff]];
}

/** Best high value of 5, 6 or 7 cards (R-HIGH). Throws on another count (a caller's bug). */
export function evalHigh(cards: readonly Card[]): number {
  switch (cards.length) {
    case 7:
      return evalHigh7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6]);
    case 6:
      return evalHigh6(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5]);
    case 5:
      return evalHigh5(cards[0], cards[1], cards[2], cards[3], cards[4]);
    default:
      throw new RangeError(`evalHigh takes 5, 6 or 7 cards, not ${cards.length}`);
  }
}

// Scratch space for Omaha (module-level: evaluation is synchronous and never re-entered).
const boardKeys = new Int32Array(10);
const boardFlushMasks = new Int32Array(10);
const holeFlushMasks = new Int32Array(15);

/**
 * Best Omaha high value: exactly 2 of the private cards (2..6; 4 in O4, 5 in O5) and exactly 3 of
 * the board (3..5) (R-HIGH, SPEC variants table, D art. 7 II). Four suited board cards and one suited
 * private card are not a flush; board trips are not a full house without a pair in the hand's two.
 */
export function evalOmahaHigh(hole: readonly Card[], board: readonly Card[]): number {
  const nh = hole.length;
  const nb = board.length;
  if (nh < 2 || nh > 6 || nb < 3 || nb > 5) {
    throw new RangeError(`evalOmahaHigh takes 2..6 private and 3..5 board cards, not ${nh} and ${nb}`);
  }
  // board triples: rank keys (suits ignored here; flushes are handled below)
  let nt = 0;
  let boardSuits = 0;
  for (let i = 0; i < nb; i++) {
    const bi = board[i];
    boardSuits += SUIT_KEY[bi];
    for (let j = i + 1; j < nb; j++) {
      const bij = RANK_KEY[bi] + RANK_KEY[board[j]];
      for (let k = j + 1; k < nb; k++) boardKeys[nt++] = bij + RANK_KEY[board[k]];
    }
  }
  let best = 0;
  for (let a = 0; a < nh; a++) {
    const ka = RANK_KEY[hole[a]];
    for (let b = a + 1; b < nh; b++) {
      const kab = ka + RANK_KEY[hole[b]];
      for (let t = 0; t < nt; t++) {
        const key = kab + boardKeys[t];
        const v = NOFLUSH_HIGH5[HIGH_OFFSET5[key >>> 17] + LOW_INDEX[key & 0x1ffff]];
        if (v > best) best = v;
      }
    }
  }
  // a flush needs three board cards of one suit (counter ≥ 3: +5 reaches bit 3) and two private
  // cards of that suit; at most one suit can have three of a 5-card board
  const f = (boardSuits + 0x5555) & 0x8888;
  if (f !== 0) {
    const s = (31 - Math.clz32(f)) >> 2;
    let nbf = 0;
    for (let i = 0; i < nb; i++) {
      const bi = board[i];
      if ((bi & 3) !== s) continue;
      for (let j = i + 1; j < nb; j++) {
        const bj = board[j];
        if ((bj & 3) !== s) continue;
        for (let k = j + 1; k < nb; k++) {
          const bk = board[k];
          if ((bk & 3) === s) boardFlushMasks[nbf++] = RANK_BIT[bi] | RANK_BIT[bj] | RANK_BIT[bk];
        }
      }
    }
    let nhf = 0;
    for (let a = 0; a < nh; a++) {
      const ha = hole[a];
      if ((ha & 3) !== s) continue;
      for (let b = a + 1; b < nh; b++) {
        const hb = hole[b];
        if ((hb & 3) === s) holeFlushMasks[nhf++] = RANK_BIT[ha] | RANK_BIT[hb];
      }
    }
    for (let a = 0; a < nhf; a++) {
      const hm = holeFlushMasks[a];
      for (let t = 0; t < nbf; t++) {
        const v = FLUSH_HIGH[hm | boardFlushMasks[t]];
        if (v > best) best = v;
      }
    }
  }
  return best;
}
