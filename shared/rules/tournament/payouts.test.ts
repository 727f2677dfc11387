import { describe, expect, it } from 'vitest';
import { prng, randInt } from '../engine/test-support';
import { MAX_ENTRANTS, paidPlaces, payout, STANDARD_PAYOUTS, validatePayoutPlan, WHOLE, type PayoutPlan } from './payouts';

/**
 * A second reckoning of the standard spread, in exact rationals (BigInt numerators over one common
 * denominator): each paid place's least prize plus rest × (1/place) ÷ H(places). The operator's
 * integer weights must land within one unit of it at every place.
 */
function exactHarmonic(pool: number, entrants: number, places: number): { least: bigint; shares: { num: bigint; den: bigint }[] } {
  const least = (BigInt(pool) * 15n) / (10n * BigInt(entrants));
  const rest = BigInt(pool) - least * BigInt(places);
  // H = Σ 1/j as num/den with den = lcm(1..places).
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  let den = 1n;
  for (let j = 1n; j <= BigInt(places); j++) den = (den * j) / gcd(den, j);
  let hNum = 0n;
  for (let j = 1n; j <= BigInt(places); j++) hNum += den / j;
  // share_i = rest × (1/i) ÷ (hNum/den) = rest × den / (i × hNum)
  return { least, shares: Array.from({ length: places }, (_, i) => ({ num: rest * den, den: BigInt(i + 1) * hNum })) };
}

