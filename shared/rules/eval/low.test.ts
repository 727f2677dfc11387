import { describe, expect, it } from 'vitest';
import { type Card, parseCards } from '../cards';
import * as low from './low';
import { dealHands } from './test-deal';

// local constants: the exhaustive loops below make millions of calls
const evalLow8 = low.evalLow8;
const { DEUCE_DECREE_BEST, DEUCE_INTL_BEST, LOW8_BEST, RAZZ_BEST, eval27, evalOmahaLow8, evalRazz, evalRazz7 } = low;

function cards(text: string): Card[] {
  const cs = parseCards(text);
  if (cs === null) throw new Error(`bad cards in test: ${text}`);
  return cs;
}
const low8 = (t: string): number => evalLow8(cards(t));
const razz = (t: string): number => evalRazz(cards(t));
const decree = (t: string): number => eval27(cards(t), 'decree');
const intl = (t: string): number => eval27(cards(t), 'international');
const omahaLow = (hole: string, board: string): number => evalOmahaLow8(cards(hole), cards(board));

// ---------------------------------------------------------------------------------------------
// A naive reference, written independently of the tables: sort, group, compare lists.

/** Lexicographic comparison of two number lists. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Lowball key of five cards, smaller = better low: [category, group ranks by size then rank].
 * Categories as in high poker (0 high card … 8 straight flush); straights and flushes only when
 * `straightsFlushes` (ace high, no wheel: 2-7 international).
 */
function lowballKey(five: readonly Card[], aceLow: boolean, straightsFlushes: boolean): number[] {
  const rank = (c: Card): number => (aceLow && c >> 2 === 12 ? 1 : (c >> 2) + 2);
  const counts = new Map<number, number>();
  for (const c of five) counts.set(rank(c), (counts.get(rank(c)) ?? 0) + 1);
  const groups = [...counts.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0]);
  const shape = groups.map((g) => g[1]).join('');
  let category = { '11111': 0, '2111': 1, '221': 2, '311': 3, '32': 6, '41': 7 }[shape] as number;
  if (straightsFlushes && shape === '11111') {
    const straight = groups[0][0] - groups[4][0] === 4;
    const flush = five.every((c) => (c & 3) === (five[0] & 3));
    if (straight && flush) category = 8;
    else if (flush) category = 5;
    else if (straight) category = 4;
  }
  return [category, ...groups.map((g) => g[0])];
}

/** Best (smallest) key over every choice of five. */
function bestKey(cs: readonly Card[], key: (five: Card[]) => number[] | null): number[] | null {
  let best: number[] | null = null;
  const n = cs.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const k = key([cs[a], cs[b], cs[c], cs[d], cs[e]]);
            if (k !== null && (best === null || compareLists(k, best) < 0)) best = k;
          }
  return best;
}

/** A-5 low 8-or-better key of five cards, or null: five distinct ranks ≤ 8, highest first. */
function low8Key(five: readonly Card[]): number[] | null {
  const ranks = five.map((c) => (c >> 2 === 12 ? 1 : (c >> 2) + 2)).sort((x, y) => y - x);
  if (new Set(ranks).size !== 5 || ranks[0] > 8) return null;
  return ranks;
}

/**
 * Checks that `value` orders `hands` exactly as the reference keys do (smaller key = higher value;
 * equal keys = equal values; a null key = value 0, worse than any), comparing each hand with the
 * previous one.
 */
function expectSameOrder(hands: readonly Card[][], value: (h: Card[]) => number, key: (h: Card[]) => number[] | null): void {
  let mismatches = 0;
  let previousValue = value(hands[0]);
  let previousKey = key(hands[0]);
  for (let i = 1; i < hands.length; i++) {
    const v = value(hands[i]);
    const k = key(hands[i]);
    let expected: number;
    if (k === null || previousKey === null) expected = (k === null ? 0 : 1) - (previousKey === null ? 0 : 1);
    else expected = -Math.sign(compareLists(k, previousKey));
    if (k === null && v !== 0) mismatches++;
    if (Math.sign(v - previousValue) !== Math.sign(expected)) mismatches++;
    previousValue = v;
    previousKey = k;
  }
  expect(mismatches).toBe(0);
}

// ---------------------------------------------------------------------------------------------

