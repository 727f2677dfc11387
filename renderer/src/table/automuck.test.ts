/**
 * Issue 13 habit: auto-muck of a losing hand decides on our own view of the hand (what the client
 * holds) and mucks only when every part of every pot we are in is lost to a hand already shown.
 */
import { describe, expect, it } from 'vitest';
import { legalActions } from '../../../shared/rules/engine/legal';
import { startHand } from '../../../shared/rules/engine/machine';
import { cards, dealFrom, run, tableConfig } from '../../../shared/rules/engine/test-support';
import type { HandState } from '../../../shared/rules/engine/types';
import { viewFor } from '../../../shared/rules/engine/view';
import { makeTableRules, type TableRules } from '../../../shared/rules/tableRules';
import { shouldAutoMuck } from './automuck';

/**
 * Deals the given hole cards (seat order) and board, calls or checks every decision (`opening` first:
 * steps such as a short stack's all-in), then shows hands until `us` is the seat to show or muck.
 */
function atOurShowdown(rules: TableRules, stacks: number[], holes: string[], board: string[], us: number, opening: string[] = []): HandState {
  let s = startHand(tableConfig(rules, { stacks, button: stacks.length - 1 }));
  s = run(s, ...holes.map((h, i) => `d ${i} ${h}`), ...opening);
  const boards = [...board];
  for (let guard = 0; guard < 100; guard++) {
    const legal = legalActions(s);
    if (legal.next === 'show' && legal.seat === us) return viewFor(s, us);
    if (legal.next === 'done') throw new Error('the hand ended before our turn to show');
    if (legal.next === 'deal') s = boards.length > 0 ? run(s, `d b ${boards.shift()}`) : dealFrom(s);
    else if (legal.next === 'show') s = run(s, { type: 'show', seat: legal.seat! });
    else s = run(s, legal.check ? { type: 'check', seat: legal.seat! } : { type: 'call', seat: legal.seat! });
  }
  throw new Error('no showdown');
}

const NL = makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 });
const BOARD = ['2d5s9c', 'Jh', '3h'];

