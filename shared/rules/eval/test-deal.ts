/**
 * Reproducible random deals for the evaluator tests (not used by the product): a seeded generator,
 * so a failing case can be replayed. The operator's real shuffle is R-DEAL (crypto), elsewhere.
 */
import type { Card } from '../cards';

/** mulberry32: uniform in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` hands of `size` distinct cards each (partial Fisher-Yates per hand). */
export function dealHands(count: number, size: number, seed: number): Card[][] {
  const random = seededRandom(seed);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  const hands: Card[][] = [];
  for (let h = 0; h < count; h++) {
    const hand: Card[] = [];
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(random() * (52 - i));
      const t = deck[i];
      deck[i] = deck[j];
      deck[j] = t;
      hand.push(deck[i]);
    }
    hands.push(hand);
  }
  return hands;
}
