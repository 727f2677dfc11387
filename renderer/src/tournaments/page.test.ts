import { describe, expect, it } from 'vitest';
import type { TournamentSummary } from '../../../shared/protocol/tournament';
import { payout } from '../../../shared/rules/tournament/payouts';
import { readyWire } from '../../../tests/support/renderer/structure';
import { entrantRows, entryCheck, payoutRows, rulesThatApply, sharedPlaces, structureLines, type Entrant } from './page';

const summary = (over: Partial<TournamentSummary> = {}): TournamentSummary => ({
  tournamentId: 'mtt-1',
  name: 'Le Grand Tournoi',
  variant: 'THNL',
  money: 'play',
  buyIn: 5000,
  fee: 500,
  bounty: 0,
  format: 'scheduled',
  kinds: '',
  seats: 9,
  state: 'registering',
  entries: 0,
  players: 0,
  remaining: 0,
  minEntrants: 10,
  maxEntrants: 2000,
  startAt: 1000,
  pool: 0,
  version: 'v1',
  ...over,
});

describe('structureLines', () => {
  it('puts a break after every n levels (not after the last) and marks the late and rebuy periods and the clock', () => {
    const s = readyWire('THNL', 'regular', { rebuys: { price: 5000, fee: 500 } }); // breaks every 6, late through 6
    const lines = structureLines(s, { level: 6, onBreak: true });
    expect(lines[6]).toEqual({ kind: 'break', afterLevel: 5, minutes: 5, current: true });
    expect(lines.filter((l) => l.kind === 'break')).toHaveLength(Math.floor((s.levels.length - 1) / 6));
    const levels = lines.filter((l) => l.kind === 'level');
    expect(levels).toHaveLength(s.levels.length);
    expect(levels.filter((l) => l.lateRegistration).map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(levels.filter((l) => l.rebuy).map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(levels.some((l) => l.current)).toBe(false);
    expect(structureLines(s, { level: 2, onBreak: false }).filter((l) => l.current)).toMatchObject([{ kind: 'level', index: 2 }]);
    expect(structureLines(readyWire('THNL', 'hyper-turbo')).some((l) => l.kind === 'break')).toBe(false);
  });
});

describe('payoutRows', () => {
  it('groups equal prizes, keeps every unit of the pool and the shares', () => {
    expect(payoutRows([5000, 3000, 1000, 500, 500, 500], 10_500)).toEqual([
      { from: 1, to: 1, prize: 5000, basisPoints: 4761 },
      { from: 2, to: 2, prize: 3000, basisPoints: 2857 },
      { from: 3, to: 3, prize: 1000, basisPoints: 952 },
      { from: 4, to: 6, prize: 500, basisPoints: 476 },
    ]);
    expect(payoutRows([], 0)).toEqual([]);
  });
  it('follows the field: the operator’s payouts for more entrants pay more places, the same pool in total', () => {
    for (const n of [6, 27, 180]) {
      const pool = n * 5000;
      const list = payout(pool, n);
      const rows = payoutRows(list, pool);
      expect(rows.reduce((sum, r) => sum + r.prize * (r.to - r.from + 1), 0)).toBe(pool);
      expect(rows[rows.length - 1].to).toBe(list.length);
    }
  });
});

describe('sharedPlaces', () => {
  const e = (name: string, place: number | null): Entrant => ({ name, practice: false, stack: place === null ? 1000 : 0, place, prize: null, tableId: null });
  it('three out on one hand with equal stacks hold place 2 and share places 2 to 4 (T 8-16); alone, no tie', () => {
    const field = [e('a', null), e('b', 2), e('c', 2), e('d', 2), e('f', 5), e('g', 6)];
    expect(sharedPlaces(field, 2)).toEqual({ count: 3, last: 4 });
    expect(sharedPlaces(field, 5)).toEqual({ count: 1, last: 5 });
    // Our finish told before the details are read again: no tie claimed.
    expect(sharedPlaces(field, 7)).toEqual({ count: 1, last: 7 });
  });
});

describe('entrantRows', () => {
  const e = (name: string, stack: number, place: number | null = null): Entrant => ({ name, practice: false, stack, place, prize: null, tableId: place === null ? 't1' : null });
  const field = [e('Bob', 5000), e('Élodie', 12_000), e('anne', 0, 3), e('Chloé', 8000), e('Zed', 0, 4)];
  it('ranks those still in by stack, then those out by place', () => {
    expect(entrantRows(field).map((r) => [r.name, r.rank, r.out])).toEqual([
      ['Élodie', 1, false],
      ['Chloé', 2, false],
      ['Bob', 3, false],
      ['anne', 3, true],
      ['Zed', 4, true],
    ]);
  });
  it('searches names without case or accents, keeping the field’s ranks', () => {
    expect(entrantRows(field, 'elo').map((r) => [r.name, r.rank])).toEqual([['Élodie', 1]]);
    expect(entrantRows(field, ' CHLO ').map((r) => [r.name, r.rank])).toEqual([['Chloé', 2]]);
    expect(entrantRows(field, 'nobody')).toEqual([]);
  });
});

describe('rulesThatApply', () => {
  const keys = (t: TournamentSummary, s = readyWire('THNL', 'regular')) => rulesThatApply(t, s).map((r) => r.key);
  it('a multi-table freezeout: balancing, breaking, hand-for-hand, absent players, eliminations', () => {
    const k = keys(summary());
    for (const x of ['end', 'levels', 'freezeout', 'late', 'minField', 'balancing', 'breaking', 'handForHand', 'absent', 'eliminations', 'leave']) expect(k).toContain(x);
    expect(k).not.toContain('rebuyStartingStack');
  });
  it('a rebuy tournament: T 5-2 with its condition, T 5-4 add-on; no freezeout', () => {
    const s = readyWire('THNL', 'turbo', { rebuys: { price: 2000, fee: 200 } });
    const r = rulesThatApply(summary({ kinds: 'A' }), s);
    expect(r.find((x) => x.key === 'rebuyStartingStack')).toEqual({ key: 'rebuyStartingStack', refs: 'T 5-2, 5-3', params: { until: 6, chips: 10_000, stack: 10_000 } });
    expect(r.find((x) => x.key === 'addOn')?.params).toEqual({ chips: 15_000, level: 7 });
    expect(r.map((x) => x.key)).not.toContain('freezeout');
    expect(rulesThatApply(summary(), { ...s, rebuy: { ...s.rebuy!, when: 'below-big-blind', max: 2 } }).map((x) => x.key)).toEqual(expect.arrayContaining(['rebuyBelowBigBlind', 'rebuyMax']));
  });
  it('a one-table sit & go: no balancing; a satellite ends when those left are qualified', () => {
    const k = keys(summary({ format: 'sit-and-go', maxEntrants: 6, minEntrants: 6, seats: 6, kinds: 'S', startAt: null }), { ...readyWire('THNL', 'turbo'), lateRegistrationLevels: 0 });
    expect(k).toContain('seatingOne');
    expect(k).toContain('endSatellite');
    expect(k).not.toContain('balancing');
    expect(k).not.toContain('minField');
    expect(k).not.toContain('late');
  });
});

describe('entryCheck', () => {
  it('is the buy-in plus the fee against the balance', () => {
    expect(entryCheck({ buyIn: 1000, fee: 100 }, 1100)).toEqual({ total: 1100, enough: true, short: 0 });
    expect(entryCheck({ buyIn: 1000, fee: 100 }, 1099)).toEqual({ total: 1100, enough: false, short: 1 });
    expect(entryCheck({ buyIn: 1000, fee: 100 }, null)).toEqual({ total: 1100, enough: false, short: 1100 });
  });
});
