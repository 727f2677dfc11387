import { evaluate as peerEvaluate } from '@pokertools/evaluator';
import { describe, expect, it } from 'vitest';
import { type Card, parseCards } from '../cards';
import * as high from './high';
import { dealHands } from './test-deal';

const { HIGH_CATEGORIES, HIGH_MAX, evalHigh, evalHigh5, evalHigh6, evalHigh7, evalOmahaHigh, highCategoryOf } =
  high;

function cards(text: string): Card[] {
  const cs = parseCards(text);
  if (cs === null) throw new Error(`bad cards in test: ${text}`);
  return cs;
}
const h = (text: string): number => evalHigh(cards(text));
const omaha = (hole: string, board: string): number => evalOmahaHigh(cards(hole), cards(board));

/** The peer codes suits s h d c as 0..3 (ours: c d h s), ranks the same; it scores 1 = best. */
const toPeer = (c: Card): number => (c & ~3) | (3 - (c & 3));

/** Best of every choice of five, by the 5-card evaluator: the definition of "best five". */
function bruteHigh(cs: readonly Card[]): number {
  let best = 0;
  const n = cs.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) best = Math.max(best, evalHigh5(cs[a], cs[b], cs[c], cs[d], cs[e]));
  return best;
}

function bruteOmaha(hole: readonly Card[], board: readonly Card[]): number {
  let best = 0;
  for (let a = 0; a < hole.length; a++)
    for (let b = a + 1; b < hole.length; b++)
      for (let i = 0; i < board.length; i++)
        for (let j = i + 1; j < board.length; j++)
          for (let k = j + 1; k < board.length; k++)
            best = Math.max(best, evalHigh5(hole[a], hole[b], board[i], board[j], board[k]));
  return best;
}

describe('every 5-card hand (R-HIGH, D art. 5 II)', () => {
  it('has the textbook category counts and 7,462 distinct values, in the same order as a peer evaluator', () => {
    const perValue = new Int32Array(HIGH_MAX + 1);
    const hand = [0, 0, 0, 0, 0];
    let mismatches = 0;
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
              const v = evalHigh(hand);
              perValue[v]++;
              // the peer numbers the same 7,462 classes from 1 (royal flush) to 7,462 (7-5-4-3-2)
              if (v !== HIGH_MAX + 1 - peerEvaluate([toPeer(a), toPeer(b), toPeer(c), toPeer(d), toPeer(e)])) {
                mismatches++;
              }
            }
          }
        }
      }
    }
    const byCategory: Record<string, number> = {};
    let distinct = 0;
    let total = 0;
    for (let v = 1; v <= HIGH_MAX; v++) {
      if (perValue[v] === 0) continue;
      distinct++;
      total += perValue[v];
      const cat = highCategoryOf(v);
      byCategory[cat] = (byCategory[cat] ?? 0) + perValue[v];
    }
    expect(perValue[0]).toBe(0);
    expect(total).toBe(2_598_960);
    expect(byCategory).toEqual({
      'straight-flush': 40,
      'four-of-a-kind': 624,
      'full-house': 3_744,
      flush: 5_108,
      straight: 10_200,
      'three-of-a-kind': 54_912,
      'two-pair': 123_552,
      pair: 1_098_240,
      'high-card': 1_302_540,
    });
    expect(distinct).toBe(7_462);
    expect(mismatches).toBe(0);
  });

  it('orders the categories strongest first: every value of a category beats every value of the next', () => {
    let previousCategory = -1;
    for (let v = 1; v <= HIGH_MAX; v++) {
      // HIGH_CATEGORIES is strongest first, so its index falls as the value rises
      const index = HIGH_CATEGORIES.length - 1 - HIGH_CATEGORIES.indexOf(highCategoryOf(v));
      expect(index).toBeGreaterThanOrEqual(previousCategory);
      previousCategory = index;
    }
    expect(() => highCategoryOf(0)).toThrow(RangeError);
    expect(() => highCategoryOf(HIGH_MAX + 1)).toThrow(RangeError);
  });
});

