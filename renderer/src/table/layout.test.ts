import { describe, expect, it } from 'vitest';
import { amountForInput, cardFace, cardsText, formatAmount, remaining, seatPoint } from './layout';

describe('layout', () => {
  it('puts our seat at the bottom and the next seats clockwise (to our left)', () => {
    expect(seatPoint(3, 6, 3)).toEqual({ x: 50, y: 90 });
    const next = seatPoint(4, 6, 3);
    expect(next.x).toBeLessThan(50); // our left on screen
    const across = seatPoint(0, 6, 3);
    expect(across).toEqual({ x: 50, y: 10 });
    // Not seated: seat 0 at the bottom.
    expect(seatPoint(0, 9, null)).toEqual({ x: 50, y: 90 });
    // Bets sit closer to the middle.
    expect(seatPoint(3, 6, 3, 0.6).y).toBeLessThan(90);
  });

  it('formats amounts: euros at real-money tables, chips otherwise', () => {
    expect(formatAmount(1250, 'real', 'fr').replace(/\s/g, ' ')).toBe('12,50 €');
    expect(formatAmount(1500, 'play', 'en')).toBe('1,500');
    expect(amountForInput(1250, 'real', 'fr')).toBe('12,50');
    expect(amountForInput(1205, 'real', 'en')).toBe('12.05');
    expect(amountForInput(1500, 'play', 'fr')).toBe('1500');
  });

  it('counts a clock down, never below zero', () => {
    expect(remaining(15000, 1000, 6000)).toBe(10000);
    expect(remaining(15000, 1000, 20000)).toBe(0);
    // A clock read with a time older than its start never shows more than its own time.
    expect(remaining(15000, 9000, 1000)).toBe(15000);
  });
});

describe('card faces', () => {
  it('reads codes (2c = 0, As = 51, Td = 33)', () => {
    expect(cardFace(0)).toEqual({ rank: '2', rankNo: 2, suit: '♣', suitKey: 'c' });
    expect(cardFace(51)).toEqual({ rank: 'A', rankNo: 14, suit: '♠', suitKey: 's' });
    expect(cardFace(33)).toMatchObject({ rank: '10', suitKey: 'd' });
    expect(cardsText([51, 33])).toBe('A♠ 10♦');
  });
});
