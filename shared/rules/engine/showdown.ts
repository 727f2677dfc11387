/**
 * The showdown (R-SHOWDOWN, T 8-3 to 8-6): who shows first, showing and mucking, and the end of the
 * hand (settlement, settle.ts).
 */
import { isCard, type Card } from '../cards';
import { hasHouseRule } from '../tableRules';
import { badSeat, begin, inHand, isUsed, markUsed, refuse, type Draft } from './draft';
import { nextSeat } from './order';
import { liveCommitments, settle } from './settle';
import type { ApplyResult, HandState, ShowAction } from './types';
import { variantOf } from './variant';

/** Contenders clockwise starting at `start` (inclusive when `after` is false). */
export function showOrderFrom(s: HandState, start: number, after: boolean): number[] {
  const n = s.seats.length;
  const out: number[] = [];
  for (let k = 0, i = after ? nextSeat(start, n) : start; k < n; k++, i = nextSeat(i, n)) {
    const p = s.seats[i];
    if (inHand(p.status) && !p.shown && !p.mucked) out.push(i);
  }
  return out;
}

/**
 * R-SHOWDOWN, T 8-3: the last aggressor of the last round shows first (else the first to act in
 * it), then clockwise. All-in with no betting left: every hand is shown (T 8-4), in any order.
 */
export function beginShowdown(d: Draft): void {
  const ns = d.state;
  ns.phase = 'showdown';
  ns.toAct = null;
  if (ns.allInShowdown) {
    ns.showQueue = showOrderFrom(ns, ns.plan.button ?? ns.seats.length - 1, true);
  } else {
    const start = ns.aggressor ?? ns.roundFirst ?? 0;
    ns.showQueue = showOrderFrom(ns, start, false);
  }
  advanceShowdown(d);
}

/**
 * Another contender has not mucked and put in, live, at least `atLeast` (dead money aside: a big-blind
 * ante or a dead small blind contests no level of its own, R-POTS). None other means the seat wins
 * without showing (T 8-6).
 */
function othersUnmucked(s: HandState, seat: number, atLeast: number, live: readonly number[] | null = null): boolean {
  const seats = s.seats;
  for (let i = 0; i < seats.length; i++) {
    if (i === seat) continue;
    const p = seats[i];
    if (inHand(p.status) && !p.mucked && (live === null ? p.committed : live[i]) >= atLeast) return true;
  }
  return false;
}

function advanceShowdown(d: Draft): void {
  const ns = d.state;
  if (!ns.allInShowdown) {
    // T 8-6: when every other hand is mucked, the last one wins without showing.
    while (ns.showQueue.length > 0 && !othersUnmucked(ns, ns.showQueue[0], 0)) ns.showQueue = ns.showQueue.slice(1);
  }
  if (ns.showQueue.length === 0 && ns.phase === 'showdown') finish(d, true);
}

/** Settles the hand and records the uncalled returns in the result. */
export function finish(d: Draft, showdown: boolean): void {
  const ns = d.state;
  ns.phase = 'done';
  ns.toAct = null;
  ns.showQueue = [];
  const result = settle(ns, showdown);
  for (const e of ns.log) if (e.kind === 'return') result.uncalled.push({ seat: e.seat, amount: e.amount, round: e.round });
  ns.result = result;
}

function showsOpen(s: HandState): boolean {
  if (s.phase === 'showdown') return true;
  // All-in runout (T 8-4): shown before the remaining cards, once no decision is left (draws are
  // decisions, so Triple Draw shows after the last draw).
  return s.allInShowdown && s.phase === 'deal' && variantOf(s.variant).family !== 'draw';
}

