import { describe, expect, it } from 'vitest';
import { makeTableRules, type TableRules } from '../tableRules';
import type { VariantCode } from '../variants';
import { legalActions } from './legal';
import { startHand } from './machine';
import { dealFrom, refusal, run, tableConfig, type TestTable } from './test-support';
import type { HandState } from './types';

function hand(code: VariantCode, t: TestTable, rules: Partial<TableRules> = {}, stakes = { smallBlind: 50, bigBlind: 100 }): HandState {
  const r = makeTableRules(code, stakes, rules);
  return dealFrom(startHand(tableConfig(r, t)));
}

/** Seats 0..3: small blind 0, big blind 1, then 2, button 3; every one calls 100 pre-flop, flop dealt. */
function flop4(stacks: number[], rules: Partial<TableRules> = {}): HandState {
  const s = hand('THNL', { stacks }, rules);
  return dealFrom(run(s, '2 c', '3 c', '0 c', '1 x'));
}

describe('no-limit minimum bets and raises (R-MINRAISE, T 7-7 to 7-13)', () => {
  it('an opening bet is at least the big blind, before or after the flop (T 7-7)', () => {
    const s = flop4([1000, 1000, 1000, 1000]);
    expect(legalActions(s).bet).toEqual({ kind: 'bet', min: 100, max: 1000 - 100, exact: false });
    const r = refusal(s, '0 r 60');
    expect(r.rule).toBe('R-MINRAISE');
    expect(r.min).toBe(100);
    // Pre-flop the big blind is the opening bet: a raise goes to at least twice it.
    const pre = hand('THNL', { stacks: [1000, 1000, 1000, 1000] });
    expect(legalActions(pre).bet).toMatchObject({ kind: 'raise', min: 200 });
    expect(refusal(pre, '2 r 150').rule).toBe('R-MINRAISE');
  });

  it('amounts are totals: a raise TO 300 puts 300 in front of the player (T 7-9)', () => {
    const s = run(hand('THNL', { stacks: [1000, 1000, 1000, 1000] }), '2 r 300');
    expect(s.seats[2].bet).toBe(300);
    expect(s.seats[2].stack).toBe(700);
  });

  it('increment reading: open 100, raise to 200, re-raise to at least 300 (R-MINRAISE default)', () => {
    const s = run(flop4([1000, 1000, 1000, 1000]), '0 r 100', '1 r 200');
    expect(legalActions(s).bet).toMatchObject({ kind: 'raise', min: 300 });
    expect(refusal(s, '2 r 299').rule).toBe('R-MINRAISE');
    expect(run(s, '2 r 300').currentBet).toBe(300);
  });

  it('double reading: open 100, raise to 200, re-raise to at least 400 (T 7-10)', () => {
    const s = run(flop4([1000, 1000, 1000, 1000], { minRaise: 'double' }), '0 r 100', '1 r 200');
    expect(legalActions(s).bet).toMatchObject({ kind: 'raise', min: 400 });
    const r = refusal(s, '2 r 300');
    expect(r).toMatchObject({ rule: 'R-MINRAISE', min: 400 });
  });

  it('a raise under the minimum is refused, not completed or made a call (online reading of T 7-15)', () => {
    const s = run(flop4([1000, 1000, 1000, 1000]), '0 r 100');
    const r = refusal(s, '1 r 150');
    expect(r).toMatchObject({ ok: false, rule: 'R-MINRAISE', min: 200, max: 900 });
  });

  it('pre-flop all-in below the big blind: others still call 100 and raise to at least 200 (T 7-11)', () => {
    const before = hand('THNL', { stacks: [1000, 1000, 30, 1000] });
    // Facing the 100 blind with 30, going all-in is a call for less, not a bet.
    expect(legalActions(before)).toMatchObject({ call: 30, bet: null });
    const s = run(before, '2 c');
    expect(s.seats[2].status).toBe('allin');
    const l = legalActions(s);
    expect(l.seat).toBe(3);
    expect(l.call).toBe(100);
    expect(l.bet).toMatchObject({ kind: 'raise', min: 200 });
  });

  it('pre-flop all-in below a minimum raise: call 130, raise to at least 230 (T 7-12)', () => {
    for (const minRaise of ['increment', 'double'] as const) {
      const s = run(hand('THNL', { stacks: [1000, 1000, 130, 1000] }, { minRaise }), '2 r 130');
      const l = legalActions(s);
      expect(l.call).toBe(130);
      expect(l.bet).toMatchObject({ kind: 'raise', min: 230 });
    }
  });

  it('post-flop all-in below the big blind: call 30, raise to at least 130 (T 7-13)', () => {
    for (const minRaise of ['increment', 'double'] as const) {
      const s = run(flop4([1000, 130, 1000, 1000], { minRaise }), '0 x', '1 r 30');
      const l = legalActions(s);
      expect(l.seat).toBe(2);
      expect(l.call).toBe(30);
      expect(l.bet).toMatchObject({ kind: 'raise', min: 130 });
    }
  });

  it('a player may always go all-in for less than the minimum raise (R-ALLIN)', () => {
    const s = run(flop4([1000, 1000, 250, 1000]), '0 r 100', '1 r 200');
    // Seat 2 has 150 behind: all-in to 150 < 300 is its only raise... and it is not even a raise.
    expect(legalActions(s).bet).toBeNull();
    const t = run(flop4([1000, 1000, 350, 1000]), '0 r 100', '1 r 200');
    expect(legalActions(t).bet).toEqual({ kind: 'raise', min: 250, max: 250, exact: true });
    expect(refusal(t, '2 r 240').rule).toBe('R-MINRAISE');
    expect(run(t, '2 r 250').seats[2].status).toBe('allin');
  });
});

