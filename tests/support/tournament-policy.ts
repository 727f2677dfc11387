/**
 * How the tournament tests play our seat, from what the rules package offers: the same
 * choice for the client integration tests (tests/integration/client-tournament-env.ts) and the browser
 * flows (tests/e2e/tournament-api.ts).
 */
import type { LegalActions } from '../../shared/rules/engine/types';
import type { Move } from '../../shared/protocol/messages';

/** `passive`: check, else fold; `shove`: all in whenever a bet is open, else call (a heads-up ends in a few hands). */
export type Policy = 'shove' | 'passive';

/** Our move under `policy` (`legal` is our seat's: to show, to draw, or a betting decision). */
export function policyMove(legal: LegalActions, policy: Policy): Move {
  if (legal.next === 'show') return { type: 'show' };
  if (legal.next === 'draw') return { type: 'draw', discards: [] };
  if (policy === 'shove') return legal.bet !== null ? { type: 'bet', to: legal.bet.max } : legal.call !== null ? { type: 'call' } : { type: 'check' };
  return legal.check ? { type: 'check' } : { type: 'fold' };
}
