/**
 * The table around the hands (R-BUTTON, R-FORCED, R-ELIM): seating, the dead button and blinds from
 * hand to hand, entries and absences, eliminations. Typical loop (operator):
 *
 *   let seating = createSeating(9);
 *   seating = ok(seatPlayer(seating, { id, seat, stack }));       // sitOut, sitIn, leave, addChips
 *   const plan = planNextHand(seating, { game: 'blinds', mode: 'cash' });
 *   if (plan.ok) { ...play the hand with the engine from `plan`...
 *     const after = afterHand(seating, { plan, finalStacks });      // then seating = after.seating
 *   }
 */
export { stepsClockwise, strictlyBetween, firstAfter, firstBefore, clockwiseFrom } from './clockwise';
export {
  MAX_SEATS,
  createSeating,
  seatPlayer,
  sitOut,
  sitIn,
  setWaitForBigBlind,
  leave,
  addChips,
  seatOf,
  freeSeats,
  owesEntry,
  type SeatStatus,
  type SeatedPlayer,
  type LastPositions,
  type Seating,
  type SeatRequest,
  type SeatingChange,
  type TableRefusal,
  type TableRefusalReason,
} from './seating';
export {
  planNextHand,
  isPlayable,
  type HandPlan,
  type GameKind,
  type TableMode,
  type PlanOptions,
  type SeatSnapshot,
  type TablePlan,
} from './plan';
export { afterHand, type HandOutcome, type AfterHandResult } from './after-hand';
export { eliminationOrder, type BustedPlayer } from './elimination';
export { playerToMoveForBalancing, seatForBalancing } from './balancing';
export { joinRange, topUpRange, inRange, type BuyInBounds, type CashRange } from './buy-in';
