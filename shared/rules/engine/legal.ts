/**
 * `legalActions(state)`: what may happen now, with its bounds (CONVENTIONS.md: "can it happen, why
 * not, do it"). Everything it offers, `apply` accepts; what it does not offer, `apply` refuses.
 */
import { betBounds, isBlock } from './betting';
import { mayMuck } from './showdown';
import { ALL_DOWN, ALL_UP } from './seat';
import type { DealRequest, HandState, LegalActions } from './types';
import { variantOf } from './variant';

function none(next: LegalActions['next'], seat: number | null): LegalActions {
  return { next, seat, deal: null, fold: false, check: false, call: null, bringIn: null, bet: null, draw: null, show: false, muck: false };
}

/** The deal the engine waits for, or null: seats in dealing order first, then the board. */
export function pendingDeal(state: HandState): DealRequest | null {
  if (state.phase !== 'deal' && state.phase !== 'draw') return null;
  const street = variantOf(state.variant).streets[state.street];
  const dealtIn = state.plan.dealtIn;
  for (let d = 0; d < dealtIn.length; d++) {
    const seat = dealtIn[d];
    const p = state.seats[seat];
    const owed = p.owed;
    if (owed === 0) continue;
    const from = street.hole.length - owed;
    // T 8-4: a hand already shown in an all-in runout gets its later cards face up.
    const deal = state.phase === 'deal';
    const shown = p.shown;
    let ups = 0;
    for (let k = 0; k < owed; k++) if (deal && (shown || street.hole[from + k] === 'up')) ups++;
    let up: boolean[];
    // The common cases (all down, all up) share the engine's frozen flags: no allocation per deal.
    if (owed < ALL_DOWN.length && (ups === 0 || ups === owed)) {
      up = ups === 0 ? ALL_DOWN[owed] : ALL_UP[owed];
    } else {
      up = new Array<boolean>(owed);
      for (let k = 0; k < owed; k++) up[k] = deal && (shown || street.hole[from + k] === 'up');
    }
    return { seat, count: owed, up, stub: state.stub, reshuffle: state.phase === 'draw' && owed > state.stub };
  }
  const board = state.boardOwed;
  if (state.phase === 'deal' && board > 0) {
    const up = board < ALL_UP.length ? ALL_UP[board] : new Array<boolean>(board).fill(true);
    return { seat: null, count: board, up, stub: state.stub, reshuffle: false };
  }
  return null;
}

export function legalActions(state: HandState): LegalActions {
  switch (state.phase) {
    case 'done':
      return none('done', null);
    case 'showdown': {
      const seat = state.showQueue[0];
      const out = none('show', seat);
      out.show = true;
      out.muck = mayMuck(state, seat);
      return out;
    }
    case 'deal': {
      // T 8-4: in an all-in runout the hands are shown before the remaining cards.
      if (state.allInShowdown && state.showQueue.length > 0 && variantOf(state.variant).family !== 'draw') {
        const out = none('show', state.showQueue[0]);
        out.show = true;
        out.deal = pendingDeal(state); // the dealer may also go on: shows and deals in any order
        return out;
      }
      const out = none('deal', null);
      out.deal = pendingDeal(state);
      return out;
    }
    case 'draw': {
      const deal = pendingDeal(state);
      if (deal !== null) {
        const out = none('deal', null);
        out.deal = deal;
        return out;
      }
      const seat = state.toAct as number;
      const out = none('draw', seat);
      out.draw = { max: state.seats[seat].hole.length };
      return out;
    }
    case 'bet': {
      const seat = state.toAct as number;
      const p = state.seats[seat];
      const out = none('act', seat);
      const toCall = state.currentBet - p.bet;
      if (state.bringInDue) {
        out.bringIn = state.rules.bringIn < p.stack ? state.rules.bringIn : p.stack;
      } else if (toCall > 0) {
        out.fold = true;
        out.call = toCall < p.stack ? toCall : p.stack;
      } else {
        out.check = true;
      }
      const b = betBounds(state, seat);
      if (!isBlock(b)) out.bet = b;
      return out;
    }
  }
}
