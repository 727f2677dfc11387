/** Triple Draw's draw rounds (R-DEAL): each player in turn names the cards they discard. */
import { isCard, type Card } from '../cards';
import { badSeat, begin, markUsed, refuse, roundOf } from './draft';
import { beginBetting, drawDone, nextDrawer } from './flow';
import type { ApplyResult, DrawAction, HandState } from './types';
import { variantOf } from './variant';

export function applyDraw(state: HandState, a: DrawAction): ApplyResult {
  if (state.phase !== 'draw') return refuse('R-ACTORDER', 'no draw now');
  if (badSeat(state, a.seat) || a.seat !== state.toAct) {
    return refuse('R-ACTORDER', `it is seat ${String(state.toAct)}'s turn to draw`);
  }
  const p = state.seats[a.seat];
  const discards = a.discards;
  if (!Array.isArray(discards) || discards.length > p.hole.length) {
    return refuse('R-DEAL', `discard between 0 and ${p.hole.length} cards`, { min: 0, max: p.hole.length });
  }
  // Each discard takes the first card of the hand still there that is it, else the first unknown card
  // of this view. Positions taken are marked in a bit set (a hand holds at most 7 cards), and the
  // hand is rebuilt once, rather than spliced per discard.
  const held = p.hole;
  let taken = 0;
  for (let k = 0; k < discards.length; k++) {
    const c = discards[k];
    if (c !== null && !isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
    let at = -1;
    if (c !== null) {
      for (let i = 0; i < held.length; i++) {
        if ((taken & (1 << i)) === 0 && held[i] === c) {
          at = i;
          break;
        }
      }
    }
    if (at < 0) {
      for (let i = 0; i < held.length; i++) {
        if ((taken & (1 << i)) === 0 && held[i] === null) {
          at = i; // an unknown card of this view
          break;
        }
      }
    }
    if (at < 0) return refuse('R-DEAL', `card ${String(c)} is not in seat ${a.seat}'s hand`);
    taken |= 1 << at;
  }
  const hole = new Array<Card | null>(held.length - discards.length);
  const up = new Array<boolean>(hole.length);
  for (let i = 0, j = 0; i < held.length; i++) {
    if ((taken & (1 << i)) !== 0) continue;
    hole[j] = held[i];
    up[j++] = p.up[i];
  }
  const d = begin(state);
  const ns = d.state;
  const q = d.seat(a.seat);
  q.hole = hole;
  q.up = up;
  q.discards = discards.slice();
  q.owed = discards.length;
  q.drew = true;
  for (let k = 0; k < discards.length; k++) {
    const c = discards[k];
    if (c !== null) markUsed(ns, c); // discards stay out this round (R-DEAL)
  }
  d.log({ round: roundOf(ns), kind: 'discard', seat: a.seat, cards: discards.slice() });
  ns.toAct = nextDrawer(ns, a.seat);
  if (drawDone(ns)) beginBetting(d, variantOf(ns.variant));
  return { ok: true, state: ns };
}
