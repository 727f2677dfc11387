import { describe, expect, it } from 'vitest';
import { Deck, shuffle } from './deck';

describe('the deck (R-DEAL, R-DECK)', () => {
  it('deals 52 distinct cards', () => {
    const d = new Deck();
    const all = d.take(52);
    expect(new Set(all).size).toBe(52);
    expect(d.stub).toBe(0);
    expect(() => d.take(1)).toThrow(/reshuffle/);
  });

  it('Fisher-Yates over crypto.randomInt puts every card in every position about equally often', () => {
    const n = 52 * 400;
    const counts = new Array<number>(52).fill(0);
    for (let i = 0; i < n; i++) {
      const cards = Array.from({ length: 52 }, (_, c) => c);
      shuffle(cards);
      counts[cards[0]]++;
    }
    // Chi-square with 51 degrees of freedom: above 100 has probability below 1e-4 for a fair shuffle.
    const expected = n / 52;
    const chi = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(100);
  });
});