describe('A-5 low 8 or better (R-LOW8, D art. 6 III)', () => {
  it('every 5-card hand: 57,344 qualify, with 56 distinct lows; razz and 2-7 values are one per rank multiset or class', () => {
    const low8Seen = new Int32Array(256);
    const razzSeen = new Int32Array(RAZZ_BEST + 1);
    const decreeSeen = new Int32Array(DEUCE_DECREE_BEST + 1);
    const intlSeen = new Int32Array(DEUCE_INTL_BEST + 1);
    const hand = [0, 0, 0, 0, 0];
    let qualifying = 0;
    for (let a = 0; a < 52; a++) {
      hand[0] = a;
      for (let b = a + 1; b < 52; b++) {
        hand[1] = b;
        for (let c = b + 1; c < 52; c++) {
          hand[2] = c;
          for (let d = c + 1; d < 52; d++) {
            hand[3] = d;
            for (let e = d + 1; e < 52; e++) {
              hand[4] = e;
              const v = evalLow8(hand);
              if (v !== 0) qualifying++;
              low8Seen[v]++;
              razzSeen[evalRazz(hand)]++;
              decreeSeen[eval27(hand, 'decree')]++;
              intlSeen[eval27(hand, 'international')]++;
            }
          }
        }
      }
    }
    const distinct = (seen: Int32Array, from: number): number => seen.slice(from).filter((n) => n > 0).length;
    expect(qualifying).toBe(57_344);
    expect(distinct(low8Seen, 1)).toBe(56);
    expect(low8Seen[LOW8_BEST]).toBe(4 ** 5); // the wheel, in every suit combination
    // 6,175 rank multisets of five cards; 2-7 international also splits flushes and straights
    expect(distinct(razzSeen, 0)).toBe(6_175);
    expect(razzSeen[0]).toBe(0);
    expect(distinct(decreeSeen, 0)).toBe(6_175);
    expect(decreeSeen[0]).toBe(0);
    expect(distinct(intlSeen, 0)).toBe(7_462);
    expect(intlSeen[0]).toBe(0);
  });

  it('every 7-card hand: 24,530,944 hold a qualifying low', () => {
    const hand = [0, 0, 0, 0, 0, 0, 0];
    let qualifying = 0;
    for (let a = 0; a < 52; a++) {
      hand[0] = a;
      for (let b = a + 1; b < 52; b++) {
        hand[1] = b;
        for (let c = b + 1; c < 52; c++) {
          hand[2] = c;
          for (let d = c + 1; d < 52; d++) {
            hand[3] = d;
            for (let e = d + 1; e < 52; e++) {
              hand[4] = e;
              for (let f = e + 1; f < 52; f++) {
                hand[5] = f;
                for (let g = f + 1; g < 52; g++) {
                  hand[6] = g;
                  if (evalLow8(hand) !== 0) qualifying++;
                }
              }
            }
          }
        }
      }
    }
    expect(qualifying).toBe(24_530_944);
  });

  it('orders random 5-, 6- and 7-card hands as the naive reference does', () => {
    for (const size of [5, 6, 7]) expectSameOrder(dealHands(30_000, size, size), evalLow8, (hd) => bestKey(hd, low8Key));
  });

  it('the wheel is the best low, 8-7-6-5-4 the worst, and a nine never qualifies', () => {
    expect(low8('5c4d3h2sAc')).toBe(LOW8_BEST);
    expect(low8('8c7d6h5s4c')).toBeGreaterThan(0);
    expect(low8('8c7d6h5s4c')).toBeLessThan(low8('8c7d6h5sAc'));
    expect(low8('9c7d6h5s4c')).toBe(0);
    expect(low8('9c7d6h5s4cKdQh')).toBe(0);
  });

  it('compares lows from the highest card down: 8-6-4-2-A beats 8-7-3-2-A, 6-4 beats 6-5', () => {
    expect(low8('8c6d4h2sAc')).toBeGreaterThan(low8('8c7d3h2sAd'));
    expect(low8('6c4d3h2sAc')).toBeGreaterThan(low8('6c5d2h3sAd'));
    expect(low8('7c4d3h2sAc')).toBeGreaterThan(low8('8c4d3h2sAc'));
  });

  it('ignores straights and flushes, skips pairs, and needs five different ranks', () => {
    expect(low8('5h4h3h2hAh')).toBe(LOW8_BEST);
    expect(low8('AcAd2h3s4c5dKh')).toBe(LOW8_BEST);
    expect(low8('AcAd2h2s3c4dKh')).toBe(0);
    expect(low8('AcAdAh2s3c4d4h')).toBe(0);
  });

  it('ties exactly when the five ranks are the same in other suits (D art. 6 IV)', () => {
    expect(low8('8c6d4h2sAcKdKh')).toBe(low8('8h6s4c2dAs'));
  });
});

