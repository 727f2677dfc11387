/**
 * Settling a finished hand: pots and side pots (R-POTS), hand values (R-HIGH, R-LOW8, R-RAZZ,
 * R-27), rake (R-RAKE), odd chips (R-ODDCHIP) and the result (R-CONSERVE).
 */
import type { Card } from '../cards';
import { eval27, evalHigh7, evalLow8, evalOmahaHigh, evalOmahaLow8, evalRazz } from '../eval';
import { oddChipOrder } from './order';
import { cloneSeat } from './seat';
import type { HandResult, HandState, PotResult, PotShare } from './types';
import { variantOf } from './variant';

/** `n` zeros: sized once and filled by a loop (faster than `fill`, a builtin call, or `push`, which grows). */
function zeros(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = 0;
  return out;
}

export interface PotLevel {
  amount: number;
  eligible: number[];
}

/**
 * Each seat's live commitment: what it put in, dead money aside. Dead money (R-POTS): a dead small
 * blind and a big-blind ante belong to the pot, not to their poster's all-in level, so they go to the
 * main pot, contested by every player still in; they never come back to their poster as a side pot
 * of their own. Antes paid by everyone stay in the levels: a player all-in on the ante can win only
 * the ante level from each (T 8-14).
 */
export function liveCommitments(state: HandState): { live: number[]; deadTotal: number } {
  const seats = state.seats;
  const n = seats.length;
  const bigBlindAnte = state.rules.anteBy === 'big-blind';
  let deadTotal = 0;
  let dead: number[] | null = null;
  for (let e = 0; e < state.log.length; e++) {
    const entry = state.log[e];
    if (entry.kind !== 'post') break; // forced bets come first in the log
    if (entry.post === 'dead small blind' || (bigBlindAnte && entry.post === 'ante')) {
      if (dead === null) dead = zeros(n);
      dead[entry.seat] += entry.amount;
      deadTotal += entry.amount;
    }
  }
  // An array rather than a closure, which would be created at every settlement (and, run through
  // esbuild's `keepNames` as tsx does, named by a `__name` call each time).
  const live = new Array<number>(n);
  for (let i = 0; i < n; i++) live[i] = dead === null ? seats[i].committed : seats[i].committed - dead[i];
  return { live, deadTotal };
}

/**
 * R-POTS: pots built from the all-in levels of the players still in the hand; each pot is contested
 * by the players who reached its level and did not fold. Main pot first. Folded players' chips are
 * dead money in the levels they reached.
 */
export function buildPots(state: HandState): PotLevel[] {
  const seats = state.seats;
  const n = seats.length;
  const { live, deadTotal } = liveCommitments(state);
  // Distinct live commitments of the players still in, ascending (a handful: insertion is enough).
  const levels: number[] = [];
  for (let i = 0; i < n; i++) {
    const st = seats[i].status;
    const c = live[i];
    if ((st !== 'in' && st !== 'allin') || c === 0) continue;
    let k = levels.length;
    while (k > 0 && levels[k - 1] > c) k--;
    if (k > 0 && levels[k - 1] === c) continue;
    levels.push(c);
    for (let j = levels.length - 1; j > k; j--) levels[j] = levels[j - 1];
    levels[k] = c;
  }
  const pots: PotLevel[] = [];
  let prev = 0;
  let total = 0;
  for (let l = 0; l < levels.length; l++) {
    const level = levels[l];
    let amount = 0;
    const eligible: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = live[i];
      if (c > prev) amount += (c < level ? c : level) - prev;
      const st = seats[i].status;
      if ((st === 'in' || st === 'allin') && c >= level) eligible.push(i);
    }
    pots.push({ amount, eligible });
    total += amount;
    prev = level;
  }
  if (deadTotal > 0) {
    if (pots.length === 0) {
      const eligible: number[] = [];
      for (let i = 0; i < n; i++) if (seats[i].status === 'in' || seats[i].status === 'allin') eligible.push(i);
      pots.push({ amount: 0, eligible });
    }
    pots[0].amount += deadTotal;
    total += deadTotal;
  }
  // Chips above the last level (only dead money can be there) stay in the last pot.
  let all = 0;
  for (let i = 0; i < n; i++) all += seats[i].committed;
  if (all > total) {
    if (pots.length === 0) pots.push({ amount: 0, eligible: [] });
    pots[pots.length - 1].amount += all - total;
  }
  return pots;
}

/** High and low values of a shown hand, "higher is better"; low 0 = no qualifying low (R-LOW8). */
export function handValues(state: HandState, seat: number): { high: number; low: number } {
  const v = variantOf(state.variant);
  const hole = state.seats[seat].hole;
  for (let i = 0; i < hole.length; i++) {
    if (hole[i] === null) throw new Error(`seat ${seat}'s cards are unknown in this state: show them first`);
  }
  const h = hole as Card[];
  const b = state.board;
  switch (v.family) {
    case 'holdem':
      return { high: evalHigh7(h[0], h[1], b[0], b[1], b[2], b[3], b[4]), low: 0 };
    case 'omaha':
      return { high: evalOmahaHigh(h, b), low: v.evaluation === 'high-low8' ? evalOmahaLow8(h, b) : 0 };
    case 'stud':
      if (v.evaluation === 'razz') return { high: evalRazz(h), low: 0 };
      return { high: evalHigh7(h[0], h[1], h[2], h[3], h[4], h[5], h[6]), low: v.evaluation === 'high-low8' ? evalLow8(h) : 0 };
    case 'draw':
      return { high: eval27(h, state.rules.lowball27), low: 0 };
  }
}

