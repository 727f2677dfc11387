import { describe, expect, it } from 'vitest';
import { makeTableRules } from '../../../shared/rules/tableRules';
import { amountFormatter, bigBlindOf, inBigBlinds } from './units';

const nbsp = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('big blinds', () => {
  it('counts in the big blind, Stud in the small bet', () => {
    expect(bigBlindOf({ rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }) })).toBe(100);
    expect(bigBlindOf({ rules: makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 }) })).toBe(20);
  });

  it('shows up to two decimals, the local way', () => {
    expect(inBigBlinds(250, 100, 'fr')).toBe('2,5');
    expect(inBigBlinds(250, 100, 'en')).toBe('2.5');
    expect(inBigBlinds(1, 3, 'en')).toBe('0.33');
    expect(inBigBlinds(-300, 100, 'en', true)).toBe('-3');
    expect(inBigBlinds(300, 100, 'en', true)).toBe('+3');
    expect(() => inBigBlinds(1.5, 100, 'en')).toThrow(RangeError);
    expect(() => inBigBlinds(100, 0, 'en')).toThrow(RangeError);
  });

  it('formats a hand\'s amounts in its money or in big blinds', () => {
    expect(nbsp(amountFormatter('money', 'play', 100, 'fr', 'BB')(12500))).toBe('12 500');
    expect(amountFormatter('bb', 'play', 100, 'fr', 'BB')(12550)).toBe('125,5 BB');
    expect(nbsp(amountFormatter('money', 'real', 100, 'fr', 'BB')(1250))).toBe('12,50 €');
    expect(amountFormatter('bb', 'real', 0, 'en', 'BB')(1250)).toBe('€12.50');
    expect(amountFormatter('bb', 'play', 20, 'en', 'BB')(-40, true)).toBe('-2 BB');
  });
});