describe('Omaha low: exactly two private and three board cards (R-LOW8)', () => {
  it('takes the best 2 + 3, the low chosen independently of the high', () => {
    expect(omahaLow('Ac2dKhKs', '3c4d5hQsJc')).toBe(LOW8_BEST);
    expect(omahaLow('Ac3dKhKs', 'Ad2c5h7sKd')).toBe(low8('7s5h3d2cAc'));
  });

  it('a private card that pairs the board is counterfeited', () => {
    // A-2 in hand and A, 2 on the board: only 6, 7 remain as low board cards to go with A-2
    expect(omahaLow('Ac2dKhKs', 'Ad2c6h7sKd')).toBe(0);
    expect(omahaLow('Ac2d3hKs', 'Ad2c6h7sKd')).toBe(low8('7s6h3h2dAc'));
  });

  it('three low cards in the hand do not replace a third low board card', () => {
    expect(omahaLow('Ac2d3h4s', '5c6dKhQsJc')).toBe(0);
    expect(omahaLow('Ac2d3h4s', '5c6d7hQsJc')).toBe(low8('7h6d5c2dAc'));
  });

  it('needs two different low ranks in the hand: a pair of aces alone gives no low', () => {
    expect(omahaLow('AcAdKhKs', '2c3d4hQsJc')).toBe(0);
  });

  it('orders random Omaha 4 and 5 hands, flop to river, as the naive reference does', () => {
    for (const nh of [4, 5]) {
      for (const nb of [3, 4, 5]) {
        const deals = dealHands(20_000, nh + nb, 31 * nh + nb);
        const key = (d: Card[]): number[] | null => {
          let best: number[] | null = null;
          for (let a = 0; a < nh; a++)
            for (let b = a + 1; b < nh; b++)
              for (let i = nh; i < nh + nb; i++)
                for (let j = i + 1; j < nh + nb; j++)
                  for (let k = j + 1; k < nh + nb; k++) {
                    const kk = low8Key([d[a], d[b], d[i], d[j], d[k]]);
                    if (kk !== null && (best === null || compareLists(kk, best) < 0)) best = kk;
                  }
          return best;
        };
        expectSameOrder(deals, (d) => evalOmahaLow8(d.slice(0, nh), d.slice(nh)), key);
      }
    }
  });
});

describe('Razz: A-5 low, no qualifier, pairs count against (R-RAZZ, D art. 6 II)', () => {
  it('orders random 5-, 6- and 7-card hands as the naive reference does', () => {
    for (const size of [5, 6, 7]) {
      expectSameOrder(dealHands(30_000, size, 100 + size), evalRazz, (hd) =>
        bestKey(hd, (five) => lowballKey(five, true, false)),
      );
    }
  });

  it('orders 7-card hands with many pairs (few ranks) as the naive reference does', () => {
    // deal from 5 ranks only, so that paired, two-pair, trips and full-house Razz hands are common
    const fewRanks = dealHands(30_000, 7, 77).map((hd) => hd.map((c) => ((c >> 2) % 5) * 4 + (c & 3)));
    const valid = fewRanks.filter((hd) => new Set(hd).size === 7);
    expect(valid.length).toBeGreaterThan(1000);
    expectSameOrder(valid, evalRazz, (hd) => bestKey(hd, (five) => lowballKey(five, true, false)));
  });

  it('5-4-3-2-A is the best hand even suited: straights and flushes do not count', () => {
    expect(razz('5c4d3h2sAc')).toBe(RAZZ_BEST);
    expect(razz('5h4h3h2hAh')).toBe(RAZZ_BEST);
    expect(razz('5h4h3h2hAhKcKd')).toBe(RAZZ_BEST);
  });

  it('any unpaired hand beats any pair; one pair beats two pair; the lower pair wins', () => {
    expect(razz('KcQdJhTs9c')).toBeGreaterThan(razz('AcAd2h3s4c'));
    expect(razz('AcAd2h3s4c')).toBeGreaterThan(razz('AcAd2h2s3c'));
    expect(razz('AcAdKhQsJc')).toBeGreaterThan(razz('2c2d3h4s5c'));
    expect(razz('3c3d5h4s2c')).toBeGreaterThan(razz('3c3d6h4s2c'));
  });

  it('with seven cards, pairs are left out whenever five different ranks remain', () => {
    expect(razz('AcAd2h2s3c4d5h')).toBe(RAZZ_BEST);
    // four ranks: one pair is forced, and the lowest pair available is kept
    expect(razz('KcKdKhQsQcJdTh')).toBe(razz('KcQsQcJdTh'));
    // A-A-A-A-K-K-K: a full house is better than four of a kind, the lower three better
    expect(evalRazz7(51, 50, 49, 48, 47, 46, 45)).toBe(razz('AsAhAdKsKh'));
    expect(razz('AsAhAdKsKh')).toBeGreaterThan(razz('KsKhKdAsAh'));
    expect(razz('AsAhAdKsKh')).toBeGreaterThan(razz('AsAhAdAcKh'));
  });
});

