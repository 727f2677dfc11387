/**
 * Lookup tables of the hand evaluators, built once when the module loads (≈ 40-60 ms).
 *
 * How a hand is looked up
 * -----------------------
 * - Flushes: a suit-count word `Σ SUIT_KEY[c]` keeps one 4-bit counter per suit; adding 3 to every
 *   counter sets bit 3 of a counter exactly when that suit holds 5 or more cards. Then the ranks of
 *   that suit form a 13-bit mask and `FLUSH_HIGH[mask]` gives the value. In 5 to 7 cards a flush
 *   excludes quads and full houses, so it is the hand's best (R-HIGH).
 * - Everything else depends only on the multiset of ranks. `Σ RANK_KEY[c]` writes the rank counts
 *   in base 5: ranks 2..8 in the low 17 bits (at most 71,875 for 7 cards), ranks 9..A above them
 *   (at most 14,375). A minimal perfect hash turns that key into a dense index:
 *   `HIGH_OFFSET_n[key >>> 17] + LOW_INDEX[key & 0x1ffff]`, where `LOW_INDEX` numbers the 2..8 part
 *   among the parts with the same card count, and `HIGH_OFFSET_n` starts the block of each 9..A part
 *   for an `n`-card hand. Blocks hold 6,175 / 18,395 / 49,205 entries for 5 / 6 / 7 cards: exactly
 *   the rank multisets, so the tables are small (a 7-card lookup reaches into ≈ 290 kB) and stay in
 *   the CPU cache.
 * - Razz and 2-7 ignore suits (except 2-7 international flushes), so they use the same index into
 *   tables of their own.
 *
 * Value scales (higher = better, equal = exact tie)
 * -------------------------------------------------
 * - high: 1..7,462, one value per class of 5-card hands (7,462 classes, R-HIGH, D art. 5-6 I).
 * - 2-7 international: 1..7,462 (the same classes with A-2-3-4-5 an ace-high hand, inverted).
 * - 2-7 decree and razz: 1..6,175 (5-card rank multisets; no straights or flushes, R-27, R-RAZZ).
 * - A-5 low 8-or-better: 256 − (bit mask of the five ranks, ace = bit 0 … 8 = bit 7): 8..225, 0 when
 *   no low qualifies (R-LOW8). Comparing masks compares the highest card first, then the next.
 */

/** `Σ RANK_KEY[c]` over a hand is its rank multiset written in base 5 (see above). */
export const RANK_KEY = new Int32Array(52);
/** `1 << 4·suit`: four 4-bit suit counters. */
export const SUIT_KEY = new Int32Array(52);
/** `1 << (rank − 2)`: the card's bit in a 13-bit rank mask. */
export const RANK_BIT = new Int32Array(52);
/** A-5 low bit: ace 1, deuce 2, … eight 128; 0 for nine and above (R-LOW8). */
export const LOW_BIT = new Int32Array(52);

export const LOW_KEY_BITS = 17;
export const LOW_KEY_MASK = (1 << LOW_KEY_BITS) - 1;

/** Index of the 2..8 part of a key among the parts of the same card count. */
export const LOW_INDEX = new Uint16Array(78125);
/** Start of the block of the 9..A part of a key, for 5-, 6- and 7-card hands. */
export const HIGH_OFFSET5 = new Uint16Array(15625);
export const HIGH_OFFSET6 = new Uint16Array(15625);
export const HIGH_OFFSET7 = new Uint16Array(15625);

export const MULTISETS5 = 6175;
export const MULTISETS6 = 18395;
export const MULTISETS7 = 49205;

/** High value of the best non-flush hand, by rank multiset. */
export const NOFLUSH_HIGH5 = new Uint16Array(MULTISETS5);
export const NOFLUSH_HIGH6 = new Uint16Array(MULTISETS6);
export const NOFLUSH_HIGH7 = new Uint16Array(MULTISETS7);
/** High value of the best straight flush or flush within a suit's 13-bit rank mask (≥ 5 bits). */
export const FLUSH_HIGH = new Uint16Array(8192);

/** Razz value of the best five, by rank multiset (R-RAZZ). */
export const RAZZ5 = new Uint16Array(MULTISETS5);
export const RAZZ6 = new Uint16Array(MULTISETS6);
export const RAZZ7 = new Uint16Array(MULTISETS7);

/** 2-7 values of five cards: decree reading by multiset; international by multiset and flush mask. */
export const DEUCE_DECREE5 = new Uint16Array(MULTISETS5);
export const DEUCE_INTL5 = new Uint16Array(MULTISETS5);
export const DEUCE_INTL_FLUSH = new Uint16Array(8192);

/** A-5 low 8-or-better value of a low-bit mask: best five lowest ranks, 0 when fewer than five (R-LOW8). */
export const LOW8_BY_MASK = new Uint8Array(256);

