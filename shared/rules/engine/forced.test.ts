import { describe, expect, it } from 'vitest';
import { makeTableRules, type TableRules } from '../tableRules';
import type { VariantCode } from '../variants';
import { legalActions } from './legal';
import { startHand } from './machine';
import { cards, dealFrom, refusal, run, tableConfig, type TestTable } from './test-support';
import type { HandState } from './types';

function blinds(t: TestTable, code: VariantCode = 'THNL', rules: Partial<TableRules> = {}, ante = 0): HandState {
  return startHand(tableConfig(makeTableRules(code, { smallBlind: 50, bigBlind: 100, ante }, rules), t));
}

function stud(code: VariantCode, stacks: number[], rules: Partial<TableRules> = {}): HandState {
  return startHand(tableConfig(makeTableRules(code, { ante: 5, bringIn: 10, smallBet: 20 }, rules), { stacks }));
}

describe('blinds and antes (R-FORCED)', () => {
  it('the two players left of the button post the blinds before any card, in the bet round', () => {
    const s = blinds({ stacks: [1000, 1000, 1000, 1000] });
    expect(s.log).toEqual([
      { round: 'bet', kind: 'post', seat: 0, post: 'small blind', amount: 50, allIn: false },
      { round: 'bet', kind: 'post', seat: 1, post: 'big blind', amount: 100, allIn: false },
    ]);
    expect(legalActions(s)).toMatchObject({ next: 'deal', deal: { seat: 0, count: 2, up: [false, false] } });
  });

  it('antes are posted by everyone dealt in and go straight to the pot', () => {
    const s = blinds({ stacks: [1000, 1000, 1000] }, 'THNL', {}, 10);
    expect(s.log.filter((e) => e.kind === 'post' && e.post === 'ante').map((e) => (e as { seat: number }).seat)).toEqual([0, 1, 2]);
    expect(s.pot).toBe(30);
    expect(s.seats.map((p) => p.committed)).toEqual([60, 110, 10]);
  });

  it('heads-up the button posts the small blind and acts first before the flop, last after (T 6-19)', () => {
    let s = dealFrom(blinds({ stacks: [1000, 1000], button: 1 }));
    expect(s.plan.smallBlind).toBe(1);
    expect(s.seats[1].bet).toBe(50);
    expect(legalActions(s).seat).toBe(1);
    s = dealFrom(run(s, '1 c', '0 x'));
    expect(legalActions(s).seat).toBe(0);
  });

  it('the first to act is left of the big blind before the flop and left of the button after (R-ACTORDER)', () => {
    let s = dealFrom(blinds({ stacks: [1000, 1000, 1000, 1000, 1000], button: 2 }));
    expect([s.plan.smallBlind, s.plan.bigBlind]).toEqual([3, 4]);
    expect(s.toAct).toBe(0);
    s = dealFrom(run(s, '0 c', '1 c', '2 c', '3 c', '4 x'));
    expect(s.toAct).toBe(3);
  });

  it('a dead button on an empty seat: the action after the flop starts left of it (R-BUTTON)', () => {
    let s = dealFrom(blinds({ stacks: [1000, 1000, 1000, 1000], empty: [3], button: 3, smallBlind: 0, bigBlind: 1 }));
    expect(s.toAct).toBe(2);
    s = dealFrom(run(s, '2 c', '0 c', '1 x'));
    expect(s.toAct).toBe(0);
  });

  it('a missing small blind: only the big blind posts, the action starts left of it (R-BUTTON, T 6-17)', () => {
    const s = dealFrom(blinds({ stacks: [1000, 1000, 1000, 1000], button: 3, smallBlind: null, bigBlind: 1, dealtIn: [0, 1, 2, 3] }));
    expect(s.log.filter((e) => e.kind === 'post')).toHaveLength(1);
    expect(s.toAct).toBe(2);
  });

  it('a newcomer posts a live big blind out of position and keeps the option; a dead small blind goes to the pot (R-BUTTON)', () => {
    let s = dealFrom(blinds({ stacks: [1000, 1000, 1000, 1000, 1000], button: 4, extraBigBlinds: [3], deadSmallBlinds: [3] }));
    expect(s.seats[3]).toMatchObject({ bet: 100, committed: 150, stack: 850 });
    expect(s.pot).toBe(50);
    s = run(s, '2 c');
    // Seat 3 has its 100 in already: nothing to call, it may check or raise.
    expect(legalActions(s)).toMatchObject({ seat: 3, check: true, call: null, bet: { kind: 'raise', min: 200 } });
    s = run(s, '3 x', '4 c', '0 c');
    expect(legalActions(s)).toMatchObject({ seat: 1, check: true });
  });

  it('the big blind has the option when everyone calls, and the round ends when it checks', () => {
    let s = dealFrom(blinds({ stacks: [1000, 1000, 1000] }));
    s = run(s, '2 c', '0 c');
    expect(legalActions(s)).toMatchObject({ seat: 1, check: true, bet: { kind: 'raise', min: 200 } });
    expect(run(s, '1 x').phase).toBe('deal');
  });

  it('a blind bigger than the stack is posted all-in for less', () => {
    const s = blinds({ stacks: [30, 1000, 1000] });
    expect(s.seats[0]).toMatchObject({ status: 'allin', bet: 30, stack: 0 });
  });
});

