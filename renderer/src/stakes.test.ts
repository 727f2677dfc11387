import { describe, expect, it } from 'vitest';
import { compareStakes, stakesFromKey, stakesPair, stakesText } from './stakes';

const thl = { smallBlind: 25, bigBlind: 50, smallBet: 50, bigBet: 100 };
const thnl = { smallBlind: 25, bigBlind: 50, smallBet: 0, bigBet: 0 };
const stud = { smallBlind: 0, bigBlind: 0, smallBet: 50, bigBet: 100 };

describe('stakes per betting structure', () => {
  it('limit games by their bets, Hold’em and Stud alike; no-limit and pot-limit by their blinds', () => {
    expect(stakesPair('THL', thl)).toEqual([50, 100]);
    expect(stakesPair('7SHL', stud)).toEqual([50, 100]);
    expect(stakesPair('THNL', thnl)).toEqual([25, 50]);
    expect(stakesText('THL', thl, 'play', 'fr')).toBe('50/100');
    expect(stakesText('THNL', { ...thnl, smallBlind: 50, bigBlind: 100 }, 'real', 'fr')).toMatch(/^0,50\s?€\/1,00\s?€$/);
  });

  it('sorted by the real amounts', () => {
    const list: [string, [number, number]][] = [
      ['stud 50/100', stakesPair('7SHL', stud)],
      ['nl 25/50', stakesPair('THNL', thnl)],
      ['nl 100/200', [100, 200]],
      ['thl 50/100', stakesPair('THL', thl)],
      ['nl 50/100', [50, 100]],
    ];
    list.sort((a, b) => compareStakes(a[1], b[1]));
    expect(list.map((x) => x[0])).toEqual(['nl 25/50', 'stud 50/100', 'thl 50/100', 'nl 50/100', 'nl 100/200']);
  });

  it('a history row is written the same way as the table it was played at', () => {
    expect(stakesPair('THL', stakesFromKey('THL', 50))).toEqual(stakesPair('THL', thl));
    expect(stakesPair('7SHL', stakesFromKey('7SHL', 50))).toEqual(stakesPair('7SHL', stud));
    expect(stakesPair('THNL', stakesFromKey('THNL', 50))).toEqual(stakesPair('THNL', thnl));
  });
});
