import { describe, expect, it } from 'vitest';
import { makeTableRules, type RakeRule, type Stakes, type TableRules } from '../tableRules';
import type { VariantCode } from '../variants';
import { legalActions } from './legal';
import { startHand } from './machine';
import { dealFrom, refusal, run, tableConfig, type TestTable } from './test-support';
import type { HandState } from './types';

function start(code: VariantCode, t: TestTable, stakes: Stakes = { smallBlind: 50, bigBlind: 100 }, rules: Partial<TableRules> = {}): HandState {
  return startHand(tableConfig(makeTableRules(code, stakes, rules), t));
}

function total(s: HandState): number {
  return s.seats.reduce((a, p) => a + p.stack, 0) + (s.result?.rake ?? 0);
}

const RAKE: RakeRule = { basisPoints: 500, cap: 30, noFlopNoDrop: true };

describe('uncalled bets (R-UNCALLED, D art. 9)', () => {
  it('the part of a bet no one called goes back to its owner before the pot is settled', () => {
    let s = dealFrom(start('THNL', { stacks: [1000, 1000, 1000] }));
    s = dealFrom(run(s, '2 c', '0 c', '1 x'));
    s = run(s, '0 r 300', '1 f', '2 f');
    expect(s.phase).toBe('done');
    expect(s.result?.uncalled).toEqual([{ seat: 0, amount: 300, round: 'flop' }]);
    expect(s.result?.pots).toEqual([{ amount: 300, rake: 0, eligible: [0], shares: [{ seat: 0, amount: 300, half: 'whole' }] }]);
    expect(s.seats.map((p) => p.stack)).toEqual([1200, 900, 900]);
  });

  it('an all-in bigger than the caller gets its excess back (R-UNCALLED)', () => {
    let s = dealFrom(start('THNL', { stacks: [1000, 400, 1000] }));
    s = run(s, '2 f', '0 r 1000', '1 c');
    const back = s.log.find((e) => e.kind === 'return');
    expect(back).toEqual({ round: 'pre-flop', kind: 'return', seat: 0, amount: 600 });
    expect(s.seats[0]).toMatchObject({ committed: 400, stack: 600 });
  });

  it('no rake is taken on an uncalled bet (R-RAKE)', () => {
    let s = dealFrom(start('THNL', { stacks: [1000, 1000, 1000] }, undefined, { rake: RAKE }));
    s = dealFrom(run(s, '2 c', '0 c', '1 x'));
    s = run(s, '0 r 700', '1 f', '2 f');
    // 5 % of the 300 that was called, not of 1000.
    expect(s.result?.rake).toBe(15);
    expect(s.result?.rakePaid[0]).toBe(15);
  });
});

describe('side pots (R-POTS, T 8-14)', () => {
  // A (0) all-in 100, B (1) all-in 300, C (2) covers. A best, B second.
  function threeWay(): HandState {
    let s = start('THNL', { stacks: [100, 300, 1000], button: 2 }, { smallBlind: 5, bigBlind: 10 });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d');
    s = run(s, '2 r 1000', '0 c', '1 c');
    return s;
  }

  it('pots are built from the all-in levels, each contested by those who reached it', () => {
    let s = threeWay();
    expect(s.allInShowdown).toBe(true);
    s = run(s, '0 sm', '1 sm', '2 sm', 'd b 3c8d9h', 'd b Jc', 'd b Qd');
    const r = s.result!;
    expect(r.pots.map((p) => [p.amount, p.eligible])).toEqual([
      [300, [0, 1, 2]],
      [400, [1, 2]],
    ]);
    expect(r.pots[0].shares).toEqual([{ seat: 0, amount: 300, half: 'whole' }]);
    expect(r.pots[1].shares).toEqual([{ seat: 1, amount: 400, half: 'whole' }]);
    expect(r.uncalled).toEqual([{ seat: 2, amount: 700, round: 'pre-flop' }]);
    expect(s.seats.map((p) => p.stack)).toEqual([300, 400, 700]);
  });

  it('pots are settled one by one, the last side pot first (T 8-14)', () => {
    const s = run(threeWay(), '0 sm', '1 sm', '2 sm', 'd b 3c8d9h', 'd b Jc', 'd b Qd');
    expect(s.result?.settled).toEqual([1, 0]);
  });

  it('a folded player’s chips stay in the pots but the player contests none', () => {
    let s = dealFrom(start('THNL', { stacks: [1000, 200, 1000] }));
    s = run(s, '2 c', '0 r 500', '1 c', '2 f');
    s = dealFrom(run(s, '0 sm', '1 sm'));
    const r = s.result!;
    expect(r.pots.map((p) => [p.amount, p.eligible])).toEqual([[500, [0, 1]]]);
    expect(total(s)).toBe(2200);
  });
});

