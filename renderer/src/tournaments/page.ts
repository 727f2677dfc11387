/**
 * A tournament page's pure logic: the structure's levels with their breaks, the
 * payouts grouped by equal prizes, the entrants ranked and searched, the T rules that apply
 * (R-RULES) and the entry the player confirms (R-INFO) with the balance checked.
 */
import type { TournamentDetails, TournamentSummary } from '../../../shared/protocol/tournament';
import type { Structure } from './lobby';
import { afterLevel } from '../../../shared/rules/tournament/structure';

export type Level = Structure['levels'][number];

/** A line of the structure's table: a level, or the break after it. */
export type StructureLine =
  | { kind: 'level'; index: number; level: Level; minutes: number; lateRegistration: boolean; rebuy: boolean; current: boolean }
  | { kind: 'break'; afterLevel: number; minutes: number; current: boolean };

/**
 * The levels in order with the breaks between them (every `everyLevels` levels, not after the last),
 * each level marked when late registration or rebuys are open through it (1-based periods: level
 * index < period). `current`: the clock (details' `level`, `onBreak`; during a break the level is the
 * one that comes after it).
 */
export function structureLines(s: Structure, clock: { level: number | null; onBreak: boolean } = { level: null, onBreak: false }): StructureLine[] {
  const out: StructureLine[] = [];
  s.levels.forEach((level, index) => {
    out.push({
      kind: 'level',
      index,
      level,
      minutes: s.levelMinutes,
      lateRegistration: index < s.lateRegistrationLevels,
      rebuy: s.rebuy !== null && index < s.rebuy.untilLevel,
      current: clock.level === index && !clock.onBreak,
    });
    // R-TOURN-RUN: a break where the operator's clock takes one (structure.ts `afterLevel`).
    if (s.breaks !== null && afterLevel(s, index)?.kind === 'break') {
      out.push({ kind: 'break', afterLevel: index, minutes: s.breaks.minutes, current: clock.onBreak && clock.level === index + 1 });
    }
  });
  return out;
}

/** Places paying the same prize, together ("4–6": each). */
export interface PayoutRow {
  from: number;
  to: number;
  prize: number;
  /** Share of the pool, in basis points (rounded down), for "12.5 %". */
  basisPoints: number;
}

/**
 * The payouts by place (details' `prizes`, best first; they follow the field until it is final),
 * equal consecutive prizes grouped. Integers only (the pool is paid exactly, R-TOURN-RUN).
 */
export function payoutRows(prizes: readonly number[], pool: number): PayoutRow[] {
  const out: PayoutRow[] = [];
  prizes.forEach((prize, i) => {
    const last = out[out.length - 1];
    if (last && last.prize === prize) last.to = i + 1;
    else out.push({ from: i + 1, to: i + 1, prize, basisPoints: pool > 0 ? Math.floor((prize * 10_000) / pool) : 0 });
  });
  return out;
}

export type Entrant = TournamentDetails['entrants'][number];

/**
 * The places a finish covers: players out on one hand with equal stacks tie (T 8-16, R-ELIM), each
 * holding the best place of the group, and share the prizes of the places they cover (the operator
 * pays them: shared/rules/tournament/payouts.ts sharedPrizes). `count` players hold `place`, so the
 * places `place`..`last` are shared; `count` 1: no tie.
 */
export function sharedPlaces(entrants: readonly Entrant[], place: number): { count: number; last: number } {
  let count = 0;
  for (const e of entrants) if (e.place === place) count++;
  count = Math.max(1, count);
  return { count, last: place + count - 1 };
}
export interface EntrantRow extends Entrant {
  /** Players still in: 1 = the biggest stack; out: their place. */
  rank: number;
  out: boolean;
}

/** Folded for search: lower case without accents ("Élodie" is found by "elo"). */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The entrants: those still in by stack (the biggest first; equal stacks by name), ranked 1..n;
 * then those out by their place. `query` keeps the names containing it (accents and case ignored);
 * ranks are the field's, not the filtered list's.
 */
