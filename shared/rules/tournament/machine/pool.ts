/**
 * The money side of the state, read only (R-TOURN-RUN, T 1-5): the pool and its overlay, the prizes
 * by place, the seats a satellite pays, the chips given out, the bubbles played hand-for-hand.
 */
import { payout, prizePool, satellitePrizes } from '../payouts';
import { clockAt, registrationOpen } from '../structure';
import { entrantIds, entrantOf } from './buckets';
import type { MachineState } from './types';

export function poolParts(s: MachineState): { pool: number; collected: number; overlay: number } {
  const st = s.spec.structure;
  const bounty = s.spec.bounty ?? 0;
  return prizePool({
    entries: s.entries,
    buyIn: s.spec.buyIn,
    bounty,
    rebuys: s.rebuyCount,
    // A bounty tournament puts a new bounty on a rebuy: that part of its price is on the head, not in the pool.
    rebuyPrice: st.rebuy ? st.rebuy.price - Math.min(bounty, st.rebuy.price) : 0,
    addOns: s.addOnCount,
    addOnPrice: st.addOn?.price ?? 0,
    guarantee: s.spec.guarantee,
  });
}

/** The bounty a rebuy puts on the player's head: the tournament's, at most the rebuy's price. */
export function rebuyBounty(s: MachineState): number {
  return Math.min(s.spec.bounty ?? 0, s.spec.structure.rebuy?.price ?? 0);
}

/** Prizes by place, best first: the payout table by players, or a satellite's seats then its cash (T 1-5). */
export function prizeTable(s: MachineState): number[] {
  const pool = poolParts(s).pool;
  const sat = s.spec.satellite;
  if (sat) {
    const { seats, cash } = satellitePrizes(pool, sat.seatValue);
    const list = [...new Array<number>(seats).fill(sat.seatValue), ...(cash > 0 ? [cash] : [])];
    return list.length > 0 ? list : [pool];
  }
  return s.players === 0 ? [] : payout(pool, s.players, s.spec.structure.payouts);
}

export function seatsWon(s: MachineState): number {
  return s.spec.satellite ? Math.floor(poolParts(s).pool / s.spec.satellite.seatValue) : 0;
}

/**
 * The counts of players left at which hand-for-hand is played (R-TOURN-RUN): one more than each
 * number of places that changes what a player gets. A tournament's money bubble; a satellite's seat
 * bubble (seats + 1) and, with a cash remainder, the cash place's bubble (seats + 2) too (T 1-5).
 */
export function bubbles(s: MachineState): number[] {
  if (!s.poolFinal || s.prizes.length === 0) return [];
  if (s.spec.satellite) {
    const seats = seatsWon(s);
    const out = seats > 0 ? [seats + 1] : [];
    if (s.prizes.length > seats) out.push(s.prizes.length + 1);
    return out;
  }
  return [s.prizes.length + 1];
}

/** Chips given out (R-CONSERVE: the players in hold these, less those removed with excluded players). */
export function chipsIssued(s: MachineState): number {
  const st = s.spec.structure;
  return s.entries * st.startingStack + s.rebuyCount * (st.rebuy?.chips ?? 0) + s.addOnCount * (st.addOn?.chips ?? 0);
}

/** Players in, or busted still deciding a rebuy (T 5-3). */
export function alive(s: MachineState): number[] {
  return entrantIds(s).filter((id) => entrantOf(s, id)!.status !== 'out');
}

/**
 * The field or the pool may still grow: late registration, or the rebuy period and its add-on (T 5-2,
 * 5-4), unless a single player is left with no one deciding a rebuy (a heads-up rebuy sit & go whose
 * loser did not rebuy ends at once: nobody is left to rebuy).
 */
export function fieldOpen(s: MachineState): boolean {
  const st = s.spec.structure;
  if (registrationOpen(st, s.elapsed)) return true;
  const r = st.rebuy;
  if (r === null) return false;
  const level = clockAt(st, s.elapsed).level;
  const period = level < r.untilLevel || (st.addOn !== null && level === r.untilLevel);
  return period && s.remaining > 1;
}
