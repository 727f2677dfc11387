/**
 * A tournament's structure as data (R-TOURN-STRUCTURE), validated like table rules: starting stack,
 * levels, level length, breaks, late registration, rebuys and add-on, payouts, guarantee. The
 * operator's clock reads the level from the elapsed time (`clockAt`); a new level applies from the
 * next hand (T 6-1), so the table rules of a hand come from the level at the hand's start
 * (`tableRulesAt`).
 *
 * Money (buy-in, fee, rebuy and add-on prices) is in the smallest unit (cents, or play chips); chips
 * are tournament chips. Both are integers (R-CONSERVE).
 */
import { makeTableRules, NO_RAKE, validateDecreeTable, type TableRules } from '../tableRules';
import { VARIANTS, type VariantCode } from '../variants';
import { validatePayoutPlan, type PayoutPlan } from './payouts';

/**
 * A level's forced bets. Blinds games: small and big blind and an ante paid by every player dealt
 * in (D art. 3); a limit game's small bet is its big blind and its big bet twice that (R-LIMIT).
 * Stud: ante, bring-in, small and big bet (D art. 7 III).
 */
export type LevelStakes =
  | { readonly kind: 'blinds'; readonly smallBlind: number; readonly bigBlind: number; readonly ante: number }
  | { readonly kind: 'stud'; readonly ante: number; readonly bringIn: number; readonly smallBet: number; readonly bigBet: number };

/** Rebuys (T 5-2): one stack at a time, while the player's chips are at or below `stackAtMost`. */
export interface RebuyRule {
  /** Rebuys are allowed until the end of this level (1-based: 4 = through the 4th level). */
  readonly untilLevel: number;
  /** What a rebuy costs: `price` to the prize pool, `fee` to the operator. */
  readonly price: number;
  readonly fee: number;
  /** Chips a rebuy gives. */
  readonly chips: number;
  /**
   * The rebuy condition, in chips: T 5-2 reads "à zéro ou en dessous du gros blind en cours"; most
   * online rebuy tournaments allow it at or below the starting stack. The structure says which.
   */
  readonly when: 'at-or-below-starting-stack' | 'below-big-blind';
  /** Most rebuys per entry; null = no limit (T 5-2: "limité ou non selon le règlement"). */
  readonly max: number | null;
}

/** The add-on (T 5-4): once, at the end of the rebuy period, whatever the stack. */
export interface AddOnRule {
  readonly price: number;
  readonly fee: number;
  readonly chips: number;
}

/** Breaks: every `everyLevels` levels, all tables together, for `minutes`. */
export interface BreakRule {
  readonly everyLevels: number;
  readonly minutes: number;
}

export interface TournamentStructure {
  /** Changes with any field: what a player confirms when registering (R-INFO), as for tables. */
  readonly version: 1;
  /** A short name shown with the structure: "regular", "turbo", "hyper-turbo". */
  readonly name: string;
  readonly startingStack: number;
  /** Minutes per level (the same for every level). */
  readonly levelMinutes: number;
  /** The levels in order; after the last one the last level goes on. */
  readonly levels: readonly LevelStakes[];
  readonly breaks: BreakRule | null;
  /** Registration stays open through this level (1-based; 0: closes at the start). */
  readonly lateRegistrationLevels: number;
  readonly rebuy: RebuyRule | null;
  readonly addOn: AddOnRule | null;
  /** Re-entry: a busted player may register again, within late registration, at most this many times. */
  readonly reEntries: number;
  /** How the pool is paid (payouts.ts); absent: the standard payouts, 15 % of the field. */
  readonly payouts?: PayoutPlan;
}

