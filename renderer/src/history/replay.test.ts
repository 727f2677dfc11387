import { describe, expect, it } from 'vitest';
import { playRecord, prng, randomConfig, randomRecord } from '../../../shared/history/test-support';
import { recordOf, startOfRecord } from '../../../shared/rules/record';
import { potTotal } from '../../../shared/rules/engine';
import { cards, dealFrom, tableConfig } from '../../../shared/rules/engine/test-support';
import { startHand } from '../../../shared/rules/engine/machine';
import { makeTableRules } from '../../../shared/rules/tableRules';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { playFrom } from '../table/test-support';
import { viewFor } from '../../../shared/rules/engine/view';
import type { HandState } from '../../../shared/rules/engine';
import { legalActions } from '../../../shared/rules/engine';
import type { Card } from '../../../shared/rules/cards';
import { buildReplay, potsAt, roundAt } from './replay';

/** Plays on by checking or calling, showing at the showdown, dealing from `deck`. */
function finish(state: HandState, deck: Card[]): HandState {
  let s = playFrom(deck, state);
  for (let i = 0; i < 100 && s.phase !== 'done'; i++) {
    const l = legalActions(s);
    const seat = l.seat as number;
    const step = l.next === 'show' ? `${seat} sm` : l.check ? `${seat} x` : `${seat} c`;
    s = playFrom(deck, s, step);
  }
  return s;
}