describe('2-7 lowball in both readings (R-27, D art. 6 II, art. 7 IV)', () => {
  it('7-5-4-3-2 offsuit is the best hand under the international reading', () => {
    expect(intl('7c5d4h3s2c')).toBe(DEUCE_INTL_BEST);
    expect(decree('7c5d4h3s2c')).toBeGreaterThan(decree('7c6d4h3s2c'));
  });

  it('7-5-4-3-2 suited is a flush under the international reading, but as good as offsuit under the decree', () => {
    expect(decree('7h5h4h3h2h')).toBe(decree('7c5d4h3s2c'));
    // internationally the flush is worse than trips and a straight, better than a full house
    expect(intl('7h5h4h3h2h')).toBeLessThan(intl('KcKdKh2s3c'));
    expect(intl('7h5h4h3h2h')).toBeLessThan(intl('8c7d6h5s4c'));
    expect(intl('7h5h4h3h2h')).toBeGreaterThan(intl('2c2d2h3s3c'));
  });

  it('under the decree straights do not count: 6-5-4-3-2 is the best hand; internationally it is a straight', () => {
    expect(decree('6c5d4h3s2c')).toBe(DEUCE_DECREE_BEST);
    expect(decree('6c5d4h3s2c')).toBeGreaterThan(decree('7c5d4h3s2c'));
    expect(intl('6c5d4h3s2c')).toBeLessThan(intl('2c2d3h4s5c'));
    expect(intl('6c5d4h3s2c')).toBeLessThan(intl('AcKdQhJs9c'));
  });

  it('the ace is always high: A-2-3-4-5 is an ace-high hand, not a straight, and loses to K-high', () => {
    expect(intl('Ac2d3h4s5c')).toBeLessThan(intl('Kc2d3h4s5c'));
    expect(intl('Ac2d3h4s5c')).toBeGreaterThan(intl('2c2d3h4s5c'));
    expect(decree('Ac2d3h4s5c')).toBeLessThan(decree('Kc2d3h4s5c'));
    expect(intl('AcKdQhJsTc')).toBeLessThan(intl('AcAdKhQsJc'));
  });

  it('pairs count against the hand, the lower pair winning, in both readings', () => {
    for (const reading of ['decree', 'international'] as const) {
      const v = (t: string): number => eval27(cards(t), reading);
      expect(v('KcQdJh9s8c')).toBeGreaterThan(v('2c2d3h4s5c'));
      expect(v('2c2d3h4s5c')).toBeGreaterThan(v('3c3d2h4s5c'));
      expect(v('2c2d3h4s6c')).toBeGreaterThan(v('2c2d3h3s4c'));
    }
  });

  it('orders random 5-card hands as the naive reference does, in both readings', () => {
    const hands = dealHands(40_000, 5, 27);
    expectSameOrder(hands, (hd) => eval27(hd, 'decree'), (hd) => lowballKey(hd, false, false));
    expectSameOrder(hands, (hd) => eval27(hd, 'international'), (hd) => lowballKey(hd, false, true));
    // suited deals (two suits only), so that flushes are common
    const suited = dealHands(40_000, 5, 28)
      .map((hd) => hd.map((c) => c & ~2))
      .filter((hd) => new Set(hd).size === 5);
    expectSameOrder(suited, (hd) => eval27(hd, 'international'), (hd) => lowballKey(hd, false, true));
  });

  it('takes the best five of six or seven cards', () => {
    for (const hd of dealHands(5_000, 7, 72)) {
      for (const reading of ['decree', 'international'] as const) {
        let best = 0;
        for (let x = 0; x < 7; x++)
          for (let y = x + 1; y < 7; y++) {
            best = Math.max(best, eval27(hd.filter((_, i) => i !== x && i !== y), reading));
          }
        expect(eval27(hd, reading)).toBe(best);
        const six = hd.slice(0, 6);
        expect(eval27(six, reading)).toBe(Math.max(...six.map((_, x) => eval27(six.filter((__, i) => i !== x), reading))));
      }
    }
  });

  it('refuses card counts outside 5..7, as a bug', () => {
    expect(() => eval27(cards('7c5d4h3s'), 'decree')).toThrow(RangeError);
    expect(() => evalRazz(cards('7c5d4h3s'))).toThrow(RangeError);
    expect(() => evalLow8(cards('7c5d4h3s'))).toThrow(RangeError);
    expect(() => evalOmahaLow8(cards('Ac2d'), cards('3c4d'))).toThrow(RangeError);
  });
});
