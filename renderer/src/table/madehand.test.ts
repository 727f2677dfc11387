import { describe, expect, it } from 'vitest';
import { explainHand } from '../../../shared/rules/eval';
import type { Card } from '../../../shared/rules/cards';
import { viewFor } from '../../../shared/rules/engine/view';
import { madeHand } from './madehand';
import { newHand, play } from './test-support';

describe('our made hand at the table', () => {
  it('nothing before the flop; from the flop on, the best hand of our cards and the board, in French or English', () => {
    const start = newHand('THNL', { stacks: [1000, 1000, 1000, 1000] });
    expect(madeHand(viewFor(start, 2), 2, true)).toBeNull();
    const flop = play(start, '2 c', '3 c', '0 c', '1 x');
    const seen = viewFor(flop, 2);
    expect(seen.board.length).toBe(3);
    const hole = seen.seats[2].hole as Card[];
    const want = explainHand('high', hole.concat(seen.board))!;
    expect(madeHand(seen, 2, true)).toBe(want.labelFr);
    expect(madeHand(seen, 2, false)).toBe(want.labelEn);
    // Another seat's cards are unknown from our seat: nothing is said for it.
    expect(madeHand(seen, 3, true)).toBeNull();
  });

  it('nothing once we folded', () => {
    const h = play(newHand('THNL', { stacks: [1000, 1000, 1000, 1000] }), '2 f');
    expect(madeHand(viewFor(h, 2), 2, true)).toBeNull();
  });
});
