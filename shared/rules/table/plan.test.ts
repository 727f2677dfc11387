import { describe, expect, it } from 'vitest';
import { playerToMoveForBalancing, seatForBalancing } from './balancing';
import { planNextHand } from './plan';
import { leave, seatPlayer, setWaitForBigBlind, sitIn, sitOut } from './seating';
import { CASH, TOURNAMENT, mustPlan, ok, play, playHands, table, who } from './test-support';

// One test per rule of T section 6 from 6-3 to 6-20 (tournament rules), named after the rule.
// Seats are numbered clockwise; players are letters. The first hand's button is seat 0 (T 2-1).
describe('dead button and blinds from hand to hand (R-BUTTON, T 6-3 to 6-20)', () => {
  it('T 6-3 dead button: the big blind advances and drags the small blind and button behind it', () => {
    let s = table(7, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F', 6: 'G' });
    const bigBlinds: number[] = [];
    const events: Record<number, string[]> = { 1: ['C'], 3: ['E', 'F'] }; // busts in those hands
    for (let hand = 0; hand < 9; hand++) {
      const { plan, seating } = play(s, TOURNAMENT, events[hand] ?? []);
      if (hand >= 2) {
        // The button sits where the big blind was two hands ago, the small blind where it was last
        // hand, whatever happened to the players there.
        expect(plan.button).toBe(bigBlinds[hand - 2]);
        expect(plan.smallBlindSeat).toBe(bigBlinds[hand - 1]);
      }
      bigBlinds.push(plan.bigBlind!);
      s = seating;
    }
    // C (seat 2) busted in hand 1, E and F (4, 5) in hand 3: the big blind then skips their seats.
    expect(bigBlinds).toEqual([2, 3, 4, 5, 6, 0, 1, 3, 6]);
  });

  it('T 6-4 the big blind always advances to the next seat with a player, absent or not', () => {
    let s = table(6, { 0: 'A', 1: 'B', 2: 'C', 4: 'E', 5: 'F' });
    s = play(s, TOURNAMENT).seating; // button A, blinds B and C
    s = ok(sitOut(s, 'E')); // away: still blinded in a tournament (T 2-15)
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan).bigBlind).toBe('E'); // seat 3 is empty: the big blind goes on to seat 4
    expect(plan.dealtIn).toContain(4);
  });

  it('T 6-5 the small blind of the last hand is on the button, even when the button left and the big blind busted', () => {
    let s = table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' });
    const first = play(s, TOURNAMENT, ['C']); // button A, small blind B, big blind C busts
    expect(who(first.plan)).toMatchObject({ button: 'A', smallBlind: 'B', bigBlind: 'C' });
    s = ok(leave(first.seating, 'A'));
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan)).toMatchObject({ button: 'B', smallBlind: null, bigBlind: 'D' });
  });

  // T 6-6 (order in which tables close), T 6-7 (balancing and closing moves differ) and T 6-8 (when
  // to balance: 3 players' difference, 2 late on) are decided by the tournament across its tables,
  // not by one table; this module gives the two per-table choices, T 6-9 and T 6-10 below.

  it('T 6-9 the player moved out to balance tables is the next big blind', () => {
    const s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), TOURNAMENT).seating;
    expect(playerToMoveForBalancing(s)).toEqual({ seat: 3, id: 'D' });
    expect(who(mustPlan(s, TOURNAMENT)).bigBlind).toBe('D');
  });

  it('T 6-10 a player moved in to balance sits left of the big blind, and on the button rather than the small blind', () => {
    // A free seat right after the big blind: the moved player takes it and is the next big blind.
    let gap = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 4: 'E', 5: 'F' }), TOURNAMENT).seating;
    expect(seatForBalancing(gap)).toBe(3);
    gap = ok(seatPlayer(gap, { id: 'M', seat: 3, stack: 1000 }));
    expect(who(mustPlan(gap, TOURNAMENT)).bigBlind).toBe('M');

    // The only free seats are next hand's button and small blind (B and C busted): the button.
    const busted = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E', 5: 'F' }), TOURNAMENT, ['B', 'C']);
    expect(seatForBalancing(busted.seating)).toBe(1);
    const s = ok(seatPlayer(busted.seating, { id: 'M', seat: 1, stack: 1000 }));
    expect(who(mustPlan(s, TOURNAMENT))).toMatchObject({ button: 'M', smallBlind: null, bigBlind: 'D' });
  });

  it('T 6-11 a player moved from a closed table may post the big blind at once, even if he just did', () => {
    // The table knows nothing of the player's last table: he plays whatever seat the draw gave him.
    let s = play(table(6, { 0: 'A', 1: 'B', 2: 'C', 4: 'E', 5: 'F' }), TOURNAMENT).seating;
    s = ok(seatPlayer(s, { id: 'M', seat: 3, stack: 1000 }));
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan).bigBlind).toBe('M');
    expect(plan.extraBigBlinds).toEqual([]);
  });

  it('T 6-12 example: a newcomer between the new button and the small blind sits out one hand, then plays with the button on his left', () => {
    let s = table(6, { 0: 'A', 1: 'B', 3: 'C', 4: 'D', 5: 'E' });
    s = play(s, TOURNAMENT).seating; // button A, small blind B, big blind C (seat 2 was empty)
    s = ok(seatPlayer(s, { id: 'X', seat: 2, stack: 1000 }));
    const next = play(s, TOURNAMENT);
    expect(who(next.plan)).toMatchObject({ button: 'B', smallBlind: 'C', bigBlind: 'D' });
    expect(who(next.plan).dealtIn).not.toContain('X');
    const after = mustPlan(next.seating, TOURNAMENT);
    expect(who(after)).toMatchObject({ button: 'C', smallBlind: 'D', bigBlind: 'E' });
    expect(who(after).dealtIn).toContain('X');
  });

  it('T 6-13 example: a newcomer where the button would have moved plays at once, the button going to his left', () => {
    let s = table(6, { 0: 'A', 2: 'B', 3: 'C', 4: 'D', 5: 'E' });
    s = play(s, TOURNAMENT).seating; // button A, small blind B, big blind C
    s = ok(seatPlayer(s, { id: 'X', seat: 1, stack: 1000 })); // one seat left of the old button
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan)).toMatchObject({ button: 'B', smallBlind: 'C', bigBlind: 'D' });
    expect(who(plan).dealtIn).toContain('X');
    expect(plan.extraBigBlinds).toEqual([]);
  });

  it('T 6-14 example: a newcomer in the seat of the eliminated big blind plays at once in the small blind', () => {
    let s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT, ['C']).seating;
    s = ok(seatPlayer(s, { id: 'X', seat: 2, stack: 1000 }));
    expect(who(mustPlan(s, TOURNAMENT))).toMatchObject({ button: 'B', smallBlind: 'X', bigBlind: 'D' });
  });

  it('T 6-15 example: a newcomer in the seat of the eliminated small blind plays at once on the button', () => {
    let s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT, ['B']).seating;
    s = ok(seatPlayer(s, { id: 'X', seat: 1, stack: 1000 }));
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan)).toMatchObject({ button: 'X', smallBlind: 'C', bigBlind: 'D' });
    expect(who(plan).dealtIn).toContain('X');
  });

  it('T 6-16 a player new at the table is dealt in at once, without posting, even if he asked to wait', () => {
    let s = play(table(7, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT).seating;
    s = ok(seatPlayer(s, { id: 'X', seat: 6, stack: 1000 }));
    s = ok(seatPlayer(s, { id: 'Y', seat: 5, stack: 1000, waitForBigBlind: true }));
    const plan = mustPlan(s, TOURNAMENT);
    expect(who(plan).dealtIn).toEqual(['C', 'D', 'E', 'Y', 'X', 'A', 'B']);
    expect(plan.extraBigBlinds).toEqual([]);
  });

  it('T 6-17 when the last big blind was eliminated there is no small blind', () => {
    const { seating } = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT, ['C']);
    const plan = mustPlan(seating, TOURNAMENT);
    expect(plan.smallBlind).toBeNull();
    expect(plan.smallBlindSeat).toBe(2);
    expect(who(plan)).toMatchObject({ button: 'B', bigBlind: 'D', dealtIn: ['D', 'E', 'A', 'B'] });
  });

  it('T 6-18 when the last small blind was eliminated the button sits on the empty seat and the player on its right has the position', () => {
    const { seating } = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT, ['B']);
    const plan = mustPlan(seating, TOURNAMENT);
    expect(plan.button).toBe(1);
    expect(plan.atStart[1]).toBeNull();
    expect(who(plan)).toMatchObject({ smallBlind: 'C', bigBlind: 'D' });
    // Clockwise from the left of the (dead) button: A, right of it, speaks last after the flop.
    expect(who(plan).dealtIn).toEqual(['C', 'D', 'E', 'A']);
  });

  it('T 6-19 heads-up the button posts the small blind and the other player the big blind', () => {
    let s = table(6, { 1: 'A', 4: 'B' });
    const first = play(s, TOURNAMENT);
    expect(first.plan.headsUp).toBe(true);
    expect(who(first.plan)).toMatchObject({ button: 'A', smallBlind: 'A', bigBlind: 'B', dealtIn: ['B', 'A'] });
    s = first.seating;
    const second = mustPlan(s, TOURNAMENT);
    expect(who(second)).toMatchObject({ button: 'B', smallBlind: 'B', bigBlind: 'A', dealtIn: ['A', 'B'] });
    // Who speaks first (the button before the flop, the big blind after) is the engine's (R-ACTORDER):
    // the plan marks the heads-up button as the small blind.
  });

  it('T 6-20 moving to heads-up the big blind still advances and the other player is the button, even twice running', () => {
    // B and C (blinds) bust: the big blind moves on to D, and A keeps the button a second hand.
    const four = play(table(4, { 0: 'A', 1: 'B', 2: 'C', 3: 'D' }), TOURNAMENT, ['B', 'C']);
    expect(who(four.plan).button).toBe('A');
    const hu = mustPlan(four.seating, TOURNAMENT);
    expect(hu.headsUp).toBe(true);
    expect(who(hu)).toMatchObject({ button: 'A', smallBlind: 'A', bigBlind: 'D' });

    // The button busts: the big blind advances onto B, last hand's small blind, so B does not get
    // the button (T 6-20 prevails over T 6-5) and nobody posts the big blind twice in a row.
    const three = play(table(3, { 0: 'A', 1: 'B', 2: 'C' }), TOURNAMENT, ['A']);
    expect(who(three.plan)).toMatchObject({ button: 'A', smallBlind: 'B', bigBlind: 'C' });
    expect(who(mustPlan(three.seating, TOURNAMENT))).toMatchObject({ button: 'C', smallBlind: 'C', bigBlind: 'B' });
  });
});

