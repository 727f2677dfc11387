/**
 * Auto-muck of a losing hand decides on our own view of the hand (what the client
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
import { toOurShowdown } from './test-support';

/** Our own view of the hand when it is our turn to show or muck. */
function atOurShowdown(rules: TableRules, stacks: number[], holes: string[], board: string[], us: number, opening: string[] = []): HandState {
  return viewFor(toOurShowdown(rules, stacks, holes, board, us, opening), us);
}

const NL = makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 });
const BOARD = ['2d5s9c', 'Jh', '3h'];

// Seat 0 is all-in for 100 before the flop, seat 1 raises to 300: a main pot of the three (300), a
// side pot of seats 1 and 2 (400). The side pot's players show first (seat 1, then us), the all-in hand last.
const SHORT = ['2 c', '0 r 100', '1 r 300', '2 c'];
const HILO = makeTableRules('O4JL', { smallBlind: 5, bigBlind: 10 });
// Board 2d 5s 8c Jh Kh: seat 0 holds a set of kings.
const LOWBOARD = ['2d5s8c', 'Jh', 'Kh'];

interface Case {
  name: string;
  rules: TableRules;
  stacks: number[];
  holes: string[];
  board: string[];
  us: number;
  opening?: string[];
  /** The seats whose hands are shown when our turn comes. */
  shownBefore: number[];
  muck: boolean;
}
const FULL = [1000, 1000, 1000];
const CASES: Case[] = [
  { name: 'a hand beaten by one already shown: mucked', rules: NL, stacks: FULL, holes: ['AsAh', '7c4d', 'KsQd'], board: BOARD, us: 1, shownBefore: [0], muck: true },
  { name: 'a hand that beats the shown one: kept', rules: NL, stacks: FULL, holes: ['7c4d', 'AsAh', 'KsQd'], board: BOARD, us: 1, shownBefore: [0], muck: false },
  { name: 'a tie splits the pot (D art. 6 IV): kept', rules: NL, stacks: FULL, holes: ['AsKh', 'AcKd', '7c4h'], board: BOARD, us: 1, shownBefore: [0], muck: false },
  { name: 'first to show, nothing to compare with: kept', rules: NL, stacks: FULL, holes: ['7c4d', 'AsAh', 'KsQd'], board: BOARD, us: 0, shownBefore: [], muck: false },
  { name: 'side pots: beating the hand shown, the all-in hand not shown yet: kept', rules: NL, stacks: [100, 1000, 1000], holes: ['AsAh', 'QsQh', 'KcKd'], board: BOARD, us: 2, opening: SHORT, shownBefore: [1], muck: false },
  { name: 'side pots: beaten by the hand shown, which is in both pots: mucked', rules: NL, stacks: [100, 1000, 1000], holes: ['AsAh', 'QsQh', '7c4d'], board: BOARD, us: 2, opening: SHORT, shownBefore: [1], muck: true },
  // Seat 0 has no low (no two cards to 8); we have A-3 for 8-5-3-2-A.
  { name: 'hi-lo: beaten for the high, holding the only qualifying low: kept', rules: HILO, stacks: FULL, holes: ['KsKcQdQc', 'Ac3d7s9s', 'TcTd6h6c'], board: LOWBOARD, us: 1, shownBefore: [0], muck: false },
  // Seat 0's A-3 makes 8-5-3-2-A; our 4-6 only 8-6-5-4-2.
  { name: 'hi-lo: beaten for the high and for the low: mucked', rules: HILO, stacks: FULL, holes: ['KsKcAd3c', '4c6d7s9s', 'TcTd6h6c'], board: LOWBOARD, us: 1, shownBefore: [0], muck: true },
  { name: 'hi-lo: beaten for the high, the same low as the shown hand (the low half is split): kept', rules: HILO, stacks: FULL, holes: ['KsKcAd3c', 'Ah3s7s9s', 'TcTd6h6c'], board: LOWBOARD, us: 1, shownBefore: [0], muck: false },
];

describe('auto-muck at the showdown', () => {
  it.each(CASES)('$name', (c) => {
    const s = atOurShowdown(c.rules, c.stacks, c.holes, c.board, c.us, c.opening);
    expect(s.seats.flatMap((p, i) => (p.shown ? [i] : []))).toEqual(c.shownBefore);
    expect(legalActions(s).muck).toBe(true); // the engine allows a muck: the decision is ours
    expect(shouldAutoMuck(s, c.us)).toBe(c.muck);
  });

  it('side pots, pot by pot: beaten for the main pot by the shown all-in hand, winning the side pot: kept', () => {
    // The all-in hand already open (as if it had shown first): each pot is judged on its own.
    const s = atOurShowdown(NL, [100, 1000, 1000], ['AsAh', 'QsQh', 'KcKd'], BOARD, 2, SHORT);
    const open = (st: HandState, seat: number, hole: string, shown: boolean): HandState => ({ ...st, seats: st.seats.map((p, i) => (i === seat ? { ...p, hole: cards(hole), shown } : p)) });
    const aces = open(s, 0, 'AsAh', true);
    expect(shouldAutoMuck(aces, 2)).toBe(false);
    expect(shouldAutoMuck(open(aces, 2, '7c4d', false), 2)).toBe(true);
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
