/**
 * What a tournament is, as the operator configures it and a player is shown before registering
 * (R-INFO, R-TOURN-FORMATS): the variant, the kind of money, the entry (buy-in to the prize pool +
 * fee to the operator, integer cents or play chips), the format (sit & go: starts when full;
 * scheduled: a start time and a minimum field), the seats per table, and the structure
 * (shared/rules/tournament). Validated like table rules, the failing field named; its version is what
 * a registration confirms (`tournamentVersion`, as `rulesVersion` for tables).
 */
import { version } from '../../shared/protocol/conditions';
import { validateStructure } from '../../shared/rules/tournament';
import type { MachineSpec } from '../../shared/rules/tournament/machine/types';
import { VARIANT_CODES, VARIANTS } from '../../shared/rules/variants';

/**
 * A tournament as the operator configures it: what the tournament machine needs of it (MachineSpec,
 * each field described there), with its start time and its repetition.
 */
export interface TournamentSpec extends MachineSpec {
  /** Scheduled: the start time (ms since the epoch). */
  readonly startAt: number | null;
  /**
   * A scheduled tournament repeated every `everyMinutes`: when one starts (or is cancelled),
   * the next opens, `everyMinutes` later, with the id `<series>-<its start in minutes, base 36>`.
   */
  readonly repeat?: { readonly series: string; readonly everyMinutes: number };
}

export type SpecCheck = { ok: true } | { ok: false; field: string; reason: string };

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** Checks a tournament's configuration; the refusal names the field. */
export function validateTournamentSpec(s: TournamentSpec): SpecCheck {
  const no = (field: string, reason: string): SpecCheck => ({ ok: false, field, reason });
  if (s === null || typeof s !== 'object') return no('tournament', 'a tournament is an object');
  if (typeof s.id !== 'string' || !/^[A-Za-z0-9_-]{1,40}$/.test(s.id)) return no('id', '1 to 40 letters, digits, - or _');
  if (typeof s.name !== 'string' || s.name.length < 1 || s.name.length > 60) return no('name', 'a name of 1 to 60 characters');
  if (!VARIANT_CODES.includes(s.variant)) return no('variant', `one of ${VARIANT_CODES.join(', ')}`);
  if (s.money !== 'real' && s.money !== 'play') return no('money', 'real or play');
  if (!isCount(s.buyIn) || !isCount(s.fee)) return no('buyIn', 'the buy-in and fee are whole amounts (cents or play chips)');
  // A freeroll is play money only: real-money prizes come from entries.
  if (s.buyIn + s.fee === 0 && s.money === 'real') return no('buyIn', 'a real-money tournament has an entry');
  if (s.format !== 'sit-and-go' && s.format !== 'scheduled') return no('format', 'sit-and-go or scheduled');
  if (!isCount(s.seats) || s.seats < 2 || s.seats > VARIANTS[s.variant].maxSeats) return no('seats', `2 to ${VARIANTS[s.variant].maxSeats} seats (R-SEATS)`);
  if (!isCount(s.maxEntrants) || s.maxEntrants < 2 || s.maxEntrants > 100_000) return no('maxEntrants', '2 to 100,000 entrants');
  if (!isCount(s.minEntrants) || s.minEntrants < 2 || s.minEntrants > s.maxEntrants) return no('minEntrants', 'at least 2, at most maxEntrants');
  if (s.format === 'sit-and-go') {
    if (s.startAt !== null) return no('startAt', 'a sit & go starts when full, not at a time');
    if (s.minEntrants !== s.maxEntrants) return no('minEntrants', 'a sit & go starts when full: minEntrants = maxEntrants');
  } else if (!isCount(s.startAt)) return no('startAt', 'a scheduled tournament has a start time');
  if (s.bounty !== undefined && (!isCount(s.bounty) || s.bounty < 1 || s.bounty > s.buyIn)) return no('bounty', 'a bounty is a whole part of the buy-in, at least 1');
  if (s.satellite !== undefined) {
    if (typeof s.satellite.target !== 'string' || !/^[A-Za-z0-9_-]{1,60}$/.test(s.satellite.target)) return no('satellite.target', 'the target tournament id');
    if (!isCount(s.satellite.seatValue) || s.satellite.seatValue < 1) return no('satellite.seatValue', "a seat is worth the target's whole entry, at least 1");
  }
  if (s.guarantee !== undefined) {
    if (!isCount(s.guarantee) || s.guarantee < 1) return no('guarantee', 'a whole amount, at least 1');
  }
  if (s.repeat !== undefined) {
    if (s.format !== 'scheduled') return no('repeat', 'only a scheduled tournament repeats (a sit & go reopens when it starts)');
    if (typeof s.repeat.series !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(s.repeat.series)) return no('repeat.series', '1 to 32 letters, digits, - or _');
    if (!isCount(s.repeat.everyMinutes) || s.repeat.everyMinutes < 1 || s.repeat.everyMinutes > 10_080) return no('repeat.everyMinutes', '1 minute to a week');
  }
  const st = validateStructure(s.variant, s.structure);
  if (!st.ok) return no(`structure.${st.field}`, st.reason);
  // Late registration and re-entry are for scheduled tournaments: a sit & go is full at its start.
  if (s.format === 'sit-and-go' && (s.structure.lateRegistrationLevels > 0 || s.structure.reEntries > 0)) {
    return no('structure.lateRegistrationLevels', 'a sit & go starts full: no late registration or re-entry');
  }
  return { ok: true };
}

/** The id of a repeated tournament's instance starting at `startAt` (ms). */
export function repeatId(series: string, startAt: number): string {
  return `${series}-${Math.floor(startAt / 60_000).toString(36)}`;
}

/** The version of a tournament's information as shown (R-INFO): any change gives another. */
export function tournamentVersion(s: TournamentSpec): string {
  return version(s);
}

/**
 * The POINSCRIT `Format` (A 1.3.6.c.1, SPEC §4): `T`, with A (rebuys/add-ons), G (bounties), M
 * (re-entry), S (satellite), combined like `T/AS`.
 */
export function formatCode(s: Pick<TournamentSpec, 'structure' | 'bounty' | 'satellite'>): string {
  const letters = [
    s.structure.rebuy !== null || s.structure.addOn !== null ? 'A' : '',
    s.bounty !== undefined ? 'G' : '',
    s.structure.reEntries > 0 ? 'M' : '',
    s.satellite !== undefined ? 'S' : '',
  ].join('');
  return letters ? `T/${letters}` : 'T';
}