describe('auto-muck at the showdown (issue 13 habit)', () => {
  it('a hand beaten by one already shown is mucked, and the engine allows it', () => {
    const s = atOurShowdown(NL, [1000, 1000, 1000], ['AsAh', '7c4d', 'KsQd'], BOARD, 1);
    expect(legalActions(s).muck).toBe(true);
    expect(s.seats[0].shown).toBe(true);
    expect(shouldAutoMuck(s, 1)).toBe(true);
  });

  it('a hand that beats the shown one is kept', () => {
    const s = atOurShowdown(NL, [1000, 1000, 1000], ['7c4d', 'AsAh', 'KsQd'], BOARD, 1);
    expect(shouldAutoMuck(s, 1)).toBe(false);
  });

  it('a tie splits the pot (D art. 6 IV): kept', () => {
    const s = atOurShowdown(NL, [1000, 1000, 1000], ['AsKh', 'AcKd', '7c4h'], BOARD, 1);
    expect(shouldAutoMuck(s, 1)).toBe(false);
  });

  it('first to show, nothing shown yet: kept (nothing to compare with)', () => {
    const s = atOurShowdown(NL, [1000, 1000, 1000], ['7c4d', 'AsAh', 'KsQd'], BOARD, 0);
    expect(s.seats.some((p) => p.shown)).toBe(false);
    expect(shouldAutoMuck(s, 0)).toBe(false);
  });

  // Seat 0 is all-in for 100 before the flop, seat 1 raises to 300: a main pot of the three (300), a side
  // pot of seats 1 and 2 (400).
  // The side pot's players show first (seat 1, then us), the all-in hand last.
  const SHORT = ['2 c', '0 r 100', '1 r 300', '2 c'];
  it('side pots: beating the hand shown, the all-in hand not shown yet: kept', () => {
    const s = atOurShowdown(NL, [100, 1000, 1000], ['AsAh', 'QsQh', 'KcKd'], BOARD, 2, SHORT);
    expect(s.seats[1].shown && !s.seats[0].shown).toBe(true);
    expect(legalActions(s).muck).toBe(true);
    expect(shouldAutoMuck(s, 2)).toBe(false);
  });

  it('side pots: beaten by the hand shown, which is in both pots: mucked', () => {
    const s = atOurShowdown(NL, [100, 1000, 1000], ['AsAh', 'QsQh', '7c4d'], BOARD, 2, SHORT);
    expect(shouldAutoMuck(s, 2)).toBe(true);
  });

  it('side pots, pot by pot: beaten for the main pot by the shown all-in hand, winning the side pot: kept', () => {
    // The all-in hand already open (as if it had shown first): each pot is judged on its own.
    const s = atOurShowdown(NL, [100, 1000, 1000], ['AsAh', 'QsQh', 'KcKd'], BOARD, 2, SHORT);
    const open = (st: HandState, seat: number, hole: string, shown: boolean): HandState => ({ ...st, seats: st.seats.map((p, i) => (i === seat ? { ...p, hole: cards(hole), shown } : p)) });
    const aces = open(s, 0, 'AsAh', true);
    expect(shouldAutoMuck(aces, 2)).toBe(false);
    expect(shouldAutoMuck(open(aces, 2, '7c4d', false), 2)).toBe(true);
  });

  const HILO = makeTableRules('O4JL', { smallBlind: 5, bigBlind: 10 });
  // Board 2d 5s 8c Jh Kh: seat 0 holds a set of kings.
  const LOWBOARD = ['2d5s8c', 'Jh', 'Kh'];
  it('hi-lo: beaten for the high but holding the only qualifying low: kept', () => {
    // Seat 0 has no low (no two cards to 8); we have A-3 for 8-5-3-2-A.
    const s = atOurShowdown(HILO, [1000, 1000, 1000], ['KsKcQdQc', 'Ac3d7s9s', 'TcTd6h6c'], LOWBOARD, 1);
    expect(s.seats[0].shown).toBe(true);
    expect(shouldAutoMuck(s, 1)).toBe(false);
  });

  it('hi-lo: beaten for the high and for the low: mucked', () => {
    // Seat 0's A-3 makes 8-5-3-2-A; our 4-6 only 8-6-5-4-2.
    const s = atOurShowdown(HILO, [1000, 1000, 1000], ['KsKcAd3c', '4c6d7s9s', 'TcTd6h6c'], LOWBOARD, 1);
    expect(s.seats[0].shown).toBe(true);
    expect(shouldAutoMuck(s, 1)).toBe(true);
  });

  it('hi-lo: beaten for the high, the same low as the shown hand (the low half is split): kept', () => {
    const s = atOurShowdown(HILO, [1000, 1000, 1000], ['KsKcAd3c', 'Ah3s7s9s', 'TcTd6h6c'], LOWBOARD, 1);
    expect(shouldAutoMuck(s, 1)).toBe(false);
  });

  it('never in Stud, even where a house rule lets a loser muck (D art. 7 III)', () => {
    const STUD = makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 }, { houseRules: ['stud-muck'] });
    let s = dealFrom(startHand(tableConfig(STUD, { stacks: [500, 500, 500] })));
    for (let guard = 0; guard < 200 && legalActions(s).next !== 'show'; guard++) {
      const legal = legalActions(s);
      if (legal.next === 'deal') s = dealFrom(s);
      else s = run(s, legal.bringIn !== null ? { type: 'bringIn', seat: legal.seat! } : legal.check ? { type: 'check', seat: legal.seat! } : { type: 'call', seat: legal.seat! });
    }
    s = run(s, { type: 'show', seat: legalActions(s).seat! });
    const us = legalActions(s).seat!;
    const view = viewFor(s, us);
    expect(legalActions(view).muck).toBe(true); // the engine would allow it here
    expect(shouldAutoMuck(view, us)).toBe(false);
  });
});