describe('Stud bring-in (R-FORCED, D art. 7 III)', () => {
  it('the lowest up-card brings in, ties by suit (clubs lowest), and may not pass', () => {
    let s = stud('7SHL', [500, 500, 500, 500]);
    expect(s.pot).toBe(20);
    s = run(s, 'd 0 AsKs2d', 'd 1 AhKh2c', 'd 2 QsQh9c', 'd 3 JsJh5d');
    expect(s.toAct).toBe(1); // 2♣ is lower than 2♦
    const l = legalActions(s);
    expect(l).toMatchObject({ next: 'act', seat: 1, bringIn: 10, fold: false, check: false, bet: { kind: 'complete', min: 20, max: 20 } });
    expect(refusal(s, '1 f').rule).toBe('R-FORCED');
    expect(refusal(s, '1 x').rule).toBe('R-FORCED');
  });

  it('after the bring-in the others call it or complete to the small bet; then raises are small bets', () => {
    let s = stud('7SHL', [500, 500, 500, 500]);
    s = run(s, 'd 0 AsKs2d', 'd 1 AhKh2c', 'd 2 QsQh9c', 'd 3 JsJh5d', '1 bi');
    expect(s.log.at(-1)).toEqual({ round: 'bring-in', kind: 'bring-in', seat: 1, amount: 10, allIn: false });
    expect(legalActions(s)).toMatchObject({ seat: 2, call: 10, bet: { kind: 'complete', min: 20, max: 20 } });
    s = run(s, '2 r 20');
    expect(legalActions(s)).toMatchObject({ seat: 3, call: 20, bet: { kind: 'raise', min: 40, max: 40 } });
    // The bring-in was a decision: it is reopened by the completion.
    s = run(s, '3 c', '0 c');
    expect(legalActions(s)).toMatchObject({ seat: 1, call: 10, bet: { kind: 'raise', min: 40 } });
  });

  it('when everybody calls the bring-in, the bring-in has no option', () => {
    const s = run(stud('7SHL', [500, 500, 500]), 'd 0 AsKs2d', 'd 1 AhKh3c', 'd 2 QsQh9c', '0 bi', '1 c', '2 c');
    expect(s.phase).toBe('deal');
    expect(s.street).toBe(1);
  });

  it('the bring-in may complete instead', () => {
    const s = run(stud('7SHL', [500, 500, 500]), 'd 0 AsKs2d', 'd 1 AhKh3c', 'd 2 QsQh9c', '0 r 20');
    expect(s.log.at(-1)).toMatchObject({ kind: 'complete', seat: 0, to: 20 });
    expect(legalActions(s)).toMatchObject({ seat: 1, call: 20, bet: { kind: 'raise', min: 40 } });
  });

  it('Razz: the highest up-card brings in, king high, ties by suit (spades highest)', () => {
    const s = run(stud('7SLL', [500, 500, 500]), 'd 0 2s3sKc', 'd 1 2h3hKs', 'd 2 4h5hAc');
    expect(s.toAct).toBe(1);
  });

  it('high/low Stud: the bring-in is the lowest card with the ace high', () => {
    const s = run(stud('7SJL', [500, 500, 500]), 'd 0 2s3sAc', 'd 1 2h3h3c', 'd 2 4h5h9c');
    expect(s.toAct).toBe(1);
  });
});

