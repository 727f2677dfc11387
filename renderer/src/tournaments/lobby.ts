/**
 * The tournament lobby's pure logic: format badges, the state a player reads
 * (registering, late registration, running, finished), filters and sorting like the cash lobby with
 * the player's own tournaments first, and the countdown to a scheduled start.
 *
 * What the lobby line (`TournamentSummary`) does not carry is read from the structure
 * (`tournamentDetails`, fetched once per tournament and structure version): the speed (turbo) and
 * the late-registration period.
 */
import type { TournamentDetails, TournamentSummary } from '../../../shared/protocol/tournament';
import { registrationOpen, SPEEDS, type TournamentStructure } from '../../../shared/rules/tournament/structure';
import { VARIANTS, type VariantCode } from '../../../shared/rules/variants';

export type Structure = TournamentDetails['structure'];

/** The format badges (R-TOURN-FORMATS). Freezeout: no rebuy, add-on or re-entry (T 5-1). */
export type Badge = 'freezeout' | 'rebuy' | 'add-on' | 'bounty' | 'satellite' | 're-entry' | 'turbo' | 'hyper-turbo' | 'guaranteed';

export type Speed = 'regular' | 'turbo' | 'hyper-turbo';

/**
 * The speed from the level length (shared/rules/tournament/structure.ts SPEEDS: regular 10 min, turbo
 * 5, hyper-turbo 3): a level of at most the turbo's length is turbo, at most the hyper-turbo's is
 * hyper-turbo. Read from the minutes, not the structure's name, so an operator's own structure with
 * short levels is a turbo too. Null until the structure is known.
 */
export function speedOf(s: Pick<Structure, 'levelMinutes'> | null | undefined): Speed | null {
  if (!s) return null;
  if (s.levelMinutes <= SPEEDS['hyper-turbo'].levelMinutes) return 'hyper-turbo';
  if (s.levelMinutes <= SPEEDS.turbo.levelMinutes) return 'turbo';
  return 'regular';
}

/**
 * A guaranteed prize pool (R-TOURN-FORMATS): the summary carries the guarantee, shown whether the
 * field has passed it or not (the pool is at least the guarantee: payouts.ts `prizePool`).
 */
export function isGuaranteed(t: TournamentSummary): boolean {
  return t.guarantee !== undefined;
}

/**
 * The badges of a tournament from its format letters (POINSCRIT `Format`: A rebuy/add-on, G bounty,
 * M re-entry, S satellite), its structure (add-on, speed) and its pool against its entries.
 */
export function badges(t: TournamentSummary, s: Structure | null): Badge[] {
  const out: Badge[] = [];
  const rebuy = t.kinds.includes('A') || (s?.rebuy ?? null) !== null;
  if (rebuy) out.push('rebuy');
  if (s?.addOn) out.push('add-on');
  if (t.kinds.includes('G') || t.bounty > 0) out.push('bounty');
  if (t.kinds.includes('M') || (s?.reEntries ?? 0) > 0) out.push('re-entry');
  if (!rebuy && !out.includes('re-entry') && (s === null || !s.addOn)) out.push('freezeout');
  if (t.kinds.includes('S')) out.push('satellite');
  const speed = speedOf(s);
  if (speed === 'turbo' || speed === 'hyper-turbo') out.push(speed);
  if (isGuaranteed(t)) out.push('guaranteed');
  return out;
}

/** What a player reads as the tournament's state. */
export type LobbyState = 'registering' | 'late' | 'running' | 'finished' | 'cancelled';

/**
 * Late registration: a started scheduled tournament whose clock (from its start time) is still
 * within the late-registration levels (shared `registrationOpen`), with room left. The operator
 * decides (REGISTRATION_CLOSED); this is what the lobby shows.
 */
export function lobbyState(t: TournamentSummary, s: Structure | null, now: number): LobbyState {
  if (t.state !== 'running') return t.state;
  if (t.format === 'scheduled' && t.startAt !== null && s !== null && s.lateRegistrationLevels > 0 && t.players < t.maxEntrants) {
    // The wire's structure is the shared one validated (its `version` is 1: structureSchema).
    if (registrationOpen(s as TournamentStructure, Math.max(0, now - t.startAt))) return 'late';
  }
  return 'running';
}

/** Registration is open (before the start, or late registration). */
export const canRegister = (state: LobbyState): boolean => state === 'registering' || state === 'late';

export type Family = 'all' | 'holdem' | 'omaha' | 'stud' | 'draw';
export const familyOf = (v: VariantCode): Exclude<Family, 'all'> => {
  const f = VARIANTS[v].family;
  return f === 'holdem' || f === 'omaha' || f === 'stud' ? f : 'draw';
};

/** Buy-in bands of the whole entry (buy-in + fee). */
export type EntryBand = 'all' | 'free' | 'micro' | 'low' | 'medium' | 'high';
/**
 * Upper bounds of micro, low and medium entries: real money in cents (2 €, 10 €, 50 €), play money in
 * chips (the default sit & go's 1,100, the scheduled 2,200 and 5,500 fall in micro and low).
 */
export const ENTRY_BANDS = { real: [200, 1_000, 5_000], play: [1_500, 6_000, 25_000] } as const;

