import { describe, expect, it } from 'vitest';
import type { TournamentSummary } from '../../../shared/protocol/tournament';
import { readyWire } from '../../../tests/support/renderer/structure';
import { badges, countdownText, entryBand, isGuaranteed, lobbyState, NO_FILTERS, shownRows, speedOf, toRow, type TournamentRow } from './lobby';

const sng = (over: Partial<TournamentSummary> = {}): TournamentSummary => ({
  tournamentId: 'sng-thnl-6',
  name: 'Sit & Go',
  variant: 'THNL',
  money: 'play',
  buyIn: 1000,
  fee: 100,
  bounty: 0,
  format: 'sit-and-go',
  kinds: '',
  seats: 6,
  state: 'registering',
  entries: 2,
  players: 2,
  remaining: 2,
  minEntrants: 6,
  maxEntrants: 6,
  startAt: null,
  pool: 2000,
  version: 'v1',
  ...over,
});
const mtt = (over: Partial<TournamentSummary> = {}): TournamentSummary =>
  sng({ tournamentId: 'mtt-1', name: 'Le Grand Tournoi', buyIn: 5000, fee: 500, format: 'scheduled', seats: 9, minEntrants: 10, maxEntrants: 2000, startAt: 1_000_000, entries: 0, players: 0, remaining: 0, pool: 0, ...over });

describe('speed and badges', () => {
  it('tells turbo and hyper-turbo from the level length, whatever the name', () => {
    expect(speedOf(readyWire('THNL', 'regular'))).toBe('regular');
    expect(speedOf(readyWire('THNL', 'turbo'))).toBe('turbo');
    expect(speedOf(readyWire('THNL', 'hyper-turbo'))).toBe('hyper-turbo');
    expect(speedOf({ levelMinutes: 4 })).toBe('turbo');
    expect(speedOf({ levelMinutes: 6 })).toBe('regular');
    expect(speedOf(null)).toBeNull();
  });
  it('reads the format letters, the structure and the pool', () => {
    const rebuy = readyWire('THNL', 'turbo', { rebuys: { price: 2000, fee: 200 } });
    expect(badges(mtt({ kinds: 'A' }), rebuy)).toEqual(['rebuy', 'add-on', 'turbo']);
    expect(badges(mtt({ kinds: 'GM', bounty: 500 }), readyWire('THNL', 'regular', { reEntries: 1 }))).toEqual(['bounty', 're-entry']);
    expect(badges(sng(), readyWire('THNL', 'hyper-turbo'))).toEqual(['freezeout', 'hyper-turbo']);
    expect(badges(sng({ kinds: 'S' }), null)).toEqual(['freezeout', 'satellite']);
  });
  it('the guarantee travels with the tournament: the badge says it, passed or not, rebuys or not', () => {
    expect(isGuaranteed(mtt({ guarantee: 100_000, entries: 3, pool: 100_000 }))).toBe(true);
    expect(isGuaranteed(mtt({ guarantee: 100_000, entries: 40, pool: 200_000 }))).toBe(true);
    expect(isGuaranteed(mtt({ kinds: 'A', guarantee: 100_000, entries: 3, pool: 100_000, state: 'running' }))).toBe(true);
    // A pool above the entries without a guarantee is not one (rebuys and add-ons add to it).
    expect(isGuaranteed(mtt({ entries: 3, pool: 50_000 }))).toBe(false);
    expect(badges(mtt({ guarantee: 100_000, entries: 1, pool: 100_000 }), null)).toContain('guaranteed');
    expect(toRow(mtt({ guarantee: 100_000 }), null, 0, false).guarantee).toBe(100_000);
    expect(toRow(mtt(), null, 0, false).guarantee).toBeNull();
  });
  it('a satellite names the tournament it gives seats to (T 1-5)', () => {
    const sat = mtt({ kinds: 'S', satellite: { tournamentId: 'mtt-main', name: 'Le Grand Tournoi', seatValue: 5500 } });
    expect(toRow(sat, null, 0, false).target).toBe('Le Grand Tournoi');
    // The target not offered (yet): its id rather than nothing.
    expect(toRow(mtt({ kinds: 'S', satellite: { tournamentId: 'mtt-main', name: null, seatValue: 5500 } }), null, 0, false).target).toBe('mtt-main');
    expect(toRow(mtt(), null, 0, false).target).toBeNull();
  });
});