/** Splits `amount` among `winners` (already in odd-chip order): the first ones get the odd chips. */
function split(amount: number, winners: number[], half: PotShare['half'], out: PotShare[]): void {
  const k = winners.length;
  const each = Math.floor(amount / k);
  let odd = amount - each * k;
  for (const seat of winners) {
    let a = each;
    if (odd > 0) {
      a++;
      odd--;
    }
    out.push({ seat, amount: a, half });
  }
}

function bestOf(candidates: number[], values: ({ high: number; low: number } | null)[], low: boolean): number[] {
  let best = 0;
  let winners: number[] = [];
  for (const seat of candidates) {
    const v = values[seat];
    const x = v === null ? 0 : low ? v.low : v.high;
    if (x > best) {
      best = x;
      winners = [seat];
    } else if (x === best && x > 0) {
      winners.push(seat);
    }
  }
  return winners;
}

/** Divides one pot (R-LOW8: the odd chip of a split goes to the high half; R-ODDCHIP). */
function divide(
  state: HandState,
  amount: number,
  candidates: number[],
  values: ({ high: number; low: number } | null)[],
  hiLo: boolean,
  razz: boolean,
): PotShare[] {
  const out: PotShare[] = [];
  if (candidates.length === 1) {
    out.push({ seat: candidates[0], amount, half: 'whole' });
    return out;
  }
  const high = oddChipOrder(state, bestOf(candidates, values, false), razz);
  const low = hiLo ? oddChipOrder(state, bestOf(candidates, values, true), razz) : [];
  if (low.length === 0) {
    split(amount, high, 'whole', out);
  } else {
    const lowHalf = Math.floor(amount / 2);
    split(amount - lowHalf, high, 'high', out);
    split(lowHalf, low, 'low', out);
  }
  return out;
}

/** R-RAKE: an integer share in basis points of the pot, capped; exact integer arithmetic. */
export function rakeOf(state: HandState, total: number): number {
  const rake = state.rules.rake;
  if (rake.basisPoints === 0 || total === 0) return 0;
  // No flop, no drop: nothing when the hand ended in its first betting round.
  if (rake.noFlopNoDrop && state.street === 0) return 0;
  const bp = rake.basisPoints;
  let r = Math.floor(total / 10_000) * bp + Math.floor(((total % 10_000) * bp) / 10_000);
  if (rake.cap !== null && r > rake.cap) r = rake.cap;
  return r;
}

/**
 * Builds the result and pays the winners. `state` is a fresh copy owned by the caller (its seats
 * array is already copied); seat objects are replaced, never mutated.
 */
export function settle(state: HandState, showdown: boolean): HandResult {
  const v = variantOf(state.variant);
  const seats = state.seats;
  const n = seats.length;
  const hiLo = v.evaluation === 'high-low8';
  const razz = v.evaluation === 'razz';
  const levels = buildPots(state);

  const values = new Array<{ high: number; low: number } | null>(n);
  for (let i = 0; i < n; i++) values[i] = null;
  const candidatesOf: number[][] = [];
  for (const pot of levels) {
    const cands: number[] = [];
    for (const seat of pot.eligible) if (!seats[seat].mucked) cands.push(seat);
    candidatesOf.push(cands);
    if (cands.length > 1) {
      for (const seat of cands) if (values[seat] === null) values[seat] = handValues(state, seat);
    }
  }

  let total = 0;
  for (const pot of levels) total += pot.amount;
  const rake = rakeOf(state, total);

  // Rake comes from the main pot first (it is contested by the most players), then the next.
  const won = zeros(n);
  const rakePaid = zeros(n);
  const pots: PotResult[] = new Array(levels.length);
  let rakeLeft = rake;
  const potRake: number[] = [];
  for (const pot of levels) {
    const r = rakeLeft < pot.amount ? rakeLeft : pot.amount;
    potRake.push(r);
    rakeLeft -= r;
  }
  // T 8-14: settled from the last side pot to the main pot.
  const settled: number[] = [];
  for (let k = levels.length - 1; k >= 0; k--) {
    settled.push(k);
    const pot = levels[k];
    const cands = candidatesOf[k];
    const r = potRake[k];
    const shares = cands.length === 0 ? [] : divide(state, pot.amount - r, cands, values, hiLo, razz);
    if (r > 0 && cands.length > 0) {
      const gross = divide(state, pot.amount, cands, values, hiLo, razz);
      for (let i = 0; i < gross.length; i++) rakePaid[gross[i].seat] += gross[i].amount - shares[i].amount;
    }
    for (const s of shares) won[s.seat] += s.amount;
    pots[k] = { amount: pot.amount, rake: r, eligible: pot.eligible, shares };
  }

  const net = zeros(n);
  for (let i = 0; i < n; i++) {
    if (won[i] > 0) {
      const q = cloneSeat(seats[i]);
      q.stack += won[i];
      seats[i] = q;
    }
    net[i] = seats[i].stack - state.stacksBefore[i];
  }
  return { pots, settled, uncalled: [], rake, won, rakePaid, net, showdown, values };
}
