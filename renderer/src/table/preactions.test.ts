import { describe, expect, it } from 'vitest';
import { legalActions } from '../../../shared/rules/engine/legal';
import type { HandState } from '../../../shared/rules/engine/types';
import { viewFor } from '../../../shared/rules/engine/view';
import { autoMove, makePreAction, preActionOptions, situationOf, stillValid } from './preactions';
import { newHand, play } from './test-support';

// Seats 0..3, button 3: blinds 0 and 1; seat 2 acts first pre-flop. We are seat 0 (small blind).
const fresh = () => newHand('THNL', { stacks: [1000, 1000, 1000, 1000] });
const sit = (s: HandState, seat = 0) => situationOf(viewFor(s, seat), seat, 1);
const legalFor = (s: HandState, seat = 0) => {
  const l = legalActions(viewFor(s, seat));
  return l.seat === seat ? l : null;
};

describe('pre-actions', () => {
  it('offers call (the amount to call), call any and check/fold while we face a bet', () => {
    const s = sit(fresh());
    expect(s).toMatchObject({ street: 0, toCall: 50 });
    expect(preActionOptions(s)).toEqual({ checkFold: true, check: false, call: 50, callAny: true });
    expect(preActionOptions(null)).toBeNull();
  });

  it('call: cleared when the amount to call changes, sent when it has not', () => {
    const s0 = fresh();
    const pre = makePreAction('call', sit(s0)!);
    const s1 = play(s0, '2 c', '3 c');
    expect(stillValid(pre, sit(s1))).toBe(pre);
    expect(autoMove(pre, legalFor(s1), sit(s1))).toEqual({ type: 'call' });
    const s2 = play(s0, '2 r 300');
    expect(stillValid(pre, sit(s2))).toBeNull();
    expect(autoMove(pre, legalFor(play(s2, '3 f')), sit(play(s2, '3 f')))).toBeNull();
  });

  it('call any: kept through a raise, calls whatever is due', () => {
    const s0 = fresh();
    const pre = makePreAction('callAny', sit(s0)!);
    const s1 = play(s0, '2 r 300', '3 f');
    expect(stillValid(pre, sit(s1))).toBe(pre);
    expect(autoMove(pre, legalFor(s1), sit(s1))).toEqual({ type: 'call' });
  });

  it('check/fold: folds to a bet, checks when nothing is due; cleared on a new street', () => {
    const s0 = play(fresh(), '2 c', '3 c', '0 c', '1 x'); // flop: seat 0 first
    expect(legalActions(s0).seat).toBe(0);
    // Seat 1 ticks check/fold while seat 0 decides.
    const pre = makePreAction('checkFold', sit(s0, 1)!);
    const checked = play(s0, '0 x');
    expect(autoMove(pre, legalFor(checked, 1), sit(checked, 1))).toEqual({ type: 'check' });
    const bet = play(s0, '0 r 200');
    expect(autoMove(pre, legalFor(bet, 1), sit(bet, 1))).toEqual({ type: 'fold' });
    // Everyone checks: the turn is a new street, the pre-action is gone.
    const turn = play(s0, '0 x', '1 x', '2 x', '3 x');
    expect(turn.street).toBe(2);
    expect(stillValid(pre, sit(turn, 1))).toBeNull();
  });

  it('check: cleared by a bet', () => {
    const s0 = play(fresh(), '2 c', '3 c', '0 c', '1 x');
    const pre = makePreAction('check', sit(s0, 1)!);
    expect(pre.kind).toBe('check');
    expect(stillValid(pre, sit(play(s0, '0 x'), 1))).toBe(pre);
    const bet = play(s0, '0 r 200');
    expect(stillValid(pre, sit(bet, 1))).toBeNull();
    expect(autoMove(pre, legalFor(bet, 1), sit(bet, 1))).toBeNull();
  });

  it('cleared by a new hand', () => {
    const s0 = fresh();
    const pre = makePreAction('callAny', sit(s0)!);
    // Without a hand id the table's hand number tells hands apart.
    expect(stillValid(pre, situationOf(viewFor(s0, 0), 0, 1))).toBe(pre);
    expect(stillValid(pre, situationOf(viewFor(s0, 0), 0, 2))).toBeNull();
    const withId = { ...s0, handId: 'H-9' };
    expect(situationOf(withId, 0, 2)?.hand).toBe('H-9');
  });

  it('no situation when folded, all-in or not in a betting round', () => {
    const folded = play(fresh(), '2 f');
    expect(sit(folded, 2)).toBeNull();
    expect(situationOf(null, 0, 1)).toBeNull();
    expect(situationOf(fresh(), null, 1)).toBeNull();
    const allin = play(fresh(), '2 r 1000');
    expect(sit(allin, 2)).toBeNull();
  });

  it('never decides a draw, a showdown or a bring-in', () => {
    const s = newHand('7SHL', { stacks: [1000, 1000, 1000] }, { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
    const seat = legalActions(s).seat!;
    const pre = { kind: 'callAny' as const, amount: 0, at: { hand: 'x', street: 0, toCall: 0 } };
    expect(situationOf(viewFor(s, seat), seat, 1)).toBeNull();
    expect(autoMove(pre, legalFor(s, seat), null)).toBeNull();
  });
});