describe('showdown (R-SHOWDOWN, T 8-3 to 8-8)', () => {
  function riverWithBet(): HandState {
    let s = start('THNL', { stacks: [1000, 1000, 1000] });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 QsQh', '2 c', '0 c', '1 x', 'd b 2c7d9h', '0 x', '1 x', '2 x', 'd b 3d', '0 x', '1 x', '2 x');
    return run(s, 'd b 4c', '0 x', '1 r 200', '2 c', '0 c');
  }

  it('the last aggressor of the last round shows first, then clockwise (T 8-3)', () => {
    const s = riverWithBet();
    expect(s.phase).toBe('showdown');
    expect(s.showQueue).toEqual([1, 2, 0]);
    expect(legalActions(s)).toMatchObject({ next: 'show', seat: 1, show: true, muck: true });
    expect(refusal(s, '2 sm').rule).toBe('R-SHOWDOWN');
  });

  it('with no bet on the last round the first to act shows first', () => {
    let s = start('THNL', { stacks: [1000, 1000, 1000] });
    s = dealFrom(run(dealFrom(s), '2 c', '0 c', '1 x'));
    for (let k = 0; k < 3; k++) s = dealFrom(run(s, '0 x', '1 x', '2 x'));
    expect(s.showQueue[0]).toBe(0);
  });

  it('a losing hand may be mucked; the winner is decided by the cards (T 8-5, T 8-8)', () => {
    const s = run(riverWithBet(), '1 sm', '2 mu', '0 sm');
    expect(s.seats[2].mucked).toBe(true);
    expect(s.result?.pots[0].shares).toEqual([{ seat: 0, amount: 900, half: 'whole' }]);
    expect(s.log.filter((e) => e.round === 'reveal').map((e) => e.kind)).toEqual(['show', 'muck', 'show']);
  });

  it('when every other hand is mucked, the last one wins without showing (T 8-6)', () => {
    const s = run(riverWithBet(), '1 mu', '2 mu');
    expect(s.phase).toBe('done');
    expect(s.seats[0].shown).toBe(false);
    expect(s.result?.won[0]).toBe(900);
  });

  it('the last claim on a side pot may not be mucked', () => {
    // Seat 0 is all-in for 100; seats 1 and 2 build a side pot and bet again on the river.
    let s = start('THNL', { stacks: [100, 2000, 2000] }, { smallBlind: 5, bigBlind: 10 });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 QsQh', '2 r 100', '0 c', '1 c', 'd b 2c7d9h', '1 x', '2 x', 'd b 3d', '1 x', '2 x', 'd b 4c', '1 r 200', '2 c');
    expect(s.showQueue).toEqual([1, 2, 0]);
    s = run(s, '1 mu');
    // Seat 2 is now the only claim on the side pot: it must show.
    expect(legalActions(s)).toMatchObject({ seat: 2, show: true, muck: false });
    expect(refusal(s, '2 mu').rule).toBe('R-SHOWDOWN');
    s = run(s, '2 sm', '0 sm');
    expect(s.result?.pots.map((p) => p.shares.map((x) => [x.seat, x.amount]))).toEqual([[[0, 300]], [[2, 400]]]);
  });

  it('all-in with no betting left: every hand is shown at once, before the rest of the board, none mucked (T 8-4)', () => {
    let s = start('THNL', { stacks: [1000, 1000] }, { smallBlind: 50, bigBlind: 100 });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', '1 r 1000', '0 c');
    const l = legalActions(s);
    expect(l).toMatchObject({ next: 'show', muck: false });
    expect(refusal(s, '0 mu').rule).toBe('R-SHOWDOWN');
    s = run(s, '1 sm', '0 sm');
    expect(legalActions(s)).toMatchObject({ next: 'deal', deal: { seat: null, count: 3 } });
    s = run(s, 'd b 2c7d9h', 'd b 3d', 'd b 4c');
    expect(s.result?.won).toEqual([2000, 0]);
  });

  it('a client view shows an opponent hand when the show carries its cards', () => {
    let s = start('THNL', { stacks: [1000, 1000] });
    s = run(s, { type: 'deal', seat: 0, cards: [null, null] }, 'd 1 KsKh', '1 r 1000', '0 c');
    expect(refusal(s, '0 sm').rule).toBe('R-SHOWDOWN');
    s = run(s, '0 sm AsAh', '1 sm', 'd b 2c7d9h', 'd b 3d', 'd b 4c');
    expect(s.result?.won).toEqual([2000, 0]);
  });
});

