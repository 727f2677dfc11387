import { describe, expect, it } from 'vitest';
import { makeTableRules } from '../tableRules';
import { legalActions } from './legal';
import { apply, reshuffleCards, startHand } from './machine';
import { cards, dealFrom, parseStep, refusal, run, tableConfig } from './test-support';
import type { HandState } from './types';
import { actionFor, viewFor } from './view';

function holdem(stacks = [1000, 1000, 1000]): HandState {
  return startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks }));
}

function draw27(stacks: number[]): HandState {
  return startHand(tableConfig(makeTableRules('2T7TD', { smallBlind: 50, bigBlind: 100 }), { stacks }));
}

describe('dealing is an action (R-DEAL, R-DECK)', () => {
  it('the engine says what to deal next: two down cards to each player from left of the button, then the flop', () => {
    let s = holdem();
    expect(legalActions(s).deal).toEqual({ seat: 0, count: 2, up: [false, false], stub: 52, reshuffle: false });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 QsQh', '2 c', '0 c', '1 x');
    expect(legalActions(s).deal).toEqual({ seat: null, count: 3, up: [true, true, true], stub: 46, reshuffle: false });
  });

  it('a card already dealt is refused: one 52-card deck (R-DECK)', () => {
    const s = run(holdem(), 'd 0 AsAh');
    expect(refusal(s, 'd 1 AsKh').rule).toBe('R-DECK');
    expect(refusal(s, 'd 1 KhKh').rule).toBe('R-DECK');
    const t = run(s, 'd 1 KsKh', 'd 2 QsQh', '2 c', '0 c', '1 x');
    expect(refusal(t, 'd b 2c3cQs').rule).toBe('R-DECK');
  });

  it('a value that is not a card code is refused (R-CARDCODE)', () => {
    expect(refusal(holdem(), { type: 'deal', seat: 0, cards: [52, 3] }).rule).toBe('R-CARDCODE');
    expect(refusal(holdem(), { type: 'deal', seat: 0, cards: [1.5] }).rule).toBe('R-CARDCODE');
  });

  it('only what is due may be dealt: no third card, no board before the hole cards, no cards while betting', () => {
    const s = holdem();
    expect(refusal(s, 'd 0 AsAhAd').rule).toBe('R-DEAL');
    expect(refusal(s, 'd b AsAhAd').rule).toBe('R-DEAL');
    const t = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 QsQh');
    expect(refusal(t, 'd b 2c3c4c').rule).toBe('R-DEAL');
    expect(refusal(t, '0 x').rule).toBe('R-ACTORDER');
  });

  it('cards may be dealt one at a time, and players may not act before the dealing ends', () => {
    let s = run(holdem(), 'd 0 As', 'd 1 Ks', 'd 2 Qs', 'd 0 Ah');
    expect(refusal(s, '2 c').rule).toBe('R-ACTORDER');
    s = run(s, 'd 1 Kh', 'd 2 Qh');
    expect(s.seats[0].hole).toEqual(cards('AsAh'));
    expect(legalActions(s).next).toBe('act');
  });

  it('unknown down cards may be dealt as null (a client view), up cards may not', () => {
    const s = run(holdem(), { type: 'deal', seat: 0, cards: [null, null] });
    expect(s.seats[0].hole).toEqual([null, null]);
    const stud = startHand(tableConfig(makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20 }), { stacks: [500, 500] }));
    expect(refusal(stud, { type: 'deal', seat: 0, cards: [null, null, null] }).rule).toBe('R-DEAL');
    expect(run(stud, { type: 'deal', seat: 0, cards: [null, null, 12] }).seats[0].up).toEqual([false, false, true]);
  });
});

