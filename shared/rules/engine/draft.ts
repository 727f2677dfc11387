/**
 * One transition's copy-on-write draft, and the small helpers every phase shares.
 *
 * States are never mutated: a transition copies the state object and its seats array, and a seat
 * object or the log only when it changes, so earlier states stay valid. Which seats (and whether the
 * log) were already copied is bookkeeping of that one transition: it lives in its `Draft`, made by
 * `begin` (or by `startHand` for the first state) and dropped when the transition returns. The engine
 * holds no module-level mutable state: two transitions never share bookkeeping,
 * whatever calls them and in whatever order.
 */
import type { Card } from '../cards';
import type { RoundName } from '../variants';
import { cloneSeat } from './seat';
import type { HandState, LogEntry, Refusal, SeatState } from './types';
import { variantOf } from './variant';

/** The state a transition writes, with what it has copied so far. */
export class Draft {
  /** One bit per seat already copied in this transition (a table has at most 10 seats, R-SEATS). */
  private touched: number;
  /** The log is already this transition's own copy. */
  private logCopied: boolean;

  /** `fresh`: every seat object and the log of `state` were made for it (a new hand). */
  constructor(
    readonly state: HandState,
    fresh: boolean,
  ) {
    this.touched = fresh ? (1 << state.seats.length) - 1 : 0;
    this.logCopied = fresh;
  }

  /** The seat, copied once per transition so that it may be written. */
  seat(i: number): SeatState {
    const seats = this.state.seats;
    const bit = 1 << i;
    if ((this.touched & bit) === 0) {
      seats[i] = cloneSeat(seats[i]);
      this.touched |= bit;
    }
    return seats[i];
  }

  log(entry: LogEntry): void {
    const ns = this.state;
    if (this.logCopied) {
      ns.log.push(entry);
      return;
    }
    // The earlier state keeps its log, so appending means copying (a plain array cannot be shared
    // with a longer one). `toSpliced` (ES2023) makes the one exact-size copy with the entry appended,
    // in a single builtin that copies the elements as a block: measured faster than filling a
    // `new Array(n + 1)` element by element, and without the slack (a quarter more memory per hand)
    // that `slice` then a store past the end, or a spread, leave in the copy.
    ns.log = ns.log.toSpliced(ns.log.length, 0, entry);
    this.logCopied = true;
  }
}

/**
 * Starts a transition from `s`: a copy of the state object and its seats array.
 * Explicit literals rather than object spread: one fixed shape, which V8 copies several times faster.
 */
export function begin(s: HandState): Draft {
  return new Draft(
    {
      variant: s.variant,
      rules: s.rules,
      plan: s.plan,
      players: s.players,
      stacksBefore: s.stacksBefore,
      handId: s.handId,
      viewer: s.viewer,
      phase: s.phase,
      street: s.street,
      seats: s.seats.slice(),
      board: s.board,
      boardOwed: s.boardOwed,
      pot: s.pot,
      currentBet: s.currentBet,
      lastIncrement: s.lastIncrement,
      lastFullLevel: s.lastFullLevel,
      fullBets: s.fullBets,
      capLocked: s.capLocked,
      bigBetAllowed: s.bigBetAllowed,
      bringInDue: s.bringInDue,
      toAct: s.toAct,
      roundFirst: s.roundFirst,
      aggressor: s.aggressor,
      stub: s.stub,
      discardPool: s.discardPool,
      usedLo: s.usedLo,
      usedHi: s.usedHi,
      showQueue: s.showQueue,
      allInShowdown: s.allInShowdown,
      log: s.log,
      result: s.result,
    },
    false,
  );
}

export function refuse(rule: string, message: string, extra?: { min?: number; max?: number; call?: number }): Refusal {
  return extra ? { ok: false, rule, message, ...extra } : { ok: false, rule, message };
}

export function roundOf(ns: HandState): RoundName {
  return variantOf(ns.variant).streets[ns.street].round;
}

export function isUsed(s: HandState, c: Card): boolean {
  return c < 26 ? (s.usedLo & (1 << c)) !== 0 : (s.usedHi & (1 << (c - 26))) !== 0;
}

export function markUsed(ns: HandState, c: Card): void {
  if (c < 26) ns.usedLo |= 1 << c;
  else ns.usedHi |= 1 << (c - 26);
}

export function unmarkUsed(ns: HandState, c: Card): void {
  if (c < 26) ns.usedLo &= ~(1 << c);
  else ns.usedHi &= ~(1 << (c - 26));
}

export function inHand(st: SeatState['status']): boolean {
  return st === 'in' || st === 'allin';
}

export function badSeat(s: HandState, seat: unknown): boolean {
  return typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= s.seats.length;
}
