/**
 * The betting round's moves: fold, check, call, bring-in, bet / raise / complete (R-TERMS, R-FORCED,
 * R-LIMIT, R-PL, R-NL, R-MINRAISE, R-ALLIN). What a bet may be is computed in betting.ts.
 */
import { betBounds, fullRaiseTo, isBlock, liveCount } from './betting';
import { badSeat, begin, refuse, roundOf, type Draft } from './draft';
import { endRound, firstToAct } from './flow';
import { nextSeat } from './order';
import type { ApplyResult, BetAction, BringInAction, CallAction, CheckAction, FoldAction, HandState, SeatState } from './types';

export function applyBetting(state: HandState, a: FoldAction | CheckAction | CallAction | BetAction | BringInAction): ApplyResult {
  if (state.phase !== 'bet') {
    return refuse('R-ACTORDER', state.phase === 'deal' ? 'cards must be dealt first' : `no betting now (${state.phase})`);
  }
  const seat = a.seat;
  if (badSeat(state, seat) || seat !== state.toAct) {
    return refuse('R-ACTORDER', `it is seat ${String(state.toAct)}'s turn (R-ONEHAND: a player acts only from their seat, in turn)`);
  }
  const p = state.seats[seat];
  const toCall = state.currentBet - p.bet;
  const callCost = toCall < p.stack ? toCall : p.stack;
  if (state.bringInDue && a.type !== 'bringIn' && a.type !== 'bet') {
    return refuse('R-FORCED', 'the bring-in may not pass: post the bring-in or complete (D art. 7 III)');
  }
  switch (a.type) {
    case 'fold': {
      if (toCall <= 0) return refuse('R-TERMS', 'nothing to call: check rather than fold');
      const d = begin(state);
      const ns = d.state;
      const q = d.seat(seat);
      q.status = 'folded';
      q.acted = true;
      d.log({ round: roundOf(ns), kind: 'fold', seat });
      return afterAction(d, seat);
    }
    case 'check': {
      if (toCall > 0) return refuse('R-TERMS', `a check cannot answer a bet: call ${callCost} or fold`, { call: callCost });
      const d = begin(state);
      const ns = d.state;
      d.seat(seat).acted = true;
      d.log({ round: roundOf(ns), kind: 'check', seat });
      return afterAction(d, seat);
    }
    case 'call': {
      if (toCall <= 0) return refuse('R-TERMS', 'nothing to call: check');
      const d = begin(state);
      const ns = d.state;
      const q = d.seat(seat);
      q.stack -= callCost;
      q.bet += callCost;
      q.committed += callCost;
      q.acted = true;
      if (q.stack === 0) q.status = 'allin';
      d.log({ round: roundOf(ns), kind: 'call', seat, amount: callCost, allIn: q.stack === 0 });
      return afterAction(d, seat);
    }
    case 'bringIn': {
      if (!state.bringInDue) return refuse('R-FORCED', 'no bring-in is due');
      const r = state.rules;
      const amount = r.bringIn < p.stack ? r.bringIn : p.stack;
      const d = begin(state);
      const ns = d.state;
      const q = d.seat(seat);
      q.stack -= amount;
      q.bet += amount;
      q.committed += amount;
      q.acted = true;
      if (q.stack === 0) q.status = 'allin';
      ns.bringInDue = false;
      // Our reading (as for the big blind, R-ALLIN): a bring-in posted all-in for less still sets
      // the full bring-in for the others.
      ns.currentBet = r.bringIn;
      if (r.bringIn >= r.smallBet) {
        // A bring-in of a full small bet is the round's opening bet.
        ns.fullBets = 1;
        ns.lastIncrement = r.bringIn;
        ns.lastFullLevel = r.bringIn;
      }
      d.log({ round: roundOf(ns), kind: 'bring-in', seat, amount, allIn: q.stack === 0 });
      return afterAction(d, seat);
    }
    case 'bet':
      return applyBet(state, a, seat, p);
  }
}

function applyBet(state: HandState, a: BetAction, seat: number, p: SeatState): ApplyResult {
  const b = betBounds(state, seat);
  if (isBlock(b)) return refuse(b.rule, b.message);
  const to = a.to;
  if (typeof to !== 'number' || !Number.isSafeInteger(to)) {
    return refuse('R-CONSERVE', 'an amount is a whole number of chips', { min: b.min, max: b.max });
  }
  const r = state.rules;
  const allInTo = p.bet + p.stack;
  if (to > allInTo) return refuse(r.structure === 'no-limit' ? 'R-NL' : 'R-NODEBT', `at most ${allInTo}: all the chips on the table`, { min: b.min, max: b.max });
  const bad = b.exact ? to !== b.min && to !== b.max : to < b.min || to > b.max;
  if (bad) {
    let rule: string;
    if (state.bringInDue || b.kind === 'complete') rule = r.structure === 'limit' ? 'R-LIMIT' : 'R-FORCED';
    else if (r.structure === 'limit') rule = 'R-LIMIT';
    else if (to > b.max) rule = r.structure === 'pot-limit' ? 'R-PL' : 'R-NL';
    else rule = 'R-MINRAISE';
    const range = b.min === b.max ? `${b.min}` : b.exact ? `${b.min} or ${b.max}` : `${b.min} to ${b.max}`;
    return refuse(rule, `${b.kind} to ${range}${b.min === allInTo ? ' (all-in)' : ''}, not ${to}`, { min: b.min, max: b.max });
  }
  const kind = b.kind;
  const fullTo = state.bringInDue ? r.smallBet : fullRaiseTo(state);
  const d = begin(state);
  const ns = d.state;
  const q = d.seat(seat);
  const added = to - q.bet;
  q.stack -= added;
  q.bet = to;
  q.committed += added;
  q.acted = true;
  if (q.stack === 0) q.status = 'allin';
  if (to >= fullTo) {
    // A full bet or raise (R-MINRAISE): it reopens the betting and counts toward the cap.
    const base = r.structure === 'limit' && ns.fullBets === 0 ? 0 : ns.currentBet;
    if (to - base > ns.lastIncrement) ns.lastIncrement = to - base;
    ns.lastFullLevel = to;
    ns.fullBets++;
    if (r.cap !== null && ns.fullBets >= r.cap && liveCount(ns) > 2) ns.capLocked = true;
  }
  ns.bringInDue = false;
  ns.currentBet = to;
  ns.aggressor = seat;
  d.log({ round: roundOf(ns), kind, seat, amount: added, to, allIn: q.stack === 0 });
  return afterAction(d, seat);
}

/** After a betting action: note when the actor may raise again, then pass the action on. */
function afterAction(d: Draft, seat: number): ApplyResult {
  const ns = d.state;
  const seats = ns.seats;
  const q = seats[seat];
  if (q.status === 'in') q.reopenAt = fullRaiseTo(ns); // R-ALLIN, T 7-19
  // Players still in the hand, and those of them who may still bet, in one pass.
  let live = 0;
  let canBet = 0;
  for (let i = 0; i < seats.length; i++) {
    const st = seats[i].status;
    if (st === 'in') canBet++;
    else if (st !== 'allin') continue;
    live++;
  }
  if (live <= 1) {
    endRound(d);
    return { ok: true, state: ns };
  }
  const next = firstToAct(ns, nextSeat(seat, seats.length), canBet);
  ns.toAct = next;
  if (next === null) endRound(d);
  return { ok: true, state: ns };
}
