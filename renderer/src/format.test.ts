import { describe, expect, it } from 'vitest';
import { formatAmount, formatCents, formatChips } from './format';

// Intl inserts narrow no-break spaces in French: compare with them folded to plain spaces.
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('formatCents', () => {
  it('formats integer cents in French and English', () => {
    expect(plain(formatCents(123456, 'fr'))).toBe('1 234,56 €');
    expect(formatCents(123456, 'en')).toBe('€1,234.56');
    expect(plain(formatCents(5, 'fr'))).toBe('0,05 €');
  });
  it('shows the sign of a result when asked', () => {
    expect(plain(formatCents(-1050, 'fr', true))).toBe('-10,50 €');
    expect(formatCents(250, 'en', true)).toBe('+€2.50');
    expect(formatCents(0, 'en', true)).toBe('€0.00');
  });
  it('refuses amounts that are not integer cents', () => {
    expect(() => formatCents(1.5, 'fr')).toThrow(RangeError);
  });
});

describe('formatChips / formatAmount', () => {
  it('groups whole chips and signs results', () => {
    expect(plain(formatChips(1000000, 'fr'))).toBe('1 000 000');
    expect(formatChips(-2500, 'en', true)).toBe('-2,500');
    expect(formatChips(2500, 'en', true)).toBe('+2,500');
  });
  it('uses euros for real money and chips for play money', () => {
    expect(formatAmount(150, 'real', 'en')).toBe('€1.50');
    expect(formatAmount(150, 'play', 'en')).toBe('150');
    expect(() => formatChips(0.5, 'en')).toThrow(RangeError);
  });
});
