import { describe, expect, it } from 'vitest';
import { legalActions } from '../../../shared/rules/engine/legal';
import { betPresets, betStep, nudge, parseAmount, potFractionTo, presetContext, type PresetContext } from './presets';
import { newHand, play } from './test-support';

function ctxOf(code: 'THNL' | 'THPL' | 'THL', stacks: number[], steps: string[], stakes = { smallBlind: 50, bigBlind: 100 }): PresetContext {
  const s = play(newHand(code, { stacks }, stakes), ...steps);
  const legal = legalActions(s);
  return presetContext(s, legal.seat!, legal.bet!);
}

describe('betPresets', () => {
  it('pre-flop unraised: minimum, 2.5x, 3x, 4x the big blind, pot and all-in', () => {
    const ctx = ctxOf('THNL', [10000, 10000, 10000, 10000], []);
    expect(betPresets(ctx)).toEqual([
      { id: 'min', to: 200 },
      { id: 'x2_5', to: 250 },
      { id: 'x3', to: 300 },
      { id: 'x4', to: 400 },
      // Pot after the call: 50 + 100 + 100 = 250, raise by it: 100 + 250 = 350.
      { id: 'pot', to: 350 },
      { id: 'allin', to: 10000 },
    ]);
  });

  it('the player chooses which sizes show: 2 BB and no 4 BB; ⅓ and ⅔ pot after the flop', () => {
    const ctx = ctxOf('THNL', [10000, 10000, 10000, 10000], []);
    expect(betPresets(ctx, ['x2', 'x3']).map((p) => p.id)).toEqual(['min', 'x3', 'allin']); // 2 BB is the minimum raise here
    expect(betPresets(ctx, []).map((p) => p.id)).toEqual(['min', 'allin']);
    const flop = ctxOf('THNL', [10000, 10000, 10000, 10000], ['2 c', '3 c', '0 c', '1 x']);
    expect(betPresets(flop, ['third', '2third']).map((p) => p.id)).toEqual(['min', 'third', '2third', 'allin']);
  });

  it('the pot-sized raise counts our call first (R-PL), and equals the engine maximum in pot limit', () => {
    // Pot limit: seat 2 raises to 350 (the pot); seat 3 faces 350 with 150 + 350 in the middle.
    const ctx = ctxOf('THPL', [10000, 10000, 10000, 10000], ['2 r 350']);
    // Pot after the call: 50 + 100 + 350 + 350 = 850; raise to 350 + 850 = 1200.
    expect(potFractionTo(ctx, 1, 1)).toBe(1200);
    expect(ctx.bounds.max).toBe(1200);
    const presets = betPresets(ctx);
    expect(presets[presets.length - 1]).toEqual({ id: 'pot', to: 1200 });
    // Raised pre-flop: pot fractions, not big-blind multiples.
    expect(presets.map((p) => p.id)).toEqual(['min', 'half', '3q', 'pot']);
    expect(presets.find((p) => p.id === 'half')?.to).toBe(350 + 425);
  });

  it('after the flop: ½ pot, ¾ pot and pot bets', () => {
    const ctx = ctxOf('THNL', [10000, 10000, 10000, 10000], ['2 c', '3 c', '0 c', '1 x']);
    expect(ctx.pot).toBe(400);
    expect(betPresets(ctx)).toEqual([
      { id: 'min', to: 100 },
      { id: 'half', to: 200 },
      { id: '3q', to: 300 },
      { id: 'pot', to: 400 },
      { id: 'allin', to: 9900 },
    ]);
  });

  it('clamps into the bounds and drops duplicates (short stack)', () => {
    const ctx = ctxOf('THNL', [10000, 10000, 320, 10000], []);
    const presets = betPresets(ctx);
    expect(presets).toEqual([
      { id: 'min', to: 200 },
      { id: 'x2_5', to: 250 },
      { id: 'x3', to: 300 },
      { id: 'allin', to: 320 },
    ]);
    for (const p of presets) expect(Number.isInteger(p.to)).toBe(true);
  });

  it('an all-in for less than a raise is the only preset', () => {
    const ctx = ctxOf('THNL', [10000, 10000, 150, 10000], []);
    expect(betPresets(ctx)).toEqual([{ id: 'allin', to: 150 }]);
  });

  it('limit games: the fixed amount only', () => {
    const ctx = ctxOf('THL', [10000, 10000, 10000, 10000], []);
    expect(betPresets(ctx)).toEqual([{ id: 'min', to: 200 }]);
    expect(betPresets({ ...ctx, bounds: { kind: 'bet', min: 20, max: 40, exact: true } })).toEqual([
      { id: 'min', to: 20 },
      { id: 'max', to: 40 },
    ]);
  });

  it('rounds fractions to integers', () => {
    const ctx: PresetContext = { bounds: { kind: 'bet', min: 10, max: 1000, exact: false }, pot: 333, currentBet: 0, ourBet: 0, allInTo: 1000, bigBlind: 10, preflop: false };
    const presets = betPresets(ctx);
    expect(presets.find((p) => p.id === 'half')?.to).toBe(167);
    expect(presets.find((p) => p.id === '3q')?.to).toBe(250);
  });
});