export type StructureCheck = { ok: true } | { ok: false; reason: string; field: string };

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Checks a structure for a variant; the refusal names the field and the rule. */
export function validateStructure(variant: VariantCode, s: TournamentStructure): StructureCheck {
  const no = (field: string, reason: string): StructureCheck => ({ ok: false, field, reason });
  if (s === null || typeof s !== 'object') return no('structure', 'a structure is an object');
  if (s.version !== 1) return no('version', 'unknown structure version');
  if (typeof s.name !== 'string' || s.name.length === 0 || s.name.length > 40) return no('name', 'a name of 1 to 40 characters');
  if (!isCount(s.startingStack) || s.startingStack < 1) return no('startingStack', 'the starting stack is a whole number of chips, at least 1 (T 1-5)');
  if (!isCount(s.levelMinutes) || s.levelMinutes < 1 || s.levelMinutes > 240) return no('levelMinutes', 'levels last 1 to 240 minutes');
  if (!Array.isArray(s.levels) || s.levels.length < 1 || s.levels.length > 100) return no('levels', 'from 1 to 100 levels');
  const stud = VARIANTS[variant].forcedBets === 'ante-bring-in';
  let previous = 0;
  for (let i = 0; i < s.levels.length; i++) {
    const l = s.levels[i];
    const where = `levels[${i}]`;
    if (stud !== (l.kind === 'stud')) return no(where, `${variant} levels are ${stud ? 'Stud (ante, bring-in, small and big bet)' : 'blinds'}`);
    // Each level must make valid decree table rules (R-FORCED, R-LIMIT; D art. 7 III: a Stud ante).
    const check = validateDecreeTable(tableRulesAt(variant, s, i));
    if (!check.ok) return no(where, `${check.rule}: ${check.reason}`);
    const size = l.kind === 'stud' ? l.smallBet : l.bigBlind;
    // R-TOURN-STRUCTURE: the stakes never go down from one level to the next.
    if (size < previous) return no(where, 'a level may not be smaller than the one before');
    previous = size;
  }
  if (s.breaks !== null) {
    if (!isCount(s.breaks.everyLevels) || s.breaks.everyLevels < 1) return no('breaks', 'a break comes after a whole number of levels, at least 1');
    if (!isCount(s.breaks.minutes) || s.breaks.minutes < 1 || s.breaks.minutes > 60) return no('breaks', 'a break lasts 1 to 60 minutes');
  }
  if (!isCount(s.lateRegistrationLevels) || s.lateRegistrationLevels > s.levels.length) return no('lateRegistrationLevels', 'late registration ends at one of the levels');
  if (!isCount(s.reEntries) || s.reEntries > 10) return no('reEntries', 'from 0 to 10 re-entries');
  if (s.reEntries > 0 && s.lateRegistrationLevels === 0) return no('reEntries', 're-entry is only possible during late registration');
  if (s.rebuy !== null) {
    const r = s.rebuy;
    if (!isCount(r.untilLevel) || r.untilLevel < 1 || r.untilLevel > s.levels.length) return no('rebuy', 'the rebuy period ends at one of the levels');
    if (!isCount(r.price) || r.price < 1 || !isCount(r.fee)) return no('rebuy', 'a rebuy costs a whole positive amount, and a whole fee');
    if (!isCount(r.chips) || r.chips < 1) return no('rebuy', 'a rebuy gives a whole number of chips, at least 1');
    if (r.when !== 'at-or-below-starting-stack' && r.when !== 'below-big-blind') return no('rebuy', 'the rebuy condition is at-or-below-starting-stack or below-big-blind (T 5-2)');
    if (r.max !== null && (!isCount(r.max) || r.max < 1)) return no('rebuy', 'the most rebuys is a whole number, at least 1, or none');
  }
  if (s.addOn !== null) {
    // T 5-4: the add-on comes at the end of the rebuy period.
    if (s.rebuy === null) return no('addOn', 'an add-on comes at the end of a rebuy period (T 5-4)');
    const a = s.addOn;
    if (!isCount(a.price) || a.price < 1 || !isCount(a.fee) || !isCount(a.chips) || a.chips < 1) return no('addOn', 'an add-on has a whole positive price and chips, and a whole fee');
  }
  if (s.payouts !== undefined) {
    const p = validatePayoutPlan(s.payouts);
    if (!p.ok) return no('payouts', p.reason);
  }
  return { ok: true };
}

/**
 * The stakes of level `index` (0-based); past the last, the last level goes on (R-TOURN-STRUCTURE).
 * Generic over the level's shape: the operator's structure and the one the client reads from the
 * wire (shared/protocol/tournament.ts) are read by this one rule.
 */
