import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionFor, apply, legalActions, startHand, viewFor, type Action, type HandState } from '../rules/engine';
import { Dealer, dealerAction, prng, randomPlayerAction, tableConfig } from '../rules/engine/test-support';
import { makeTableRules } from '../rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../rules/variants';
import { validate } from '../validate';
import { foldHand, handOf, handViewFor, handViewSchema, withAction, type HandView } from './hand';

function rulesFor(v: VariantCode) {
  const limit = VARIANTS[v].betting === 'limit';
  if (VARIANTS[v].forcedBets === 'ante-bring-in') return makeTableRules(v, { ante: 10, bringIn: 20, smallBet: 40 });
  return makeTableRules(v, limit ? { smallBlind: 20, bigBlind: 40 } : { smallBlind: 50, bigBlind: 100 });
}

/** Every state of one random hand, with the action that led to it. */
function playHand(v: VariantCode, seed: number): { states: HandState[]; actions: Action[] } {
  const rng = prng(seed);
  let s = startHand({ ...tableConfig(rulesFor(v), { stacks: Array.from({ length: Math.min(VARIANTS[v].maxSeats, 6) }, (_, i) => 2000 + 300 * i) }), handId: `h-${v}-${seed}` });
  const dealer = new Dealer(rng);
  const states = [s];
  const actions: Action[] = [];
  for (let steps = 0; legalActions(s).next !== 'done'; steps++) {
    if (steps > 10_000) throw new Error('the hand did not end');
    const legal = legalActions(s);
    const a = legal.next === 'deal' ? dealerAction(s, legal, dealer, rng, true) : randomPlayerAction(s, legal, rng);
    const r = apply(s, a);
    if (!r.ok) throw new Error(`${r.rule}: ${r.message}`);
    actions.push(a);
    states.push((s = r.state));
  }
  return { states, actions };
}

/** The engine's fields a state has beyond what starts a hand (what must never be protocol). */
function deepKeys(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) deepKeys(x, out);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      deepKeys(x, out);
    }
  }
  return out;
}

const without = (o: HandState, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('the hand view (the wire carries a view, not engine internals)', () => {
  it.each(VARIANT_CODES)('%s: folding a seat\'s view gives the engine state viewFor gives, at every step, and the stream\'s own fold', (v) => {
    for (let seed = 1; seed <= 4; seed++) {
      const { states, actions } = playHand(v, seed * 104_729);
      for (const seat of [0, 1, null]) {
        // The stream: the hand's start, then each action as actionFor shows it to this seat.
        let streamed: HandState = { ...startHand({ rules: states[0].rules, seats: states[0].players.map((p, i) => (p === null ? null : { player: p, stack: states[0].stacksBefore[i] })), plan: states[0].plan, handId: states[0].handId! }), viewer: seat ?? -1 };
        let prev: { view: HandView; state: HandState } | null = null;
        states.forEach((s, k) => {
          if (k > 0) {
            const r = apply(streamed, actionFor(states[k - 1], actions[k - 1], seat));
            if (!r.ok) throw new Error(r.message);
            streamed = r.state;
          }
          const view = handViewFor(s, seat);
          expect(validate(handViewSchema, JSON.parse(JSON.stringify(view)), 'hand').ok).toBe(true);
          const folded = handOf(view);
          // usedLo/usedHi are the engine's known-card sets: viewFor recounts them from the visible cards
          // only, the fold keeps the engine's own bookkeeping (as the stream always did).
          expect(without(folded, ['usedLo', 'usedHi'])).toEqual(without(viewFor(s, seat), ['usedLo', 'usedHi']));
          expect(folded).toEqual(streamed);
          // Incremental: from the previous view's fold, only the new actions are applied.
          if (prev) expect(handOf(view, prev)).toEqual(folded);
          prev = { view, state: folded };
        });
      }
    }
  });

  it('shares no key with the engine state beyond the start of the hand, and ignores the engine\'s internal fields', () => {
    const { states } = playHand('2T7TD', 7);
    const mid = states[Math.floor(states.length / 2)];
    const view = handViewFor(mid, 0);
    // The engine's internal names: every key of a state (and its seats, log, result) that neither the
    // hand's start (rules, plan, seats, whose view) nor an action (the wire's `action` event) has.
    const publicKeys = new Set([...deepKeys({ rules: mid.rules, plan: mid.plan, handId: mid.handId }), ...deepKeys(view.actions), 'player', 'stack', 'viewer']);
    const internal = [...deepKeys(states[states.length - 1]), ...deepKeys(mid)].filter((k) => !publicKeys.has(k));
    expect(internal).toEqual(expect.arrayContaining(['usedLo', 'usedHi', 'capLocked', 'fullBets', 'log', 'showQueue', 'reopenAt']));
    expect([...deepKeys(JSON.parse(JSON.stringify(view)))].filter((k) => internal.includes(k))).toEqual([]);

    // An engine refactor renames its internal fields: the view (what crosses the wire and IPC) is the same.
    const renamed = Object.fromEntries(Object.entries(mid).map(([k, x]) => [['usedLo', 'usedHi', 'capLocked', 'fullBets', 'showQueue', 'discardPool', 'lastFullLevel', 'boardOwed'].includes(k) ? `${k}Renamed` : k, x])) as unknown as HandState;
    expect(handViewFor(renamed, 0)).toEqual(view);
  });

  it('the serialized view of a fixed hand equals the committed golden (a change to it is a protocol change)', () => {
    const { states } = playHand('THNL', 2024);
    const golden = readFileSync(new URL('./hand.golden.json', import.meta.url), 'utf8');
    expect(`${JSON.stringify(handViewFor(states[states.length - 1], 1), null, 1)}\n`).toBe(golden);
  });

  it('is versioned and closed: another version, an engine field or a forged action is refused', () => {
    const { states } = playHand('O4JL', 3);
    const view = handViewFor(states[states.length - 1], 2);
    expect(validate(handViewSchema, { ...view, v: 2 }, 'hand').ok).toBe(false);
    expect(validate(handViewSchema, { ...view, usedLo: 0 }, 'hand').ok).toBe(false);
    // A view of another start (the stacks differ) is folded anew, not from the earlier fold.
    const other: HandView = { ...view, seated: view.seated.map((x) => x && { ...x, stack: x.stack + 1 }) };
    expect(handOf(other, { view, state: handOf(view) })).toEqual(handOf(other));
    const forged = withAction(handViewFor(states[12], 2), { type: 'bet', seat: 0, to: 1 });
    expect(foldHand(forged)).toMatchObject({ ok: false, at: 12 });
    expect(() => handOf(forged)).toThrow(/action 12 refused/);
  });
});
