/**
 * Reproducible random deals for the evaluator tests (not used by the product): a seeded generator,
 * so a failing case can be replayed. The operator's real shuffle is R-DEAL (crypto), elsewhere.
 */
import type { Card } from '../cards';
import { mulberry32 } from '../prng';

/** mulberry32 (shared/rules/prng.ts): uniform in [0, 1) from a 32-bit seed. */
export const seededRandom = mulberry32;

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