describe('6- and 7-card hands take the best five (R-HIGH)', () => {
  it('matches the peer evaluator exactly on 200,000 random 7-card hands, and so orders them alike', () => {
    const hands = dealHands(200_000, 7, 2016);
    const ours = hands.map((hand) => evalHigh(hand));
    const peer = hands.map((hand) => peerEvaluate(hand.map(toPeer)));
    let orderMismatches = 0;
    let exact = 0;
    for (let i = 0; i < hands.length; i++) {
      if (ours[i] === HIGH_MAX + 1 - peer[i]) exact++;
      // higher is better for us, lower for the peer
      if (i > 0 && Math.sign(ours[i] - ours[i - 1]) !== Math.sign(peer[i - 1] - peer[i])) orderMismatches++;
    }
    expect(orderMismatches).toBe(0);
    expect(exact).toBe(hands.length);
  });

  it('equals the best of every choice of five, for 6 and 7 random cards, array or argument entry', () => {
    for (const hand of dealHands(20_000, 7, 11)) {
      const v7 = evalHigh7(hand[0], hand[1], hand[2], hand[3], hand[4], hand[5], hand[6]);
      expect(v7).toBe(bruteHigh(hand));
      expect(evalHigh(hand)).toBe(v7);
      const six = hand.slice(0, 6);
      expect(evalHigh6(six[0], six[1], six[2], six[3], six[4], six[5])).toBe(bruteHigh(six));
      expect(evalHigh(six)).toBe(bruteHigh(six));
    }
  });

  it('finds flushes of six and seven suited cards, and straight flushes among them', () => {
    expect(h('AhKh9h7h5h3h2h')).toBe(h('AhKh9h7h5h'));
    expect(h('9h8h7h6h5h4h2c')).toBe(h('9h8h7h6h5h'));
    expect(highCategoryOf(h('Ah2h3h4h5h9hKh'))).toBe('straight-flush');
    expect(h('Ah2h3h4h5h6h')).toBe(h('2h3h4h5h6h'));
  });

  it('refuses a card count it cannot evaluate, as a bug', () => {
    expect(() => evalHigh(cards('AsKsQsJs'))).toThrow(RangeError);
    expect(() => evalHigh(cards('AsKsQsJsTs9s8s7s'))).toThrow(RangeError);
  });
});

describe('hand-picked high hands (R-HIGH, D art. 6 I)', () => {
  it('the royal flush is the best hand and the steel wheel the smallest straight flush', () => {
    expect(h('AsKsQsJsTs')).toBe(HIGH_MAX);
    expect(highCategoryOf(h('As2s3s4s5s'))).toBe('straight-flush');
    expect(h('As2s3s4s5s')).toBeLessThan(h('2s3s4s5s6s'));
    expect(h('As2s3s4s5s')).toBeGreaterThan(h('AcAdAhAsKs'));
  });

  it('the wheel A-2-3-4-5 is a straight, the lowest one; the ace is low only there', () => {
    expect(highCategoryOf(h('Ac2d3h4s5c'))).toBe('straight');
    expect(h('Ac2d3h4s5c')).toBeLessThan(h('2d3h4s5c6d'));
    expect(h('Ac2d3h4s5c')).toBeGreaterThan(h('AcAdAhKsQc'));
    expect(highCategoryOf(h('AcKdQhJsTc'))).toBe('straight');
    expect(h('AcKdQhJsTc')).toBeGreaterThan(h('KdQhJsTc9d'));
    // no wrap-around: Q-K-A-2-3 is ace high, nothing more
    expect(highCategoryOf(h('QcKdAh2s3c'))).toBe('high-card');
  });

  it('kickers decide between equal combinations, from the highest down (D art. 6 I 4°)', () => {
    expect(h('AcAdKhQsJc')).toBeGreaterThan(h('AhAsKdQcTd'));
    expect(h('AcAdKhQsJc')).toBe(h('AhAsKdQcJd'));
    expect(h('KcKd9h9s7c')).toBeGreaterThan(h('KhKs9c9d6c'));
    expect(h('7c7d7hAs2c')).toBeGreaterThan(h('7s7d7hKsQc'));
    expect(h('AcQd9h7s5c')).toBeGreaterThan(h('AdQh9s7c4c'));
    expect(h('AcQd9h7s5c')).toBeGreaterThan(h('AdJh9s7c5c'));
  });

  it('full houses compare the three first, then the pair (D art. 6 I 3°)', () => {
    expect(h('3c3d3h2s2c')).toBeGreaterThan(h('2c2d2hAsAc'));
    expect(h('7c7d7hKsKc')).toBeGreaterThan(h('7s7d7hQsQc'));
    expect(h('7c7d7hKsKc5d')).toBe(h('7c7d7hKsKc'));
    // two threes in seven cards: the higher three with a pair of the lower
    expect(h('9c9d9h4s4c4d2h')).toBe(h('9c9d9h4s4c'));
  });

  it('with three pairs in seven cards, the two highest pairs play with the best kicker', () => {
    expect(h('AcAdKhKsQcQd2h')).toBe(h('AcAdKhKsQc'));
    expect(h('AcAd5h5s4c4dKh')).toBe(h('AcAd5h5sKh'));
  });

  it('a flush beats a straight and the straight flush beats both in seven cards', () => {
    expect(highCategoryOf(h('5c6c7c8d9hKcJc'))).toBe('flush');
    expect(h('5c6c7c8d9hKcJc')).toBe(h('5c6c7cKcJc'));
    expect(highCategoryOf(h('5c6c7c8c9cTd'))).toBe('straight-flush');
    expect(h('5c6c7c8c9cTd')).toBe(h('5c6c7c8c9c'));
  });

  it('identical ranks in other suits tie exactly, and so do two players playing the board (D art. 6 IV)', () => {
    expect(h('AcKdQh9s7c')).toBe(h('AhKsQd9c7d'));
    const board = 'AcKdQhJsTc';
    expect(h(`2c3d${board}`)).toBe(h(`4h5s${board}`));
    expect(h(`2c3d${board}`)).toBe(h(board));
  });
});

