/**
 * The accidental-call guard: a call (or a raise) clicked within a moment of a large raise arriving is
 * probably a click meant for the previous situation, so it asks for a confirmation first. Pure: the
 * component says when it saw the raise and what time it is.
 */
import type { HandState, LogEntry } from '../../../shared/rules/engine/types';

export interface GuardOptions {
  /** How long after the raise a click needs confirming. */
  windowMs: number;
  /** A raise TO at least this many times the previous level is large. */
  factor: number;
  /** An all-in of at least this many big blinds (small bets in limit games) is large. */
  allInBigBlinds: number;
}

export const DEFAULT_GUARD: GuardOptions = { windowMs: 800, factor: 3, allInBigBlinds: 20 };

/** A bet or raise by someone else, as the component saw it arrive. */
export interface RaiseSeen {
  /** When it was seen (ms, the component's clock). */
  at: number;
  /** The new level (TO amount) and the level before it (0 when it opened the betting). */
  to: number;
  previous: number;
  allIn: boolean;
  /** The table's big blind (small bet in Stud): the unit of "large". */
  unit: number;
  /** The pot before this bet (every street's chips so far). */
  pot: number;
}

/**
 * True when the raise is large: ≥ factor × the previous level; a bet opening a later street, ≥ factor ×
 * the unit and at least the pot (a third or two thirds of the pot on the flop is the usual bet, not a
 * surprise); or a big all-in.
 */
export function isLargeRaise(r: RaiseSeen, opts: GuardOptions = DEFAULT_GUARD): boolean {
  const base = Math.max(r.previous, r.unit, 1);
  if (r.to >= opts.factor * base && (r.previous > 0 || r.to >= r.pot)) return true;
  return r.allIn && r.unit > 0 && r.to >= opts.allInBigBlinds * r.unit;
}

/** Whether a click at `now` must be confirmed. */
export function needsConfirmation(r: RaiseSeen | null, now: number, opts: GuardOptions = DEFAULT_GUARD): boolean {
  if (r === null) return false;
  const dt = now - r.at;
  return dt >= 0 && dt < opts.windowMs && isLargeRaise(r, opts);
}

/**
 * The last bet, raise or completion of the current round by another seat than ours, found in the
 * log entries from `from` on (the entries the component has not looked at yet). The level before it
 * is the highest level of the round before that entry (blinds or bring-in included).
 */
export function raiseIn(hand: HandState, ourSeat: number | null, from: number, at: number): RaiseSeen | null {
  const log: readonly LogEntry[] = hand.log;
  if (from >= log.length) return null;
  const unit = Math.max(hand.rules.bigBlind, hand.rules.smallBet, 0);
  let found: RaiseSeen | null = null;
  let level = 0;
  let pot = 0;
  let round: string | null = null;
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    // Forced bets (round `bet`) open the first street's level; every later round starts from 0.
    if (e.round !== round) {
      if (round !== null && round !== 'bet') level = 0;
      round = e.round;
    }
    if (e.kind === 'post' && e.post !== 'ante' && e.post !== 'dead small blind') level = Math.max(level, e.amount);
    else if (e.kind === 'bring-in') level = Math.max(level, e.amount);
    else if (e.kind === 'bet' || e.kind === 'raise' || e.kind === 'complete') {
      if (i >= from && e.seat !== ourSeat) found = { at, to: e.to, previous: level, allIn: e.allIn, unit, pot };
      level = Math.max(level, e.to);
    }
    if (e.kind === 'post' || e.kind === 'bring-in' || e.kind === 'call' || e.kind === 'bet' || e.kind === 'raise' || e.kind === 'complete') pot += e.amount;
    else if (e.kind === 'return') pot -= e.amount;
  }
  return found;
}