export function entrantRows(entrants: readonly Entrant[], query = ''): EntrantRow[] {
  const inField = entrants.filter((e) => e.place === null).sort((a, b) => b.stack - a.stack || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out = entrants.filter((e) => e.place !== null).sort((a, b) => (a.place ?? 0) - (b.place ?? 0));
  const rows: EntrantRow[] = [...inField.map((e, i) => ({ ...e, rank: i + 1, out: false })), ...out.map((e) => ({ ...e, rank: e.place ?? 0, out: true }))];
  const q = fold(query.trim());
  return q === '' ? rows : rows.filter((r) => fold(r.name).includes(q));
}

/**
 * The rules of the tournament regulation (../shared/regulation, "T") and of SPEC R-TOURN that apply
 * to this tournament (R-RULES): each as an i18n key under `tournaments.rules.*` with its references
 * and the figures to fill in. Every tournament: the end (T 1-5), levels (T 6-1), absent players
 * blinded (T 2-15), simultaneous eliminations (T 8-16), leaving (R-TOURN-LEAVE). Then by the format.
 */
export interface RuleLine {
  key: string;
  refs: string;
  params?: Record<string, string | number>;
}

export function rulesThatApply(t: TournamentSummary, s: Structure): RuleLine[] {
  const out: RuleLine[] = [];
  const satellite = t.kinds.includes('S');
  out.push(satellite ? { key: 'endSatellite', refs: 'T 1-5' } : { key: 'end', refs: 'T 1-5' });
  out.push({ key: 'levels', refs: 'T 6-1', params: { minutes: s.levelMinutes } });
  if (s.breaks) out.push({ key: 'breaks', refs: 'R-TOURN-STRUCTURE', params: { every: s.breaks.everyLevels, minutes: s.breaks.minutes } });
  if (s.rebuy === null && s.addOn === null) out.push({ key: 'freezeout', refs: 'T 5-1' });
  if (s.rebuy !== null) {
    out.push({
      key: s.rebuy.when === 'below-big-blind' ? 'rebuyBelowBigBlind' : 'rebuyStartingStack',
      refs: 'T 5-2, 5-3',
      params: { until: s.rebuy.untilLevel, chips: s.rebuy.chips, stack: s.startingStack },
    });
    out.push(s.rebuy.max === null ? { key: 'rebuyNoMax', refs: 'T 5-2' } : { key: 'rebuyMax', refs: 'T 5-2', params: { max: s.rebuy.max } });
  }
  if (s.addOn !== null) out.push({ key: 'addOn', refs: 'T 5-4, 5-5', params: { chips: s.addOn.chips, level: (s.rebuy?.untilLevel ?? 0) + 1 } });
  if (s.lateRegistrationLevels > 0) out.push({ key: 'late', refs: 'R-TOURN-FORMATS', params: { level: s.lateRegistrationLevels } });
  if (s.reEntries > 0) out.push({ key: 'reEntry', refs: 'R-TOURN-FORMATS', params: { n: s.reEntries, level: s.lateRegistrationLevels } });
  if (t.bounty > 0) out.push({ key: 'bounty', refs: 'R-TOURN-FORMATS' });
  if (t.format === 'scheduled') out.push({ key: 'minField', refs: 'R-TOURN-FORMATS', params: { n: t.minEntrants } });
  // Several tables: balancing and breaking (T 6-6 to 6-11) and hand-for-hand near the money.
  if (t.maxEntrants > t.seats) {
    out.push({ key: 'seating', refs: 'T 1-4, R-TOURN-RUN' });
    out.push({ key: 'balancing', refs: 'T 6-8, 6-9, 6-10' });
    out.push({ key: 'breaking', refs: 'T 6-6, 6-7, 6-11' });
    out.push({ key: 'handForHand', refs: 'R-TOURN-RUN' });
  } else out.push({ key: 'seatingOne', refs: 'T 1-4' });
  out.push({ key: 'absent', refs: 'T 2-15' });
  out.push({ key: 'eliminations', refs: 'T 8-15, 8-16' });
  out.push({ key: 'leave', refs: 'R-TOURN-LEAVE, D art. 1 II 2°' });
  return out;
}

/** The entry a registration costs (R-TOURN-FORMATS: buy-in to the pool + fee to the operator) against the balance. */
export interface EntryCheck {
  total: number;
  enough: boolean;
  /** What is missing when not enough. */
  short: number;
}

export function entryCheck(t: Pick<TournamentSummary, 'buyIn' | 'fee'>, balance: number | null): EntryCheck {
  const total = t.buyIn + t.fee;
  const have = balance ?? 0;
  return { total, enough: have >= total, short: Math.max(0, total - have) };
}
