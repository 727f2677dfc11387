import { describe, expect, it } from 'vitest';
import { startHand } from './engine/machine';
import { cards, run, tableConfig } from './engine/test-support';
import { recordOf } from './record';
import { makeTableRules } from './tableRules';

describe('the hand record (R-RESULTS, R-HISTORY)', () => {
  it('a finished hand becomes one plain record: seats, stacks, actions by round, pots, winners, rake, net', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }, { rake: { basisPoints: 500, cap: 30, noFlopNoDrop: true } });
    let s = startHand({ ...tableConfig(rules, { stacks: [1000, 1000, 1000, 0], empty: [3], button: 2 }), handId: 'h-1' });
    s = run(s, 'd 0 AsAh', 'd 1 KsKh', 'd 2 2c7d', '2 f', '0 c', '1 x', 'd b 3c8d9h', '0 r 200', '1 c', 'd b Jc', '0 r 700', '1 f');
    const rec = recordOf(s);
    expect(JSON.parse(JSON.stringify(rec))).toEqual(rec);
    expect(rec).toMatchObject({ handId: 'h-1', variant: 'THNL', tableSize: 4, button: 2, smallBlind: 0, bigBlind: 1, rake: 30, showdown: false });
    expect(rec.rules).toBe(rules);
    expect(rec.seats.map((x) => [x.seat, x.player, x.stackBefore, x.stackAfter, x.committed, x.won, x.rake, x.net, x.folded])).toEqual([
      [0, 'p0', 1000, 1270, 300, 570, 30, 270, false],
      [1, 'p1', 1000, 700, 300, 0, 0, -300, true],
      [2, 'p2', 1000, 1000, 0, 0, 0, 0, true],
    ]);
    expect(rec.seats[0].cards).toEqual(cards('AsAh'));
    expect(rec.rounds).toEqual(['bet', 'pre-flop', 'flop', 'turn']);
    expect(rec.actions.map((a) => `${a.round}:${a.kind}`)).toEqual([
      'bet:post',
      'bet:post',
      'pre-flop:deal',
      'pre-flop:deal',
      'pre-flop:deal',
      'pre-flop:fold',
      'pre-flop:call',
      'pre-flop:check',
      'flop:deal',
      'flop:bet',
      'flop:call',
      'turn:deal',
      'turn:bet',
      'turn:fold',
      'turn:return',
    ]);
    expect(rec.uncalled).toEqual([{ seat: 0, amount: 700, round: 'turn' }]);
    expect(rec.pots).toEqual([{ amount: 600, rake: 30, eligible: [0], shares: [{ seat: 0, amount: 570, half: 'whole' }] }]);
    expect(rec.seats.reduce((a, x) => a + x.net, 0) + rec.rake).toBe(0);
  });

  it('shown hands are described, high and low halves named (R-RESULTS, R-LOW8)', () => {
    const rules = makeTableRules('O4JL', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 Ah3sQdQh', 'd 1 4c7dKdJh', 'd 2 9c9dThJd', '2 c', '0 c', '1 x');
    s = run(s, 'd b 2c5d8h', '0 x', '1 x', '2 x', 'd b Kc', '0 x', '1 x', '2 x', 'd b Ks', '0 x', '1 x', '2 x', '0 sm', '1 sm', '2 mu');
    const rec = recordOf(s);
    expect(rec.showdown).toBe(true);
    const [a, b, c] = rec.seats;
    expect(a.hand?.low?.category).toBeDefined();
    expect(a.hand?.low?.cards).toHaveLength(5);
    expect(b.hand?.high?.labelEn.length).toBeGreaterThan(0);
    expect(c).toMatchObject({ mucked: true, hand: null });
    expect(rec.pots[0].shares.map((x) => [x.seat, x.half])).toEqual([
      [1, 'high'],
      [0, 'low'],
    ]);
    expect(rec.actions.filter((x) => x.round === 'reveal').map((x) => x.kind)).toEqual(['show', 'show', 'muck']);
  });

  it('a Triple Draw record keeps the discards and the final hand', () => {
    const rules = makeTableRules('2T7TD', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000] }));
    s = run(s, 'd 1 2c3c4c5dKs', 'd 0 2d3d4d5hKh', '1 c', '0 x');
    s = run(s, '0 sd Kh', 'd 0 7h', '1 sd Ks', 'd 1 8s', '0 x', '1 x', '0 sd', '1 sd', '0 x', '1 x', '0 sd', '1 sd', '0 x', '1 x', '0 sm', '1 sm');
    const rec = recordOf(s);
    expect(rec.rounds).toEqual(['bet', 'pre-draw', '1st draw', '2nd draw', '3rd draw', 'reveal']);
    expect(rec.actions.filter((x) => x.kind === 'discard').map((x) => [x.round, x.seat, (x as { cards: number[] }).cards.length])).toEqual([
      ['1st draw', 0, 1],
      ['1st draw', 1, 1],
      ['2nd draw', 0, 0],
      ['2nd draw', 1, 0],
      ['3rd draw', 0, 0],
      ['3rd draw', 1, 0],
    ]);
    expect(rec.seats[0].cards).toEqual(cards('2d3d4d5h7h'));
    expect(rec.seats[0].hand?.high?.game).toBe('27-decree');
    expect(rec.seats[0].won).toBe(200);
  });

  it('refuses a hand that is not over', () => {
    const s = startHand(tableConfig(makeTableRules('THNL', { bigBlind: 100 }), { stacks: [1000, 1000] }));
    expect(() => recordOf(s)).toThrow(/not over/);
  });
});
