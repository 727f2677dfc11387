/**
 * The tournament bar's figures, pure: read from the player's standing (the last
 * `tournament.state`, shared/protocol/tournament.ts) and from the tournament's details (structure and
 * prizes). TournamentBar.vue only formats them.
 *
 * - Average stack: chips in play / players still in. Stack in big blinds (Stud: in small bets).
 * - The clock: the standing says how long until its next change from when it was sent; main notes when
 *   it arrived (`standingAt`), and the page's clock counts down from there. What comes next is read
 *   from the structure as the operator's clock reads it (shared/rules/tournament/structure.ts
 *   `clockAt`): a break after every `everyLevels` levels, the last level never ends, and during a
 *   break the level is the one that follows it. A new level applies from the next hand (T 6-1).
 * - The money and the pay jumps, one rule (docs/tournaments.md "The money and the pay jumps"): a
 *   player out now takes place `remaining`, so place `p` is reached after `remaining - p` eliminations
 *   (`eliminationsTo`). The money is place `paid` (20 left, 15 paid: in the money after 5
 *   eliminations, when 15 remain); the next jump is the first better place whose prize is higher than
 *   the prize of place `remaining`. The bubble: one elimination from the money (R-TOURN-RUN:
 *   hand-for-hand is played then on several tables).
 */
import type { TournamentDetails, TournamentStanding } from '../../../shared/protocol/tournament';
import { afterLevel, levelBigBlind, levelStakes } from '../../../shared/rules/tournament/structure';

export type Structure = TournamentDetails['structure'];
export type Level = Structure['levels'][number];

/**
 * The finish line's first part: won; a place; or a place shared by players out on
 * the same hand with equal stacks (T 8-16: `tied` of them hold `place`, sharing the places to `last`).
 * `tied` is absent when the finish was read again rather than told (then no tie is claimed).
 */
export function finishPlace(fin: { place: number; tied?: number }): { kind: 'won' } | { kind: 'place'; place: number } | { kind: 'tied'; place: number; last: number; count: number } {
  const count = fin.tied ?? 1;
  if (count > 1) return { kind: 'tied', place: fin.place, last: fin.place + count - 1, count };
  return fin.place === 1 ? { kind: 'won' } : { kind: 'place', place: fin.place };
}

/** The average stack in chips (rounded down), or null when no one is left. */
export function averageStack(standing: Pick<TournamentStanding, 'chips' | 'remaining'>): number | null {
  return standing.remaining > 0 ? Math.floor(standing.chips / standing.remaining) : null;
}

/** The level's "big blind": the big blind, or Stud's small bet (structure.ts `levelBigBlind`, as T 5-2's rebuy condition reads it). */
export function bigBlindOf(level: Level): number {
  return levelBigBlind(level);
}

/** A stack in big blinds, one decimal (rounded down: 9.96 BB is not 10); null without a big blind. */
export function stackInBigBlinds(stack: number, level: Level): number | null {
  const bb = bigBlindOf(level);
  return bb > 0 ? Math.floor((stack * 10) / bb) / 10 : null;
}

/** Level `index` (0-based) of the structure; past the last, the last goes on (structure.ts `levelStakes`). */
export function levelOf(structure: Structure, index: number): Level {
  return levelStakes(structure, index);
}

/** Milliseconds left until the clock's next change, counted down on the page's clock; null when it is not running. */
export function msToNextChange(standing: Pick<TournamentStanding, 'nextChangeInMs'>, standingAt: number | null, now: number): number | null {
  if (standing.nextChangeInMs === null) return null;
  const since = standingAt === null ? 0 : Math.max(0, now - standingAt);
  return Math.max(0, standing.nextChangeInMs - since);
}

/** The clock's next change: a new level (with its stakes) or a break (then the level after it); null when none comes. */
export interface NextChange {
  kind: 'level' | 'break';
  /** The stakes that apply after it (after a break: the level that follows the break). */
  level: Level;
  /** Its index, 0-based. */
  index: number;
}

export function nextChange(structure: Structure, standing: Pick<TournamentStanding, 'level' | 'onBreak'>): NextChange | null {
  const l = standing.level;
  if (l === null) return null;
  // On a break the clock already reads the level that follows it.
  if (standing.onBreak) return { kind: 'level', level: levelOf(structure, l), index: Math.min(l, structure.levels.length - 1) };
  // R-TOURN-RUN: what follows a level, as the operator's clock reads it (structure.ts `afterLevel`).
  const after = afterLevel(structure, l);
  return after === null ? null : { kind: after.kind, level: levelOf(structure, after.index), index: after.index };
}

/**
 * The break countdown: on a break, the time until play resumes; else the time until the next break
 * (the rest of this level, then whole levels up to the break); null without breaks or when the last
 * level (which never ends) comes before the next break.
 */