describe('odd chips (R-ODDCHIP, T 8-13)', () => {
  it('an indivisible chip goes to the first winner left of the button', () => {
    // Button 0, small blind 1, big blind 2; an ante of 1 makes the pot odd (303).
    let s = start('THNL', { stacks: [1000, 1000, 1000], button: 0 }, { smallBlind: 50, bigBlind: 100, ante: 1 });
    s = run(s, 'd 1 2c3d', 'd 2 2d3c', 'd 0 2h4d', '0 c', '1 c', '2 x');
    s = run(s, 'd b AsKsQs', '1 x', '2 x', '0 x', 'd b Js', '1 x', '2 x', '0 x', 'd b Ts', '1 x', '2 x', '0 x');
    // Seats 0 and 2 split the board's royal flush; seat 2 is the first winner left of the button.
    s = run(s, '1 mu', '2 sm', '0 sm');
    expect(s.result!.pots[0].shares).toEqual([
      { seat: 2, amount: 152, half: 'whole' },
      { seat: 0, amount: 151, half: 'whole' },
    ]);
  });

  it('with a dead button the order still starts left of the (empty) button seat', () => {
    let s = start('THNL', { stacks: [1000, 1000, 1000, 1000], empty: [1], button: 1, smallBlind: 2, bigBlind: 3 }, { smallBlind: 50, bigBlind: 100, ante: 1 });
    s = run(s, 'd 2 2c3d', 'd 3 2d3c', 'd 0 2h4d', '0 c', '2 c', '3 x', 'd b AsKsQs', '2 x', '3 x', '0 x', 'd b Js', '2 x', '3 x', '0 x', 'd b Ts', '2 x', '3 x', '0 x');
    s = run(s, '2 sm', '3 sm', '0 sm');
    // 303 split three ways is 101 each: no odd chip. Make it two ways by mucking instead.
    expect(s.result!.pots[0].shares.map((x) => x.amount)).toEqual([101, 101, 101]);
    let t = start('THNL', { stacks: [1000, 1000, 1000, 1000], empty: [1], button: 1, smallBlind: 2, bigBlind: 3 }, { smallBlind: 50, bigBlind: 100, ante: 1 });
    t = run(t, 'd 2 2c3d', 'd 3 2d3c', 'd 0 2h4d', '0 c', '2 c', '3 x', 'd b AsKsQs', '2 x', '3 x', '0 x', 'd b Js', '2 x', '3 x', '0 x', 'd b Ts', '2 x', '3 x', '0 x');
    t = run(t, '2 mu', '3 sm', '0 sm');
    expect(t.result!.pots[0].shares).toEqual([
      { seat: 3, amount: 152, half: 'whole' },
      { seat: 0, amount: 151, half: 'whole' },
    ]);
  });

  it('Stud: the odd chip goes to the highest card by suit', () => {
    let s = start('7SHL', { stacks: [500, 500, 500] }, { ante: 5, bringIn: 10, smallBet: 20 });
    s = run(s, 'd 0 2c3d4h', 'd 1 2d3h4s', 'd 2 QcJcTc', '0 bi', '1 c', '2 c');
    s = run(s, 'd 0 5s', 'd 1 5c', 'd 2 9h', '2 x', '0 r 20', '1 c', '2 f');
    s = run(s, 'd 0 6c', 'd 1 6d', '1 x', '0 x', 'd 0 Kh', 'd 1 Ks', '1 x', '0 x', 'd 0 9d', 'd 1 9c', '1 x', '0 x');
    s = run(s, '1 sm', '0 sm');
    // 15 antes + 30 on 3rd + 40 on 4th = 85: both have a six-high straight; K♠ beats K♥ for the chip.
    expect(s.result!.pots[0].shares).toEqual([
      { seat: 1, amount: 43, half: 'whole' },
      { seat: 0, amount: 42, half: 'whole' },
    ]);
  });
});

