/** The remaining requirement ids of SPEC.md §3 the engine enforces, one test each (or more). */
import { describe, expect, it } from 'vitest';
import { makeTableRules, type Lowball27Reading } from '../tableRules';
import { legalActions } from './legal';
import { checkHandConfig, startHand } from './machine';
import { dealFrom, refusal, run, tableConfig } from './test-support';
import type { HandState } from './types';

function nl(stacks: number[]): HandState {
  return startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks }));
}

describe('R-SEATS (D art. 2)', () => {
  it('a table larger than the variant allows cannot start a hand', () => {
    const seven = Array.from({ length: 7 }, () => 1000);
    const draw = tableConfig(makeTableRules('2T7TD', { smallBlind: 50, bigBlind: 100 }), { stacks: seven });
    expect(checkHandConfig(draw)).toMatchObject({ ok: false, rule: 'R-SEATS' });
    expect(() => startHand(draw)).toThrow(/R-SEATS/);
    const stud = tableConfig(makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20 }), { stacks: seven });
    expect(checkHandConfig(stud)).toBeNull();
    const eight = tableConfig(makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20 }), { stacks: [...seven, 1000] });
    expect(checkHandConfig(eight)).toMatchObject({ rule: 'R-SEATS' });
  });
});

describe('R-ONEHAND, R-ACTORDER (D art. 2)', () => {
  it('a player acts only from their own seat and in turn', () => {
    const s = dealFrom(nl([1000, 1000, 1000, 1000]));
    expect(s.toAct).toBe(2);
    expect(refusal(s, '3 c').rule).toBe('R-ACTORDER');
    expect(refusal(s, '9 c').rule).toBe('R-ACTORDER');
    expect(refusal(s, { type: 'call', seat: -1 }).rule).toBe('R-ACTORDER');
  });

  it('nothing is accepted once the hand is over', () => {
    const s = run(dealFrom(nl([1000, 1000])), '1 f');
    expect(s.phase).toBe('done');
    expect(refusal(s, '0 x').rule).toBe('R-ACTORDER');
  });
});

describe('R-TERMS (D art. 3)', () => {
  it('a check cannot answer a bet; a call or fold needs something to call', () => {
    const s = dealFrom(nl([1000, 1000, 1000]));
    expect(refusal(s, '2 x')).toMatchObject({ rule: 'R-TERMS', call: 100 });
    const t = dealFrom(run(s, '2 c', '0 c', '1 x'));
    expect(refusal(t, '0 c').rule).toBe('R-TERMS');
    expect(refusal(t, '0 f').rule).toBe('R-TERMS');
    expect(refusal(t, { type: 'raise' as never, seat: 0 }).rule).toBe('R-TERMS');
  });
});

describe('R-NODEBT (D art. 8 II 1°)', () => {
  it('no bet exceeds the chips on the table; a short call is all-in', () => {
    const pl = startHand(tableConfig(makeTableRules('THPL', { smallBlind: 50, bigBlind: 100 }), { stacks: [5000, 5000, 250] }));
    const s = dealFrom(pl);
    expect(refusal(s, '2 r 300')).toMatchObject({ rule: 'R-NODEBT', max: 250 });
    expect(run(s, '2 r 250').seats[2]).toMatchObject({ stack: 0, status: 'allin' });
    const u = dealFrom(nl([1000, 1000, 60]));
    expect(legalActions(u)).toMatchObject({ call: 60, bet: null });
    expect(run(u, '2 c').seats[2]).toMatchObject({ stack: 0, status: 'allin' });
  });
});

describe('R-CONSERVE', () => {
  it('stacks plus rake after the hand equal the stacks before, in integers', () => {
    const rules = makeTableRules('O4JPL', { smallBlind: 5, bigBlind: 10 }, { rake: { basisPoints: 475, cap: null, noFlopNoDrop: true } });
    let s = startHand(tableConfig(rules, { stacks: [333, 1000, 777] }));
    s = run(s, 'd 0 Ah3sQdQh', 'd 1 4c7dKdJh', 'd 2 9c9dThJd', '2 r 35', '0 r 110', '1 c', '2 c');
    s = run(s, 'd b 2c5d8h', '0 r 223', '1 c', '2 f', 'd b Kc', 'd b Ks');
    expect(s.phase).toBe('showdown');
    s = run(s, '0 sm', '1 sm');
    const r = s.result!;
    const after = s.seats.reduce((a, p) => a + p.stack, 0);
    expect(after + r.rake).toBe(333 + 1000 + 777);
    expect(Number.isInteger(r.rake)).toBe(true);
    expect(r.rake).toBe(Math.floor((r.pots.reduce((a, p) => a + p.amount, 0) * 475) / 10_000));
  });
});

describe('R-HIGH, R-RAZZ, R-27 at the showdown (D art. 6, 7 IV)', () => {
  it("Hold'em: the best five of seven, kickers decide, perfect ties split", () => {
    let s = startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 AsQd', 'd 1 AhJd', 'd 2 AdQc', '2 r 1000', '0 c', '1 c', '0 sm', '1 sm', '2 sm', 'd b Ac7h4s', 'd b 9c', 'd b 2d');
    expect(s.result!.pots[0].shares).toEqual([
      { seat: 0, amount: 1500, half: 'whole' },
      { seat: 2, amount: 1500, half: 'whole' },
    ]);
  });

  it('Razz: the lowest hand wins, ace low, pairs count against', () => {
    let s = startHand(tableConfig(makeTableRules('7SLL', { ante: 5, bringIn: 10, smallBet: 20 }), { stacks: [500, 500] }));
    s = run(s, 'd 0 As2d3c', 'd 1 KsKdQc');
    expect(s.toAct).toBe(1); // the king brings in
    s = run(s, '1 bi', '0 c');
    for (const [a, b] of [
      ['4h', '9c'],
      ['5s', '9d'],
      ['Kh', '8c'],
      ['Qh', '7c'],
    ]) {
      s = run(s, `d 0 ${a}`, `d 1 ${b}`);
      s = run(s, `${s.toAct} x`);
      s = run(s, `${s.toAct} x`);
    }
    s = run(s, '0 sm', '1 sm');
    // Antes 10, bring-in 10 and its call: 30 to the A-2-3-4-5.
    expect(s.result!.won).toEqual([30, 0]);
    expect(s.result!.net).toEqual([15, -15]);
  });

  function deuce(reading: Lowball27Reading): HandState {
    let s = startHand(tableConfig(makeTableRules('2T7TD', { smallBlind: 50, bigBlind: 100 }, { lowball27: reading }), { stacks: [1000, 1000] }));
    // Seat 0: 6-5-4-3-2, a straight; seat 1: 7-5-4-3-2.
    s = run(s, 'd 1 2c3d4h5s6c', 'd 0 2d3h4s5c7d', '1 c', '0 x');
    for (let k = 0; k < 3; k++) s = run(s, '0 sd', '1 sd', '0 x', '1 x');
    return run(s, '0 sm', '1 sm');
  }

  it("2-7: straights don't count under the decree reading, count against under the international one (R-27)", () => {
    expect(deuce('decree').result!.won).toEqual([0, 200]);
    expect(deuce('international').result!.won).toEqual([200, 0]);
  });
});