/** High value (1..7,462) → category index 0..8, 0 = high card … 8 = straight flush. */
export const HIGH_CATEGORY_OF_VALUE = new Uint8Array(7463);
/** 2-7 international value → category index (same numbering). */
export const DEUCE_INTL_CATEGORY_OF_VALUE = new Uint8Array(7463);

export const HIGH_CLASSES = 7462;
export const DEUCE_INTL_CLASSES = 7462;
export const DEUCE_DECREE_CLASSES = 6175;
export const RAZZ_CLASSES = 6175;

// ---------------------------------------------------------------------------------------------
// Structured ranking used only while building: category × 13^5 + up to five ranks (0..12) in base 13,
// most significant first. A larger structured value is a stronger high hand.

const B5 = 371293; // 13^5
const B4 = 28561;
const B3 = 2197;
const B2 = 169;

const CAT_STRAIGHT = 4;
const CAT_FLUSH = 5;
const CAT_STRAIGHT_FLUSH = 8;

/** Straights: 0 = not counted (2-7 decree, razz), 1 = counted with the A-2-3-4-5 wheel (R-HIGH), 2 = counted, ace always high (2-7 international). */
type StraightMode = 0 | 1 | 2;

function straightTop(mask: number, mode: StraightMode): number {
  if (mode === 0) return -1;
  for (let top = 12; top >= 4; top--) {
    const w = 0x1f << (top - 4);
    if ((mask & w) === w) return top;
  }
  // R-HIGH, D art. 5 I: the ace is "un" only in A-2-3-4-5 (five high)
  if (mode === 1 && (mask & 0x100f) === 0x100f) return 3;
  return -1;
}

/** Highest `k` ranks of `mask` other than `skipA`/`skipB`, packed base 13 from `weight` down. */
function kickers(mask: number, k: number, skipA: number, skipB: number, weight: number): number {
  let v = 0;
  let w = weight;
  for (let r = 12; r >= 0 && k > 0; r--) {
    if ((mask & (1 << r)) === 0 || r === skipA || r === skipB) continue;
    v += r * w;
    w = (w / 13) | 0;
    k--;
  }
  return v;
}

/** Best structured high hand of a rank multiset (5..7 counts, 0..12 ranks), flushes left out. */
function structuredFromCounts(cnt: Int8Array, mode: StraightMode): number {
  let mask = 0;
  let quads = -1;
  let trips1 = -1;
  let trips2 = -1;
  let pair1 = -1;
  let pair2 = -1;
  for (let r = 12; r >= 0; r--) {
    const c = cnt[r];
    if (c === 0) continue;
    mask |= 1 << r;
    if (c === 4) {
      if (quads < 0) quads = r;
    } else if (c === 3) {
      if (trips1 < 0) trips1 = r;
      else if (trips2 < 0) trips2 = r;
    } else if (c === 2) {
      if (pair1 < 0) pair1 = r;
      else if (pair2 < 0) pair2 = r;
    }
  }
  if (quads >= 0) return 7 * B5 + quads * B4 + kickers(mask, 1, quads, -1, B3);
  if (trips1 >= 0 && (trips2 >= 0 || pair1 >= 0)) {
    // D art. 6 I 3°: full houses by the three, then the pair
    return 6 * B5 + trips1 * B4 + Math.max(trips2, pair1) * B3;
  }
  const st = straightTop(mask, mode);
  if (st >= 0) return CAT_STRAIGHT * B5 + st * B4;
  if (trips1 >= 0) return 3 * B5 + trips1 * B4 + kickers(mask, 2, trips1, -1, B3);
  if (pair2 >= 0) return 2 * B5 + pair1 * B4 + pair2 * B3 + kickers(mask, 1, pair1, pair2, B2);
  if (pair1 >= 0) return 1 * B5 + pair1 * B4 + kickers(mask, 3, pair1, -1, B3);
  return kickers(mask, 5, -1, -1, B4);
}

/** Best structured straight flush or flush of one suit's rank mask (≥ 5 bits). */
function structuredFlush(mask: number, mode: StraightMode): number {
  const st = straightTop(mask, mode);
  if (st >= 0) return CAT_STRAIGHT_FLUSH * B5 + st * B4;
  return CAT_FLUSH * B5 + kickers(mask, 5, -1, -1, B4);
}

/** Razz structured value of exactly five cards: ace low, no straights or flushes (R-RAZZ, D art. 6 II). */
function structuredRazz5(cnt: Int8Array, aceLow: Int8Array): number {
  // ace-low order: index 0 = ace, 1 = deuce … 12 = king
  aceLow[0] = cnt[12];
  for (let r = 0; r < 12; r++) aceLow[r + 1] = cnt[r];
  return structuredFromCounts(aceLow, 0);
}

