/**
 * The hand state machine: `startHand` (start.ts) and `apply`, which hands each action to its phase
 * (deal.ts, draw.ts, bet.ts, showdown.ts; the transitions between phases in flow.ts). States are
 * never mutated: each transition writes a copy-on-write draft of the state (draft.ts), so earlier
 * states stay valid.
 *
 * Dealing is an action supplied from outside (R-DEAL): the engine keeps no deck, only what is owed
 * to whom, the stub size and which cards are known, to refuse duplicates (R-DECK).
 */
import { applyBetting } from './bet';
import { applyDeal, applyReshuffle } from './deal';
import { refuse } from './draft';
import { applyDraw } from './draw';
import { applyMuck, applyShow } from './showdown';
import type { Action, ApplyResult, HandState } from './types';

export { checkHandConfig, startHand } from './start';
export { reshuffleCards } from './deal';
export { mayMuck } from './showdown';

/**
 * Applies one action. Returns the next state, or a refusal naming the rule (the state is unchanged).
 */
export function apply(state: HandState, action: Action): ApplyResult {
  if (action === null || typeof action !== 'object') return refuse('R-TERMS', 'not an action');
  if (state.phase === 'done') return refuse('R-ACTORDER', 'the hand is over');
  switch (action.type) {
    case 'deal':
      return applyDeal(state, action);
    case 'reshuffle':
      return applyReshuffle(state);
    case 'show':
      return applyShow(state, action);
    case 'muck':
      return applyMuck(state, action.seat);
    case 'draw':
      return applyDraw(state, action);
    case 'fold':
    case 'check':
    case 'call':
    case 'bet':
    case 'bringIn':
      return applyBetting(state, action);
    default:
      return refuse('R-TERMS', `unknown action ${String((action as { type?: unknown }).type)}`);
  }
}