describe('short all-ins and reopening (R-ALLIN, T 7-19)', () => {
  it('a short all-in does not reopen the betting for a player who already acted (T 7-19)', () => {
    // A (0) opens 100, B (1) all-in 150, C (2) calls: A may only call or fold.
    const s = run(flop4([1000, 250, 1000, 1000]), '0 r 100', '1 r 150', '2 c', '3 f');
    const l = legalActions(s);
    expect(l.seat).toBe(0);
    expect(l.call).toBe(50);
    expect(l.bet).toBeNull();
    expect(refusal(s, '0 r 400').rule).toBe('R-ALLIN');
  });

  it('players who had not acted may still raise over a short all-in (T 7-19)', () => {
    const s = run(flop4([1000, 250, 1000, 1000]), '0 r 100', '1 r 150');
    expect(legalActions(s).bet).toMatchObject({ kind: 'raise', min: 250 });
  });

  it('several short all-ins that add up to a full raise reopen it: A 100, B 180, C 210, D calls, A may raise (T 7-19)', () => {
    const s = run(flop4([1000, 280, 310, 1000]), '0 r 100', '1 r 180', '2 r 210', '3 c');
    const l = legalActions(s);
    expect(l.seat).toBe(0);
    expect(l.call).toBe(110);
    expect(l.bet).toMatchObject({ kind: 'raise', min: 310 });
    // D called 210 after the all-ins: D is not reopened when A only calls.
    const t = run(s, '0 c');
    expect(t.phase).toBe('deal');
  });

  it('a checker facing a short all-in bet may only call or fold (R-ALLIN)', () => {
    const s = run(flop4([1000, 130, 1000, 1000]), '0 x', '1 r 30', '2 c', '3 c');
    const l = legalActions(s);
    expect(l.seat).toBe(0);
    expect(l.call).toBe(30);
    expect(l.bet).toBeNull();
  });

  it('a big blind posted all-in for less counts as the full blind: call 100, raise to 200 (R-ALLIN)', () => {
    const s = hand('THNL', { stacks: [1000, 40, 1000, 1000] });
    expect(s.seats[1]).toMatchObject({ status: 'allin', bet: 40 });
    const l = legalActions(s);
    expect(l.call).toBe(100);
    expect(l.bet).toMatchObject({ min: 200 });
    // Everyone folds to the small blind, who completes: the 60 above the big blind's 40 comes back.
    const t = run(s, '2 f', '3 f', '0 c');
    expect(t.log.filter((e) => e.kind === 'return')).toEqual([{ round: 'pre-flop', kind: 'return', seat: 0, amount: 60 }]);
  });
});

