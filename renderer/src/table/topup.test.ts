import { describe, expect, it } from 'vitest';
import { autoTopUpAmount, needsRebuy, topUpProblem, topUpRange } from './topup';

const table = { min: 2000, max: 5000 };

describe('top-ups and rebuys', () => {
  it('a busted seat must come back to the minimum; a top-up never passes the maximum', () => {
    expect(topUpRange(0, 0, table, 1_000_000)).toEqual({ min: 2000, max: 5000, reason: 'ok' });
    expect(topUpRange(1500, 0, table, 1_000_000)).toEqual({ min: 500, max: 3500, reason: 'ok' });
    expect(topUpRange(3000, 0, table, 1_000_000)).toEqual({ min: 1, max: 2000, reason: 'ok' });
    expect(topUpRange(3000, 2000, table, 1_000_000)).toMatchObject({ max: 0, reason: 'full' });
    expect(topUpRange(0, 0, table, 1000)).toMatchObject({ reason: 'balance' });
  });

  it('every refused amount says why', () => {
    const r = topUpRange(0, 0, table, 1_000_000);
    expect(topUpProblem(100, r)).toBe('tooLow');
    expect(topUpProblem(6000, r)).toBe('tooHigh');
    expect(topUpProblem(Number.NaN, r)).toBe('notAmount');
    expect(topUpProblem(2.5, r)).toBe('notAmount');
    expect(topUpProblem(2000, r)).toBeNull();
    expect(topUpProblem(5000, r)).toBeNull();
  });

  it('a rebuy is offered at 0 chips between hands, not while chips are on the way', () => {
    expect(needsRebuy(0, 0, false)).toBe(true);
    expect(needsRebuy(0, 2000, false)).toBe(false);
    expect(needsRebuy(0, 0, true)).toBe(false);
    expect(needsRebuy(50, 0, false)).toBe(false);
    expect(needsRebuy(null, 0, false)).toBe(false);
  });
});

describe('auto-rebuy and auto top-up', () => {
  it('between hands, back up to the chosen level within the balance; nothing while a hand runs or chips are on the way', () => {
    expect(autoTopUpAmount('off', 0, 0, table, 1_000_000, false)).toBeNull();
    expect(autoTopUpAmount('min', 0, 0, table, 1_000_000, false)).toBe(2000);
    expect(autoTopUpAmount('max', 0, 0, table, 1_000_000, false)).toBe(5000);
    expect(autoTopUpAmount('max', 4200, 0, table, 1_000_000, false)).toBe(800);
    expect(autoTopUpAmount('min', 2500, 0, table, 1_000_000, false)).toBeNull();
    expect(autoTopUpAmount('max', 1000, 0, table, 1_500, false)).toBe(1500);
    expect(autoTopUpAmount('min', 0, 0, table, 1_500, false)).toBeNull();
    expect(autoTopUpAmount('max', 1000, 0, table, 1_000_000, true)).toBeNull();
    expect(autoTopUpAmount('max', 1000, 500, table, 1_000_000, false)).toBeNull();
  });
});
