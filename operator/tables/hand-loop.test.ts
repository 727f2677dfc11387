import { describe, expect, it } from 'vitest';
import { bountyCollectors } from './hand-loop';

describe('a bounty shared by a pot’s winners (R-ODDCHIP)', () => {
  it('goes to them in the pot’s odd-chip order: in Stud the highest card by suit, not seat order', () => {
    // A Stud pot as the engine settles it: its order is seat 5 then seat 2 (5 holds the higher card by
    // suit). The old order, clockwise from a button Stud does not have (seat 0), gave 2 then 5.
    const pots = [{ amount: 301, rake: 0, eligible: [2, 3, 5], shares: [{ seat: 5, amount: 151, half: 'whole' as const }, { seat: 2, amount: 150, half: 'whole' as const }] }];
    expect(bountyCollectors(pots, 3)).toEqual([5, 2]);
    // The last pot the busted seat was in; a winner of two halves is named once.
    const hiLo = [
      { amount: 300, rake: 0, eligible: [0, 1, 2], shares: [{ seat: 0, amount: 300, half: 'whole' as const }] },
      { amount: 201, rake: 0, eligible: [1, 2], shares: [{ seat: 2, amount: 101, half: 'high' as const }, { seat: 2, amount: 50, half: 'low' as const }, { seat: 1, amount: 50, half: 'low' as const }] },
    ];
    expect(bountyCollectors(hiLo, 1)).toEqual([2]);
    expect(bountyCollectors(hiLo, 0)).toEqual([]);
  });
});