describe('planNextHand', () => {
  it('puts the first button where the operator drew it, or on the next player (T 2-1)', () => {
    const s = table(6, { 0: 'A', 2: 'B', 3: 'C', 5: 'D' });
    expect(who(mustPlan(s, { ...TOURNAMENT, firstButton: 3 }))).toMatchObject({
      button: 'C',
      smallBlind: 'D',
      bigBlind: 'A',
      dealtIn: ['D', 'A', 'B', 'C'],
    });
    expect(who(mustPlan(s, { ...TOURNAMENT, firstButton: 4 })).button).toBe('D');
    expect(planNextHand(s, { ...TOURNAMENT, firstButton: 6 })).toMatchObject({ ok: false, reason: 'invalid-first-button' });
  });

  it('refuses to deal with fewer than two players who can play', () => {
    let s = table(6, { 0: 'A', 3: 'B' });
    s = ok(sitOut(s, 'B'));
    expect(planNextHand(s, CASH)).toEqual({ ok: false, reason: 'not-enough-players', rule: 'R-BUTTON' });
    // An absent tournament player is still dealt in (T 2-15).
    expect(planNextHand(s, TOURNAMENT).ok).toBe(true);
  });

  it('in Stud deals everyone present from seat 0 with no button or blinds, and keeps the rotation untouched', () => {
    let s = table(7, { 1: 'A', 3: 'B', 5: 'C', 6: 'D' });
    s = ok(sitOut(s, 'B'));
    s = ok(seatPlayer(s, { id: 'E', seat: 0, stack: 500, waitForBigBlind: true }));
    const cash = mustPlan(s, { game: 'stud', mode: 'cash' });
    expect(cash).toMatchObject({ button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [] });
    expect(who(cash).dealtIn).toEqual(['E', 'A', 'C', 'D']);
    expect(who(mustPlan(s, { game: 'stud', mode: 'tournament' })).dealtIn).toEqual(['E', 'A', 'B', 'C', 'D']);
    const after = play(s, { game: 'stud', mode: 'cash' }).seating;
    expect(after.last).toBeNull();
  });

  it('after a heads-up hand a third player makes a three-handed hand with the heads-up button on the button', () => {
    let s = play(table(6, { 0: 'A', 3: 'B' }), TOURNAMENT).seating; // A button and small blind, B big blind
    s = ok(seatPlayer(s, { id: 'C', seat: 5, stack: 1000 }));
    const plan = mustPlan(s, TOURNAMENT);
    expect(plan.headsUp).toBe(false);
    expect(who(plan)).toMatchObject({ button: 'A', smallBlind: 'B', bigBlind: 'C', dealtIn: ['B', 'C', 'A'] });
  });

  it('restarts the blinds when, after a heads-up hand, the big blind comes round onto the button', () => {
    // X button, Z small blind, W big blind; then Z sits out and W leaves: X and Y play heads-up,
    // X on the button. Z missed no blind (the big blind did not pass him) and comes back: the big
    // blind moves on from Y onto X, last hand's button, so the rotation cannot seat the blinds.
    let s = table(4, { 0: 'X', 1: 'Z', 2: 'W', 3: 'Y' });
    s = play(s, CASH).seating;
    s = ok(sitOut(s, 'Z'));
    s = ok(leave(s, 'W'));
    const hu = play(s, CASH);
    expect(hu.plan.headsUp).toBe(true);
    expect(who(hu.plan)).toMatchObject({ button: 'X', bigBlind: 'Y' });
    expect(hu.plan.missedBigBlinds).toEqual([]);
    s = ok(sitIn(hu.seating, 'Z'));
    const plan = mustPlan(s, CASH);
    expect(plan.newGame).toBe(true);
    // The big blind still advances (T 6-4); small blind and button are the players on its right.
    expect(who(plan)).toMatchObject({ button: 'Z', smallBlind: 'Y', bigBlind: 'X', dealtIn: ['Y', 'X', 'Z'] });
  });

  it('never changes the seating it is given', () => {
    const s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating;
    const copy = JSON.parse(JSON.stringify(s));
    mustPlan(ok(setWaitForBigBlind(s, 'A', true)), CASH);
    playHands(s, CASH, 3);
    expect(s).toEqual(copy);
  });
});
