import { describe, expect, it } from 'vitest';
import { parseCards } from '../../../shared/rules/cards';
import { recordOf } from '../../../shared/rules/record';
import { dealFrom, deckWithout } from '../../../shared/rules/engine/test-support';
import { startHand } from '../../../shared/rules/engine/machine';
import { tableConfig } from '../../../shared/rules/engine/test-support';
import { makeTableRules } from '../../../shared/rules/tableRules';
import { handResult, winnerKey } from './results';
import { newHand, play, playFrom } from './test-support';

const c = (s: string) => parseCards(s)!;

describe('hand result', () => {
  it('uncontested: the pot to the last player, the uncalled bet returned, no hand named', () => {
    const s = play(newHand('THNL', { stacks: [1000, 1000, 1000, 1000] }), '2 r 300', '3 f', '0 f', '1 f');
    const m = handResult(recordOf(s), ['Alice', 'Bruno', 'Chloé', 'Denis']);
    expect(m.showdown).toBe(false);
    expect(m.pots).toHaveLength(1);
    expect(m.pots[0]).toMatchObject({ kind: 'main', amount: 250, rake: 0 });
    expect(m.pots[0].winners).toEqual([{ seat: 2, name: 'Chloé', amount: 250, half: 'whole', hand: null }]);
    expect(m.uncalled).toEqual([{ seat: 2, name: 'Chloé', amount: 200 }]);
    expect(winnerKey(m.pots[0].winners[0])).toBe('table.result.winWhole');
    expect(m.net.find((n) => n.seat === 2)?.net).toBe(150);
  });

  it('showdown with a side pot: each pot, its winner and the winning hand; the rake', () => {
    // Seat 2 short (all-in 300) holds aces; seat 3 has kings, seat 0 queens; board blanks.
    const hole = [c('QsQh'), c('2c7d'), c('AsAh'), c('KsKh')];
    const board = c('3c8d9sJc4h');
    const deck = [...hole.flat(), ...board, ...deckWithout(hole.flat(), board)];
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }, { rake: { basisPoints: 500, cap: 100, noFlopNoDrop: true } });
    let s = dealFrom(startHand(tableConfig(rules, { stacks: [2000, 2000, 300, 2000] })), deck);
    s = playFrom(deck, s, '2 r 300', '3 c', '0 c', '1 f');
    // Flop on: seat 0 bets 500, seat 3 calls; check down.
    s = playFrom(deck, s, '0 r 500', '3 c', '0 x', '3 x', '0 x', '3 x');
    while (s.phase === 'showdown') s = play(s, `${s.showQueue[0]} sm`);
    expect(s.phase).toBe('done');
    const m = handResult(recordOf(s));
    expect(m.showdown).toBe(true);
    expect(m.pots.map((p) => p.kind)).toEqual(['main', 'side']);
    expect(m.pots[1].sideNo).toBe(1);
    expect(m.pots[0].winners[0]).toMatchObject({ seat: 2, name: 'p2', half: 'whole' });
    expect(m.pots[0].winners[0].hand?.category).toBe('pair');
    expect(m.pots[0].winners[0].hand?.labelFr).toBeTruthy();
    expect(m.pots[1].winners[0]).toMatchObject({ seat: 3 });
    expect(m.rake).toBe(100);
    expect(m.pots[0].rake + m.pots[1].rake).toBe(100);
    expect(m.shown.map((x) => x.seat).sort()).toEqual([0, 2, 3]);
    expect(m.board).toEqual(board);
    expect(winnerKey(m.pots[0].winners[0])).toBe('table.result.winWholeWith');
  });

  it('high/low: the halves with their hands', () => {
    const hole = [c('As2s3dKd'), c('KcKhQcQh'), c('7c7d8c8d')];
    const board = c('4h5h6cJsTd');
    const deck = [...hole.flat(), ...board, ...deckWithout(hole.flat(), board)];
    const rules = makeTableRules('O4JPL', { smallBlind: 50, bigBlind: 100 });
    let s = dealFrom(startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] })), deck);
    // Button 2: blinds 0 and 1; seat 2 first.
    s = playFrom(deck, s, '2 c', '0 c', '1 x', '0 x', '1 x', '2 x', '0 x', '1 x', '2 x', '0 x', '1 x', '2 x');
    while (s.phase === 'showdown') s = play(s, `${s.showQueue[0]} sm`);
    const m = handResult(recordOf(s));
    const halves = m.pots[0].winners.map((w) => w.half).sort();
    expect(halves).toEqual(['high', 'low']);
    const low = m.pots[0].winners.find((w) => w.half === 'low')!;
    expect(low.seat).toBe(0);
    expect(low.hand?.labelEn).toMatch(/low/i);
    expect(winnerKey(low)).toBe('table.result.winLowWith');
  });
});