describe('Omaha high: exactly two private cards and three board cards (R-HIGH)', () => {
  it('four suited board cards and one suited private card are not a flush', () => {
    expect(highCategoryOf(omaha('AhKs7c2d', 'QhJh8h3h9c'))).not.toBe('flush');
    expect(omaha('AhKs7c2d', 'QhJh8h3h9c')).toBe(h('AhKsQhJh9c'));
    expect(highCategoryOf(omaha('Ah2h7c8d', 'QhJh3h9c9d'))).toBe('flush');
  });

  it('board trips need a pair from the hand to make a full house, and a board quad is only a full house', () => {
    expect(omaha('Ac2d8s9s', 'KcKdKh5s3c')).toBe(h('AcKcKdKh9s'));
    expect(highCategoryOf(omaha('Ac2d8s9s', 'KcKdKh5s3c'))).toBe('three-of-a-kind');
    expect(highCategoryOf(omaha('AcAd8s9s', 'KcKdKh5s3c'))).toBe('full-house');
    expect(omaha('AcAd2h3d', '7c7d7h7sKc')).toBe(h('7c7d7hAcAd'));
  });

  it('a five-card straight on the board does not play without two private cards that fit', () => {
    expect(highCategoryOf(omaha('2c2d3h3s', '9cTdJhQsKc'))).toBe('pair');
    expect(highCategoryOf(omaha('AcJd3h3s', '9cTdJhQsKc'))).toBe('straight');
  });

  it('four aces in hand make only one pair of aces from the hand', () => {
    expect(omaha('AcAdAhAs', 'Kc9d7h4s2c')).toBe(h('AcAdKc9d7h'));
  });

  it('equals the best of all 2 + 3 choices for random Omaha 4 and Omaha 5 hands, flop to river', () => {
    for (const deal of dealHands(20_000, 10, 99)) {
      for (const nh of [4, 5]) {
        const hole = deal.slice(0, nh);
        for (const nb of [3, 4, 5]) {
          const board = deal.slice(5, 5 + nb);
          expect(evalOmahaHigh(hole, board)).toBe(bruteOmaha(hole, board));
        }
      }
    }
  });

  it('is checked with flush boards often enough: random suited deals agree with the brute force', () => {
    // deals from two suits only, so that flush and straight-flush paths are exercised
    for (const deal of dealHands(20_000, 9, 5)) {
      const hole = deal.slice(0, 4).map((c) => c & ~2);
      const board = deal.slice(4, 9).map((c) => c & ~2);
      if (new Set([...hole, ...board]).size !== 9) continue;
      expect(evalOmahaHigh(hole, board)).toBe(bruteOmaha(hole, board));
    }
  });

  it('refuses card counts outside the game, as a bug', () => {
    expect(() => evalOmahaHigh(cards('Ac'), cards('KcKdKh'))).toThrow(RangeError);
    expect(() => evalOmahaHigh(cards('AcAd'), cards('KcKd'))).toThrow(RangeError);
  });
});
