/**
 * After a hand: stacks, blinds owed, busts, and the positions the next hand's dead button follows
 * (R-BUTTON, T 6-3 to 6-5).
 */
import { eliminationOrder } from './elimination';
import type { TablePlan } from './plan';
import { refuse, settleStatus, type Seating, type SeatedPlayer, type TableRefusal } from './seating';

export interface HandOutcome {
  /** The plan the hand was played from, as planNextHand returned it. */
  plan: TablePlan;
  /** The stack of every seat dealt in, after the pots were settled; integers >= 0. */
  finalStacks: { seat: number; stack: number }[];
  /**
   * Chips added right after the hand, before anyone is counted out: a cash rebuy, a tournament
   * rebuy (T 5-2) or add-on (T 5-4). A tournament player at zero who rebuys keeps the seat.
   */
  topUps?: { id: string; chips: number }[];
}

export type AfterHandResult =
  | {
      ok: true;
      seating: Seating;
      /**
       * Tournament: players eliminated on this hand and removed from their seats (T 8-15), in
       * finishing order best first, tied players grouped (R-ELIM, T 8-16; see eliminationOrder).
       * Cash: always empty (a player at zero stays seated, sitting out, until they add chips or leave).
       */
      eliminated: string[][];
    }
  | TableRefusal;

/**
 * Records the hand: new stacks; dealt-in players become regulars and owe nothing more (they posted
 * or were exempt); cash players the blinds passed while sitting out now owe them; busted players
 * sit out (cash) or leave (tournament); and the button, small blind position and big blind are kept
 * for the next plan. A player who left or was replaced during the hand is not touched.
 */
export function afterHand(seating: Seating, outcome: HandOutcome): AfterHandResult {
  const { plan } = outcome;
  const n = seating.seats.length;
  if (plan.atStart.length !== n) return refuse('outcome-mismatch', 'R-CONSERVE', 'plan is for another table size');
  const finals = new Map<number, number>();
  for (const { seat, stack } of outcome.finalStacks) {
    if (!plan.dealtIn.includes(seat) || finals.has(seat)) {
      return refuse('outcome-mismatch', 'R-CONSERVE', `seat ${seat} was not dealt in, or is given twice`);
    }
    if (!Number.isSafeInteger(stack) || stack < 0) {
      return refuse('outcome-mismatch', 'R-NODEBT', `seat ${seat}: stack ${stack}`);
    }
    finals.set(seat, stack);
  }
  if (finals.size !== plan.dealtIn.length) {
    return refuse('outcome-mismatch', 'R-CONSERVE', 'a final stack is missing for a seat dealt in');
  }
  const topUps = new Map<string, number>();
  for (const { id, chips } of outcome.topUps ?? []) {
    if (!Number.isSafeInteger(chips) || chips <= 0) return refuse('invalid-amount', 'R-NODEBT', id);
    if (!seating.seats.some((p) => p !== null && p.id === id)) return refuse('not-seated', 'R-NODEBT', id);
    topUps.set(id, (topUps.get(id) ?? 0) + chips);
  }

  const dealt = new Set(plan.dealtIn);
  const missedBig = new Set(plan.missedBigBlinds);
  const missedSmall = new Set(plan.missedSmallBlinds);
  const seats = seating.seats.slice();
  const busted: { id: string; stackAtStart: number }[] = [];

  seats.forEach((current, s) => {
    if (current === null) return;
    const snap = plan.atStart[s];
    const samePlayer = snap !== null && snap.id === current.id;
    let p: SeatedPlayer = current;
    if (samePlayer && dealt.has(s)) {
      // Whoever was dealt in posted what they owed, or was the big blind, or came in on a new
      // game or heads-up where nothing is owed (plan.ts): they owe nothing now.
      p = { ...p, stack: finals.get(s)!, hasPlayed: true, missedBigBlind: false, missedSmallBlind: false };
    }
    if (samePlayer && missedBig.has(s)) p = { ...p, missedBigBlind: true };
    if (samePlayer && missedSmall.has(s)) p = { ...p, missedSmallBlind: true };
    const added = topUps.get(p.id);
    if (added !== undefined) p = { ...p, stack: p.stack + added };
    let present = p.status !== 'sitting-out';
    if (p.stack === 0) {
      if (plan.mode === 'tournament') {
        // T 8-15: an eliminated player leaves the table.
        busted.push({ id: p.id, stackAtStart: snap !== null && samePlayer ? snap.stack : 0 });
        seats[s] = null;
        return;
      }
      present = false; // cash: no chips, no hand until they add some (R-NODEBT)
    }
    seats[s] = settleStatus(p, present);
  });

  let last = seating.last;
  if (plan.game === 'blinds' && plan.button !== null && plan.bigBlind !== null && plan.smallBlindSeat !== null) {
    last = {
      button: plan.button,
      smallBlind: plan.smallBlindSeat,
      bigBlind: plan.bigBlind,
      bigBlindPlayer: plan.atStart[plan.bigBlind]!.id,
    };
  }
  return {
    ok: true,
    seating: { seats, last, handsPlayed: seating.handsPlayed + 1 },
    eliminated: eliminationOrder(busted),
  };
}
