import { describe, expect, it } from 'vitest';
import { parsePhh, type PhhHand } from './phh';
import { replayHand, type ReplayResult } from './replay';

function hand(fields: Record<string, string>, actions: string[]): PhhHand {
  const text = [...Object.entries(fields).map(([k, v]) => `${k} = ${v}`), `actions = ${JSON.stringify(actions)}`].join('\n');
  const r = parsePhh(text);
  if (!r.ok) throw new Error(`line ${r.line}: ${r.reason}`);
  return r.hand;
}

function passed(r: ReplayResult): Extract<ReplayResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected a pass: ${JSON.stringify(r)}`);
  return r;
}

// Heads-up no-limit: player 1 is the big blind, player 2 the button and small blind (PHH writes
// heads-up blinds reversed).
const HEADS_UP = { variant: '"NT"', antes: '[0, 0]', blinds_or_straddles: '[50, 100]', min_bet: '100', starting_stacks: '[1000, 1000]' };
const HEADS_UP_ACTIONS = [
  'd dh p1 AsAd',
  'd dh p2 KsKd',
  'p2 cbr 300',
  'p1 cc',
  'd db 2c7h9d',
  'p1 cc',
  'p2 cc',
  'd db Jc',
  'p1 cc',
  'p2 cc',
  'd db 3s',
  'p1 cc',
  'p2 cc',
  'p1 sm AsAd',
  'p2 sm KsKd',
];

const RING = { variant: '"NT"', antes: '[0, 0, 0]', blinds_or_straddles: '[50, 100, 0]', min_bet: '100', starting_stacks: '[1000, 1000, 1000]' };

describe('replaying a hand', () => {
  it('replays a heads-up hand to its finishing stacks (button posts the small blind, R-FORCED)', () => {
    const r = passed(replayHand(hand({ ...HEADS_UP, finishing_stacks: '[1300, 700]' }, HEADS_UP_ACTIONS)));
    expect(r.finalStacks).toEqual([1300, 700]);
    expect(r.stacksChecked).toBe(true);
    expect(r.complete).toBe(true);
  });

  it('reports final stacks that differ from finishing_stacks', () => {
    const r = replayHand(hand({ ...HEADS_UP, finishing_stacks: '[1200, 800]' }, HEADS_UP_ACTIONS));
    expect(r).toEqual({
      ok: false,
      reason: 'final stacks differ from finishing_stacks',
      expected: [1200, 800],
      actual: [1300, 700],
    });
  });

  it('names the refused action and the rule (a raise below the minimum, R-MINRAISE)', () => {
    const r = replayHand(hand(RING, ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 300', 'p1 cbr 400']));
    expect(r).toMatchObject({ ok: false, actionIndex: 4, rule: 'R-MINRAISE' });
  });

  it('refuses an action out of turn (R-ACTORDER)', () => {
    const r = replayHand(hand(RING, ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p1 f']));
    expect(r).toMatchObject({ ok: false, actionIndex: 3, rule: 'R-ACTORDER' });
  });

  it('counts decimal amounts in whole units (dollars and cents)', () => {
    const fields = { variant: "'NT'", antes: '[0, 0, 0]', blinds_or_straddles: '[0.10, 0.25, 0]', min_bet: '0.25', starting_stacks: '[10, 10, 10.05]' };
    const actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 0.75', 'p1 f', 'p2 f'];
    const r = passed(replayHand(hand({ ...fields, finishing_stacks: '[9.9, 9.75, 10.4]' }, actions)));
    expect(r.finalStacks).toEqual([9.9, 9.75, 10.4]);
  });

  it('checks a partial history against the stacks behind (standard, "Finishing Stacks")', () => {
    const r = passed(replayHand(hand({ ...HEADS_UP, finishing_stacks: '[700, 700]' }, HEADS_UP_ACTIONS.slice(0, 4))));
    expect(r.complete).toBe(false);
    expect(r.finalStacks).toEqual([700, 700]);
  });

  it('replays a hand without finishing_stacks, checking the actions only', () => {
    const r = passed(replayHand(hand(HEADS_UP, HEADS_UP_ACTIONS)));
    expect(r.stacksChecked).toBe(false);
    expect(r.finalStacks).toEqual([1300, 700]);
  });

  it('lets shows written out of the showdown order wait for their turn (T 8-3)', () => {
    // p2 bets the river and is called: p2 shows first; the record writes p3's show first.
    const actions = [
      'd dh p1 ????',
      'd dh p2 QsQd',
      'd dh p3 JsJd',
      'p3 cc',
      'p1 f',
      'p2 cc',
      'd db 2c7h9d',
      'p2 cc',
      'p3 cc',
      'd db 4c',
      'p2 cc',
      'p3 cc',
      'd db 5c',
      'p2 cbr 200',
      'p3 cc',
      'p3 sm JsJd',
      'p2 sm QsQd',
    ];
    const r = passed(replayHand(hand({ ...RING, finishing_stacks: '[950, 1350, 700]' }, actions)));
    // The driver takes each seat's show when the showdown order reaches it (core.ts driveSteps).
    expect(r.finalStacks).toEqual([950, 1350, 700]);
    expect(r.complete).toBe(true);
  });

  it('stops, without failing, where the record shows cards it does not know', () => {
    const actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db 2c7h9d', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'd db 3s', 'p1 cc', 'p2 cc', 'p1 sm ????'];
    const r = passed(replayHand(hand(HEADS_UP, actions)));
    expect(r.complete).toBe(false);
    expect(r.notes.some((n) => n.startsWith("stopped at action 14 'p1 sm ????'"))).toBe(true);
    expect(replayHand(hand({ ...HEADS_UP, finishing_stacks: '[1100, 900]' }, actions))).toMatchObject({ ok: false, actionIndex: 13, rule: 'R-SHOWDOWN' });
  });

  it('reads a negative blind as a big blind posted out of position (R-BUTTON)', () => {
    const fields = { variant: '"NT"', antes: '[0, 0, 0, 0]', blinds_or_straddles: '[50, 100, -100, 0]', min_bet: '100', starting_stacks: '[1000, 1000, 1000, 1000]' };
    // p3 has posted the big blind already: checking is enough; then p3 bets the flop and wins.
    const actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p3 cc', 'p4 f', 'p1 f', 'p2 cc', 'd db 2c7h9d', 'p2 cc', 'p3 cbr 200', 'p2 f'];
    const r = passed(replayHand(hand({ ...fields, finishing_stacks: '[950, 900, 1150, 1000]' }, actions)));
    expect(r.notes).toContain('player(s) 3 post a big blind out of position');
  });
});

describe('what the replayer does not replay', () => {
  it('skips variants outside the decree without failing them', () => {
    const fields = { variant: '"N2L1D"', antes: '[0, 0]', blinds_or_straddles: '[50, 100]', min_bet: '100', starting_stacks: '[1000, 1000]' };
    expect(replayHand(hand(fields, []))).toEqual({
      ok: false,
      skipped: true,
      reason: 'N2L1D (No-limit deuce-to-seven lowball single draw) is not a decree variant (D art. 7): parsed only',
    });
  });

  it('fails an unknown variant code', () => {
    const r = replayHand(hand({ ...HEADS_UP, variant: '"XT"' }, []));
    expect(r).toEqual({ ok: false, reason: "unknown variant code 'XT'" });
  });

  it('replays a big-blind ante with the table rule anteBy big-blind, and skips straddles as a house rule', () => {
    const bbAnte = replayHand(hand({ ...RING, antes: '[0, 100, 0]' }, []));
    expect(bbAnte).toMatchObject({ ok: true, notes: expect.arrayContaining([expect.stringMatching(/^big-blind ante/)]) });
    // Antes that are neither everyone's nor the big blind's alone are not a rule we know.
    expect(replayHand(hand({ ...RING, antes: '[100, 0, 0]' }, []))).toMatchObject({ ok: false, reason: expect.stringMatching(/not the big blind/) });
    expect(replayHand(hand({ ...RING, antes: '[0, 100, 50]' }, []))).toMatchObject({ ok: false, reason: expect.stringMatching(/neither/) });
    const straddle = replayHand(hand({ ...RING, antes: '[0, 0, 0, 0]', blinds_or_straddles: '[50, 100, 200, 0]', starting_stacks: '[1000, 1000, 1000, 1000]' }, []));
    expect(straddle).toMatchObject({ ok: false, skipped: true, houseRule: 'straddle' });
  });

  it('fails a minimum bet that is not the big blind', () => {
    expect(replayHand(hand({ ...RING, min_bet: '200' }, []))).toMatchObject({ ok: false, reason: expect.stringMatching(/min_bet 200 differs/) });
  });
});

describe('table rules chosen from the header', () => {
  // Limit hold'em, three players: the big blind is the first bet; 200, 300, 400 make four bets and
  // p3's 500 a fifth (R-LIMIT cap).
  const LIMIT = { variant: '"FT"', antes: '[0, 0, 0]', blinds_or_straddles: '[50, 100, 0]', small_bet: '100', big_bet: '200', starting_stacks: '[5000, 5000, 5000]' };
  const FIVE_BETS = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 200', 'p1 cbr 300', 'p2 cbr 400', 'p3 cbr 500', 'p1 cc', 'p2 cc'];

  it('caps a limit round at 1 bet + 3 raises by default (R-LIMIT)', () => {
    expect(replayHand(hand(LIMIT, FIVE_BETS))).toMatchObject({ ok: false, actionIndex: 6, rule: 'R-LIMIT' });
  });

  it('replays WSOP limit events with their cap of 1 bet + 4 raises', () => {
    const wsop = hand({ ...LIMIT, event: '"2023 World Series of Poker Event #43"' }, FIVE_BETS);
    const r = passed(replayHand(wsop));
    expect(r.notes).toContain('WSOP limit cap: 1 bet + 4 raises');
    expect(r.finalStacks).toEqual([4500, 4500, 4500]);
  });

  it('takes table rules imposed by the caller', () => {
    passed(replayHand(hand(LIMIT, FIVE_BETS), { rules: { cap: 5 } }));
    expect(replayHand(hand(LIMIT, FIVE_BETS), { rules: { cap: 0 } })).toMatchObject({ ok: false, rule: 'R-LIMIT' });
  });

  it('replays our extension code x-PT as pot-limit hold\'em (R-PL)', () => {
    const fields = { ...RING, variant: '"x-PT"' };
    // The pot after p3's call is 250: a raise to at most 350.
    expect(replayHand(hand(fields, ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 400']))).toMatchObject({ ok: false, actionIndex: 3, rule: 'R-PL' });
    const r = passed(replayHand(hand({ ...fields, finishing_stacks: '[950, 900, 1150]' }, ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 350', 'p1 f', 'p2 f'])));
    expect(r.complete).toBe(true);
  });
});

describe('Stud dealing', () => {
  const STUD = { variant: '"F7S"', antes: '[10, 10, 10]', bring_in: '10', small_bet: '20', big_bet: '40', starting_stacks: '[1000, 1000, 1000]' };

  it('reads the third card of `d dh` as the up card: the lowest up card brings in (R-FORCED)', () => {
    // Up cards 9c, 3h, 4s: p2 brings in, p3 completes, everyone folds to it.
    const actions = ['d dh p1 2c2d9c', 'd dh p2 AsKd3h', 'd dh p3 KsKh4s', 'p2 pb', 'p3 cbr 20', 'p1 f', 'p2 f'];
    passed(replayHand(hand({ ...STUD, finishing_stacks: '[990, 980, 1030]' }, actions)));
    // Had the first card been the up card, 2c would bring in and p2's bring-in would be refused.
    const wrong = ['d dh p1 9c2d2c', 'd dh p2 3hKdAs', 'd dh p3 4sKhKs', 'p2 pb'];
    expect(replayHand(hand(STUD, wrong))).toMatchObject({ ok: false, actionIndex: 3 });
  });

  it('deals a stand-in for a face-up card the record hides, one that cannot bring in', () => {
    const actions = ['d dh p1 ??????', 'd dh p2 AsKd3h', 'd dh p3 KsKh4s', 'p2 pb', 'p3 cbr 20', 'p1 f', 'p2 f'];
    passed(replayHand(hand({ ...STUD, finishing_stacks: '[990, 980, 1030]' }, actions)));
  });

  it('in Razz, stands in with low cards: the highest up card brings in (R-FORCED, king high)', () => {
    const razz = { ...STUD, variant: '"FR"' };
    const actions = ['d dh p1 ??????', 'd dh p2 5c6dQh', 'd dh p3 2s3s9c', 'p2 pb', 'p3 cbr 20', 'p1 f', 'p2 f'];
    passed(replayHand(hand({ ...razz, finishing_stacks: '[990, 980, 1030]' }, actions)));
  });
});