export function applyShow(state: HandState, a: ShowAction): ApplyResult {
  if (!showsOpen(state)) return refuse('R-SHOWDOWN', 'hands are shown at the showdown');
  const seat = a.seat;
  if (badSeat(state, seat) || !state.showQueue.includes(seat)) return refuse('R-SHOWDOWN', `seat ${String(seat)} has nothing to show now`);
  if (!state.allInShowdown && state.showQueue[0] !== seat) {
    return refuse('R-SHOWDOWN', `seat ${state.showQueue[0]} shows or mucks first (T 8-3)`);
  }
  const p = state.seats[seat];
  let hole = p.hole;
  const unknown = hole.indexOf(null) >= 0;
  if (a.cards !== undefined) {
    const cards = a.cards;
    if (!Array.isArray(cards) || cards.length !== hole.length) return refuse('R-SHOWDOWN', `show all ${hole.length} cards`);
    const fresh: Card[] = [];
    for (const c of cards) {
      if (!isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
      if (!hole.includes(c)) fresh.push(c);
    }
    for (const c of hole) if (c !== null && !cards.includes(c)) return refuse('R-SHOWDOWN', `card ${c} of the hand is missing`);
    let nulls = 0;
    for (const c of hole) if (c === null) nulls++;
    if (fresh.length !== nulls) return refuse('R-SHOWDOWN', 'the cards shown are not the cards dealt');
    for (let i = 0; i < fresh.length; i++) {
      if (isUsed(state, fresh[i]) || fresh.indexOf(fresh[i]) !== i) return refuse('R-DECK', `card ${fresh[i]} is already known elsewhere`);
    }
    if (fresh.length > 0) {
      hole = hole.slice();
      let k = 0;
      for (let i = 0; i < hole.length; i++) if (hole[i] === null) hole[i] = fresh[k++];
    }
  } else if (unknown) {
    return refuse('R-SHOWDOWN', "this state does not know the hand's cards: give them");
  }
  const d = begin(state);
  const ns = d.state;
  const q = d.seat(seat);
  if (hole !== p.hole) {
    q.hole = hole;
    for (const c of hole) markUsed(ns, c as Card);
  }
  q.shown = true;
  const old = ns.showQueue;
  const queue: number[] = [];
  for (let i = 0; i < old.length; i++) if (old[i] !== seat) queue.push(old[i]);
  ns.showQueue = queue;
  d.log({ round: 'reveal', kind: 'show', seat, cards: hole.slice() });
  advanceShowdown(d);
  return { ok: true, state: ns };
}

/**
 * R-SHOWDOWN, T 8-5: a hand may be mucked, unless it is all-in showdown, the last claim on a pot, or
 * a Stud showdown, where every player still in opens their hidden cards (D art. 7 III; recorded
 * hands of games that let a loser muck replay with the `stud-muck` house rule).
 */
export function mayMuck(s: HandState, seat: number): boolean {
  if (s.allInShowdown) return false;
  if (studShowsAll(s)) return false;
  const { live } = liveCommitments(s);
  return othersUnmucked(s, seat, live[seat], live);
}

/** D art. 7 III: "Tous les joueurs ouvrent ensuite leurs trois cartes privatives fermées". */
function studShowsAll(s: HandState): boolean {
  return variantOf(s.variant).forcedBets === 'ante-bring-in' && !hasHouseRule(s.rules, 'stud-muck');
}

export function applyMuck(state: HandState, seat: number): ApplyResult {
  if (state.phase !== 'showdown') return refuse('R-SHOWDOWN', 'hands are mucked at the showdown');
  if (badSeat(state, seat) || state.showQueue[0] !== seat) {
    return refuse('R-SHOWDOWN', `seat ${String(state.showQueue[0])} shows or mucks first (T 8-3)`);
  }
  if (state.allInShowdown) return refuse('R-SHOWDOWN', 'all-in with no betting left: every hand is shown (T 8-4)');
  if (studShowsAll(state)) return refuse('R-SHOWDOWN', 'at a Stud showdown every player opens their hidden cards (D art. 7 III)');
  if (!mayMuck(state, seat)) return refuse('R-SHOWDOWN', 'no one else claims a pot this hand is in: show it');
  const d = begin(state);
  const ns = d.state;
  d.seat(seat).mucked = true;
  ns.showQueue = ns.showQueue.slice(1);
  d.log({ round: 'reveal', kind: 'muck', seat });
  advanceShowdown(d);
  return { ok: true, state: ns };
}
