// One PHH driver: `cercle replay` (replayHand) and the PHH import read a file the
// same way, so a hand one accepts the other accepts, and a refusal names the same action.
import { describe, expect, it } from 'vitest';
import { importHands } from '../index';
import { parsePhh } from './phh';
import { replayHand } from './replay';

const head = ['variant = "NT"', 'antes = [0, 0, 0]', 'blinds_or_straddles = [50, 100, 0]', 'min_bet = 100', 'starting_stacks = [1000, 1000, 1000]'];
// p3 raises, both blinds fold: p3 wins the blinds (the hand ends without a showdown).
const played = ['d dh p1 2c3d', 'd dh p2 4h5s', 'd dh p3 AsAd', 'p3 cbr 300', 'p1 f', 'p2 f'];
const text = (actions: string[], finishing = '[950, 900, 1150]') => [...head, `actions = ${JSON.stringify(actions)}`, `finishing_stacks = ${finishing}`].join('\n') + '\n';

function replay(t: string) {
  const parsed = parsePhh(t);
  if (!parsed.ok) throw new Error(parsed.reason);
  return replayHand(parsed.hand);
}

describe('one PHH driver for cercle replay and the import', () => {
  it('a show after the hand is settled (pokerkit writes the last hand standing showing) changes nothing, both ways', () => {
    // The import used to refuse this ("this comes after the end of the hand") while replay took it.
    const t = text([...played, 'p3 sm AsAd']);
    expect(replay(t)).toMatchObject({ ok: true, complete: true, finalStacks: [950, 900, 1150] });
    const r = importHands('phh', t);
    expect(r.ok).toBe(true);
    expect(r.ok && r.hands[0].record.seats.map((s) => s.stackAfter)).toEqual([950, 900, 1150]);
  });

  it('a late show of cards the player does not hold is refused by both, naming that action', () => {
    const t = text([...played, 'p3 sm KsKd']);
    expect(replay(t)).toMatchObject({ ok: false, actionIndex: 6, rule: 'R-SHOWDOWN', reason: 'shows a card it does not hold' });
    // Line 6 of the file holds the actions array: its 7th element.
    expect(importHands('phh', t)).toMatchObject({ ok: false, line: 6, message: 'shows a card it does not hold' });
  });

  it('an action out of turn is the engine refusal in both (R-ACTORDER)', () => {
    const t = text(['d dh p1 2c3d', 'd dh p2 4h5s', 'd dh p3 AsAd', 'p1 f']);
    expect(replay(t)).toMatchObject({ ok: false, actionIndex: 3, rule: 'R-ACTORDER' });
    expect(importHands('phh', t)).toMatchObject({ ok: false, message: expect.stringMatching(/^R-ACTORDER: /) });
  });
});