describe('buildReplay', () => {
  it('replays random hands of every variant to the recorded result, as the operator and as one seat saw them', () => {
    const rng = prng(20261122);
    for (const code of VARIANT_CODES) {
      for (let k = 0; k < 40; k++) {
        const record = randomRecord(code, rng, `h${k}`);
        const replay = buildReplay(record);
        expect(replay.error, `${code} #${k}`).toBeNull();
        expect(replay.complete).toBe(true);
        const last = replay.steps[replay.steps.length - 1];
        expect(last.kind).toBe('end');
        expect(last.state.phase).toBe('done');
        for (const s of record.seats) expect(last.state.seats[s.seat].stack).toBe(s.stackAfter);
        // Chips are conserved at every step (R-CONSERVE): stacks + pot = stacks before.
        const before = record.seats.reduce((n, s) => n + s.stackBefore, 0);
        for (const step of replay.steps.slice(0, -1)) {
          const behind = step.state.seats.reduce((n, s) => n + s.stack, 0);
          expect(behind + potTotal(step.state)).toBe(before);
        }
      }
    }
  });

  it('keeps unknown cards unknown: a seat\'s record shows only what that seat saw', () => {
    const rng = prng(7);
    const config = randomConfig('7SHL', rng, { maxSeats: 5 });
    const hero = config.plan.dealtIn[0];
    const record = playRecord(config, rng, hero);
    const replay = buildReplay(record);
    expect(replay.complete).toBe(true);
    const first = replay.steps.find((s) => s.kind === 'deal')!;
    for (const seat of config.plan.dealtIn) {
      const hole = first.state.seats[seat].hole;
      expect(hole).toHaveLength(3);
      if (seat === hero) expect(hole.every((c) => c !== null)).toBe(true);
      else expect(hole[2]).not.toBeNull(); // the up card is seen by everyone
    }
  });

  it('replays a record whose posts repeat an extra big blind: the start of hand is the one the exchange reads too', () => {
    // The engine takes a seat listed twice among the extra big blinds and posts for it twice; the
    // record shows both posts. The renderer's start of hand used to keep one (and the replay's nets
    // then differed from the record's) while the exchange's planOf kept both: now one function,
    // startOfRecord (shared/rules/record.ts), serves both.
    const rules = makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 });
    const config = tableConfig(rules, { stacks: [1000, 1000, 1000, 1000], extraBigBlinds: [2, 2] });
    const record = playRecord(config, prng(4));
    expect(record.actions.filter((e) => e.kind === 'post' && e.seat === 2 && e.post === 'big blind')).toHaveLength(2);
    const replay = buildReplay(record);
    // The replay's first step posts what the record posted, no less.
    expect(replay.steps[0].entries).toEqual(record.actions.filter((e) => e.kind === 'post'));
    expect(replay.error).toBeNull();
    expect(replay.complete).toBe(true);
    expect(startOfRecord(record).plan.extraBigBlinds).toEqual([2, 2]);
  });

  it('steps through a Stud hand: antes, one step for the deal, the bring-in, each street, the showdown', () => {
    // Seat 0 shows 2c up (brings in), seat 1 Kd up, seat 2 9h up.
    const deck = cards('As Ah 2c Ks Kh Kd Qs Qh 9h 3d 4d 8c 5d 6d 7c 8d 9d Tc Jd Qd 2s');
    let s = startHand(tableConfig(makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 }), { stacks: [1000, 1000, 1000] }));
    s = playFrom(deck, dealFrom(s, deck), '0 bi', '1 c', '2 f');
    s = finish(s, deck);
    const record = recordOf(viewFor(s, 1));
    const replay = buildReplay(record);
    expect(replay.error).toBeNull();
    expect(replay.steps[0].kind).toBe('start');
    expect(replay.steps[0].entries.map((e) => e.kind)).toEqual(['post', 'post', 'post']);
    expect(potsAt(replay.steps[0].state).total).toBe(15);
    expect(replay.steps[1].kind).toBe('deal');
    expect(replay.steps[1].entries).toHaveLength(3); // three players dealt in one step
    expect(replay.steps[1].seat).toBeNull();
    expect(replay.steps[2]).toMatchObject({ kind: 'action', seat: 0, round: 'bring-in' });
    expect(potsAt(replay.steps[2].state).total).toBe(25);
    expect(replay.steps[2].state.seats[0].bet).toBe(10);
    expect(replay.rounds.map((r) => r.round)).toEqual(record.rounds);
    expect(record.rounds).toEqual(['bet', 'bring-in', '4th st', '5th st', '6th st', '7th st', 'reveal']);
    for (const r of replay.rounds) expect(roundAt(replay, r.step)).toBe(r.round);
    expect(startOfRecord(record).plan.dealtIn).toEqual([0, 1, 2]);
    // Seat 2 folded: its down cards stay unknown to seat 1; seat 0 showed them.
    const end = replay.steps[replay.steps.length - 1].state;
    expect(end.seats[2].hole.slice(0, 2)).toEqual([null, null]);
    expect(end.seats[0].hole.every((c) => c !== null)).toBe(true);
    // At the end the bets are gathered and the pots paid.
    expect(potsAt(end)).toEqual({ total: 0, pots: [] });
  });

  it('shows the main pot and a side pot while a player is all-in', () => {
    let s = startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [300, 1000, 1000] }));
    const deck = cards('As Ah Ks Kh Qs Qh 2c 7d 9h Jc 3s');
    s = playFrom(deck, dealFrom(s, deck), '2 c', '0 r 300', '1 c', '2 c', '1 r 200', '2 c');
    expect(potsAt(s)).toEqual({ total: 1300, pots: [900, 400] });
  });

  it('stops where the engine refuses and says why', () => {
    const record = randomRecord('THNL', prng(3), 'bad');
    // The first decision, given to another seat: out of turn (R-ACTORDER).
    const k = record.actions.findIndex((e) => e.kind !== 'post' && e.kind !== 'deal');
    const e = record.actions[k] as Extract<(typeof record.actions)[number], { seat: number }>;
    const other = record.seats.find((s) => s.dealtIn && s.seat !== e.seat)!.seat;
    const broken = { ...record, actions: record.actions.map((x, i) => (i === k ? { ...e, seat: other } : x)) };
    const replay = buildReplay(broken);
    expect(replay.complete).toBe(false);
    expect(replay.error).toMatch(/^action \d+ .*R-ACTORDER/);
    expect(replay.steps.length).toBeGreaterThanOrEqual(2); // the forced bets and the deal are there
    expect(replay.steps[replay.steps.length - 1].kind).not.toBe('end');
  });

  it('says so when the record ends before the hand does', () => {
    const record = randomRecord('7SHL', prng(11), 'short');
    const replay = buildReplay({ ...record, actions: record.actions.slice(0, record.actions.length - 1) });
    expect(replay.complete).toBe(false);
    expect(replay.error).not.toBeNull();
  });
});
