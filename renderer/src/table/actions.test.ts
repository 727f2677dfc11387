import { describe, expect, it } from 'vitest';
import { legalActions } from '../../../shared/rules/engine/legal';
import { actionBar, betLabel, bringInLabel, callLabel, clampBet, drawLabel, isBoardPreflop, ourLegal, typedBet } from './actions';
import { parseAmount } from './presets';
import { newHand, play, tableState } from './test-support';

// Seats 0..3, button 3: small blind 0, big blind 1, seat 2 first to act pre-flop.
const fresh = () => newHand('THNL', { stacks: [1000, 1000, 1000, 1000] });

describe('actionBar', () => {
  it('offers fold, call and raise with the engine bounds when it is our turn', () => {
    const m = actionBar(tableState(fresh(), 2));
    expect(m).not.toBeNull();
    expect(m).toMatchObject({ seat: 2, next: 'act', fold: true, check: false, call: { amount: 100, allIn: false }, bringIn: null });
    expect(m?.bet).toMatchObject({ kind: 'raise', min: 200, max: 1000, allInTo: 1000, exact: false });
  });

  it('is null when another seat is to act, when we are not seated, or when the table is not live', () => {
    expect(actionBar(tableState(fresh(), 0))).toBeNull();
    expect(actionBar(tableState(fresh(), null))).toBeNull();
    expect(actionBar(tableState(fresh(), 2, { status: 'syncing' }))).toBeNull();
    expect(actionBar(tableState(null, 2))).toBeNull();
  });

  it('offers check to the big blind when everyone called, and an opening bet after the flop', () => {
    const s = play(fresh(), '2 c', '3 c', '0 c');
    expect(actionBar(tableState(s, 1))).toMatchObject({ check: true, fold: false, call: null });
    const flop = play(s, '1 x');
    const m = actionBar(tableState(flop, 0));
    expect(m?.bet).toMatchObject({ kind: 'bet', min: 100, max: 900 });
    expect(isBoardPreflop(flop)).toBe(false);
    expect(isBoardPreflop(s)).toBe(true);
  });

  it('a call that takes the whole stack is labelled all-in, and no raise is offered', () => {
    const s = newHand('THNL', { stacks: [1000, 1000, 80, 1000] });
    const m = actionBar(tableState(s, 2));
    expect(m?.call).toEqual({ amount: 80, allIn: true });
    expect(m?.bet).toBeNull();
    expect(callLabel(m!.call!)).toEqual({ key: 'table.callAllIn', amount: 80 });
    expect(callLabel({ amount: 40, allIn: false })).toEqual({ key: 'table.call', amount: 40 });
  });

  it('labels the bet button: bet, raise, all-in at the top of the stack', () => {
    const m = actionBar(tableState(fresh(), 2))!;
    expect(betLabel(m.bet!, 300)).toEqual({ key: 'table.raiseTo', amount: 300 });
    expect(betLabel(m.bet!, 1000)).toEqual({ key: 'table.allIn', amount: 1000 });
    expect(betLabel({ ...m.bet!, kind: 'bet' }, 300)).toEqual({ key: 'table.bet', amount: 300 });
  });

  it('Stud: the bring-in seat may bring in or complete', () => {
    const s = newHand('7SHL', { stacks: [1000, 1000, 1000, 1000] }, { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
    const seat = legalActions(s).seat!;
    const m = actionBar(tableState(s, seat))!;
    expect(m.bringIn).toEqual({ amount: 10, allIn: false });
    expect(m.fold).toBe(false);
    expect(m.bet).toMatchObject({ kind: 'complete', min: 20, max: 20, exact: true });
    expect(betLabel(m.bet!, 20)).toEqual({ key: 'table.complete', amount: 20 });
    expect(bringInLabel(m.bringIn!)).toEqual({ key: 'table.bringIn', amount: 10 });
  });

  it('Triple Draw: the draw decision with its maximum', () => {
    // Six seats, button 5: blinds 0 and 1; seat 2 first pre-draw.
    let s = newHand('2T7TD', { stacks: [1000, 1000, 1000, 1000] }, { smallBlind: 10, bigBlind: 20 });
    s = play(s, '2 c', '3 c', '0 c', '1 x');
    const legal = legalActions(s);
    expect(legal.next).toBe('draw');
    const m = actionBar(tableState(s, legal.seat))!;
    expect(m.next).toBe('draw');
    expect(m.draw).toEqual({ max: 5 });
    expect(m.bet).toBeNull();
    expect(drawLabel(0)).toEqual({ key: 'table.standPat', amount: null });
    expect(drawLabel(2)).toEqual({ key: 'table.drawN', amount: 2 });
  });

  it('ourLegal is null once the hand is over', () => {
    const s = play(fresh(), '2 f', '3 f', '0 f');
    expect(s.phase).toBe('done');
    expect(ourLegal(s, 1)).toBeNull();
  });
});

describe('clampBet', () => {
  it('keeps amounts within the bounds, as integers', () => {
    const b = { kind: 'raise' as const, min: 200, max: 1000, exact: false };
    expect(clampBet(b, 50)).toBe(200);
    expect(clampBet(b, 5000)).toBe(1000);
    expect(clampBet(b, 333.6)).toBe(334);
    expect(clampBet(b, Number.NaN)).toBe(200);
  });
  it('limit bounds with two choices snap to the nearer one', () => {
    const b = { kind: 'bet' as const, min: 20, max: 40, exact: true };
    expect(clampBet(b, 25)).toBe(20);
    expect(clampBet(b, 35)).toBe(40);
  });
});

describe('typed bet amounts', () => {
  const free = { kind: 'bet' as const, min: 100, max: 1000, exact: false };
  it('the button follows what is typed; above the stack is all-in; below the minimum is refused', () => {
    expect(typedBet(free, 350)).toEqual({ to: 350, ok: true });
    expect(typedBet(free, 1000)).toEqual({ to: 1000, ok: true });
    expect(typedBet(free, 5000)).toEqual({ to: 1000, ok: true });
    expect(typedBet(free, 50)).toEqual({ to: 50, ok: false });
  });
  it('fixed-limit bets: the bet or the all-in only', () => {
    const limit = { kind: 'bet' as const, min: 200, max: 200, exact: true };
    expect(typedBet(limit, 200)).toEqual({ to: 200, ok: true });
    expect(typedBet(limit, 900)).toEqual({ to: 200, ok: true });
    expect(typedBet(limit, 150)).toEqual({ to: 150, ok: false });
  });
  it('"1e3" and other non-numbers are not amounts', () => {
    expect(parseAmount('1e3')).toMatchObject({ ok: false });
    expect(parseAmount('1E3')).toMatchObject({ ok: false });
    expect(parseAmount('0x10')).toMatchObject({ ok: false });
    expect(parseAmount('1 000')).toEqual({ ok: true, value: 1000 });
  });
});