describe('pot limit (R-PL)', () => {
  it('a raise is at most the pot after the call: blinds 50/100, first raise to 350', () => {
    const s = hand('THPL', { stacks: [5000, 5000, 5000, 5000] });
    expect(legalActions(s).bet).toEqual({ kind: 'raise', min: 200, max: 350, exact: false });
    const r = refusal(s, '2 r 351');
    expect(r).toMatchObject({ rule: 'R-PL', max: 350 });
  });

  it('three times the last bet plus the pot before it (D art. 7 I 2°): pot 400, bet 100, raise to 600', () => {
    const s = dealFrom(run(hand('THPL', { stacks: [5000, 5000, 5000, 5000] }), '2 c', '3 c', '0 c', '1 x'));
    expect(legalActions(s).bet).toMatchObject({ kind: 'bet', min: 100, max: 400 });
    const t = run(s, '0 r 100');
    expect(legalActions(t).bet).toMatchObject({ kind: 'raise', min: 200, max: 3 * 100 + 400 });
  });

  it('pot limit bounds are capped by the stack', () => {
    const s = hand('O4HPL', { stacks: [5000, 5000, 300, 5000] });
    expect(legalActions(s).bet).toEqual({ kind: 'raise', min: 200, max: 300, exact: false });
  });
});

describe('no limit (R-NL)', () => {
  it('a raise is at most the stack', () => {
    const s = hand('THNL', { stacks: [5000, 5000, 700, 5000] });
    expect(legalActions(s).bet).toMatchObject({ max: 700 });
    expect(refusal(s, '2 r 701')).toMatchObject({ rule: 'R-NL', max: 700 });
  });
});

describe('limit (R-LIMIT)', () => {
  const limit = (stacks: number[], rules: Partial<TableRules> = {}) =>
    hand('THL', { stacks }, rules, { smallBlind: 50, bigBlind: 100 });

  it('small bets pre-flop and on the flop, big bets on the turn and river', () => {
    let s = limit([5000, 5000, 5000, 5000]);
    expect(legalActions(s).bet).toEqual({ kind: 'raise', min: 200, max: 200, exact: true });
    expect(refusal(s, '2 r 300').rule).toBe('R-LIMIT');
    s = dealFrom(run(s, '2 c', '3 c', '0 c', '1 x'));
    expect(legalActions(s).bet).toEqual({ kind: 'bet', min: 100, max: 100, exact: true });
    s = dealFrom(run(s, '0 x', '1 x', '2 x', '3 x'));
    expect(legalActions(s).bet).toEqual({ kind: 'bet', min: 200, max: 200, exact: true });
    s = dealFrom(run(s, '0 r 200', '1 r 400', '2 f', '3 f', '0 c'));
    expect(s.street).toBe(3);
    expect(legalActions(s).bet).toMatchObject({ min: 200, max: 200 });
  });

  it('the cap: one bet and three raises per round, the big blind counting as the bet', () => {
    const s = run(limit([5000, 5000, 5000, 5000]), '2 r 200', '3 r 300', '0 r 400');
    const l = legalActions(s);
    expect(l.seat).toBe(1);
    expect(l.bet).toBeNull();
    expect(refusal(s, '1 r 500').rule).toBe('R-LIMIT');
  });

  it('heads-up play is uncapped unless the table says so', () => {
    let s = limit([5000, 5000]);
    s = run(s, '1 r 200', '0 r 300', '1 r 400');
    expect(legalActions(s).bet).toMatchObject({ min: 500 });
    let t = limit([5000, 5000], { capHeadsUp: true });
    t = run(t, '1 r 200', '0 r 300', '1 r 400');
    expect(legalActions(t).bet).toBeNull();
  });

  it('a cap reached with three players stays when the pot becomes heads-up', () => {
    const s = run(limit([5000, 5000, 5000, 5000]), '2 r 200', '3 r 300', '0 r 400', '1 f', '2 c');
    expect(s.toAct).toBe(3);
    expect(legalActions(s).bet).toBeNull();
  });

  it('the cap is a table rule: none at all when set to null', () => {
    const s = run(limit([5000, 5000, 5000, 5000], { cap: null }), '2 r 200', '3 r 300', '0 r 400', '1 r 500');
    expect(legalActions(s).bet).toMatchObject({ min: 600 });
  });

  it('a short stack bets all-in for less than the limit', () => {
    const s = dealFrom(run(limit([5000, 5000, 150, 5000]), '2 c', '3 c', '0 c', '1 x'));
    const t = run(s, '0 x', '1 x');
    expect(legalActions(t).bet).toEqual({ kind: 'bet', min: 50, max: 50, exact: true });
  });
});