export function levelStakes<L>(s: { readonly levels: readonly L[] }, index: number): L {
  return s.levels[Math.min(Math.max(0, index), s.levels.length - 1)];
}

/** A level's "big blind": the big blind, or Stud's small bet (T 5-2's rebuy condition, the bar's stack in big blinds). */
export function levelBigBlind(l: { readonly kind: 'blinds' | 'stud'; readonly bigBlind?: number; readonly smallBet?: number }): number {
  return (l.kind === 'stud' ? l.smallBet : l.bigBlind) ?? 0;
}

/**
 * What follows level `index` (0-based), R-TOURN-RUN: a break when `index + 1` is a multiple of
 * `everyLevels` (all tables together), else the next level; null for the last level, which never ends.
 * `index` names the level that comes next (after a break: the one that follows it).
 */
export function afterLevel(s: { readonly levels: readonly unknown[]; readonly breaks: { readonly everyLevels: number } | null }, index: number): { kind: 'level' | 'break'; index: number } | null {
  if (index >= s.levels.length - 1) return null;
  return { kind: s.breaks !== null && (index + 1) % s.breaks.everyLevels === 0 ? 'break' : 'level', index: index + 1 };
}

/**
 * The table rules of a hand dealt at level `index` (0-based; T 6-1: the level at the hand's start).
 * Tournament tables: no rake (the fee is taken at registration), no open-pair big bet on 4th street
 * (R-LIMIT: off in tournaments), the decree's 2-7 reading.
 */
export function tableRulesAt(variant: VariantCode, s: TournamentStructure, index: number, clock: { actionSeconds?: number; timeBankSeconds?: number } = {}): TableRules {
  const l = levelStakes(s, index);
  const limit = VARIANTS[variant].betting === 'limit';
  const stakes =
    l.kind === 'stud'
      ? { ante: l.ante, bringIn: l.bringIn, smallBet: l.smallBet, bigBet: l.bigBet }
      : { smallBlind: l.smallBlind, bigBlind: l.bigBlind, ante: l.ante, ...(limit ? { smallBet: l.bigBlind, bigBet: l.bigBlind * 2 } : {}) };
  return makeTableRules(variant, stakes, { rake: NO_RAKE, studOpenPairBigBet: false, actionSeconds: clock.actionSeconds, timeBankSeconds: clock.timeBankSeconds });
}

/** Where the tournament's clock stands (R-TOURN-RUN: the operator's clock drives levels and breaks). */
export interface ClockReading {
  /** The current level, 0-based (during a break: the level that comes after it). */
  readonly level: number;
  /** All tables are on a break. */
  readonly onBreak: boolean;
  /** Milliseconds until the next change (next level or the break's end/start); null after the last level. */
  readonly msToNext: number | null;
  /** What comes next: a level, a break, or nothing. */
  readonly next: 'level' | 'break' | null;
}

/**
 * The clock `elapsedMs` after the start: levels of `levelMinutes`, and after every `everyLevels`
 * levels a break taken by all tables together; the last level lasts until the end.
 */
export function clockAt(s: TournamentStructure, elapsedMs: number): ClockReading {
  const levelMs = s.levelMinutes * 60_000;
  const breakMs = s.breaks ? s.breaks.minutes * 60_000 : 0;
  let t = Math.max(0, elapsedMs);
  for (let level = 0; ; level++) {
    const after = afterLevel(s, level);
    if (after === null) return { level, onBreak: false, msToNext: null, next: null };
    if (t < levelMs) return { level, onBreak: false, msToNext: levelMs - t, next: after.kind };
    t -= levelMs;
    if (after.kind === 'break') {
      if (t < breakMs) return { level: level + 1, onBreak: true, msToNext: breakMs - t, next: 'level' };
      t -= breakMs;
    }
  }
}

/**
 * Registration is open: before the start (`elapsedMs` null), or through the late-registration level;
 * the break after that level is already closed (the clock then reads the next level).
 */
export function registrationOpen(s: TournamentStructure, elapsedMs: number | null): boolean {
  if (elapsedMs === null) return true;
  return clockAt(s, elapsedMs).level < s.lateRegistrationLevels;
}

