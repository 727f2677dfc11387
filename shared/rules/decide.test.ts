/** The one decision path (DESIGN.md §3): a move becomes an engine action or a refusal naming the rule. */
import { describe, expect, it } from 'vitest';
import { decide, engineAction, turnOf } from './decide';
import { apply, legalActions, startHand, viewFor, type HandState } from './engine';
import { dealFrom, tableConfig } from './engine/test-support';
import { makeTableRules } from './tableRules';

/** Three seats of No-limit Hold'em dealt: blinds 50/100 at seats 0 and 1, the button (seat 2) to act. */
function dealt(): HandState {
  const s = dealFrom(startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [5000, 5000, 5000] })));
  expect(legalActions(s)).toMatchObject({ next: 'act', seat: 2 });
  return s;
}

describe('decide', () => {
  it('a legal move is the engine action for that seat, with the state it leads to', () => {
    const s = dealt();
    const d = decide(s, 2, { type: 'bet', to: 300 });
    expect(d).toMatchObject({ ok: true, action: { type: 'bet', seat: 2, to: 300 } });
    if (!d.ok) throw new Error('refused');
    const applied = apply(s, d.action);
    expect(applied.ok && applied.state).toEqual(d.applied);
    expect(d.legal).toEqual(legalActions(s));
  });

  it('a check facing a bet is refused with the rule, the English reason and the chips a call adds (R-TERMS)', () => {
    expect(decide(dealt(), 2, { type: 'check' })).toEqual({
      ok: false,
      code: 'ILLEGAL_ACTION',
      rule: 'R-TERMS',
      message: 'a check cannot answer a bet: call 100 or fold',
      call: 100,
    });
  });

  it("the engine's own refusal has the one refusal shape: `message`, never `reason` (the decision path relays it unchanged)", () => {
    const s = dealt();
    const engine = apply(s, { type: 'check', seat: 2 });
    expect(engine).toEqual({ ok: false, rule: 'R-TERMS', message: 'a check cannot answer a bet: call 100 or fold', call: 100 });
    // A raise block (R-NODEBT: nothing behind the call) says it the same way.
    const short = dealFrom(startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [5000, 5000, 100] })));
    expect(apply(short, { type: 'bet', seat: 2, to: 300 })).toMatchObject({ ok: false, rule: 'R-NODEBT', message: expect.any(String) });
    expect(apply(short, { type: 'bet', seat: 2, to: 300 })).not.toHaveProperty('reason');
  });

  it('a raise below the minimum is refused with the allowed range (R-MINRAISE)', () => {
    expect(decide(dealt(), 2, { type: 'bet', to: 150 })).toEqual({ ok: false, code: 'ILLEGAL_ACTION', rule: 'R-MINRAISE', message: 'raise to 200 to 5000, not 150', min: 200, max: 5000 });
  });

  it('another seat, or a seat not dealt in, or no hand: NOT_YOUR_TURN (R-ACTORDER) or NO_HAND', () => {
    const s = dealt();
    expect(decide(s, 0, { type: 'call' })).toEqual({ ok: false, code: 'NOT_YOUR_TURN', rule: 'R-ACTORDER', message: 'it is not your turn' });
    expect(decide(s, null, { type: 'call' })).toMatchObject({ ok: false, code: 'NO_HAND' });
    expect(decide(null, 0, { type: 'call' })).toMatchObject({ ok: false, code: 'NO_HAND' });
    const notIn = dealFrom(startHand(tableConfig(makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }), { stacks: [5000, 5000, 5000, 5000], dealtIn: [0, 1, 2] })));
    expect(decide(notIn, 3, { type: 'fold' })).toMatchObject({ ok: false, code: 'NO_HAND' });
  });

  it('the same decision on the seat\'s own view as on the full state (the client judges as the operator does)', () => {
    const s = dealt();
    for (const move of [{ type: 'check' }, { type: 'call' }, { type: 'bet', to: 150 }, { type: 'bet', to: 400 }, { type: 'fold' }] as const) {
      const full = decide(s, 2, move);
      const mine = decide(viewFor(s, 2), 2, move);
      expect(mine.ok).toBe(full.ok);
      if (!full.ok) expect(mine).toEqual(full);
    }
  });

  it('turnOf gives the legal actions only when the seat decides; engineAction copies the discards', () => {
    const s = dealt();
    expect(turnOf(s, 2)).toEqual({ ok: true, legal: legalActions(s) });
    expect(turnOf(s, 0)).toMatchObject({ ok: false, code: 'NOT_YOUR_TURN' });
    const discards = [1, 2];
    const a = engineAction({ type: 'draw', discards }, 4);
    expect(a).toEqual({ type: 'draw', seat: 4, discards: [1, 2] });
    discards.push(3);
    expect(a).toEqual({ type: 'draw', seat: 4, discards: [1, 2] });
  });
});