describe('high/low split (R-LOW8)', () => {
  function omaha(board: string[]): HandState {
    let s = start('O4JL', { stacks: [1000, 1000, 1000] }, { smallBlind: 50, bigBlind: 100, ante: 1 });
    s = run(s, 'd 0 Ah3sQdQh', 'd 1 4c7dKdJh', 'd 2 9c9dThJd', '2 c', '0 c', '1 x');
    s = run(s, `d b ${board[0]}`, '0 x', '1 x', '2 x', `d b ${board[1]}`, '0 x', '1 x', '2 x', `d b ${board[2]}`, '0 x', '1 x', '2 x');
    return run(s, '0 sm', '1 sm', '2 sm');
  }

  it('the best low takes half, the best high the other half, the odd chip to the high half', () => {
    const s = omaha(['2c5d8h', 'Kc', 'Ks']);
    // 303 chips: 152 high (seat 1, kings full... three kings), 151 low (seat 0, 8-5-3-2-A).
    expect(s.result!.pots[0].shares).toEqual([
      { seat: 1, amount: 152, half: 'high' },
      { seat: 0, amount: 151, half: 'low' },
    ]);
  });

  it('with no qualifying low the high hand takes the whole pot', () => {
    const s = omaha(['2cTd7h', 'Kc', 'Ks']);
    expect(s.result!.pots[0].shares).toEqual([{ seat: 1, amount: 303, half: 'whole' }]);
  });
});

describe('rake (R-RAKE)', () => {
  it('an integer share of the pot, capped, taken from the main pot', () => {
    let s = start('THNL', { stacks: [5000, 5000, 5000] }, undefined, { rake: RAKE });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 c', '0 c', '1 r 333', '2 f', '0 c');
    s = run(s, 'd b 3c8d9h', '0 x', '1 x', 'd b Jc', '0 x', '1 x', 'd b Qd', '0 x', '1 x', '0 sm', '1 sm');
    // Pot 100 + 333 + 333 = 766: 5 % = 38.3 → 38, capped at 30.
    expect(s.result!.rake).toBe(30);
    expect(s.result!.pots[0]).toMatchObject({ amount: 766, rake: 30 });
    expect(s.result!.won[0]).toBe(736);
    expect(total(s)).toBe(15000);
    const uncapped = run(
      start('THNL', { stacks: [5000, 5000, 5000] }, undefined, { rake: { ...RAKE, cap: null } }),
      'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 c', '0 c', '1 r 333', '2 f', '0 c',
      'd b 3c8d9h', '0 x', '1 x', 'd b Jc', '0 x', '1 x', 'd b Qd', '0 x', '1 x', '0 sm', '1 sm',
    );
    expect(uncapped.result!.rake).toBe(38);
  });

  it('no flop, no drop: a hand that ends before the flop is not raked', () => {
    const folded = run(start('THNL', { stacks: [5000, 5000, 5000] }, undefined, { rake: RAKE }), 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 r 400', '0 f', '1 f');
    expect(folded.result!.rake).toBe(0);
    expect(total(folded)).toBe(15000);
  });

  it('the rake taken from a split pot is shared by its winners', () => {
    let s = start('THNL', { stacks: [5000, 5000], button: 1 }, undefined, { rake: { basisPoints: 1000, cap: null, noFlopNoDrop: true } });
    s = run(s, 'd 0 2c3d', 'd 1 2d3c', '1 c', '0 x', 'd b AsKsQs', '0 r 101', '1 c', 'd b Js', '0 x', '1 x', 'd b Ts', '0 x', '1 x', '0 sm', '1 sm');
    // Pot 402: rake 40 (10 %), 362 split 181 / 181; each paid 20.
    expect(s.result!.rake).toBe(40);
    expect(s.result!.rakePaid).toEqual([20, 20]);
    expect(s.result!.net).toEqual([-20, -20]);
  });
});
