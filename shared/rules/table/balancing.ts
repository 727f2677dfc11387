/**
 * Tournament table balancing, the two choices a table makes (T 6-9, 6-10). When to balance and
 * which tables close (T 6-6 to 6-8) belong to the tournament, not to one table.
 */
import { firstAfter } from './clockwise';
import { freeSeats, type Seating } from './seating';
import { planNextHand, type TableMode } from './plan';

/**
 * T 6-9: the player moved out to balance the tables is the one who would post the next big blind.
 * null when no hand could be dealt (fewer than two players).
 */
export function playerToMoveForBalancing(
  seating: Seating,
  options: { mode?: TableMode } = {},
): { seat: number; id: string } | null {
  const plan = planNextHand(seating, { game: 'blinds', mode: options.mode ?? 'tournament' });
  if (!plan.ok || plan.bigBlind === null) return null;
  return { seat: plan.bigBlind, id: seating.seats[plan.bigBlind]!.id };
}

/**
 * T 6-10: a player moved in to balance the tables takes the free seat nearest on the left of the
 * big blind (last hand's), which is the next big blind's seat when that is free; so the last free
 * seat tried is the small blind's position (last hand's big blind seat) and the button's comes
 * before it ("même si les deux places libres sont le petit blind et le bouton : il sera assis au
 * bouton"). The text says they never land on the small blind; when that seat is the only one free
 * there is no other choice, and we return it (the player then posts the small blind, T 6-14).
 * Before any hand, the first free seat from seat 0. null when the table is full.
 */
export function seatForBalancing(seating: Seating): number | null {
  const free = freeSeats(seating);
  if (free.length === 0) return null;
  if (seating.last === null) return free[0];
  return firstAfter(seating.last.bigBlind, free, seating.seats.length);
}
