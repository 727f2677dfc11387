/**
 * Dealing (R-DEAL, R-DECK): cards are an action supplied from outside; the engine keeps no deck, only
 * what is owed to whom, the stub size and which cards are known, to refuse duplicates. Triple Draw's
 * reshuffle of earlier discards is here too.
 */
import { isCard, type Card } from '../cards';
import { badSeat, begin, isUsed, refuse, roundOf, unmarkUsed } from './draft';
import { beginBetting, beginStreet, drawDone, endRound } from './flow';
import { ALL_DOWN, ALL_UP, appendCards, appendFlags } from './seat';
import { beginShowdown } from './showdown';
import type { ApplyResult, DealAction, HandState } from './types';
import { variantOf } from './variant';

/** Seats in dealing order (clockwise from left of the button, as planned). */
function dealOrder(s: HandState): readonly number[] {
  return s.plan.dealtIn;
}

export function applyDeal(state: HandState, a: DealAction): ApplyResult {
  const cards = a.cards;
  if (!Array.isArray(cards) || cards.length === 0) return refuse('R-DEAL', 'a deal gives at least one card');
  const v = variantOf(state.variant);
  const street = v.streets[state.street];
  let ups: boolean[];
  if (a.seat === null) {
    if (state.phase !== 'deal' || state.boardOwed === 0) return refuse('R-DEAL', 'no board card is due now');
    if (cards.length > state.boardOwed) return refuse('R-DEAL', `only ${state.boardOwed} board card(s) are due`, { max: state.boardOwed });
    ups = cards.length <= 7 ? ALL_UP[cards.length] : new Array<boolean>(cards.length).fill(true);
  } else {
    if (badSeat(state, a.seat)) return refuse('R-DEAL', `seat ${String(a.seat)} is not a seat of this table`);
    const p = state.seats[a.seat];
    if (p.owed === 0 || (state.phase !== 'deal' && state.phase !== 'draw')) {
      return refuse('R-DEAL', `no card is due to seat ${a.seat} now`);
    }
    if (cards.length > p.owed) return refuse('R-DEAL', `only ${p.owed} card(s) are due to seat ${a.seat}`, { max: p.owed });
    const from = street.hole.length - p.owed;
    // T 8-4: a hand already shown in an all-in runout gets its later cards face up.
    const shown = p.shown;
    let anyUp = false;
    for (let k = 0; k < cards.length; k++) if (state.phase === 'deal' && (shown || street.hole[from + k] === 'up')) anyUp = true;
    if (!anyUp && cards.length <= 7) {
      ups = ALL_DOWN[cards.length];
    } else {
      ups = new Array<boolean>(cards.length);
      for (let k = 0; k < cards.length; k++) ups[k] = state.phase === 'deal' && (shown || street.hole[from + k] === 'up');
    }
  }
  if (cards.length > state.stub) {
    return refuse('R-DEAL', `the stub holds ${state.stub} card(s): reshuffle the earlier discards first`, { max: state.stub });
  }
  let seenLo = 0;
  let seenHi = 0;
  for (let k = 0; k < cards.length; k++) {
    const c = cards[k];
    if (c === null) {
      if (ups[k]) return refuse('R-DEAL', 'a face-up card is seen by everyone: it must be given');
      continue;
    }
    if (!isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
    const dup = c < 26 ? seenLo & (1 << c) : seenHi & (1 << (c - 26));
    if (dup !== 0 || isUsed(state, c)) return refuse('R-DECK', `card ${c} is already dealt: one 52-card deck`);
    if (c < 26) seenLo |= 1 << c;
    else seenHi |= 1 << (c - 26);
  }
  const d = begin(state);
  const ns = d.state;
  ns.usedLo |= seenLo;
  ns.usedHi |= seenHi;
  ns.stub -= cards.length;
  const dealt = cards.slice();
  // Whether this deal served everything it was for: only then can the step be complete.
  let served: boolean;
  if (a.seat === null) {
    ns.board = appendCards(ns.board, dealt) as Card[];
    ns.boardOwed -= cards.length;
    served = ns.boardOwed === 0;
  } else {
    const p = d.seat(a.seat);
    p.hole = appendCards(p.hole, dealt);
    p.up = appendFlags(p.up, ups);
    p.owed -= cards.length;
    served = p.owed === 0;
  }
  d.log({ round: street.round, kind: 'deal', seat: a.seat, cards: dealt, up: ups });
  if (!served) return { ok: true, state: ns };
  if (ns.phase === 'deal') {
    if (ns.boardOwed === 0 && allDealt(ns)) {
      if (ns.allInShowdown && ns.street === v.streets.length - 1) beginShowdown(d);
      else if (ns.allInShowdown) endRound(d);
      else beginStreet(d);
    }
  } else if (drawDone(ns)) {
    beginBetting(d, v);
  }
  return { ok: true, state: ns };
}

function allDealt(s: HandState): boolean {
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].owed > 0) return false;
  return true;
}

/**
 * R-DEAL: the cards a reshuffle puts into the new stub, besides what is left of the old one: the
 * discards of earlier draw rounds; and, only when those cannot serve the waiting draw (the first
 * draw of a full table), this round's discards of players already served (our reading: the rule
 * cannot otherwise be met; never the discards of a player still waiting for cards). The dealer
 * calls it before applying `reshuffle`, shuffles these cards with the rest of its stub, and deals on.
 * Empty when no reshuffle is due.
 */
export function reshuffleCards(state: HandState): (Card | null)[] {
  const need = waitingDraw(state);
  if (state.phase !== 'draw' || need <= state.stub) return [];
  const out = state.discardPool.slice();
  if (state.stub + out.length < need) {
    for (const p of state.seats) if (p.owed === 0 && p.discards.length > 0) out.push(...p.discards);
  }
  return out;
}

/** Cards owed to the next seat to serve in a draw (the first in dealing order still owed). */
function waitingDraw(s: HandState): number {
  for (const seat of dealOrder(s)) if (s.seats[seat].owed > 0) return s.seats[seat].owed;
  return 0;
}

export function applyReshuffle(state: HandState): ApplyResult {
  if (state.phase !== 'draw' || waitingDraw(state) <= state.stub) {
    return refuse('R-DEAL', 'the stub can serve the draw: no reshuffle now');
  }
  const cards = reshuffleCards(state);
  const d = begin(state);
  const ns = d.state;
  const fromPool = Math.min(cards.length, state.discardPool.length);
  for (const c of cards) if (c !== null) unmarkUsed(ns, c);
  ns.discardPool = [];
  if (cards.length > fromPool) {
    for (let i = 0; i < ns.seats.length; i++) {
      const p = ns.seats[i];
      if (p.owed === 0 && p.discards.length > 0) d.seat(i).discards = [];
    }
  }
  ns.stub += cards.length;
  d.log({ round: roundOf(ns), kind: 'reshuffle', stub: ns.stub });
  return { ok: true, state: ns };
}
