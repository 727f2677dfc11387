/**
 * Seats are numbered 0..n-1 clockwise: seat 0 is the first seat left of the dealer (T 10-1), and
 * "the next seat" (left of a player, T 6-4) is the next number, wrapping from n-1 back to 0.
 * These helpers measure positions on that circle; they know nothing of players.
 */

/** Steps clockwise from `from` to `to` (0 when they are the same seat). */
export function stepsClockwise(from: number, to: number, seatCount: number): number {
  return (((to - from) % seatCount) + seatCount) % seatCount;
}

/**
 * Whether `seat` lies strictly between `from` and `to` going clockwise. When `from === to` the arc is
 * the whole circle but that seat.
 */
export function strictlyBetween(from: number, to: number, seat: number, seatCount: number): boolean {
  const span = from === to ? seatCount : stepsClockwise(from, to, seatCount);
  const s = stepsClockwise(from, seat, seatCount);
  return s > 0 && s < span;
}

/** Whether `seat` lies on the clockwise arc from `from` to `to`, both ends included. */
export function onArc(from: number, to: number, seat: number, seatCount: number): boolean {
  return stepsClockwise(from, seat, seatCount) <= stepsClockwise(from, to, seatCount);
}

/** The first of `seats` strictly after `from` going clockwise (may be `from` itself after a full turn). */
export function firstAfter(from: number, seats: readonly number[], seatCount: number): number | null {
  let best: number | null = null;
  let bestSteps = Infinity;
  for (const s of seats) {
    const d = stepsClockwise(from, s, seatCount) || seatCount;
    if (d < bestSteps) {
      best = s;
      bestSteps = d;
    }
  }
  return best;
}

/** The first of `seats` strictly before `from` going clockwise, i.e. the nearest on its right. */
export function firstBefore(from: number, seats: readonly number[], seatCount: number): number | null {
  let best: number | null = null;
  let bestSteps = Infinity;
  for (const s of seats) {
    const d = stepsClockwise(s, from, seatCount) || seatCount;
    if (d < bestSteps) {
      best = s;
      bestSteps = d;
    }
  }
  return best;
}

/** `seats` sorted clockwise starting with the first seat left of `after`. */
export function clockwiseFrom(after: number, seats: readonly number[], seatCount: number): number[] {
  return [...seats].sort(
    (a, b) => (stepsClockwise(after, a, seatCount) || seatCount) - (stepsClockwise(after, b, seatCount) || seatCount),
  );
}
