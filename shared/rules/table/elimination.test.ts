import { describe, expect, it } from 'vitest';
import { eliminationOrder } from './elimination';

describe('eliminationOrder (R-ELIM, T 8-16)', () => {
  it('ranks two players busted on one hand by their stacks at its start, the larger higher', () => {
    expect(
      eliminationOrder([
        { id: 'small', stackAtStart: 1200 },
        { id: 'big', stackAtStart: 4500 },
      ]),
    ).toEqual([['big'], ['small']]);
  });

  it('groups players who started the hand with equal stacks: they tie for the places', () => {
    expect(
      eliminationOrder([
        { id: 'a', stackAtStart: 300 },
        { id: 'b', stackAtStart: 900 },
        { id: 'c', stackAtStart: 300 },
        { id: 'd', stackAtStart: 100 },
      ]),
    ).toEqual([['b'], ['a', 'c'], ['d']]);
  });

  it('returns nothing for nobody and one group for one player', () => {
    expect(eliminationOrder([])).toEqual([]);
    expect(eliminationOrder([{ id: 'x', stackAtStart: 50 }])).toEqual([['x']]);
  });
});
