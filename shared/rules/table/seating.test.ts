import { describe, expect, it } from 'vitest';
import {
  addChips,
  createSeating,
  freeSeats,
  leave,
  seatOf,
  seatPlayer,
  setWaitForBigBlind,
  sitIn,
  sitOut,
} from './seating';
import { ok, play, table, CASH } from './test-support';

describe('seating', () => {
  it('creates tables of 2 to 10 seats only (R-SEATS)', () => {
    expect(createSeating(10).seats).toHaveLength(10);
    expect(createSeating(2)).toEqual({ seats: [null, null], last: null, handsPlayed: 0 });
    expect(() => createSeating(11)).toThrow(RangeError);
    expect(() => createSeating(1)).toThrow(RangeError);
    expect(() => createSeating(6.5)).toThrow(RangeError);
  });

  it('seats a player as new, or waiting for the big blind if he chose to', () => {
    let s = ok(seatPlayer(createSeating(6), { id: 'A', seat: 2, stack: 500 }));
    s = ok(seatPlayer(s, { id: 'B', seat: 4, stack: 500, waitForBigBlind: true }));
    expect(s.seats[2]).toEqual({
      id: 'A',
      stack: 500,
      status: 'new',
      waitForBigBlind: false,
      hasPlayed: false,
      missedBigBlind: false,
      missedSmallBlind: false,
    });
    expect(s.seats[4]?.status).toBe('waiting-for-big-blind');
    expect(seatOf(s, 'B')).toBe(4);
    expect(seatOf(s, 'Z')).toBeNull();
    expect(freeSeats(s)).toEqual([0, 1, 3, 5]);
  });

  it('refuses a seat out of range or taken, a player seated twice, and a stack that is not a positive integer', () => {
    const s = table(4, { 1: 'A' });
    expect(seatPlayer(s, { id: 'B', seat: 4, stack: 10 })).toMatchObject({ ok: false, reason: 'seat-out-of-range' });
    expect(seatPlayer(s, { id: 'B', seat: -1, stack: 10 })).toMatchObject({ ok: false, reason: 'seat-out-of-range' });
    expect(seatPlayer(s, { id: 'B', seat: 1, stack: 10 })).toMatchObject({ ok: false, reason: 'seat-taken' });
    expect(seatPlayer(s, { id: 'A', seat: 2, stack: 10 })).toMatchObject({ ok: false, reason: 'already-seated' });
    for (const stack of [0, -5, 2.5, Number.NaN]) {
      expect(seatPlayer(s, { id: 'B', seat: 2, stack })).toMatchObject({ ok: false, reason: 'invalid-stack', rule: 'R-NODEBT' });
    }
  });

  it('sits a player out and back in; a regular with nothing owed is active at once', () => {
    let s = play(table(3, { 0: 'A', 1: 'B', 2: 'C' }), CASH).seating;
    s = ok(sitOut(s, 'A'));
    expect(s.seats[0]?.status).toBe('sitting-out');
    expect(sitOut(s, 'A')).toMatchObject({ ok: false, reason: 'already-sitting-out' });
    expect(sitIn(s, 'B')).toMatchObject({ ok: false, reason: 'not-sitting-out' });
    s = ok(sitIn(s, 'A', { waitForBigBlind: true }));
    expect(s.seats[0]?.status).toBe('active');
  });

  it('lets a newcomer switch between waiting for the big blind and posting', () => {
    let s = table(3, { 0: 'A' });
    s = ok(setWaitForBigBlind(s, 'A', true));
    expect(s.seats[0]?.status).toBe('waiting-for-big-blind');
    s = ok(setWaitForBigBlind(s, 'A', false));
    expect(s.seats[0]?.status).toBe('new');
    expect(setWaitForBigBlind(s, 'Z', true)).toMatchObject({ ok: false, reason: 'not-seated' });
  });

  it('frees the seat of a player who leaves', () => {
    const s = ok(leave(table(3, { 0: 'A', 2: 'B' }), 'A'));
    expect(s.seats).toEqual([null, null, expect.objectContaining({ id: 'B' })]);
    expect(leave(s, 'A')).toMatchObject({ ok: false, reason: 'not-seated' });
  });

  it('adds chips in whole units only', () => {
    const s = table(2, { 0: 'A' }, { A: 100 });
    expect(ok(addChips(s, 'A', 250)).seats[0]?.stack).toBe(350);
    expect(addChips(s, 'A', 0)).toMatchObject({ ok: false, reason: 'invalid-amount' });
    expect(addChips(s, 'A', 0.5)).toMatchObject({ ok: false, reason: 'invalid-amount' });
    expect(addChips(s, 'B', 10)).toMatchObject({ ok: false, reason: 'not-seated' });
  });

  it('keeps the state plain data that survives JSON', () => {
    const s = play(table(4, { 0: 'A', 1: 'B', 3: 'C' }), CASH).seating;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
