import { describe, expect, it } from 'vitest';
import { afterHand } from './after-hand';
import { leave, seatPlayer, sitIn, sitOut } from './seating';
import { CASH, TOURNAMENT, mustPlan, ok, play, table } from './test-support';

describe('afterHand', () => {
  it('records the button, the small blind position and the big blind for the next hand', () => {
    const { seating } = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), TOURNAMENT, ['C']);
    expect(seating.last).toEqual({ button: 0, smallBlind: 1, bigBlind: 2, bigBlindPlayer: 'C' });
    expect(seating.handsPlayed).toBe(1);
    const next = play(seating, TOURNAMENT).seating; // small blind missing (T 6-17): its position is kept
    expect(next.last).toEqual({ button: 1, smallBlind: 2, bigBlind: 3, bigBlindPlayer: 'D' });
  });

  it('sets the stacks of the players dealt in and leaves the others alone', () => {
    let s = table(4, { 0: 'A', 1: 'B', 2: 'C', 3: 'D' }, { A: 100, B: 200, C: 300, D: 400 });
    s = ok(sitOut(s, 'D'));
    const plan = mustPlan(s, CASH);
    const r = afterHand(s, {
      plan,
      finalStacks: [
        { seat: 0, stack: 150 },
        { seat: 1, stack: 250 },
        { seat: 2, stack: 200 },
      ],
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.seating.seats.map((p) => p?.stack)).toEqual([150, 250, 200, 400]);
  });

  it('eliminates tournament players at zero, ranked by their stacks at the start of the hand (R-ELIM, T 8-16)', () => {
    const s = table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }, { A: 100, B: 500, C: 300, D: 300, E: 2000 });
    const plan = mustPlan(s, TOURNAMENT);
    const r = afterHand(s, {
      plan,
      finalStacks: [
        { seat: 0, stack: 0 },
        { seat: 1, stack: 0 },
        { seat: 2, stack: 0 },
        { seat: 3, stack: 0 },
        { seat: 4, stack: 3200 },
      ],
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.eliminated).toEqual([['B'], ['C', 'D'], ['A']]);
    expect(r.seating.seats.map((p) => p?.id ?? null)).toEqual([null, null, null, null, 'E']); // T 8-15
  });

  it('keeps a tournament player at zero who rebuys in the same breath (T 5-2)', () => {
    const s = table(3, { 0: 'A', 1: 'B', 2: 'C' });
    const plan = mustPlan(s, TOURNAMENT);
    const r = afterHand(s, {
      plan,
      finalStacks: [
        { seat: 0, stack: 0 },
        { seat: 1, stack: 2000 },
        { seat: 2, stack: 1000 },
      ],
      topUps: [{ id: 'A', chips: 1000 }],
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.eliminated).toEqual([]);
    expect(r.seating.seats[0]).toMatchObject({ id: 'A', stack: 1000, status: 'active' });
  });

  it('refuses an outcome that does not match the plan', () => {
    const s = table(3, { 0: 'A', 1: 'B', 2: 'C' });
    const plan = mustPlan(s, CASH);
    const all = [
      { seat: 0, stack: 1000 },
      { seat: 1, stack: 1000 },
      { seat: 2, stack: 1000 },
    ];
    expect(afterHand(s, { plan, finalStacks: all.slice(1) })).toMatchObject({ ok: false, reason: 'outcome-mismatch' });
    expect(afterHand(s, { plan, finalStacks: [...all, { seat: 2, stack: 5 }] })).toMatchObject({ ok: false });
    expect(afterHand(s, { plan, finalStacks: [{ seat: 0, stack: -1 }, ...all.slice(1)] })).toMatchObject({
      ok: false,
      rule: 'R-NODEBT',
    });
    expect(afterHand(s, { plan, finalStacks: [{ seat: 0, stack: 1.5 }, ...all.slice(1)] }).ok).toBe(false);
    expect(afterHand(s, { plan, finalStacks: all, topUps: [{ id: 'Z', chips: 10 }] })).toMatchObject({
      ok: false,
      reason: 'not-seated',
    });
    expect(afterHand(table(4, { 0: 'A' }), { plan, finalStacks: all })).toMatchObject({ ok: false });
  });

  it('leaves alone a seat whose player left during the hand, and a newcomer who took it', () => {
    const s = table(4, { 0: 'A', 1: 'B', 2: 'C', 3: 'D' });
    const plan = mustPlan(s, CASH);
    let during = ok(leave(s, 'D'));
    during = ok(seatPlayer(during, { id: 'N', seat: 3, stack: 700 }));
    const r = afterHand(during, {
      plan,
      finalStacks: plan.dealtIn.map((seat) => ({ seat, stack: seat === 3 ? 0 : 1000 })),
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.seating.seats[3]).toMatchObject({ id: 'N', stack: 700, status: 'new', hasPlayed: false });
  });

  it('charges a missed big blind even if the player sat back in during the hand, but not a newcomer in the seat', () => {
    let s = play(table(5, { 0: 'A', 1: 'B', 2: 'C', 3: 'D', 4: 'E' }), CASH).seating; // big blind C
    s = ok(sitOut(s, 'D'));
    const plan = mustPlan(s, CASH);
    expect(plan.missedBigBlinds).toEqual([3]);
    const finalStacks = plan.dealtIn.map((seat) => ({ seat, stack: 1000 }));
    const back = afterHand(ok(sitIn(s, 'D')), { plan, finalStacks });
    if (!back.ok) throw new Error(back.reason);
    expect(back.seating.seats[3]).toMatchObject({ id: 'D', status: 'active', missedBigBlind: true });
    const replaced = afterHand(ok(seatPlayer(ok(leave(s, 'D')), { id: 'N', seat: 3, stack: 500 })), { plan, finalStacks });
    if (!replaced.ok) throw new Error(replaced.reason);
    expect(replaced.seating.seats[3]).toMatchObject({ id: 'N', missedBigBlind: false });
  });

  it('keeps an absent tournament player absent after being dealt in and blinded (T 2-15)', () => {
    let s = table(3, { 0: 'A', 1: 'B', 2: 'C' });
    s = ok(sitOut(s, 'C'));
    const { plan, seating } = play(s, TOURNAMENT);
    expect(plan.dealtIn).toContain(2);
    expect(seating.seats[2]).toMatchObject({ status: 'sitting-out', hasPlayed: true });
  });
});
