import { describe, expect, it } from 'vitest';
import { legalActions, startHand, type HandState } from '../rules/engine';
import { dealFrom, run, tableConfig } from '../rules/engine/test-support';
import { recordOf, type HandRecord } from '../rules/record';
import { makeTableRules } from '../rules/tableRules';
import { centiBigBlinds, handStats, packHandStats, sumStats, unpackHandStats, type HandStats } from './stats';

/** Hold'em, three players: seat 0 small blind, 1 big blind, 2 button. 2 opens, 0 shoves (a 3-bet), 1 calls, 2 folds; AA holds. */
function holdemThreeBet(): HandRecord {
  const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
  let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] }));
  s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 r 300', '0 r 1000', '1 c', '2 f', 'd b 3c4d5h', 'd b 5s', 'd b 9h', '0 sm', '1 sm');
  return recordOf(s);
}

/** Heads-up Hold'em: 1 is button and small blind, 0 the big blind; a turn all-in. */
function headsUpTurnAllIn(): HandRecord {
  const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
  let s = startHand(tableConfig(rules, { stacks: [1000, 1000] }));
  s = run(s, 'd 0 AhAd', 'd 1 QsJs', '1 c', '0 x', 'd b AsKd7c', '0 x', '1 x', 'd b 2h', '0 r 900', '1 c', 'd b 3c', '0 sm', '1 sm');
  return recordOf(s);
}

function finish(state: HandState): HandRecord {
  let s = state;
  for (;;) {
    s = dealFrom(s);
    const l = legalActions(s);
    if (l.next === 'done') return recordOf(s);
    s = run(s, l.next === 'show' ? { type: 'show', seat: l.seat as number } : l.check ? { type: 'check', seat: l.seat as number } : { type: 'fold', seat: l.seat as number });
  }
}

describe('per-hand statistics (docs/stats.md)', () => {
  it('Hold’em: VPIP, PFR, 3-bet chances and 3-bets, saw the flop, showdown, won at showdown', () => {
    const r = holdemThreeBet();
    expect(handStats(r, 0)).toMatchObject({ dealt: true, vpip: true, pfr: true, threeBetChance: true, threeBet: true, sawSecond: true, showdown: true, wonShowdown: true });
    // The caller faced two raises: no 3-bet chance; VPIP but no PFR; lost the showdown.
    expect(handStats(r, 1)).toMatchObject({ dealt: true, vpip: true, pfr: false, threeBetChance: false, threeBet: false, sawSecond: true, showdown: true, wonShowdown: false });
    // The opener folded to the 3-bet: never saw the flop.
    expect(handStats(r, 2)).toMatchObject({ dealt: true, vpip: true, pfr: true, threeBetChance: false, sawSecond: false, showdown: false, wonShowdown: false });
  });

  it('a check in the big blind is not VPIP; bets and calls after the first round count for aggression', () => {
    const r = headsUpTurnAllIn();
    expect(handStats(r, 0)).toMatchObject({ vpip: false, pfr: false, threeBetChance: false, aggressive: 1, calls: 0, sawSecond: true, showdown: true, wonShowdown: true });
    // The small blind completing is VPIP; calling the turn bet counts as a call.
    expect(handStats(r, 1)).toMatchObject({ vpip: true, pfr: false, aggressive: 0, calls: 1, showdown: true, wonShowdown: false });
  });

  it('Stud: the bring-in is not VPIP, the completion is the raise and a raise over it the 3-bet', () => {
    const rules = makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 AsAh2c', 'd 1 KsKhKd', 'd 2 QsQhQd', '0 bi', '1 r 20', '2 r 40', '0 f', '1 c');
    const r = finish(s);
    expect(r.rounds[1]).toBe('bring-in');
    expect(handStats(r, 0)).toMatchObject({ dealt: true, vpip: false, pfr: false, threeBetChance: false, sawSecond: false });
    expect(handStats(r, 1)).toMatchObject({ vpip: true, pfr: true, threeBetChance: false, sawSecond: true });
    expect(handStats(r, 2)).toMatchObject({ vpip: true, pfr: true, threeBetChance: true, threeBet: true, sawSecond: true });
  });

  it('Triple Draw: draws, cards drawn and stand-pats; the first round is before the first draw', () => {
    const rules = makeTableRules('2T7TD', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000] }));
    s = run(s, 'd 1 2c3c4c5dKs', 'd 0 2d3d4d5hKh', '1 c', '0 x');
    s = run(s, '0 sd Kh', 'd 0 7h', '1 sd Ks', 'd 1 8s', '0 x', '1 x', '0 sd', '1 sd', '0 x', '1 x', '0 sd', '1 sd', '0 r 200', '1 c', '0 sm', '1 sm');
    const r = recordOf(s);
    expect(handStats(r, 0)).toMatchObject({ vpip: false, draws: 3, cardsDrawn: 1, standPats: 2, aggressive: 1, sawSecond: true, showdown: true });
    expect(handStats(r, 1)).toMatchObject({ vpip: true, draws: 3, cardsDrawn: 1, standPats: 2, calls: 1 });
  });

  it('a seat not dealt in counts for nothing', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000], dealtIn: [0, 1], button: 1, smallBlind: 1, bigBlind: 0 }));
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', '1 f');
    expect(handStats(recordOf(s), 2).dealt).toBe(false);
  });

  it('packs into one integer and back, and adds up into the page’s fractions', () => {
    const a = handStats(holdemThreeBet(), 0);
    const b = handStats(headsUpTurnAllIn(), 1);
    const odd: HandStats = { ...b, aggressive: 17, calls: 200, draws: 3, cardsDrawn: 15, standPats: 3 };
    for (const x of [a, b, odd]) expect(unpackHandStats(packHandStats(x))).toEqual(x);
    const sum = sumStats([
      { stats: a, net: 1300, bigBlind: 100 },
      { stats: b, net: -1000, bigBlind: 100 },
    ]);
    expect(sum.hands).toBe(2);
    const get = (k: string): [number, number] => {
      const s = sum.stats.find((x) => x.key === k)!;
      return [s.num, s.den];
    };
    expect(get('vpip')).toEqual([2, 2]);
    expect(get('pfr')).toEqual([1, 2]);
    expect(get('threeBet')).toEqual([1, 1]);
    expect(get('af')).toEqual([0, 1]);
    expect(get('wtsd')).toEqual([2, 2]);
    expect(get('wsd')).toEqual([1, 2]);
    expect(get('bb100')).toEqual([300, 2]); // +13 bb and −10 bb over 2 hands: 150 bb / 100 hands
    expect(centiBigBlinds(-5, 20)).toBe(-25);
    expect(centiBigBlinds(1, 3)).toBe(33);
    expect(centiBigBlinds(-1, 200)).toBe(-1); // −0.5 rounds away from zero, as SQLite's round()
  });
});
