import { describe, expect, it } from 'vitest';
import { addChips, leave, seatPlayer, sitIn, sitOut } from './seating';
import { CASH, mustPlan, ok, play, playHands, table, who } from './test-support';
import type { Seating } from './seating';

function status(s: Seating, id: string) {
  return s.seats.find((p) => p?.id === id)!;
}

// Cash-game entry (R-BUTTON): a newcomer or a player back with missed blinds waits for the big
// blind or posts to come in; never between the button and the big blind.
describe('cash game entries (R-BUTTON)', () => {
  it('a newcomer who waits for the big blind is dealt in only when it reaches him, posting only the big blind', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating; // big blind C
    s = ok(seatPlayer(s, { id: 'N', seat: 5, stack: 1000, waitForBigBlind: true }));
    expect(status(s, 'N').status).toBe('waiting-for-big-blind');
    for (const bigBlind of ['D', 'E']) {
      const h = play(s, CASH);
      expect(who(h.plan).bigBlind).toBe(bigBlind);
      expect(who(h.plan).dealtIn).not.toContain('N');
      s = h.seating;
    }
    const h = play(s, CASH);
    expect(who(h.plan)).toMatchObject({ bigBlind: 'N', extraBigBlinds: [], deadSmallBlinds: [] });
    expect(status(h.seating, 'N').status).toBe('active');
  });

  it('a newcomer who posts is dealt in at once with a big blind out of position', () => {
    let s = play(table(7, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating; // big blind C
    s = ok(seatPlayer(s, { id: 'N', seat: 6, stack: 1000 }));
    expect(status(s, 'N').status).toBe('new');
    const h = play(s, CASH);
    expect(who(h.plan)).toMatchObject({
      button: 'B',
      smallBlind: 'C',
      bigBlind: 'D',
      extraBigBlinds: ['N'],
      deadSmallBlinds: [],
      dealtIn: ['C', 'D', 'E', 'N', 'A', 'B'],
    });
    expect(status(h.seating, 'N')).toMatchObject({ status: 'active', hasPlayed: true });
    expect(who(mustPlan(h.seating, CASH)).extraBigBlinds).toEqual([]);
  });

  it('a newcomer in the small blind seat waits for the button to pass, then may post on the button', () => {
    let s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating; // big blind C
    s = ok(leave(s, 'C'));
    s = ok(seatPlayer(s, { id: 'N', seat: 2, stack: 1000 }));
    const h = play(s, CASH);
    expect(who(h.plan)).toMatchObject({ button: 'B', smallBlind: null, bigBlind: 'D' });
    expect(who(h.plan).dealtIn).not.toContain('N');
    const next = mustPlan(h.seating, CASH);
    expect(who(next)).toMatchObject({ button: 'N', smallBlind: 'D', bigBlind: 'E', extraBigBlinds: ['N'] });
  });

  it('a newcomer whose seat takes the big blind next hand waits one hand rather than post twice running', () => {
    let s = play(table(7, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 5: 'E', 6: 'F' }), CASH).seating; // big blind C
    s = ok(seatPlayer(s, { id: 'N', seat: 4, stack: 1000 }));
    const h = play(s, CASH);
    expect(who(h.plan).bigBlind).toBe('D');
    expect(who(h.plan).dealtIn).not.toContain('N');
    expect(who(mustPlan(h.seating, CASH))).toMatchObject({ bigBlind: 'N', extraBigBlinds: [] });
  });

  it('a player who sat out while the big blind passed owes it and posts it live on return', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), CASH).seating; // big blind C
    s = ok(sitOut(s, 'D'));
    const missed = play(s, CASH);
    expect(who(missed.plan).bigBlind).toBe('E');
    expect(missed.plan.missedBigBlinds).toEqual([3]);
    expect(status(missed.seating, 'D')).toMatchObject({ status: 'sitting-out', missedBigBlind: true });
    s = play(missed.seating, CASH).seating; // big blind F
    s = ok(sitIn(s, 'D'));
    const back = mustPlan(s, CASH);
    expect(who(back)).toMatchObject({ bigBlind: 'A', extraBigBlinds: ['D'], deadSmallBlinds: [] });
  });

  it('a player who sat out on his small blind owes it dead, and only that', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), CASH).seating; // big blind C
    s = ok(sitOut(s, 'C'));
    const missed = play(s, CASH);
    expect(who(missed.plan)).toMatchObject({ button: 'B', smallBlind: null, bigBlind: 'D' });
    expect(missed.plan.missedSmallBlinds).toEqual([2]);
    s = ok(sitIn(missed.seating, 'C'));
    const back = mustPlan(s, CASH);
    expect(who(back)).toMatchObject({ button: 'C', bigBlind: 'E', extraBigBlinds: [], deadSmallBlinds: ['C'] });
  });

  it('a player who missed both blinds comes back after the button passes, posting the big blind live and the small dead', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), CASH).seating; // big blind C
    s = ok(sitOut(s, 'C'));
    s = playHands(s, CASH, 5); // big blinds D, E, F, A, B
    const skipped = play(s, CASH);
    expect(who(skipped.plan).bigBlind).toBe('D'); // C's seat is passed over
    expect(status(skipped.seating, 'C')).toMatchObject({ missedBigBlind: true, missedSmallBlind: true });
    s = ok(sitIn(skipped.seating, 'C'));
    const between = play(s, CASH); // button B, big blind E: C sits between them
    expect(who(between.plan)).toMatchObject({ button: 'B', bigBlind: 'E' });
    expect(who(between.plan).dealtIn).not.toContain('C');
    const back = mustPlan(between.seating, CASH);
    expect(who(back)).toMatchObject({ bigBlind: 'F', extraBigBlinds: ['C'], deadSmallBlinds: ['C'] });
  });

  it('a player back with missed blinds who waits for the big blind posts nothing else when it reaches him', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), CASH).seating;
    s = ok(sitOut(s, 'C'));
    s = playHands(s, CASH, 6);
    s = ok(sitIn(s, 'C', { waitForBigBlind: true }));
    expect(status(s, 'C').status).toBe('waiting-for-big-blind');
    for (let hand = 0; hand < 6; hand++) {
      const h = play(s, CASH);
      s = h.seating;
      if (h.plan.bigBlind === 2) {
        expect(who(h.plan)).toMatchObject({ bigBlind: 'C', extraBigBlinds: [], deadSmallBlinds: [] });
        expect(status(s, 'C')).toMatchObject({ status: 'active', missedBigBlind: false, missedSmallBlind: false });
        return;
      }
      expect(who(h.plan).dealtIn).not.toContain('C');
    }
    throw new Error('the big blind never reached C');
  });

  it('a player who busts sits out with no chips until he adds some and sits in', () => {
    const h = play(table(3, { 0: 'A', 1: 'B', 2: 'C' }), CASH, ['C']);
    expect(status(h.seating, 'C')).toMatchObject({ stack: 0, status: 'sitting-out' });
    expect(h.eliminated).toEqual([]);
    expect(sitIn(h.seating, 'C')).toMatchObject({ ok: false, reason: 'no-chips' });
    let s = ok(addChips(h.seating, 'C', 500));
    expect(status(s, 'C').status).toBe('sitting-out');
    s = ok(sitIn(s, 'C'));
    expect(who(mustPlan(s, CASH))).toMatchObject({ button: 'B', smallBlind: 'C', bigBlind: 'A' });
  });

  it('heads-up, a newcomer opposite the big blind is the button and posts only the small blind', () => {
    let s = play(table(6, { 0: 'A', 3: 'D', 4: 'E', 5: 'F' }), { ...CASH, firstButton: 3 }).seating;
    for (const id of ['D', 'E', 'F']) s = ok(leave(s, id));
    s = ok(seatPlayer(s, { id: 'W', seat: 1, stack: 1000, waitForBigBlind: true }));
    s = ok(seatPlayer(s, { id: 'N', seat: 2, stack: 1000 }));
    const plan = mustPlan(s, CASH);
    expect(plan).toMatchObject({ headsUp: true, newGame: false });
    expect(who(plan)).toMatchObject({ button: 'N', smallBlind: 'N', bigBlind: 'A', extraBigBlinds: [], dealtIn: ['A', 'N'] });
  });

  it('when the only other player waits for the big blind, a new game deals him in anyway', () => {
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C' }), CASH).seating;
    s = ok(leave(s, 'B'));
    s = ok(leave(s, 'C'));
    s = ok(seatPlayer(s, { id: 'N', seat: 1, stack: 1000, waitForBigBlind: true }));
    const plan = mustPlan(s, CASH);
    expect(plan).toMatchObject({ headsUp: true, newGame: true });
    expect(who(plan)).toMatchObject({ button: 'N', smallBlind: 'N', bigBlind: 'A' });
  });

  it('a player sitting out is not dealt in, and the blinds pass him', () => {
    let s = table(4, { 0: 'A', 1: 'B', 2: 'C', 3: 'D' });
    s = ok(sitOut(s, 'B'));
    const first = mustPlan(s, CASH);
    expect(who(first)).toMatchObject({ button: 'A', smallBlind: 'C', bigBlind: 'D', dealtIn: ['C', 'D', 'A'] });
  });
});
