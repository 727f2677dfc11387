import { describe, expect, it } from 'vitest';
import { startHand } from '../rules/engine';
import { run, tableConfig } from '../rules/engine/test-support';
import { recordOf } from '../rules/record';
import { makeTableRules } from '../rules/tableRules';
import { allInEquity } from './equity';

const nl = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });

describe('the all-in adjusted result (docs/stats.md)', () => {
  it('a turn all-in is counted exactly: a set of aces against four tens to a straight, 40 of 44 rivers', () => {
    let s = startHand(tableConfig(nl, { stacks: [1000, 1000] }));
    s = run(s, 'd 0 AhAd', 'd 1 QsJs', '1 c', '0 x', 'd b AsKd7c', '0 x', '1 x', 'd b 2h', '0 r 900', '1 c', 'd b 3c', '0 sm', '1 sm');
    const r = recordOf(s);
    const hero = allInEquity(r, 0)!;
    expect(hero).toMatchObject({ exact: true, boardKnown: 4 });
    expect(hero.expectedWon).toBeCloseTo((2000 * 40) / 44, 6);
    expect(hero.adjustedNet).toBe(Math.round((2000 * 40) / 44) - 1000);
    const villain = allInEquity(r, 1)!;
    expect(villain.expectedWon).toBeCloseTo((2000 * 4) / 44, 6);
    expect(hero.expectedWon + villain.expectedWon).toBeCloseTo(2000, 6);
  });

  it('a flop all-in enumerates both cards to come; a tie splits', () => {
    let s = startHand(tableConfig(nl, { stacks: [1000, 1000] }));
    // Both hold A-K off-suit with no flush possible for either: every board splits.
    s = run(s, 'd 0 AhKd', 'd 1 AcKs', '1 c', '0 x', 'd b 2h7d9c', '0 r 900', '1 c', 'd b 3c', 'd b 4d', '0 sm', '1 sm');
    const e = allInEquity(recordOf(s), 0)!;
    expect(e.boardKnown).toBe(3);
    expect(e.exact).toBe(true);
    // Hearts for 0 need 4 more hearts: impossible with two cards to come, so only splits... except
    // diamonds: 0 has Kd with 7d on board, 3 more needed: impossible too. Every board splits.
    expect(e.expectedWon).toBeCloseTo(1000, 6);
    expect(e.adjustedNet).toBe(0);
  });

  it('a pre-flop all-in is sampled with a seed from the cards: stable, and near the true equity (AsAh v KsKh: 82.64 % by full enumeration)', () => {
    let s = startHand(tableConfig(nl, { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 r 300', '0 r 1000', '1 c', '2 f', 'd b 3c4d5h', 'd b 5s', 'd b 9h', '0 sm', '1 sm');
    const r = recordOf(s);
    const e = allInEquity(r, 0)!;
    expect(e.exact).toBe(false);
    expect(e.boardKnown).toBe(0);
    // The pot is 2300 (the folded opener's 300 included).
    const eq = e.expectedWon / 2300;
    expect(Math.abs(eq - 0.8264)).toBeLessThan(0.036); // 1,000 boards: standard error 1.2 %
    expect(allInEquity(r, 0)).toEqual(e);
    expect(allInEquity(r, 2)).toBeNull(); // folded
  });

  it('hands without cards to come, unknown hands, Stud and draw are not adjusted', () => {
    let s = startHand(tableConfig(nl, { stacks: [1000, 1000] }));
    s = run(s, 'd 0 AhAd', 'd 1 QsJs', '1 c', '0 x', 'd b AsKd7c', '0 x', '1 x', 'd b 2h', '0 x', '1 x', 'd b 3c', '0 r 900', '1 c', '0 sm', '1 sm');
    expect(allInEquity(recordOf(s), 0)).toBeNull(); // all-in on the river: nothing to come
    let t = startHand(tableConfig(nl, { stacks: [1000, 1000] }));
    t = run(t, 'd 0 AhAd', 'd 1 QsJs', '1 c', '0 x', 'd b AsKd7c', '0 r 900', '1 c', 'd b 2h', 'd b 3c', '0 sm', '1 sm');
    const rec = recordOf(t);
    const hidden = { ...rec, seats: rec.seats.map((x) => (x.seat === 1 ? { ...x, cards: [null, null] } : x)) };
    expect(allInEquity(hidden, 0)).toBeNull();
    const stud = makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
    const u = run(startHand(tableConfig(stud, { stacks: [1000, 1000] })), 'd 0 AsAh2c', 'd 1 KsKhKd', '0 bi', '1 r 20', '0 f');
    expect(u.phase).toBe('done');
    expect(allInEquity(recordOf(u), 1)).toBeNull();
  });
});