/** Big blinds of the ready structures' levels: the usual online progression, about 25 % a level. */
const BIG_BLINDS = [100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10_000, 12_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000, 80_000, 100_000, 120_000, 150_000, 200_000, 250_000, 300_000, 400_000, 500_000];

/** The levels of a ready structure for a variant: blinds with antes from the 4th level, or Stud stakes. */
function readyLevels(variant: VariantCode): LevelStakes[] {
  const stud = VARIANTS[variant].forcedBets === 'ante-bring-in';
  return BIG_BLINDS.map((bb, i) =>
    stud
      ? // Stud: small bet = the step, ante a fifth of it, bring-in a quarter (D art. 7 III: an ante at every level).
        { kind: 'stud' as const, ante: roundUp5(bb / 5), bringIn: roundUp5(bb / 4), smallBet: bb, bigBet: bb * 2 }
      : // Blinds: antes (every player, D art. 3) of an eighth of the big blind from the 4th level, rounded up to 5.
        { kind: 'blinds' as const, smallBlind: bb / 2, bigBlind: bb, ante: i < 3 ? 0 : roundUp5(bb / 8) },
  );
}

/** Chips rounded up to a multiple of 5 (whole chips, R-CONSERVE). */
function roundUp5(x: number): number {
  return Math.ceil(x / 5) * 5;
}

/** The ready speeds: minutes per level and the break rule (five minutes about every hour). */
export const SPEEDS = {
  regular: { levelMinutes: 10, breaks: { everyLevels: 6, minutes: 5 } },
  turbo: { levelMinutes: 5, breaks: { everyLevels: 12, minutes: 5 } },
  'hyper-turbo': { levelMinutes: 3, breaks: null },
} as const;
export type Speed = keyof typeof SPEEDS;

/**
 * A ready structure (the default configuration's): 10,000 chips, the speed's levels, late registration
 * through level 6 (4 for hyper-turbo), freezeout or with rebuys (at or below the starting stack,
 * through level 6) and an add-on; re-entry where asked. `price`/`fee`: what a rebuy and the add-on cost.
 */
export function readyStructure(variant: VariantCode, speed: Speed, options: { rebuys?: { price: number; fee: number }; reEntries?: number } = {}): TournamentStructure {
  const sp = SPEEDS[speed];
  const late = speed === 'hyper-turbo' ? 4 : 6;
  const rebuy: RebuyRule | null = options.rebuys
    ? { untilLevel: late, price: options.rebuys.price, fee: options.rebuys.fee, chips: 10_000, when: 'at-or-below-starting-stack', max: null }
    : null;
  return {
    version: 1,
    name: options.rebuys ? `${speed} rebuy` : speed,
    startingStack: 10_000,
    levelMinutes: sp.levelMinutes,
    levels: readyLevels(variant),
    breaks: sp.breaks,
    lateRegistrationLevels: late,
    rebuy,
    addOn: options.rebuys ? { price: options.rebuys.price, fee: options.rebuys.fee, chips: 15_000 } : null,
    reEntries: options.reEntries ?? 0,
  };
}

/** T 5-2: may a player holding `stack` chips, with `rebuys` already bought, rebuy now? */
export function mayRebuy(s: TournamentStructure, elapsedMs: number, stack: number, rebuys: number): boolean {
  const r = s.rebuy;
  if (r === null) return false;
  const c = clockAt(s, elapsedMs);
  if (c.level >= r.untilLevel) return false;
  if (r.max !== null && rebuys >= r.max) return false;
  return r.when === 'below-big-blind' ? stack < levelBigBlind(levelStakes(s, c.level)) : stack <= s.startingStack;
}

/**
 * T 5-4, 5-5: the add-on is taken once, at the end of the rebuy period (on the break that follows it,
 * or during the first level after it), whatever the stack; not together with a rebuy.
 */
export function mayAddOn(s: TournamentStructure, elapsedMs: number, taken: boolean): boolean {
  if (s.addOn === null || s.rebuy === null || taken) return false;
  const c = clockAt(s, elapsedMs);
  return c.level === s.rebuy.untilLevel;
}
