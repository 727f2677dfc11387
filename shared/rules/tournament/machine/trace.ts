/**
 * The trace's `supervision` flag (A 1.3.6.c.1 to c.6: "l'évènement est transmis par l'opérateur sans
 * acquittement du joueur"), set by this one rule on every money record the machine writes; the
 * operator's reading is docs/trace.md's table.
 */
import type { Entrant } from './types';

/**
 * What wrote a record: the player's own request (`request`: a registration, an unregistration, a
 * rebuy, an add-on, a re-entry), the result of a hand they were dealt (`hand`: a bounty won, a place
 * reached), or the operator alone (`operator`: a cancellation, an exclusion).
 */
export type Cause = 'request' | 'hand' | 'operator';

/**
 * Flagged when the player did not do it: the operator's acts; everything of a practice player (the
 * operator plays them); a hand's result for a player who was absent (blinded, their hand dead: T 2-14,
 * 2-15) or excluded (taken out by the operator, T 13-1).
 */
export function supervision(e: Pick<Entrant, 'auto' | 'absent' | 'excluded'>, cause: Cause): boolean {
  if (cause === 'operator' || e.auto) return true;
  return cause === 'hand' && (e.absent || e.excluded !== null);
}
