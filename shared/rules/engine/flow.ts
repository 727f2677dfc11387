/**
 * The order of phases: a street's cards dealt → draw or betting → end of the round → next street,
 * showdown or settlement. Each phase's moves live in deal.ts, draw.ts, bet.ts and showdown.ts; they
 * call these transitions on their draft once the move is made.
 */
import type { Card } from '../cards';
import type { Variant } from '../variants';
import { inHand, roundOf, type Draft } from './draft';
import { bringInSeat, nextSeat, openPairShowing, studFirstSeat } from './order';
import { appendCards } from './seat';
import { beginShowdown, finish, showOrderFrom } from './showdown';
import type { HandState } from './types';
import { variantOf } from './variant';

/** A player who may still bet must act: facing a bet, or not yet acted while someone could answer. */
function needsAction(s: HandState, i: number, canBet: number): boolean {
  const p = s.seats[i];
  return p.status === 'in' && (p.bet < s.currentBet || (!p.acted && canBet >= 2));
}

function countCanBet(s: HandState): number {
  let k = 0;
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].status === 'in') k++;
  return k;
}

/**
 * First seat from `start` (inclusive), clockwise, that must act; null when none. `canBet` is
 * `countCanBet(s)`, passed in when the caller has already counted it.
 */
export function firstToAct(s: HandState, start: number, canBet: number = countCanBet(s)): number | null {
  const n = s.seats.length;
  for (let k = 0, i = start; k < n; k++, i = nextSeat(i, n)) if (needsAction(s, i, canBet)) return i;
  return null;
}

/** The street's cards are all dealt: draw, bring-in or betting comes next. */
export function beginStreet(d: Draft): void {
  const ns = d.state;
  const v = variantOf(ns.variant);
  const street = v.streets[ns.street];
  if (street.draw) {
    beginDraw(d);
    return;
  }
  beginBetting(d, v);
}

export function beginBetting(d: Draft, v: Variant): void {
  const ns = d.state;
  ns.phase = 'bet';
  ns.aggressor = null;
  const n = ns.seats.length;
  let start: number;
  if (v.family === 'stud') {
    const razz = v.evaluation === 'razz';
    if (ns.street === 0) {
      // R-FORCED: the lowest up-card (Razz: highest) posts the bring-in and may not pass.
      const seat = bringInSeat(ns, razz);
      if (ns.seats[seat].status === 'in') {
        ns.bringInDue = true;
        ns.toAct = seat;
        ns.roundFirst = seat;
        return;
      }
      start = nextSeat(seat, n); // the bring-in is all-in from the antes: the next player opens
    } else {
      if (ns.street === 1 && ns.rules.studOpenPairBigBet && openPairShowing(ns)) ns.bigBetAllowed = true;
      start = studFirstSeat(ns, razz); // R-ACTORDER, D art. 7 III
    }
  } else if (ns.street === 0) {
    start = nextSeat(ns.plan.bigBlind as number, n); // R-ACTORDER: left of the big blind pre-flop
  } else {
    start = nextSeat(ns.plan.button as number, n); // then left of the button
  }
  const first = firstToAct(ns, start);
  ns.roundFirst = first ?? start;
  ns.toAct = first;
  if (first === null) endRound(d);
}

function beginDraw(d: Draft): void {
  const ns = d.state;
  ns.phase = 'draw';
  const seats = ns.seats;
  let pool: (Card | null)[] | null = null;
  for (let i = 0; i < seats.length; i++) {
    const p = seats[i];
    if (p.discards.length > 0) {
      // R-DEAL: the previous round's discards join the pool that a reshuffle may use.
      pool = appendCards(pool ?? ns.discardPool, p.discards);
      d.seat(i).discards = [];
    }
    if (inHand(p.status) && p.drew) d.seat(i).drew = false;
  }
  if (pool !== null) ns.discardPool = pool;
  ns.toAct = nextDrawer(ns, ns.plan.button as number);
  if (ns.toAct === null) beginBetting(d, variantOf(ns.variant));
}

/** Next player after `from` (exclusive) still to choose discards; all-in players draw too. */
export function nextDrawer(s: HandState, from: number): number | null {
  const n = s.seats.length;
  for (let k = 0, i = nextSeat(from, n); k < n; k++, i = nextSeat(i, n)) {
    const p = s.seats[i];
    if (inHand(p.status) && !p.drew) return i;
  }
  return null;
}

export function drawDone(s: HandState): boolean {
  if (s.toAct !== null) return false;
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].owed > 0) return false;
  return true;
}

/**
 * The betting round is over: return the uncalled part of the top bet (R-UNCALLED, D art. 9), gather
 * the bets, then settle, go to showdown or to the next street.
 */
export function endRound(d: Draft): void {
  const ns = d.state;
  const seats = ns.seats;
  const n = seats.length;
  let top = -1;
  let topBet = 0;
  let second = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const b = seats[i].bet;
    sum += b;
    if (b > topBet) {
      second = topBet;
      topBet = b;
      top = i;
    } else if (b > second) {
      second = b;
    }
  }
  if (top >= 0 && topBet > second) {
    const back = topBet - second;
    const p = d.seat(top);
    p.stack += back;
    p.bet -= back;
    p.committed -= back;
    if (p.status === 'allin') p.status = 'in';
    sum -= back;
    d.log({ round: roundOf(ns), kind: 'return', seat: top, amount: back });
  }
  ns.pot += sum;
  for (let i = 0; i < n; i++) {
    const p = seats[i];
    // Folded and all-in players never act again: their round flags may stay as they are.
    if (p.bet !== 0 || (p.status === 'in' && (p.acted || p.reopenAt !== 0))) {
      const q = d.seat(i);
      q.bet = 0;
      q.acted = false;
      q.reopenAt = 0;
    }
  }
  ns.currentBet = 0;
  ns.lastIncrement = 0;
  ns.lastFullLevel = 0;
  ns.fullBets = 0;
  ns.capLocked = false;
  ns.bigBetAllowed = false;
  ns.bringInDue = false;
  ns.toAct = null;

  // Players still in the hand, and those of them who may still bet, in one pass.
  let live = 0;
  let canBet = 0;
  for (let i = 0; i < n; i++) {
    const st = seats[i].status;
    if (st === 'in') canBet++;
    else if (st !== 'allin') continue;
    live++;
  }
  if (live <= 1) {
    finish(d, false);
    return;
  }
  // T 8-4: no more betting is possible (all, or all but one, are all-in): hands are shown at once.
  if (!ns.allInShowdown && canBet <= 1) {
    ns.allInShowdown = true;
    ns.showQueue = showOrderFrom(ns, ns.plan.button ?? n - 1, true);
  }
  const v = variantOf(ns.variant);
  if (ns.street === v.streets.length - 1) {
    beginShowdown(d);
    return;
  }
  ns.street++;
  const street = v.streets[ns.street];
  ns.boardOwed = street.board;
  if (street.hole.length > 0) {
    for (let i = 0; i < n; i++) if (inHand(seats[i].status)) d.seat(i).owed = street.hole.length;
  }
  if (street.hole.length === 0 && street.board === 0) beginStreet(d);
  else ns.phase = 'deal';
}
