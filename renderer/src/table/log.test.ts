import { describe, expect, it } from 'vitest';
import { formatCards } from '../../../shared/rules/cards';
import { viewFor } from '../../../shared/rules/engine/view';
import { logLines, roundKey, seatName } from './log';
import { newHand, play } from './test-support';

const names = ['Alice', 'Bruno', 'Chloé', 'Denis'];

describe('dealer log', () => {
  it('names blinds, our cards (not others’), actions and the board with round headers', () => {
    const s = play(newHand('THNL', { stacks: [1000, 1000, 1000, 1000] }), '2 r 300', '3 f', '0 c', '1 c');
    const lines = logLines(viewFor(s, 0).log, names, 0);
    const keys = lines.map((l) => l.key);
    expect(keys.slice(0, 3)).toEqual(['table.log.smallBlind', 'table.log.bigBlind', 'table.log.street']);
    expect(lines[0]).toMatchObject({ name: 'Alice', amount: 50 });
    expect(lines[2].round).toBe('preflop');
    expect(keys.filter((k) => k === 'table.log.dealtYou')).toHaveLength(1);
    expect(lines.find((l) => l.key === 'table.log.dealtYou')?.cards).toHaveLength(2);
    expect(lines.find((l) => l.key === 'table.log.raise')).toMatchObject({ name: 'Chloé', amount: 300 });
    expect(lines.find((l) => l.key === 'table.log.fold')?.name).toBe('Denis');
    expect(lines.find((l) => l.key === 'table.log.call')).toMatchObject({ name: 'Alice', amount: 250 });
    const flopAt = lines.findIndex((l) => l.round === 'flop');
    expect(lines[flopAt + 1]).toMatchObject({ key: 'table.log.board' });
    expect(lines[flopAt + 1].cards).toHaveLength(3);
  });

  it('keeps the last lines only when asked', () => {
    const s = play(newHand('THNL', { stacks: [1000, 1000, 1000, 1000] }), '2 c', '3 c', '0 c', '1 x');
    const all = logLines(s.log, names, 0);
    const last = logLines(s.log, names, 0, 3);
    expect(last).toEqual(all.slice(-3));
  });

  it('Stud: other players’ up cards are named, their down cards never', () => {
    const s = newHand('7SHL', { stacks: [1000, 1000, 1000] }, { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
    const lines = logLines(viewFor(s, 0).log, names, 0);
    const up = lines.filter((l) => l.key === 'table.log.dealtUp');
    expect(up.length).toBeGreaterThan(0);
    for (const l of up) expect(l.cards?.every((c) => c !== null)).toBe(true);
    expect(lines.filter((l) => l.key === 'table.log.ante')).toHaveLength(3);
  });

  it('Triple Draw: discards counted for others, shown for us; standing pat', () => {
    let s = newHand('2T7TD', { stacks: [1000, 1000, 1000, 1000] }, { smallBlind: 10, bigBlind: 20 });
    s = play(s, '2 c', '3 c', '0 c', '1 x');
    const mine = s.seats[0].hole.slice(0, 2) as number[];
    s = play(s, `0 sd ${formatCards(mine)}`, '1 sd');
    const forUs = logLines(viewFor(s, 0).log, names, 0);
    expect(forUs.find((l) => l.key === 'table.log.discardYou')).toMatchObject({ count: 2, cards: mine });
    expect(forUs.find((l) => l.key === 'table.log.standPat')?.name).toBe('Bruno');
    const forOther = logLines(viewFor(s, 2).log, names, 2);
    expect(forOther.find((l) => l.key === 'table.log.discard')).toMatchObject({ count: 2, cards: null, name: 'Alice' });
  });

  it('round keys and names', () => {
    expect(roundKey('4th st')).toBe('fourth');
    expect(roundKey('pre-flop')).toBe('preflop');
    expect(roundKey('2nd draw')).toBe('draw2');
    expect(seatName(1, [null, 'B'])).toBe('B');
    expect(seatName(0, [null], ['p0'])).toBe('p0');
    expect(seatName(4, [])).toBe('#5');
  });
});
