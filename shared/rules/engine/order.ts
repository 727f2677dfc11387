/**
 * Who acts first and who gets what first: clockwise seat order, the Stud bring-in and first actor
 * (R-FORCED, R-ACTORDER, D art. 7 III) and the odd-chip order (R-ODDCHIP, T 8-13).
 */
import type { Card } from '../cards';
import type { HandState, SeatState } from './types';

/** Next seat index clockwise. */
export function nextSeat(seat: number, n: number): number {
  return seat + 1 === n ? 0 : seat + 1;
}

/** Rank 1..13 with the ace low (Razz: "king high", D art. 6 II). */
function lowRank(c: Card): number {
  const r = (c >> 2) + 2;
  return r === 14 ? 1 : r;
}

/**
 * R-FORCED: the bring-in is the lowest up-card, ties by suit clubs < diamonds < hearts < spades
 * (the card code orders rank then suit, ace high). Razz: the highest up-card, king high (ace low),
 * ties by the same suit order (spades highest, so K♠ brings in before K♣).
 */
export function bringInSeat(state: HandState, razz: boolean): number {
  let best = -1;
  let bestKey = 0;
  const seats = state.seats;
  for (let i = 0; i < seats.length; i++) {
    const s = seats[i];
    if (s.status !== 'in' && s.status !== 'allin') continue;
    const c = lastUpCard(s);
    if (c === null) continue;
    // Lowest code brings in (high games): invert so that "largest key wins" holds for both.
    const key = razz ? lowRank(c) * 4 + (c & 3) : 1000 - c;
    if (best < 0 || key > bestKey) {
      best = i;
      bestKey = key;
    }
  }
  return best;
}

function lastUpCard(s: SeatState): Card | null {
  for (let i = s.hole.length - 1; i >= 0; i--) if (s.up[i]) return s.hole[i];
  return null;
}

// Scratch space (evaluation is synchronous and never re-entered). `counts` is all zeros between
// calls: `visibleKey` clears only the entries it used.
const counts = new Int32Array(15);
const topSuit = new Int32Array(15);
const distinct = new Int32Array(15);

/**
 * A comparable key of the up cards (1 to 4 of them): category (high card, pair, two pair, trips,
 * quads), then ranks by count and rank, then the suit of the highest card. Straights and flushes do
 * not count in a partial hand (usual practice: four cards make neither).
 */
export function visibleKey(hole: readonly (Card | null)[], up: readonly boolean[], razz: boolean): number {
  // The distinct ranks showing, each with its count and its highest suit.
  let d = 0;
  for (let i = 0; i < hole.length; i++) {
    if (!up[i]) continue;
    const c = hole[i];
    if (c === null) continue;
    const r = razz ? lowRank(c) : (c >> 2) + 2;
    if (counts[r] === 0) {
      distinct[d++] = r;
      topSuit[r] = c & 3;
    } else if ((c & 3) > topSuit[r]) {
      topSuit[r] = c & 3;
    }
    counts[r]++;
  }
  // Ordered by count, then rank, highest first (insertion sort: a handful of ranks); the first four count.
  for (let i = 1; i < d; i++) {
    const r = distinct[i];
    const k = counts[r];
    let j = i - 1;
    while (j >= 0 && (counts[distinct[j]] < k || (counts[distinct[j]] === k && distinct[j] < r))) {
      distinct[j + 1] = distinct[j];
      j--;
    }
    distinct[j + 1] = r;
  }
  const m = d < 4 ? d : 4;
  let pairs = 0;
  let trips = 0;
  let quads = 0;
  for (let i = 0; i < m; i++) {
    const k = counts[distinct[i]];
    if (k === 2) pairs++;
    else if (k === 3) trips++;
    else if (k === 4) quads++;
  }
  const category = quads ? 4 : trips ? 3 : pairs >= 2 ? 2 : pairs === 1 ? 1 : 0;
  let key = category;
  for (let i = 0; i < 4; i++) key = key * 15 + (i < m ? distinct[i] : 0);
  const suit = m > 0 ? topSuit[distinct[0]] : 0;
  for (let i = 0; i < d; i++) counts[distinct[i]] = 0;
  return key * 4 + suit;
}

/**
 * R-ACTORDER, D art. 7 III: after 3rd street the best visible hand acts first, ties broken by the
 * suit of the highest card (spades first). Razz: the lowest visible hand (ace low); our reading for
 * its ties mirrors the bring-in: the lower suit of the highest card acts first. Among seats still
 * in the hand (all-in players included: the action then starts with them and passes on).
 */
export function studFirstSeat(state: HandState, razz: boolean): number {
  let best = -1;
  let bestKey = 0;
  const seats = state.seats;
  for (let i = 0; i < seats.length; i++) {
    const s = seats[i];
    if (s.status !== 'in' && s.status !== 'allin') continue;
    const key = visibleKey(s.hole, s.up, razz);
    if (best < 0 || (razz ? key < bestKey : key > bestKey)) {
      best = i;
      bestKey = key;
    }
  }
  return best;
}

/** R-LIMIT: some player still in the hand shows an open pair on 4th street. */
export function openPairShowing(state: HandState): boolean {
  for (const s of state.seats) {
    if (s.status !== 'in' && s.status !== 'allin') continue;
    let seen = 0;
    for (let i = 0; i < s.hole.length; i++) {
      const c = s.hole[i];
      if (!s.up[i] || c === null) continue;
      const bit = 1 << (c >> 2);
      if (seen & bit) return true;
      seen |= bit;
    }
  }
  return false;
}

/**
 * R-ODDCHIP: the order in which indivisible chips go to winners. With a button: seat order starting
 * left of the button (T 8-13; the button may be an empty seat). Stud (no button): the highest card
 * by suit first, among all the player's cards (ace high; Razz: king high), our reading of "highest
 * card by suit".
 */
export function oddChipOrder(state: HandState, winners: number[], razz: boolean): number[] {
  if (winners.length < 2) return winners;
  const button = state.plan.button;
  const n = state.seats.length;
  if (button !== null) {
    const out: number[] = [];
    for (let k = 1, seat = nextSeat(button, n); k <= n; k++, seat = nextSeat(seat, n)) {
      if (winners.includes(seat)) out.push(seat);
    }
    return out;
  }
  // Highest card first: a stable insertion sort on each winner's top card (a handful of winners; no
  // closure or comparator, which cost an allocation per call).
  const out = winners.slice();
  const keys = new Array<number>(out.length);
  for (let i = 0; i < out.length; i++) keys[i] = topCardKey(state.seats[out[i]].hole, razz);
  for (let i = 1; i < out.length; i++) {
    const seat = out[i];
    const key = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] < key) {
      out[j + 1] = out[j];
      keys[j + 1] = keys[j];
      j--;
    }
    out[j + 1] = seat;
    keys[j + 1] = key;
  }
  return out;
}

/** The highest card of a hand by rank then suit (ace high; Razz: king high); -1 when none is known. */
function topCardKey(hole: readonly (Card | null)[], razz: boolean): number {
  let best = -1;
  for (let i = 0; i < hole.length; i++) {
    const c = hole[i];
    if (c === null) continue;
    const key = razz ? lowRank(c) * 4 + (c & 3) : c;
    if (key > best) best = key;
  }
  return best;
}