describe('state', () => {
  const s = readyWire('THNL', 'regular'); // 10-minute levels, late registration through level 6
  it('is late registration while the clock from the start is within the late levels', () => {
    const t = mtt({ state: 'running', entries: 20, players: 20 });
    expect(lobbyState(t, s, 1_000_000 + 59 * 60_000)).toBe('late');
    expect(lobbyState(t, s, 1_000_000 + 61 * 60_000)).toBe('running');
    expect(lobbyState(t, null, 1_000_000)).toBe('running');
    expect(lobbyState(t, { ...s, lateRegistrationLevels: 0 }, 1_000_000)).toBe('running');
    expect(lobbyState(mtt({ state: 'running', players: 2000 }), s, 1_000_000)).toBe('running');
    expect(lobbyState(sng({ state: 'running' }), s, 0)).toBe('running');
    expect(lobbyState(mtt({ state: 'cancelled' }), s, 0)).toBe('cancelled');
  });
});

describe('filters and sorting', () => {
  const rows: TournamentRow[] = [
    toRow(sng({ tournamentId: 'a', entries: 5, players: 5, pool: 5000 }), readyWire('THNL', 'turbo'), 0, false),
    toRow(sng({ tournamentId: 'b', variant: '7SHL', buyIn: 20_000, fee: 2000, money: 'real' }), null, 0, false),
    toRow(mtt({ tournamentId: 'c', startAt: 500 }), readyWire('THNL', 'regular'), 0, true),
    toRow(mtt({ tournamentId: 'd', startAt: 100, state: 'finished' }), null, 0, false),
    toRow(mtt({ tournamentId: 'e', startAt: 200, kinds: 'A', buyIn: 2000, fee: 200 }), null, 0, false),
  ];
  const ids = (r: TournamentRow[]) => r.map((x) => x.t.tournamentId);

  it('puts the player’s own tournaments first whatever the order', () => {
    expect(ids(shownRows(rows, NO_FILTERS, 'entry', false))[0]).toBe('c');
    expect(ids(shownRows(rows, NO_FILTERS, 'entry', true))[0]).toBe('c');
    expect(ids(shownRows(rows, NO_FILTERS, 'entry', true))).toEqual(['c', 'b', 'd', 'e', 'a']);
  });
  it('sorts by start: open first, scheduled by time, sit & go’s fullest first, finished last', () => {
    expect(ids(shownRows(rows, NO_FILTERS, 'start', false))).toEqual(['c', 'e', 'a', 'b', 'd']);
  });
  it('filters by game, money, buy-in band, format or badge, and state', () => {
    expect(ids(shownRows(rows, { ...NO_FILTERS, family: 'stud' }, 'name', false))).toEqual(['b']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, money: 'real' }, 'name', false))).toEqual(['b']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, format: 'scheduled' }, 'start', false))).toEqual(['c', 'e', 'd']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, format: 'rebuy' }, 'start', false))).toEqual(['e']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, format: 'turbo' }, 'start', false))).toEqual(['a']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, state: 'finished' }, 'start', false))).toEqual(['d']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, state: 'open' }, 'start', false))).toEqual(['c', 'e', 'a', 'b']);
    expect(ids(shownRows(rows, { ...NO_FILTERS, entry: 'high' }, 'start', false))).toEqual(['b']);
  });
  it('bands entries by money: euros in cents, play chips', () => {
    expect(entryBand({ buyIn: 0, fee: 0, money: 'play' })).toBe('free');
    expect(entryBand({ buyIn: 180, fee: 20, money: 'real' })).toBe('micro');
    expect(entryBand({ buyIn: 181, fee: 20, money: 'real' })).toBe('low');
    expect(entryBand({ buyIn: 1000, fee: 100, money: 'play' })).toBe('micro');
    expect(entryBand({ buyIn: 5000, fee: 500, money: 'play' })).toBe('low');
    expect(entryBand({ buyIn: 5000, fee: 500, money: 'real' })).toBe('high');
  });
});

describe('countdownText', () => {
  it('writes days, hours, minutes or seconds, rounded up', () => {
    expect(countdownText(0, 'j')).toBe('0 s');
    expect(countdownText(-5000, 'j')).toBe('0 s');
    expect(countdownText(1, 'j')).toBe('1 s');
    expect(countdownText(59_001, 'j')).toBe('1 min 00 s');
    expect(countdownText(4 * 60_000 + 9_000, 'j')).toBe('4 min 09 s');
    expect(countdownText(3_600_000 + 5 * 60_000, 'j')).toBe('1 h 05 min');
    expect(countdownText(2 * 86_400_000 + 3 * 3_600_000, 'd')).toBe('2 d 03 h');
  });
});