describe('nudge and step', () => {
  it('moves by a big blind, clamped, landing on multiples', () => {
    const b = { kind: 'raise' as const, min: 200, max: 1000, exact: false };
    expect(betStep({ bigBlind: 100, smallBet: 0 })).toBe(100);
    expect(betStep({ bigBlind: 0, smallBet: 20 })).toBe(20);
    expect(betStep({ bigBlind: 0, smallBet: 0 })).toBe(1);
    expect(nudge(b, 200, 1, 100)).toBe(300);
    expect(nudge(b, 250, 1, 100)).toBe(300);
    expect(nudge(b, 250, -1, 100)).toBe(200);
    expect(nudge(b, 200, -1, 100)).toBe(200);
    expect(nudge(b, 900, 5, 100)).toBe(1000);
  });
  it('limit: toggles between the fixed choices', () => {
    const b = { kind: 'bet' as const, min: 20, max: 40, exact: true };
    expect(nudge(b, 20, 1, 20)).toBe(40);
    expect(nudge(b, 40, -1, 20)).toBe(20);
  });
});

describe('parseAmount', () => {
  it('reads integers with spaces and thousands groups', () => {
    expect(parseAmount('1500')).toEqual({ ok: true, value: 1500 });
    expect(parseAmount(' 1 500 ')).toEqual({ ok: true, value: 1500 });
    expect(parseAmount('1\u202f500')).toEqual({ ok: true, value: 1500 });
    expect(parseAmount('1,500')).toEqual({ ok: true, value: 1500 });
    expect(parseAmount('1.500.000')).toEqual({ ok: true, value: 1500000 });
    expect(parseAmount('007')).toEqual({ ok: true, value: 7 });
  });
  it('refuses decimals for chips, with a clear error', () => {
    expect(parseAmount('1,5')).toEqual({ ok: false, error: 'decimals' });
    expect(parseAmount('12.50')).toEqual({ ok: false, error: 'decimals' });
    expect(parseAmount('1 234,5')).toEqual({ ok: false, error: 'decimals' });
  });
  it('refuses what is not an amount', () => {
    expect(parseAmount('')).toEqual({ ok: false, error: 'empty' });
    expect(parseAmount('  ')).toEqual({ ok: false, error: 'empty' });
    expect(parseAmount('-5')).toEqual({ ok: false, error: 'negative' });
    expect(parseAmount('abc')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseAmount('1e3')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseAmount('1,,5')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseAmount('12,')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseAmount('1,50,0')).toEqual({ ok: false, error: 'notNumber' });
    expect(parseAmount('99999999999999999')).toEqual({ ok: false, error: 'tooLarge' });
  });
  it('euros: decimals in French or English form, in cents', () => {
    expect(parseAmount('12,50', 'euros')).toEqual({ ok: true, value: 1250 });
    expect(parseAmount('12.5', 'euros')).toEqual({ ok: true, value: 1250 });
    expect(parseAmount('1 234,56 €', 'euros')).toEqual({ ok: true, value: 123456 });
    expect(parseAmount('1,234.56', 'euros')).toEqual({ ok: true, value: 123456 });
    expect(parseAmount('1.234,56', 'euros')).toEqual({ ok: true, value: 123456 });
    expect(parseAmount('3', 'euros')).toEqual({ ok: true, value: 300 });
    expect(parseAmount('1,234', 'euros')).toEqual({ ok: true, value: 123400 });
    expect(parseAmount('0,125', 'euros')).toEqual({ ok: false, error: 'decimals' });
    expect(parseAmount('0,125')).toEqual({ ok: false, error: 'decimals' });
    expect(parseAmount('0,1234', 'euros')).toEqual({ ok: false, error: 'decimals' });
  });
});