export function breakCountdown(structure: Structure, standing: Pick<TournamentStanding, 'level' | 'onBreak'>, msToNext: number | null): { onBreak: boolean; ms: number } | null {
  const l = standing.level;
  if (l === null || msToNext === null) return null;
  if (standing.onBreak) return { onBreak: true, ms: msToNext };
  if (structure.breaks === null) return null;
  // The break comes after level `last`: the first at or after this one that the operator's clock
  // follows with a break (structure.ts `afterLevel`); none when the last level comes first.
  let last = l;
  let after = afterLevel(structure, last);
  while (after?.kind === 'level') {
    last = after.index;
    after = afterLevel(structure, last);
  }
  if (after === null) return null;
  return { onBreak: false, ms: msToNext + (last - l) * structure.levelMinutes * 60_000 };
}

/** The prize of `place` (1-based), 0 past the paid places. */
export function prizeOf(prizes: readonly number[], place: number): number {
  return place >= 1 ? (prizes[place - 1] ?? 0) : 0;
}

/**
 * Eliminations before place `place` is reached when `remaining` are in: a player out now takes place
 * `remaining`, so `remaining - place` others must go out first (0 once there). The one rule both the
 * money line and the pay jump read (R-TOURN-RUN).
 */
export function eliminationsTo(remaining: number, place: number): number {
  return Math.max(0, remaining - place);
}

/**
 * The next pay jump for a player still in among `remaining`: what going out now pays (place
 * `remaining`), and the first better place that pays more, how many other players must go out to
 * reach it and by how much it pays more. Null `next` for the last player in (nothing above).
 */
export function payJump(prizes: readonly number[], remaining: number): { place: number; prize: number; next: { busts: number; place: number; prize: number; jump: number } | null } {
  const place = Math.max(1, remaining);
  const prize = prizeOf(prizes, place);
  for (let k = place - 1; k >= 1; k--) {
    const p = prizeOf(prizes, k);
    if (p > prize) return { place, prize, next: { busts: eliminationsTo(place, k), place: k, prize: p, jump: p - prize } };
  }
  return { place, prize, next: null };
}

/**
 * Where the field stands against the money: `before` (`busts` players still to go out before the
 * money, at least 2: `eliminationsTo(remaining, paid)`), `bubble` (one: the next one out gets
 * nothing, everyone else is paid), `money`; null when nothing is paid.
 */
export type MoneyState = { kind: 'before'; busts: number } | { kind: 'bubble' } | { kind: 'money' } | null;
export function moneyState(remaining: number, paid: number): MoneyState {
  if (paid <= 0) return null;
  const busts = eliminationsTo(remaining, paid);
  if (busts > 1) return { kind: 'before', busts };
  return busts === 1 ? { kind: 'bubble' } : { kind: 'money' };
}

/** Everything the bar shows, at `now` (page clock). `details` null: the figures that need it are null. */
export interface BarFigures {
  state: TournamentStanding['state'];
  /** 0-based; null before the start. */
  level: number | null;
  onBreak: boolean;
  stakes: Level | null;
  /** Until the clock's next change, and what it brings. */
  msToNext: number | null;
  next: NextChange | null;
  breakIn: { onBreak: boolean; ms: number } | null;
  remaining: number;
  entries: number;
  rank: number | null;
  stack: number | null;
  average: number | null;
  bigBlinds: number | null;
  paid: number;
  jump: ReturnType<typeof payJump> | null;
  money: MoneyState;
  handForHand: boolean;
  rebuy: boolean;
  addOn: boolean;
}

export function barFigures(standing: TournamentStanding, standingAt: number | null, details: Pick<TournamentDetails, 'structure' | 'prizes'> | null, now: number): BarFigures {
  const structure = details?.structure ?? null;
  const running = standing.state === 'running' && standing.level !== null;
  const stakes = structure !== null && running ? levelOf(structure, standing.level!) : null;
  const msToNext = running ? msToNextChange(standing, standingAt, now) : null;
  const you = standing.you;
  // The prize list is the paid places' (best first); it is only read while it matches the standing's field.
  const prizes = details !== null && details.prizes.length === standing.paid ? details.prizes : null;
  return {
    state: standing.state,
    level: standing.level,
    onBreak: standing.onBreak,
    stakes,
    msToNext,
    next: structure !== null && running ? nextChange(structure, standing) : null,
    breakIn: structure !== null && running ? breakCountdown(structure, standing, msToNext) : null,
    remaining: standing.remaining,
    entries: standing.entries,
    rank: you?.rank ?? null,
    stack: you?.stack ?? null,
    average: averageStack(standing),
    bigBlinds: you !== null && stakes !== null ? stackInBigBlinds(you.stack, stakes) : null,
    paid: standing.paid,
    jump: you !== null && prizes !== null && standing.state === 'running' ? payJump(prizes, standing.remaining) : null,
    money: standing.state === 'running' ? moneyState(standing.remaining, standing.paid) : null,
    handForHand: standing.handForHand,
    rebuy: you?.rebuy ?? false,
    addOn: you?.addOn ?? false,
  };
}

/** Whether the cached details are stale against a newer standing: the field or the paid places changed (payouts follow the field). */
export function detailsStale(details: Pick<TournamentDetails, 'summary' | 'prizes'>, standing: Pick<TournamentStanding, 'entries' | 'paid'>): boolean {
  return details.summary.entries !== standing.entries || details.prizes.length !== standing.paid;
}

/** A countdown as m:ss (h:mm:ss past an hour); never negative. */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
