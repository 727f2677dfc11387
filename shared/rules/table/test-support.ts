/**
 * Helpers for this folder's tests: build tables by seat letter and play hands without an engine
 * (stacks unchanged unless a bust is asked for). Not used by the rules themselves.
 */
import { afterHand } from './after-hand';
import { planNextHand, type PlanOptions, type TablePlan } from './plan';
import { createSeating, seatPlayer, type Seating, type SeatingChange } from './seating';

export const TOURNAMENT: PlanOptions = { game: 'blinds', mode: 'tournament' };
export const CASH: PlanOptions = { game: 'blinds', mode: 'cash' };

/** The seating of a change that must succeed. */
export function ok(change: SeatingChange): Seating {
  if (!change.ok) throw new Error(`refused: ${change.reason} (${change.rule})`);
  return change.seating;
}

/**
 * A table of `size` seats with the given players: `{ 0: 'A', 2: 'C' }`, 1000 chips each unless
 * `stacks` says otherwise.
 */
export function table(size: number, players: Record<number, string>, stacks: Record<string, number> = {}): Seating {
  let s = createSeating(size);
  for (const [seat, id] of Object.entries(players)) {
    s = ok(seatPlayer(s, { id, seat: Number(seat), stack: stacks[id] ?? 1000 }));
  }
  return s;
}

export function mustPlan(seating: Seating, options: PlanOptions): TablePlan {
  const plan = planNextHand(seating, options);
  if (!plan.ok) throw new Error(`no plan: ${plan.reason}`);
  return plan;
}

/** The plan in players' names: who is button, small blind, big blind, and who is dealt in. */
export function who(plan: TablePlan) {
  const id = (seat: number | null) => (seat === null ? null : (plan.atStart[seat]?.id ?? null));
  return {
    button: id(plan.button),
    smallBlind: id(plan.smallBlind),
    bigBlind: id(plan.bigBlind),
    dealtIn: plan.dealtIn.map((s) => id(s)),
    extraBigBlinds: plan.extraBigBlinds.map((s) => id(s)),
    deadSmallBlinds: plan.deadSmallBlinds.map((s) => id(s)),
  };
}

/**
 * Plans and finishes one hand. Players in `busts` end it with no chips, which go to the first
 * other player dealt in; everyone else keeps their stack.
 */
export function play(
  seating: Seating,
  options: PlanOptions,
  busts: string[] = [],
): { plan: TablePlan; seating: Seating; eliminated: string[][] } {
  const plan = mustPlan(seating, options);
  const stacks = new Map(plan.dealtIn.map((s) => [s, plan.atStart[s]!.stack]));
  const bustSeats = plan.dealtIn.filter((s) => busts.includes(plan.atStart[s]!.id));
  const winner = plan.dealtIn.find((s) => !bustSeats.includes(s))!;
  for (const s of bustSeats) {
    stacks.set(winner, stacks.get(winner)! + stacks.get(s)!);
    stacks.set(s, 0);
  }
  const after = afterHand(seating, {
    plan,
    finalStacks: [...stacks].map(([seat, stack]) => ({ seat, stack })),
  });
  if (!after.ok) throw new Error(`afterHand refused: ${after.reason} ${after.detail ?? ''}`);
  return { plan, seating: after.seating, eliminated: after.eliminated };
}

/** Plays `count` hands with no busts; returns the seating after them. */
export function playHands(seating: Seating, options: PlanOptions, count: number): Seating {
  let s = seating;
  for (let i = 0; i < count; i++) s = play(s, options).seating;
  return s;
}