describe('Stud action order after 3rd street (R-ACTORDER, D art. 7 III)', () => {
  function to4th(code: VariantCode, third: string[], fourth: string[], rules: Partial<TableRules> = {}): HandState {
    let s = stud(code, [500, 500, 500], rules);
    s = run(s, ...third.map((c, i) => `d ${i} ${c}`));
    const bringIn = s.toAct as number;
    const order = [bringIn, (bringIn + 1) % 3, (bringIn + 2) % 3];
    s = run(s, `${order[0]} bi`, `${order[1]} c`, `${order[2]} c`);
    return run(s, ...fourth.map((c, i) => `d ${i} ${c}`));
  }

  it('the best visible hand acts first: a pair beats high cards', () => {
    const s = to4th('7SHL', ['2s3sKd', '2h3hAd', '4h5h7c'], ['9c', '8d', '7d']);
    expect(s.toAct).toBe(2);
  });

  it('equal visible ranks are broken by the suit of the highest card (spades first)', () => {
    const s = to4th('7SHL', ['2s3sKd', '2h3hKs', '4h5h7c'], ['9c', '9d', '8c']);
    expect(s.toAct).toBe(1);
  });

  it('Razz: the lowest visible hand acts first (ace low, pairs count against)', () => {
    const s = to4th('7SLL', ['2s3sKd', '2h3hAd', '4h5h7c'], ['9c', '4d', '7d']);
    expect(s.toAct).toBe(1);
  });

  it('an open pair on 4th street allows the big bet (on by default)', () => {
    const s = to4th('7SHL', ['2s3sKd', '2h3hAd', '4h5h7c'], ['9c', '8d', '7d']);
    expect(legalActions(s).bet).toEqual({ kind: 'bet', min: 20, max: 40, exact: true });
    expect(refusal(s, '2 r 30').rule).toBe('R-LIMIT');
    const big = run(s, '2 r 40');
    expect(legalActions(big).bet).toMatchObject({ min: 80, max: 80 });
    const small = run(s, '2 r 20');
    expect(legalActions(small).bet).toMatchObject({ min: 40, max: 60 });
  });

  it('without the open-pair option 4th street stays at the small bet', () => {
    const s = to4th('7SHL', ['2s3sKd', '2h3hAd', '4h5h7c'], ['9c', '8d', '7d'], { studOpenPairBigBet: false });
    expect(legalActions(s).bet).toEqual({ kind: 'bet', min: 20, max: 20, exact: true });
  });

  it('5th street and later use the big bet', () => {
    let s = to4th('7SHL', ['2s3sKd', '2h3hAd', '4h5h8c'], ['9c', '8d', '7d']);
    expect(legalActions(s).bet).toMatchObject({ min: 20, max: 20 });
    for (let k = 0; k < 3; k++) s = run(s, `${s.toAct} x`);
    s = dealFrom(s);
    expect(s.street).toBe(2);
    expect(legalActions(s).bet).toMatchObject({ min: 40, max: 40 });
  });
});

describe('big-blind ante and dead money (table rule anteBy, R-POTS)', () => {
  /** Plays on: checks, shows when asked, deals from `deck`, until the hand is over. */
  function finish(state: HandState, deck: number[]): HandState {
    let s = state;
    for (let guard = 0; guard < 50; guard++) {
      const legal = legalActions(s);
      if (legal.next === 'done') return s;
      s = legal.next === 'deal' ? dealFrom(s, deck) : run(s, `${legal.seat} ${legal.next === 'act' ? 'x' : 'sm'}`);
    }
    throw new Error('hand did not end');
  }

  it('the big blind alone posts the ante for the table, before its blind, into the pot', () => {
    const s = blinds({ stacks: [1000, 1000, 1000, 1000] }, 'THNL', { anteBy: 'big-blind' }, 100);
    expect(s.log.filter((e) => e.kind === 'post')).toEqual([
      { round: 'bet', kind: 'post', seat: 1, post: 'ante', amount: 100, allIn: false },
      { round: 'bet', kind: 'post', seat: 0, post: 'small blind', amount: 50, allIn: false },
      { round: 'bet', kind: 'post', seat: 1, post: 'big blind', amount: 100, allIn: false },
    ]);
    expect(s.pot).toBe(100);
    expect(s.seats.map((p) => p.committed)).toEqual([50, 200, 0, 0]);
  });

  it('a big-blind ante is dead money: the big blind all-in for more than its caller does not win it back', () => {
    // Seat 1 (big blind) antes 100 and can bet 900 more; seat 0 puts in 900. The ante joins the main
    // pot, so the big blind's extra 100 is no side pot of its own: seat 0's aces take all 1,900.
    let s = blinds({ stacks: [2000, 1000, 2000], button: 2 }, 'THNL', { anteBy: 'big-blind' }, 100);
    const deck = cards('AsAd 7c2d 5h4h KhQs9c 4d 3c');
    s = dealFrom(s, deck);
    s = run(s, '2 f', '0 r 900', '1 c');
    s = finish(s, deck);
    expect(s.seats.map((p) => p.stack)).toEqual([3000, 0, 2000]);
  });

  it('the decree ante paid by everyone stays in the levels: a player all-in on the ante wins only the ante level', () => {
    // Seat 2 has only its 10 ante; it wins with the best hand but only 3 × 10 (T 8-14, R-POTS).
    let s = blinds({ stacks: [1000, 1000, 10], button: 2 }, 'THNL', {}, 10);
    const deck = cards('7c2d 8s3h AsAd KhQs9c 4d 3c');
    s = dealFrom(s, deck);
    s = run(s, '0 c', '1 x');
    s = finish(s, deck);
    expect(s.seats[2].stack).toBe(30);
    expect(s.seats.reduce((a, p) => a + p.stack, 0)).toBe(2010);
  });

  it('Stud refuses a big-blind ante (no big blind)', () => {
    expect(() => stud('7SHL', [100, 100, 100], { anteBy: 'big-blind' })).toThrow(/R-FORCED/);
  });
});