export function entryBand(t: Pick<TournamentSummary, 'buyIn' | 'fee' | 'money'>): Exclude<EntryBand, 'all'> {
  const e = t.buyIn + t.fee;
  if (e === 0) return 'free';
  const [micro, low, medium] = ENTRY_BANDS[t.money];
  return e <= micro ? 'micro' : e <= low ? 'low' : e <= medium ? 'medium' : 'high';
}

export type FormatFilter = 'all' | 'sit-and-go' | 'scheduled' | Badge;
export type StateFilter = 'all' | 'open' | 'late' | 'running' | 'finished';

export interface TournamentFilters {
  family: Family;
  entry: EntryBand;
  format: FormatFilter;
  money: 'all' | 'real' | 'play';
  state: StateFilter;
}

export const NO_FILTERS: TournamentFilters = { family: 'all', entry: 'all', format: 'all', money: 'all', state: 'all' };

/** A lobby row: the summary with what is read from it. */
export interface TournamentRow {
  t: TournamentSummary;
  structure: Structure | null;
  state: LobbyState;
  badges: Badge[];
  /** The player is registered or playing in it (stores/tournaments.ts). */
  mine: boolean;
  /** The guaranteed prize pool ("Garanti 1 000 €"), null without one. */
  guarantee: number | null;
  /** A satellite's target by name ("Satellite → Le Grand Tournoi"; its id when not offered now); null otherwise (T 1-5). */
  target: string | null;
}

export function toRow(t: TournamentSummary, structure: Structure | null, now: number, mine: boolean): TournamentRow {
  const target = t.satellite ? (t.satellite.name ?? t.satellite.tournamentId) : null;
  return { t, structure, state: lobbyState(t, structure, now), badges: badges(t, structure), mine, guarantee: t.guarantee ?? null, target };
}

export function matches(r: TournamentRow, f: TournamentFilters): boolean {
  const { t } = r;
  if (f.family !== 'all' && familyOf(t.variant) !== f.family) return false;
  if (f.money !== 'all' && t.money !== f.money) return false;
  if (f.entry !== 'all' && entryBand(t) !== f.entry) return false;
  if (f.format === 'sit-and-go' || f.format === 'scheduled') {
    if (t.format !== f.format) return false;
  } else if (f.format !== 'all' && !r.badges.includes(f.format)) return false;
  switch (f.state) {
    case 'open':
      return canRegister(r.state);
    case 'late':
      return r.state === 'late';
    case 'running':
      return r.state === 'running' || r.state === 'late';
    case 'finished':
      return r.state === 'finished' || r.state === 'cancelled';
    default:
      return true;
  }
}

export type TournamentSort = 'start' | 'name' | 'variant' | 'entry' | 'entrants' | 'pool';

const STATE_ORDER: Record<LobbyState, number> = { registering: 0, late: 1, running: 2, finished: 3, cancelled: 4 };

function key(r: TournamentRow, sort: TournamentSort): number | string {
  const { t } = r;
  switch (sort) {
    case 'name':
      return t.name.toLowerCase();
    case 'variant':
      return Object.keys(VARIANTS).indexOf(t.variant);
    case 'entry':
      return t.buyIn + t.fee;
    case 'entrants':
      return t.entries;
    case 'pool':
      return t.pool;
    default:
      // By the state, then the start: scheduled by their time, sit & go's (start when full) the
      // fullest first, after the scheduled ones.
      return STATE_ORDER[r.state] * 1e15 + (t.startAt ?? 1e14 + (t.maxEntrants - t.players));
  }
}

/**
 * Filters then sorts; the player's own tournaments first whatever the order, then
 * by the key (descending when asked), ties by id so the order is stable between refreshes.
 */
export function shownRows(rows: readonly TournamentRow[], f: TournamentFilters, sort: TournamentSort, descending: boolean): TournamentRow[] {
  const dir = descending ? -1 : 1;
  return rows
    .filter((r) => matches(r, f))
    .sort((a, b) => {
      if (a.mine !== b.mine) return a.mine ? -1 : 1;
      const ka = key(a, sort);
      const kb = key(b, sort);
      if (ka !== kb) return (ka < kb ? -1 : 1) * dir;
      return a.t.tournamentId < b.t.tournamentId ? -1 : a.t.tournamentId > b.t.tournamentId ? 1 : 0;
    });
}

/**
 * A countdown as the lobby writes it: days and hours past a day, hours and minutes past an hour,
 * minutes and seconds below, seconds under a minute; rounded up so "0 s" is the start itself.
 * `day` is the day unit of the page's language ("j", "d").
 */
export function countdownText(ms: number, day: string): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d} ${day} ${two(h)} h`;
  if (h > 0) return `${h} h ${two(m)} min`;
  if (m > 0) return `${m} min ${two(s)} s`;
  return `${s} s`;
}

/** How often the lobby reads the tournaments again while it is shown. */
export const TOURNAMENT_LOBBY_REFRESH_MS = 5_000;
/** How often a tournament's page reads its details again while it is shown. */
export const TOURNAMENT_PAGE_REFRESH_MS = 5_000;
