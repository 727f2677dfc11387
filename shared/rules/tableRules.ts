/**
 * Table rules as data (DESIGN.md §3): what a table carries and shows the player before they sit
 * (R-INFO, D art. 8 II 3°): the variant and its betting amounts, the cap, the minimum-raise reading,
 * the Stud open-pair option, the 2-7 reading, the rake, and the action clock.
 *
 * `validateTableRules` refuses inconsistent rules with the rule id and a reason, as a value.
 */
import { VARIANTS, isVariantCode, type BettingStructure, type VariantCode } from './variants';

/**
 * R-MINRAISE. `increment` (default): a raise is at least the largest full bet or raise increment of
 * the round and at least the big blind (100, 200, 300). `double`: a raise is to at least twice the
 * previous full bet level (T 7-10: 100, 200, 400; D art. 7 I "double de la dernière relance").
 */
export type MinRaiseReading = 'increment' | 'double';

/** `decree` ignores straights and flushes (D art. 6 II); `international` counts them against. */
export type Lowball27Reading = 'decree' | 'international';

/**
 * Who pays the ante in blinds games. `everyone` (the decree's ante, D art. 3, R-FORCED): each player
 * dealt in. `big-blind`: the big blind alone posts one ante for the whole table, as many tournaments
 * do today; not a decree ante, so the operator's cash tables never use it, but recorded hands
 * (PHH, other sites' histories) are replayed with it.
 */
export type AntePayer = 'everyone' | 'big-blind';

/**
 * House rules of hands recorded elsewhere (live games, other sites) that the decree does not have.
 * Replay only, like the big-blind ante: `validateDecreeTable` (the operator's tables) refuses them, so
 * a decree table never allows one; recorded hands (PHH, imported histories) replay with them.
 * - `stud-muck`: a loser may muck at a Stud showdown. The decree has every player still in open
 *   their three hidden cards (D art. 7 III: "Tous les joueurs ouvrent ensuite leurs trois cartes
 *   privatives fermées"; R-SHOWDOWN).
 * - `stud-no-ante`: a Stud hand dealt without an ante (D art. 7 III: "les joueurs engagent un ante").
 */
export type ReplayHouseRule = 'stud-muck' | 'stud-no-ante';
export const REPLAY_HOUSE_RULES: readonly ReplayHouseRule[] = ['stud-muck', 'stud-no-ante'];

/** R-RAKE, D art. 4. */
export interface RakeRule {
  /** Share of the pot taken, in basis points (1/100 of a percent): 500 = 5 %. 0 = no rake. */
  readonly basisPoints: number;
  /** Most taken from one hand, in chips; null = no cap. */
  readonly cap: number | null;
  /** No rake when the hand ends during its first betting round ("no flop, no drop"). */
  readonly noFlopNoDrop: boolean;
}

export interface TableRules {
  readonly variant: VariantCode;
  /** Must be the variant's structure: repeated so that the table shows it without a lookup (R-INFO). */
  readonly structure: BettingStructure;
  /** Blinds games (Hold'em, Omaha, Triple Draw). 0 in Stud. */
  readonly smallBlind: number;
  readonly bigBlind: number;
  /** Posted by every player dealt in (R-FORCED); Stud always has one, blinds games may (tournaments). */
  readonly ante: number;
  /** Who posts the ante; absent means `everyone` (see AntePayer). */
  readonly anteBy?: AntePayer;
  /** Stud only: posted by the lowest up-card (R-FORCED). 0 otherwise. */
  readonly bringIn: number;
  /** Limit only (R-LIMIT): the bet and raise size of the early and late rounds. 0 otherwise. */
  readonly smallBet: number;
  readonly bigBet: number;
  /** Limit only: most bets per round, the opening bet included (4 = 1 bet + 3 raises). null = no cap. */
  readonly cap: number | null;
  /** Limit only: whether the cap also applies heads-up (R-LIMIT: uncapped heads-up unless set). */
  readonly capHeadsUp: boolean;
  readonly minRaise: MinRaiseReading;
  /** Stud: an open pair on 4th street allows the big bet (R-LIMIT; on in cash games, off in tournaments). */
  readonly studOpenPairBigBet: boolean;
  readonly lowball27: Lowball27Reading;
  readonly rake: RakeRule;
  /** Seconds a player has to act; carried for the clock, not enforced by the hand engine. */
  readonly actionSeconds: number;
  /** Seconds of extra time bank; carried, not enforced by the hand engine. */
  readonly timeBankSeconds: number;
  /** Replay only: the recorded hand's house rules (see ReplayHouseRule). Absent on every decree table. */
  readonly houseRules?: readonly ReplayHouseRule[];
}

/** House rules in their one written form: in REPLAY_HOUSE_RULES order, each once; none is absent. */
export function houseRulesOf(rules: Iterable<ReplayHouseRule>): readonly ReplayHouseRule[] | undefined {
  const set = new Set(rules);
  const out = REPLAY_HOUSE_RULES.filter((h) => set.has(h));
  return out.length > 0 ? out : undefined;
}

