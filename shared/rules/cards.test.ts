import { describe, expect, it } from 'vitest';
import {
  FULL_DECK,
  RANK_CHARS,
  SUIT_CHARS,
  cardFromText,
  cardToText,
  formatCards,
  hasDuplicateCards,
  isCard,
  makeCard,
  parseCards,
  rankOf,
  suitOf,
} from './cards';

describe('card codes (R-CARDCODE, A 1.3.6.d.3)', () => {
  it('codes 2 of clubs as 0 and ace of spades as 51', () => {
    expect(cardFromText('2c')).toBe(0);
    expect(cardFromText('As')).toBe(51);
    expect(makeCard(2, 0)).toBe(0);
    expect(makeCard(14, 3)).toBe(51);
  });

  it('codes every card as 4 × (rank − 2) + suit, suits clubs, diamonds, hearts, spades', () => {
    for (let rank = 2; rank <= 14; rank++) {
      for (let suit = 0; suit < 4; suit++) {
        const text = RANK_CHARS[rank - 2] + SUIT_CHARS[suit];
        const c = cardFromText(text);
        expect(c).toBe(4 * (rank - 2) + suit);
        expect(rankOf(c as number)).toBe(rank);
        expect(suitOf(c as number)).toBe(suit);
      }
    }
    expect(cardFromText('Td')).toBe(4 * 8 + 1);
    expect(cardFromText('Kh')).toBe(4 * 11 + 2);
  });

  it('round-trips every card between code and text', () => {
    for (const c of FULL_DECK) expect(cardFromText(cardToText(c))).toBe(c);
    expect(new Set(FULL_DECK.map(cardToText)).size).toBe(52);
  });

  it('has a full deck of the 52 codes in order', () => {
    expect(FULL_DECK).toHaveLength(52);
    FULL_DECK.forEach((c, i) => expect(c).toBe(i));
    expect(Object.isFrozen(FULL_DECK)).toBe(true);
  });

  it('refuses text that is not one card', () => {
    for (const bad of ['', 'A', 'Ax', '1s', 'Zs', 'As ', 'AsK', '11s', 'Ts5']) expect(cardFromText(bad)).toBeNull();
  });

  it('reads lower-case ranks, upper-case suits and a written-out 10', () => {
    expect(cardFromText('as')).toBe(51);
    expect(cardFromText('AS')).toBe(51);
    expect(cardFromText('10h')).toBe(cardFromText('Th'));
  });

  it('rejects codes outside 0..51 when writing text', () => {
    expect(isCard(52)).toBe(false);
    expect(isCard(-1)).toBe(false);
    expect(isCard(1.5)).toBe(false);
    expect(isCard(0)).toBe(true);
    expect(() => cardToText(52)).toThrow(RangeError);
  });
});

describe('card lists', () => {
  it('parses concatenated, spaced and comma-separated lists alike', () => {
    const expected = [51, 46, 33];
    expect(parseCards('AsKhTd')).toEqual(expected);
    expect(parseCards('As Kh Td')).toEqual(expected);
    expect(parseCards('As,Kh,Td')).toEqual(expected);
    expect(parseCards(' As, Kh  Td ')).toEqual(expected);
    expect(parseCards('AsKh Td')).toEqual(expected);
    expect(parseCards('As 10h')).toEqual([51, cardFromText('Th')]);
  });

  it('parses an empty list and refuses a list with any bad card', () => {
    expect(parseCards('')).toEqual([]);
    expect(parseCards('   ')).toEqual([]);
    expect(parseCards('AsKx')).toBeNull();
    expect(parseCards('AsK')).toBeNull();
    expect(parseCards('As ??')).toBeNull();
  });

  it('formats concatenated by default, or with a separator', () => {
    expect(formatCards([51, 46, 0])).toBe('AsKh2c');
    expect(formatCards([51, 46, 0], ' ')).toBe('As Kh 2c');
    expect(formatCards([])).toBe('');
    expect(parseCards(formatCards(FULL_DECK))).toEqual([...FULL_DECK]);
  });

  it('finds a repeated card anywhere in the deck', () => {
    expect(hasDuplicateCards(FULL_DECK)).toBe(false);
    expect(hasDuplicateCards([0, 51, 0])).toBe(true);
    expect(hasDuplicateCards([30, 51, 30])).toBe(true);
    expect(hasDuplicateCards([25, 26])).toBe(false);
  });
});