function popcount(x: number): number {
  let n = 0;
  while (x !== 0) {
    x &= x - 1;
    n++;
  }
  return n;
}

/**
 * Dense ranks of distinct structured values: `structured[i]` (< 2^31) → `rankOut[i]` = its 0-based
 * position in ascending order. Throws if two entries are equal (each 5-card class must be unique).
 */
function ascendingRanks(structured: Float64Array, rankOut: Int32Array): void {
  const n = structured.length;
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = structured[i] * 16384 + i; // exact: < 2^46
  packed.sort();
  let previous = -1;
  for (let rank = 0; rank < n; rank++) {
    const s = Math.floor(packed[rank] / 16384);
    const i = packed[rank] - s * 16384;
    if (s === previous) throw new Error('evaluator tables: two 5-card classes share a value');
    previous = s;
    rankOut[i] = rank;
  }
}

function build(): void {
  const POW5 = [1, 5, 25, 125, 625, 3125, 15625, 78125];
  const RANK_KEY_OF_RANK = new Int32Array(13);
  for (let r = 0; r < 13; r++) RANK_KEY_OF_RANK[r] = r < 7 ? POW5[r] : POW5[r - 7] << LOW_KEY_BITS;
  for (let c = 0; c < 52; c++) {
    const r = c >> 2; // 0..12 = deuce..ace
    const s = c & 3;
    RANK_KEY[c] = RANK_KEY_OF_RANK[r];
    SUIT_KEY[c] = 1 << (4 * s);
    RANK_BIT[c] = 1 << r;
    LOW_BIT[c] = r === 12 ? 1 : r <= 6 ? 1 << (r + 1) : 0;
  }

  // 2..8 parts (base-5 counts of ranks 2..8), grouped by card count; an odometer avoids divisions
  const lowByCount: number[][] = [[], [], [], [], [], [], [], []];
  {
    const digit = new Int8Array(7);
    let n = 0;
    for (let lo = 0; lo < 78125; lo++) {
      if (n <= 7) {
        LOW_INDEX[lo] = lowByCount[n].length;
        lowByCount[n].push(lo);
      }
      let d = 0;
      while (d < 7 && digit[d] === 4) {
        digit[d++] = 0;
        n -= 4;
      }
      if (d < 7) {
        digit[d]++;
        n++;
      }
    }
  }
  // 9..A parts: card count of each
  const highCount = new Int8Array(15625);
  {
    const digit = new Int8Array(6);
    let n = 0;
    for (let hi = 0; hi < 15625; hi++) {
      highCount[hi] = n;
      let d = 0;
      while (d < 6 && digit[d] === 4) {
        digit[d++] = 0;
        n -= 4;
      }
      if (d < 6) {
        digit[d]++;
        n++;
      }
    }
  }
  const offsets = [HIGH_OFFSET5, HIGH_OFFSET6, HIGH_OFFSET7];
  const sizes = [0, 0, 0];
  for (let hi = 0; hi < 15625; hi++) {
    const m = highCount[hi];
    for (let i = 0; i < 3; i++) {
      const n = 5 + i;
      if (m > n) continue;
      offsets[i][hi] = sizes[i];
      sizes[i] += lowByCount[n - m].length;
    }
  }
  if (sizes[0] !== MULTISETS5 || sizes[1] !== MULTISETS6 || sizes[2] !== MULTISETS7) {
    throw new Error(`evaluator tables: unexpected multiset counts ${sizes.join(', ')}`);
  }

  // 5-card rank multisets and 5-card flushes: structured values, then dense values by sorting
  const cnt = new Int8Array(13);
  const aceLow = new Int8Array(13);
  const fiveMasks: number[] = [];
  for (let mask = 0; mask < 8192; mask++) if (popcount(mask) === 5) fiveMasks.push(mask);
  const nFlush = fiveMasks.length; // 1,287
  const highS = new Float64Array(MULTISETS5 + nFlush);
  const intlS = new Float64Array(MULTISETS5 + nFlush);
  const decreeS = new Float64Array(MULTISETS5);
  const razzS = new Float64Array(MULTISETS5);
  for (let hi = 0; hi < 15625; hi++) {
    const m = highCount[hi];
    if (m > 5) continue;
    const los = lowByCount[5 - m];
    const base = HIGH_OFFSET5[hi];
    for (let j = 0; j < los.length; j++) {
      let x = los[j];
      for (let d = 0; d < 7; d++) {
        cnt[d] = x % 5;
        x = (x / 5) | 0;
      }
      x = hi;
      for (let d = 7; d < 13; d++) {
        cnt[d] = x % 5;
        x = (x / 5) | 0;
      }
      const i = base + j;
      highS[i] = structuredFromCounts(cnt, 1);
      intlS[i] = structuredFromCounts(cnt, 2);
      decreeS[i] = structuredFromCounts(cnt, 0);
      razzS[i] = structuredRazz5(cnt, aceLow);
    }
  }
  for (let f = 0; f < nFlush; f++) {
    highS[MULTISETS5 + f] = structuredFlush(fiveMasks[f], 1);
    intlS[MULTISETS5 + f] = structuredFlush(fiveMasks[f], 2);
  }
  const highRank = new Int32Array(MULTISETS5 + nFlush);
  const intlRank = new Int32Array(MULTISETS5 + nFlush);
  const decreeRank = new Int32Array(MULTISETS5);
  const razzRank = new Int32Array(MULTISETS5);
  ascendingRanks(highS, highRank);
  ascendingRanks(intlS, intlRank);
  ascendingRanks(decreeS, decreeRank);
  ascendingRanks(razzS, razzRank);
  // high: the strongest class gets 7,462; lows: the smallest structured hand is the best low
  for (let i = 0; i < MULTISETS5; i++) {
    NOFLUSH_HIGH5[i] = highRank[i] + 1;
    DEUCE_INTL5[i] = DEUCE_INTL_CLASSES - intlRank[i];
    DEUCE_DECREE5[i] = DEUCE_DECREE_CLASSES - decreeRank[i];
    RAZZ5[i] = RAZZ_CLASSES - razzRank[i];
  }
  for (let f = 0; f < nFlush; f++) {
    FLUSH_HIGH[fiveMasks[f]] = highRank[MULTISETS5 + f] + 1;
    DEUCE_INTL_FLUSH[fiveMasks[f]] = DEUCE_INTL_CLASSES - intlRank[MULTISETS5 + f];
  }
  for (let i = 0; i < highS.length; i++) {
    HIGH_CATEGORY_OF_VALUE[highRank[i] + 1] = (highS[i] / B5) | 0;
    DEUCE_INTL_CATEGORY_OF_VALUE[DEUCE_INTL_CLASSES - intlRank[i]] = (intlS[i] / B5) | 0;
  }

  // 6 and 7 cards: the best five of n cards is the best of the (n−1)-card hands left after removing
  // one card, so each entry is the max over the ranks it holds of the smaller table's entry.
  const smaller = [
    [HIGH_OFFSET5, NOFLUSH_HIGH5, RAZZ5],
    [HIGH_OFFSET6, NOFLUSH_HIGH6, RAZZ6],
  ] as const;
  const larger = [
    [HIGH_OFFSET6, NOFLUSH_HIGH6, RAZZ6],
    [HIGH_OFFSET7, NOFLUSH_HIGH7, RAZZ7],
  ] as const;
  for (let step = 0; step < 2; step++) {
    const n = 6 + step;
    const [offSmall, highSmall, razzSmall] = smaller[step];
    const [offLarge, highLarge, razzLarge] = larger[step];
    for (let hi = 0; hi < 15625; hi++) {
      const m = highCount[hi];
      if (m > n) continue;
      const los = lowByCount[n - m];
      const base = offLarge[hi];
      for (let j = 0; j < los.length; j++) {
        const lo = los[j];
        const key = (hi << LOW_KEY_BITS) + lo;
        let bestHigh = 0;
        let bestRazz = 0;
        let x = lo;
        for (let r = 0; r < 13; r++) {
          if (r === 7) x = hi;
          const q = (x / 5) | 0;
          if (x - q * 5 !== 0) {
            const k = key - RANK_KEY_OF_RANK[r];
            const idx = offSmall[k >>> LOW_KEY_BITS] + LOW_INDEX[k & LOW_KEY_MASK];
            if (highSmall[idx] > bestHigh) bestHigh = highSmall[idx];
            if (razzSmall[idx] > bestRazz) bestRazz = razzSmall[idx];
          }
          x = q;
        }
        highLarge[base + j] = bestHigh;
        razzLarge[base + j] = bestRazz;
      }
    }
  }
  // flushes of 6 and 7 cards of one suit: best of the masks with one rank fewer (smaller, done first)
  for (let mask = 0; mask < 8192; mask++) {
    if (popcount(mask) < 6) continue;
    let best = 0;
    for (let rest = mask; rest !== 0; rest &= rest - 1) {
      const v = FLUSH_HIGH[mask ^ (rest & -rest)];
      if (v > best) best = v;
    }
    FLUSH_HIGH[mask] = best;
  }
  for (let m = 0; m < 256; m++) {
    if (popcount(m) < 5) continue;
    // R-LOW8: the five lowest distinct ranks make the best low
    let five = 0;
    let need = 5;
    for (let b = 0; b < 8 && need > 0; b++) {
      if ((m & (1 << b)) !== 0) {
        five |= 1 << b;
        need--;
      }
    }
    LOW8_BY_MASK[m] = 256 - five;
  }
}

build();