/** The rules with `rule` added to their house rules. */
export function withHouseRule(r: TableRules, rule: ReplayHouseRule): TableRules {
  return { ...r, houseRules: houseRulesOf([...(r.houseRules ?? []), rule]) };
}

/** True when the rules carry the replay-only house rule `rule`. */
export function hasHouseRule(r: TableRules, rule: ReplayHouseRule): boolean {
  return r.houseRules !== undefined && r.houseRules.includes(rule);
}

/** Betting amounts for `makeTableRules`; what is not given gets the usual default. */
export interface Stakes {
  smallBlind?: number;
  bigBlind?: number;
  ante?: number;
  bringIn?: number;
  smallBet?: number;
  bigBet?: number;
}

export const NO_RAKE: RakeRule = { basisPoints: 0, cap: null, noFlopNoDrop: true };

/**
 * Table rules for a variant with the usual defaults: limit small bet = big blind, big bet = twice
 * the small bet, cap 4 (1 bet + 3 raises), uncapped heads-up, `increment` minimum raise, open pair
 * big bet on, `decree` 2-7 reading, no rake, 15 s to act and a 30 s time bank. `overrides` replace
 * any field (undefined ones are ignored). The result is not validated: pass it to `validateTableRules`.
 */
export function makeTableRules(variant: VariantCode, stakes: Stakes, overrides: Partial<TableRules> = {}): TableRules {
  const v = VARIANTS[variant];
  const set: Partial<TableRules> = {};
  for (const [k, x] of Object.entries(overrides)) if (x !== undefined) (set as Record<string, unknown>)[k] = x;
  const limit = v.betting === 'limit';
  const stud = v.forcedBets === 'ante-bring-in';
  const bigBlind = stud ? 0 : (stakes.bigBlind ?? 0);
  const smallBet = limit ? (stakes.smallBet ?? bigBlind) : 0;
  return {
    variant,
    structure: v.betting,
    smallBlind: stud ? 0 : (stakes.smallBlind ?? Math.floor(bigBlind / 2)),
    bigBlind,
    ante: stakes.ante ?? 0,
    bringIn: stud ? (stakes.bringIn ?? 0) : 0,
    smallBet,
    bigBet: limit ? (stakes.bigBet ?? smallBet * 2) : 0,
    cap: limit ? 4 : null,
    capHeadsUp: false,
    minRaise: 'increment',
    studOpenPairBigBet: true,
    lowball27: 'decree',
    rake: NO_RAKE,
    actionSeconds: 15,
    timeBankSeconds: 30,
    ...set,
  };
}

