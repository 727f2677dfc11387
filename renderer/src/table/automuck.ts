/**
 * Auto-muck of a losing hand at the showdown (a setting, off by default): the client
 * mucks for us only when the engine allows it (R-SHOWDOWN, T 8-5: `legal.muck`) and the hand cannot
 * win or tie any part of any pot it is in against the hands already shown. Conservative by design: a
 * pot nobody has shown a hand for yet, a tie, or a low half we may still take keeps the hand.
 */
import { legalActions } from '../../../shared/rules/engine/legal';
import { buildPots, handValues } from '../../../shared/rules/engine/settle';
import type { HandState } from '../../../shared/rules/engine/types';
import { variantOf } from '../../../shared/rules/variants';

/** Whether `seat` (ours, in our own view of the hand) should muck now rather than show. */
export function shouldAutoMuck(state: HandState, seat: number): boolean {
  const v = variantOf(state.variant);
  // Never in Stud: the decree has every hand still in shown (D art. 7 III), whatever a house rule says.
  if (v.family === 'stud') return false;
  // Never all-in (the engine forbids it: T 8-4, the hands are shown); only on our turn to show or muck.
  const me = state.seats[seat];
  if (me === undefined || me.status === 'allin' || state.allInShowdown) return false;
  const legal = legalActions(state);
  if (legal.next !== 'show' || legal.seat !== seat || !legal.muck) return false;
  if (me.hole.some((c) => c === null)) return false;
  const mine = handValues(state, seat);
  const hiLo = v.evaluation === 'high-low8';
  const shown = (s: number) => s !== seat && state.seats[s]?.shown === true && !state.seats[s].mucked && state.seats[s].hole.every((c) => c !== null);
  for (const pot of buildPots(state)) {
    if (!pot.eligible.includes(seat)) continue;
    const rivals = pot.eligible.filter(shown).map((s) => handValues(state, s));
    // D art. 6 IV: an equal value splits the pot, so only a strictly better shown hand beats ours.
    const beatenHigh = rivals.some((r) => r.high > mine.high);
    // R-LOW8: the low half goes to the best qualifying low (0: none); without any, the high takes all.
    const beatenLow = mine.low === 0 || rivals.some((r) => r.low > mine.low);
    if (!beatenHigh || (hiLo && !beatenLow)) return false;
  }
  return true;
}
