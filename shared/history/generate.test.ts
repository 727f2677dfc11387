// The realistic generator (generate.ts): every variant, several tables and stakes, money kinds, the
// hero in every hand, hands spread over the period and in time order per table, showdowns and
// all-ins, chips conserved by the engine, the same hands for the same seed.
import { describe, expect, it } from 'vitest';
import { VARIANT_CODES } from '../rules/variants';
import { generateHands } from './generate';

const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 1);

describe('generateHands', () => {
  const hands = [...generateHands({ hands: 12_000, seed: 7, end: END, days: 400, hero: 'zoé' })];

  it('makes the hands asked for, the hero seated and dealt in every one', () => {
    expect(hands.length).toBe(12_000);
    for (const h of hands) {
      const hero = h.record.seats.find((s) => s.seat === h.meta.heroSeat);
      expect(hero?.player).toBe('zoé');
      expect(hero?.dealtIn).toBe(true);
      // The hero's view: others' cards unknown unless shown.
      for (const s of h.record.seats) if (s.seat !== h.meta.heroSeat && !s.shown) expect(s.cards.every((c, i) => c === null || s.up[i])).toBe(true);
      // Chips conserved.
      expect(h.record.seats.reduce((a, s) => a + s.net, 0) + h.record.rake).toBe(0);
    }
    expect(new Set(hands.map((h) => h.record.handId)).size).toBe(hands.length);
  });

  it('covers all 11 variants, several tables and stakes, both money kinds, table sizes', () => {
    expect(new Set(hands.map((h) => h.record.variant))).toEqual(new Set(VARIANT_CODES));
    expect(new Set(hands.map((h) => h.meta.tableId)).size).toBeGreaterThan(20);
    expect(new Set(hands.map((h) => `${h.record.variant}:${h.record.rules.bigBlind || h.record.rules.smallBet}`)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(hands.map((h) => h.meta.money))).toEqual(new Set(['real', 'play']));
    expect(new Set(hands.map((h) => h.record.tableSize))).toEqual(new Set([2, 6, 9]));
  });

  it('plays like a table: showdowns, all-ins, folds, raked pots, varied stacks', () => {
    const share = (f: (h: (typeof hands)[number]) => boolean) => hands.filter(f).length / hands.length;
    expect(share((h) => h.record.showdown)).toBeGreaterThan(0.05);
    expect(share((h) => h.record.actions.some((a) => 'allIn' in a && a.allIn))).toBeGreaterThan(0.01);
    expect(share((h) => h.record.seats.find((s) => s.seat === h.meta.heroSeat)!.folded)).toBeGreaterThan(0.3);
    expect(share((h) => h.record.rake > 0)).toBeGreaterThan(0.02);
    const stacks = hands.flatMap((h) => h.record.seats.map((s) => s.stackBefore / (h.record.rules.bigBlind || h.record.rules.smallBet * 2)));
    expect(Math.min(...stacks)).toBeLessThan(20);
    expect(Math.max(...stacks)).toBeGreaterThan(250);
  });

  it('spreads the hands over the period, in time order at each table', () => {
    const times = hands.map((h) => h.meta.playedAt);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(END - 400 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(END);
    const months = new Set(times.map((t) => Math.floor((END - t) / (30 * DAY))));
    expect(months.size).toBeGreaterThanOrEqual(6);
    const last = new Map<string, number>();
    for (const h of hands) {
      const run = h.record.handId!.replace(/-\d+$/, '');
      expect(h.meta.playedAt).toBeGreaterThan(last.get(run) ?? -Infinity);
      last.set(run, h.meta.playedAt);
    }
  });

  it('is seeded', () => {
    const once = [...generateHands({ hands: 300, seed: 7, end: END, days: 400, hero: 'zoé' })];
    const again = [...generateHands({ hands: 300, seed: 7, end: END, days: 400, hero: 'zoé' })];
    expect(JSON.stringify(again)).toBe(JSON.stringify(once));
    const other = [...generateHands({ hands: 300, seed: 8, end: END, days: 400, hero: 'zoé' })];
    expect(other.map((h) => h.record.handId)).not.toEqual(again.map((h) => h.record.handId));
  });

  it('with tournaments, every hand inside the period: a tournament running at its end is left unfinished', () => {
    // A short period with more hands than its sessions hold: tournaments run up to its end.
    const list = [...generateHands({ hands: 2500, seed: 17, end: END, days: 8, tournaments: 0.3 })];
    expect(list.some((h) => h.meta.tournament !== undefined)).toBe(true);
    expect(Math.max(...list.map((h) => h.meta.playedAt))).toBeLessThanOrEqual(END);
    for (const h of list) if (h.finished) expect(h.finished.endedAt!).toBeLessThanOrEqual(END);
  });

  it("pays a finished sit & go as the operator's payout does (R-TOURN-RUN): 100 %, 65/35 or 50/30/20 of the pool", () => {
    // Independent figures (docs/tournaments.md, STANDARD_PAYOUTS): heads-up all to 1st; 6 entrants
    // 65/35; 9 entrants 50/30/20; a bounty sit & go ('G') puts 4/5 of each buy-in in the pool.
    const shares: Record<number, number[]> = { 2: [100], 6: [65, 35], 9: [50, 30, 20] };
    const list = [...generateHands({ hands: 4000, seed: 23, end: END, days: 30, tournaments: 0.5 })];
    const finished = list.flatMap((h) => (h.finished ? [h.finished] : []));
    expect(finished.length).toBeGreaterThan(0);
    for (const f of finished) {
      const pool = f.entries * (f.kinds === 'G' ? (f.buyIn * 4) / 5 : f.buyIn);
      const share = shares[f.entries][f.place! - 1] ?? 0;
      expect(f.prize, `${f.entries} entrants, place ${f.place}`).toBe((pool * share) / 100);
    }
  });
});