describe('Triple Draw (R-DEAL, D art. 7 IV)', () => {
  function predraw(stacks = [1000, 1000, 1000]): HandState {
    return run(draw27(stacks), 'd 0 2c3c4c5dKs', 'd 1 2d3d4d5hKh', 'd 2 7c7d8c8d9s', '2 c', '0 c', '1 x');
  }

  it('players draw in turn from left of the button, 0 to 5 cards, and get replacements', () => {
    let s = predraw();
    expect(legalActions(s)).toMatchObject({ next: 'draw', seat: 0, draw: { max: 5 } });
    expect(refusal(s, '1 sd Kh').rule).toBe('R-ACTORDER');
    expect(refusal(s, '0 sd Kh').rule).toBe('R-DEAL');
    s = run(s, '0 sd Ks');
    expect(legalActions(s)).toMatchObject({ next: 'deal', deal: { seat: 0, count: 1, up: [false] } });
    s = run(s, 'd 0 7h', '1 sd', '2 sd 7c7d8c');
    expect(s.seats[0].hole).toEqual(cards('2c3c4c5d7h'));
    expect(s.log.filter((e) => e.kind === 'discard').map((e) => e.round)).toEqual(['1st draw', '1st draw', '1st draw']);
    s = run(s, 'd 2 6h6s9h');
    expect(legalActions(s)).toMatchObject({ next: 'act', seat: 0 });
  });

  it("the current round's discards are never dealt back in the same round (R-DEAL)", () => {
    const s = run(predraw(), '0 sd Ks');
    expect(refusal(s, 'd 0 Ks').rule).toBe('R-DECK');
  });

  it('when the stub cannot serve a draw, earlier discards are reshuffled into a new stub (R-DEAL)', () => {
    // Six players hold 30 cards, the stub 22. First draw: 5 players draw 4 (20 cards), stub 2.
    let s = draw27([1000, 1000, 1000, 1000, 1000, 1000]);
    s = dealFrom(s);
    expect(s.stub).toBe(22);
    for (const seat of [2, 3, 4, 5, 0]) s = run(s, `${seat} c`);
    s = run(s, '1 x');
    for (const seat of [0, 1, 2, 3, 4]) {
      const hole = s.seats[seat].hole as number[];
      s = dealFrom(run(s, { type: 'draw', seat, discards: hole.slice(0, 4) }));
    }
    s = run(s, '5 sd');
    expect(s.stub).toBe(2);
    // Second draw: seat 0 draws 3; the stub holds 2: a reshuffle is due, and no sooner.
    for (const seat of [0, 1, 2, 3, 4, 5]) s = run(s, `${seat} x`);
    const firstRound = s.discardPool.slice();
    expect(firstRound).toHaveLength(20);
    expect(refusal(s, 'reshuffle').rule).toBe('R-DEAL');
    s = run(s, { type: 'draw', seat: 0, discards: (s.seats[0].hole as number[]).slice(0, 3) });
    expect(legalActions(s).deal).toMatchObject({ seat: 0, count: 3, stub: 2, reshuffle: true });
    expect(refusal(s, { type: 'deal', seat: 0, cards: firstRound.slice(0, 3) }).rule).toBe('R-DEAL');
    expect(reshuffleCards(s)).toEqual(firstRound);
    const thisRound = s.seats[0].discards as number[];
    s = run(s, 'reshuffle');
    expect(s.stub).toBe(22);
    expect(refusal(s, { type: 'deal', seat: 0, cards: [thisRound[0]] }).rule).toBe('R-DECK');
    s = run(s, { type: 'deal', seat: 0, cards: firstRound.slice(0, 3) });
    expect(s.seats[0].hole).toHaveLength(5);
  });
});

describe('views (DESIGN.md §1: a client never sees a card it may not see)', () => {
  it("another player's down cards, discards and their traces in the log and bit sets are hidden", () => {
    let s = run(draw27([1000, 1000, 1000]), 'd 0 2c3c4c5dKs', 'd 1 2d3d4d5hKh', 'd 2 7c7d8c8d9s', '2 c', '0 c', '1 x', '0 sd Ks', 'd 0 7h');
    s = run(s, '1 sd Kh');
    const v = viewFor(s, 0);
    expect(v.viewer).toBe(0);
    expect(v.seats[0].hole).toEqual(cards('2c3c4c5d7h'));
    expect(v.seats[1].hole).toEqual([null, null, null, null]);
    expect(v.seats[1].discards).toEqual([null]);
    const hidden = [...cards('2d3d4d5hKh7c7d8c8d9s')];
    const cardFields = JSON.stringify({
      seats: v.seats.slice(1).map((p) => [p.hole, p.discards]),
      log: v.log.map((e) => ('cards' in e && e.seat !== 0 ? e.cards : [])),
      pool: v.discardPool,
    });
    for (const c of hidden) {
      const bit = c < 26 ? v.usedLo & (1 << c) : v.usedHi & (1 << (c - 26));
      expect(bit).toBe(0);
    }
    expect(cardFields).not.toMatch(/\d/);
    // An observer sees no private card at all.
    const o = viewFor(s, null);
    expect(o.viewer).toBe(-1);
    expect(o.seats.flatMap((p) => p.hole).every((c) => c === null)).toBe(true);
  });

  it('Stud up cards stay visible to everyone', () => {
    const s = run(startHand(tableConfig(makeTableRules('7SHL', { ante: 5, bringIn: 10, smallBet: 20 }), { stacks: [500, 500] })), 'd 0 AsKs2d', 'd 1 AhKh3c');
    expect(viewFor(s, 1).seats[0].hole).toEqual([null, null, cards('2d')[0]]);
  });

  it('a view driven by the redacted actions ends the hand exactly like the full state', () => {
    let full = holdem([1000, 600, 1000]);
    let view = viewFor(full, 2);
    const steps = ['d 0 AsAh', 'd 1 KsKh', 'd 2 QsQh', '2 r 300', '0 r 1000', '1 c', '2 f', '1 sm', '0 sm', 'd b 2c7d9h', 'd b 3d', 'd b Kd'];
    for (const step of steps) {
      const action = parseStep(step);
      const r = apply(view, actionFor(full, action, 2));
      full = run(full, action);
      if (!r.ok) throw new Error(`${step}: ${r.rule} ${r.message}`);
      view = r.state;
    }
    expect(full.phase).toBe('done');
    expect(view.result?.won).toEqual(full.result?.won);
    expect(view.seats.map((p) => p.stack)).toEqual(full.seats.map((p) => p.stack));
    expect(view.seats[0].hole).toEqual(cards('AsAh'));
  });
});