export type RulesCheck = { ok: true } | { ok: false; rule: string; reason: string; field: keyof TableRules };

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** Checks that table rules are complete and consistent; the refusal names the rule and the field. */
export function validateTableRules(r: TableRules): RulesCheck {
  const no = (field: keyof TableRules, rule: string, reason: string): RulesCheck => ({ ok: false, rule, reason, field });
  if (r === null || typeof r !== 'object') return no('variant', 'R-INFO', 'table rules must be an object');
  if (!isVariantCode(r.variant)) return no('variant', 'R-INFO', `unknown variant ${String(r.variant)}`);
  const v = VARIANTS[r.variant];
  if (r.structure !== v.betting) {
    return no('structure', 'R-INFO', `${v.code} is played ${v.betting}, not ${String(r.structure)}`);
  }
  // R-CONSERVE: money is integers in the smallest unit.
  for (const f of ['smallBlind', 'bigBlind', 'ante', 'bringIn', 'smallBet', 'bigBet'] as const) {
    if (!isCount(r[f])) return no(f, 'R-CONSERVE', `${f} must be a non-negative integer number of chips`);
  }
  if (v.forcedBets === 'ante-bring-in') {
    if (r.smallBlind !== 0 || r.bigBlind !== 0) return no('bigBlind', 'R-FORCED', 'Stud has no blinds: antes and a bring-in');
    if (r.bringIn < 1) return no('bringIn', 'R-FORCED', 'Stud needs a bring-in of at least 1');
    if (r.anteBy === 'big-blind') return no('anteBy', 'R-FORCED', 'Stud has no big blind to post the ante: every player antes');
    // D art. 7 III: "les joueurs engagent un ante" (R-FORCED); recorded hands without one replay
    // through the `stud-no-ante` house rule.
    if (r.ante < 1 && !hasHouseRule(r, 'stud-no-ante')) {
      return no('ante', 'R-FORCED', 'D art. 7 III: in Stud every player posts an ante ("les joueurs engagent un ante"): at least 1');
    }
    if (r.bringIn > r.smallBet) return no('bringIn', 'R-FORCED', 'the bring-in may not exceed the small bet');
  } else {
    if (r.bringIn !== 0) return no('bringIn', 'R-FORCED', `${v.code} has blinds, not a bring-in`);
    if (r.bigBlind < 1) return no('bigBlind', 'R-FORCED', 'the big blind must be at least 1');
    if (r.smallBlind > r.bigBlind) return no('smallBlind', 'R-FORCED', 'the small blind may not exceed the big blind');
    if (r.anteBy !== undefined && r.anteBy !== 'everyone' && r.anteBy !== 'big-blind') {
      return no('anteBy', 'R-FORCED', `unknown ante payer ${String(r.anteBy)}`);
    }
  }
  if (v.betting === 'limit') {
    if (r.smallBet < 1) return no('smallBet', 'R-LIMIT', 'a limit game needs a small bet of at least 1');
    if (r.bigBet < r.smallBet) return no('bigBet', 'R-LIMIT', 'the big bet may not be smaller than the small bet');
    if (v.forcedBets === 'blinds' && r.bigBlind !== r.smallBet) {
      return no('bigBlind', 'R-LIMIT', 'in a limit game the big blind is one small bet');
    }
    if (r.cap !== null && (!Number.isSafeInteger(r.cap) || r.cap < 1)) {
      return no('cap', 'R-LIMIT', 'the cap is a number of bets per round, at least 1, or null for none');
    }
  } else {
    if (r.smallBet !== 0 || r.bigBet !== 0) {
      return no('smallBet', v.betting === 'pot-limit' ? 'R-PL' : 'R-NL', `${v.betting} has no small bet or big bet: set them to 0`);
    }
    if (r.cap !== null) return no('cap', 'R-LIMIT', 'the cap (bets per round) belongs to limit games only (SPEC §6)');
  }
  if (typeof r.capHeadsUp !== 'boolean') return no('capHeadsUp', 'R-LIMIT', 'capHeadsUp must be true or false');
  if (r.minRaise !== 'increment' && r.minRaise !== 'double') {
    return no('minRaise', 'R-MINRAISE', "the minimum-raise reading is 'increment' or 'double'");
  }
  if (typeof r.studOpenPairBigBet !== 'boolean') return no('studOpenPairBigBet', 'R-LIMIT', 'studOpenPairBigBet must be true or false');
  if (r.lowball27 !== 'decree' && r.lowball27 !== 'international') {
    return no('lowball27', 'R-27', "the 2-7 reading is 'decree' or 'international'");
  }
  const rake = r.rake;
  if (rake === null || typeof rake !== 'object') return no('rake', 'R-RAKE', 'rake must be an object');
  if (!isCount(rake.basisPoints) || rake.basisPoints > 10_000) {
    return no('rake', 'R-RAKE', 'the rake is an integer number of basis points between 0 and 10000');
  }
  if (rake.cap !== null && !isCount(rake.cap)) return no('rake', 'R-RAKE', 'the rake cap is a non-negative integer or null');
  if (typeof rake.noFlopNoDrop !== 'boolean') return no('rake', 'R-RAKE', 'noFlopNoDrop must be true or false');
  if (!isCount(r.actionSeconds) || r.actionSeconds < 1) return no('actionSeconds', 'R-INFO', 'the action time is a whole number of seconds, at least 1');
  if (!isCount(r.timeBankSeconds)) return no('timeBankSeconds', 'R-INFO', 'the time bank is a whole number of seconds');
  if (r.houseRules !== undefined) {
    if (!Array.isArray(r.houseRules)) return no('houseRules', 'R-INFO', 'houseRules is a list');
    for (const h of r.houseRules as unknown[]) {
      if (!REPLAY_HOUSE_RULES.includes(h as ReplayHouseRule)) return no('houseRules', 'R-INFO', `unknown house rule ${String(h)}`);
      if (v.forcedBets !== 'ante-bring-in') return no('houseRules', 'R-INFO', `${String(h)} is a Stud house rule; ${v.code} is not Stud`);
    }
    // One written form, so that equal rules compare equal (records, the codec, files).
    const canonical = houseRulesOf(r.houseRules);
    if (canonical === undefined || canonical.join() !== r.houseRules.join()) {
      return no('houseRules', 'R-INFO', `house rules are listed once each, in the order ${REPLAY_HOUSE_RULES.join(', ')}, and absent when none`);
    }
  }
  return { ok: true };
}

/**
 * The rules of a table the operator deals (decree tables): valid rules with no replay-only house
 * rule and the decree's ante (every player dealt in pays it, D art. 3; R-FORCED). Recorded hands use
 * `validateTableRules`, which lets them keep the house rules they were played by.
 */
export function validateDecreeTable(r: TableRules): RulesCheck {
  const check = validateTableRules(r);
  if (!check.ok) return check;
  if (r.houseRules !== undefined && r.houseRules.length > 0) {
    return { ok: false, rule: 'R-SHOWDOWN', reason: `house rules (${r.houseRules.join(', ')}) are for replaying recorded hands, never for a decree table (D art. 7 III)`, field: 'houseRules' };
  }
  if (r.anteBy === 'big-blind') {
    return { ok: false, rule: 'R-FORCED', reason: 'a big-blind ante is not the decree\'s ante (every player dealt in posts it, D art. 3)', field: 'anteBy' };
  }
  return { ok: true };
}
