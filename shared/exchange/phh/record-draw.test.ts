import { describe, expect, it } from 'vitest';
import { playRecord, prng, randomConfig, randomRecord } from '../../history/test-support';
import { parsePhhs } from './phh';
import { replayHand } from './replay';
import { exportHands, importHands } from '../index';

// pokerkit (PHH's reference implementation) takes every discard of a draw round
// before the replacement cards; the export writes them so, and the import reads both orders.
const BETTING = /^p\d+ (f|cc|cbr|pb)\b/;
const DISCARD = /^p\d+ sd\b/;
const DEAL = /^d dh p\d+ /;

function actionsOf(text: string): string[] {
  return [...text.matchAll(/^ {2}"([^"]+)",$/gm)].map((m) => m[1]);
}

describe('Triple Draw in PHH', () => {
  const hands = Array.from({ length: 120 }, (_, i) => randomRecord('2T7TD', prng(900 + i), String(500 + i)));
  // Hands whose first draw round is followed by betting: its discards and deals form one run of lines.
  const withBetting = hands.filter((r) => r.actions.some((e) => e.round === '1st draw' && (e.kind === 'check' || e.kind === 'bet' || e.kind === 'fold' || e.kind === 'call' || e.kind === 'raise')));

  it('writes every discard of a draw round before the cards dealt for them', () => {
    expect(withBetting.length).toBeGreaterThan(20);
    for (const record of withBetting) {
      const actions = actionsOf(exportHands('phh', [{ record, meta: {} }]));
      const first = actions.findIndex((a) => DISCARD.test(a));
      const run: string[] = [];
      for (let k = first; k < actions.length && !BETTING.test(actions[k]); k++) run.push(actions[k]);
      const lastDiscard = run.map((a) => DISCARD.test(a)).lastIndexOf(true);
      const firstDeal = run.findIndex((a) => DEAL.test(a));
      expect(firstDeal, run.join(' | ')).toBeGreaterThan(lastDiscard);
    }
  });

  it('reads the discard-then-deal order too (each player drawing in turn), to the same hand', () => {
    let reordered = 0;
    for (const record of withBetting.slice(0, 15)) {
      const text = exportHands('phh', [{ record, meta: {} }]);
      const actions = actionsOf(text);
      // Interleave the first draw round: each discard followed by that player's replacement cards.
      const first = actions.findIndex((a) => DISCARD.test(a));
      let end = first;
      while (end < actions.length && !BETTING.test(actions[end])) end++;
      const run = actions.slice(first, end);
      const discards = run.filter((a) => DISCARD.test(a));
      const deals = run.filter((a) => DEAL.test(a));
      const interleaved = discards.flatMap((d) => {
        const player = d.split(' ')[0];
        return [d, ...deals.filter((x) => x.split(' ')[2] === player)];
      });
      if (interleaved.join() === run.join()) continue;
      reordered++;
      const other = [...actions.slice(0, first), ...interleaved, ...actions.slice(end)];
      const back = importHands('phh', text.replace(actions.map((a) => `  "${a}",`).join('\n'), other.map((a) => `  "${a}",`).join('\n')));
      if (!back.ok) throw new Error(`line ${back.line}: ${back.message}`);
      const direct = importHands('phh', text);
      if (!direct.ok) throw new Error(direct.message);
      expect(back.hands[0].record).toEqual(direct.hands[0].record);
    }
    expect(reordered).toBeGreaterThan(5);
  });
});

describe('cercle replay of a Triple Draw hand that needs the earlier discards reshuffled', () => {
  it('replays to its finishing stacks: the reshuffle PHH does not write is made when the stub runs short', () => {
    // Hands that drew enough cards to exhaust the stub, seen by the operator (every card known).
    let checked = 0;
    for (let i = 0; i < 400 && checked < 5; i++) {
      const rng = prng(7000 + i);
      const record = playRecord(randomConfig('2T7TD', rng), rng, null);
      // PHH carries no rake: hands with none replay to their exact finishing stacks.
      if (!record.actions.some((e) => e.kind === 'reshuffle') || record.rake > 0) continue;
      const parsed = parsePhhs(exportHands('phh', [{ record, meta: {} }]));
      if (!parsed.ok) throw new Error(parsed.reason);
      const result = replayHand(parsed.hands[0].hand);
      expect(result, JSON.stringify(result)).toMatchObject({ ok: true, stacksChecked: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
