import { describe, expect, it } from 'vitest';
import { DEFAULT_GUARD, isLargeRaise, needsConfirmation, raiseIn, type RaiseSeen } from './guard';
import { newHand, play } from './test-support';

const raise = (over: Partial<RaiseSeen>): RaiseSeen => ({ at: 1000, to: 300, previous: 100, allIn: false, unit: 100, pot: 0, ...over });

describe('call guard', () => {
  it('a raise to 3x the previous level is large; less is not', () => {
    expect(isLargeRaise(raise({ to: 300 }))).toBe(true);
    expect(isLargeRaise(raise({ to: 299 }))).toBe(false);
    // An opening bet is compared with the big blind.
    expect(isLargeRaise(raise({ previous: 0, to: 250 }))).toBe(false);
    expect(isLargeRaise(raise({ previous: 0, to: 300 }))).toBe(true);
    // Opening a later street: a bet smaller than the pot is the usual bet, not a surprise.
    expect(isLargeRaise(raise({ previous: 0, to: 300, pot: 800 }))).toBe(false);
    expect(isLargeRaise(raise({ previous: 0, to: 800, pot: 800 }))).toBe(true);
    expect(isLargeRaise(raise({ previous: 100, to: 300, pot: 5000 }))).toBe(true);
  });

  it('an all-in of 20 big blinds or more is large', () => {
    expect(isLargeRaise(raise({ previous: 1000, to: 2000, allIn: true }))).toBe(true);
    expect(isLargeRaise(raise({ previous: 1000, to: 1900, allIn: true }))).toBe(false);
    expect(isLargeRaise(raise({ previous: 1000, to: 2000, allIn: false }))).toBe(false);
  });

  it('asks for a confirmation only within the window', () => {
    const r = raise({ to: 400 });
    expect(needsConfirmation(r, 1000)).toBe(true);
    expect(needsConfirmation(r, 1799)).toBe(true);
    expect(needsConfirmation(r, 1800)).toBe(false);
    expect(needsConfirmation(r, 999)).toBe(false);
    expect(needsConfirmation(raise({ to: 150 }), 1100)).toBe(false);
    expect(needsConfirmation(null, 1100)).toBe(false);
    expect(needsConfirmation(r, 2500, { ...DEFAULT_GUARD, windowMs: 2000 })).toBe(true);
  });

  it('finds the last raise by another seat in the new log entries, with the level before it', () => {
    const s0 = newHand('THNL', { stacks: [10000, 10000, 10000, 10000] });
    const seen = s0.log.length;
    const s1 = play(s0, '2 r 400');
    expect(raiseIn(s1, 0, seen, 5)).toEqual({ at: 5, to: 400, previous: 100, allIn: false, unit: 100, pot: 150 });
    expect(raiseIn(s1, 2, seen, 5)).toBeNull(); // our own raise
    expect(raiseIn(s1, 0, s1.log.length, 5)).toBeNull(); // nothing new
    // After the flop the level starts from 0 again.
    const flop = play(s1, '3 f', '0 c', '1 c');
    const from = flop.log.length;
    const bet = play(flop, '0 r 300');
    expect(raiseIn(bet, 1, from, 9)).toMatchObject({ to: 300, previous: 0, pot: 1200 });
    const reraise = play(bet, '1 r 9600');
    expect(raiseIn(reraise, 0, bet.log.length, 9)).toMatchObject({ to: 9600, previous: 300, allIn: true });
  });
});