describe('payouts at every field size (R-TOURN-RUN, R-TOURN-STRUCTURE)', () => {
  it('a worked example: 21 entrants at 1,000 pay 4 places, 1.5 entries each and the rest 1/place', () => {
    // Pool 21,000; least 1,500 × 4; the 15,000 left in proportion to 1, 1/2, 1/3, 1/4 (H = 25/12):
    // 7,200, 3,600, 2,400, 1,800: every unit of the pool paid, to the unit.
    expect(payout(21_000, 21)).toEqual([8_700, 5_100, 3_900, 3_300]);
  });

  it('small fields pay their fixed bands: heads-up all, 65/35 to 6, 50/30/20 to 20', () => {
    expect(payout(2_000, 2)).toEqual([2_000]);
    expect(payout(6_000, 6)).toEqual([3_900, 2_100]);
    expect(payout(18_000, 9)).toEqual([9_000, 5_400, 3_600]);
    expect(payout(1_001, 10)).toEqual([501, 300, 200]);
    expect([2, 3, 4, 6, 7, 20, 21, 100, 10_000, 100_000].map((n) => paidPlaces(n))).toEqual([1, 1, 2, 2, 3, 3, 4, 15, 1_500, 15_000]);
  });

  it('from 2 to 100,000 entrants: every unit paid, never rising, every place > 0, at least the buy-in back from 20 entrants, about 15 % paid', () => {
    const rng = prng(25);
    const fields = [2, 3, 19, 20, 21, 22, 99, 100, 101, 999, 4_501, 10_000, 20_000, 30_000, 50_000, 99_999, 100_000];
    for (let k = 0; k < 40; k++) fields.push(2 + randInt(rng, 100_000 - 1));
    for (const n of fields) {
      for (const buyIn of [1, 7, 100, 1_000, 10_000]) {
        const pool = n * buyIn;
        const p = payout(pool, n);
        const what = `${n} entrants at ${buyIn}`;
        expect(p.reduce((a, b) => a + b, 0), what).toBe(pool);
        expect(p.findIndex((x, i) => i > 0 && x > p[i - 1]), `${what}: a place paid more than the one before`).toBe(-1);
        expect(p[p.length - 1], what).toBeGreaterThan(0);
        if (n >= 20) expect(p[p.length - 1], what).toBeGreaterThanOrEqual(buyIn);
        if (n > 20) expect(p.length, what).toBe(Math.ceil(n * 0.15));
      }
    }
  });

  it('paid places at 20,000 and 30,000 entrants all get money (the basis points floored 1,836 and 3,388 of them to nothing)', () => {
    for (const [n, places] of [
      [20_000, 3_000],
      [30_000, 4_500],
    ] as const) {
      const p = payout(n * 1_000, n);
      expect(p).toHaveLength(places);
      expect(p.filter((x) => x === 0)).toEqual([]);
      expect(Math.min(...p)).toBeGreaterThanOrEqual(1_500);
    }
  });

  it('every place within one unit of the spread reckoned in exact rationals', () => {
    const rng = prng(7);
    for (let k = 0; k < 60; k++) {
      const n = 21 + randInt(rng, k < 30 ? 130 : 300);
      const pool = n * (1 + randInt(rng, 5_000)) + randInt(rng, n);
      const p = payout(pool, n);
      const { least, shares } = exactHarmonic(pool, n, p.length);
      if (p.length <= 23) {
        // Up to 23 places the integer weights are the exact ones: the same table to the unit, with the
        // units left by the roundings one each from 1st.
        const floors = shares.map(({ num, den }) => least + num / den);
        let left = BigInt(pool) - floors.reduce((a, b) => a + b, 0n);
        for (let i = 0; left > 0n; i++, left--) floors[i] += 1n;
        expect(p, `${n} entrants, pool ${pool}`).toEqual(floors.map(Number));
      }
      p.forEach((x, i) => {
        const { num, den } = shares[i];
        // |x - least - num/den| ≤ 1  ⇔  |(x - least)·den - num| ≤ den
        const diff = (BigInt(x) - least) * den - num;
        expect(diff <= den && diff >= -den, `${n} entrants, pool ${pool}, place ${i + 1}`).toBe(true);
      });
    }
  });

  it('a guarantee or a freeroll pays the same shape; a pool too small for every place pays as many as it can', () => {
    const g = payout(1_000_000, 500); // a guarantee over 500 freeroll entrants
    expect(g).toHaveLength(75);
    expect(g.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    // 150 places asked, 40 units: the spread of 40 over 150 gives the deepest nothing, so as many places
    // as got a unit are paid, the spread made again over them.
    const tiny = payout(40, 1_000);
    expect(tiny.reduce((a, b) => a + b, 0)).toBe(40);
    expect(tiny.length).toBeLessThan(150);
    expect(Math.min(...tiny)).toBeGreaterThan(0);
    for (let i = 1; i < tiny.length; i++) expect(tiny[i]).toBeLessThanOrEqual(tiny[i - 1]);
    expect(payout(0, 1_000)).toEqual([0]);
    expect(payout(0, 0)).toEqual([]); // no field yet: nothing paid
    expect(() => payout(100, MAX_ENTRANTS + 1)).toThrow(RangeError);
    expect(() => payout(-1, 10)).toThrow(RangeError);
  });

  it('a payout plan is checked as data', () => {
    expect(validatePayoutPlan(STANDARD_PAYOUTS)).toEqual({ ok: true });
    const bad = (p: Partial<PayoutPlan>) => validatePayoutPlan({ ...STANDARD_PAYOUTS, ...p });
    expect(bad({ fixed: [{ upTo: 3, shares: [6_000, 4_000] }] }).ok).toBe(false); // 2 places for 2 entrants
    expect(bad({ fixed: [{ upTo: 6, shares: [3_000, 7_000] }] }).ok).toBe(false); // rising
    expect(bad({ fixed: [{ upTo: 6, shares: [6_000, 3_000] }] }).ok).toBe(false); // not the whole pool
    expect(bad({ minCashTenths: 9 }).ok).toBe(false); // less than the buy-in back
    expect(bad({ paidPerMille: 400, minCashTenths: 30 }).ok).toBe(false); // least prizes past the pool
    expect(bad({ fixed: [{ upTo: 2, shares: [WHOLE] }] })).toEqual({ ok: true });
  });
});
