import { describe, expect, it } from 'vitest';
import { dayStart, dayText, emptyForm, lookupId, toHistoryFilter, type FilterForm } from './filter';

const now = new Date(2026, 10, 22, 15, 30); // 22 November 2026, 15:30 local
const form = (over: Partial<FilterForm>): FilterForm => ({ ...emptyForm(), ...over });

describe('history filter', () => {
  it('asks for everything when nothing is chosen', () => {
    expect(toHistoryFilter(emptyForm(), now)).toEqual({ ok: true, filter: {} });
  });

  it('counts periods in whole local days', () => {
    expect(toHistoryFilter(form({ period: 'today' }), now)).toEqual({ ok: true, filter: { from: new Date(2026, 10, 22).getTime() } });
    expect(toHistoryFilter(form({ period: '7d' }), now)).toEqual({ ok: true, filter: { from: new Date(2026, 10, 16).getTime() } });
    expect(toHistoryFilter(form({ period: '30d' }), now)).toEqual({ ok: true, filter: { from: new Date(2026, 9, 24).getTime() } });
  });

  it('takes a custom period with both days included', () => {
    const r = toHistoryFilter(form({ period: 'custom', from: '2026-11-01', to: '2026-11-03' }), now);
    expect(r).toEqual({ ok: true, filter: { from: new Date(2026, 10, 1).getTime(), to: new Date(2026, 10, 4).getTime() } });
    expect(toHistoryFilter(form({ period: 'custom', from: '2026-11-01' }), now)).toEqual({ ok: true, filter: { from: new Date(2026, 10, 1).getTime() } });
    expect(toHistoryFilter(form({ period: 'custom', from: '2026-11-05', to: '2026-11-03' }), now)).toEqual({ ok: false, reason: 'dates' });
    expect(toHistoryFilter(form({ period: 'custom', from: '2026-02-30' }), now)).toEqual({ ok: false, reason: 'dates' });
  });

  it('maps every other field, and ignores what cannot be one', () => {
    const r = toHistoryFilter(
      form({ variant: '7SHL', stakes: 'play:20', tableId: ' practice-7shl ', result: 'won', showdown: 'yes', allIn: 'no', player: '  Bob ' }),
      now,
    );
    expect(r).toEqual({
      ok: true,
      filter: { variant: '7SHL', money: 'play', stakes: 20, tableId: 'practice-7shl', result: 'won', showdown: true, allIn: false, player: 'Bob' },
    });
    expect(toHistoryFilter(form({ variant: 'XYZ' as never, stakes: 'gold:3', player: '   ' }), now)).toEqual({ ok: true, filter: {} });
    const long = toHistoryFilter(form({ player: 'x'.repeat(100) }), now);
    expect(long.ok && long.filter.player).toHaveLength(64);
  });

  it('cash or tournament hands, and one tournament’s hands', () => {
    expect(toHistoryFilter(form({ kind: 'cash' }), now)).toEqual({ ok: true, filter: { kind: 'cash' } });
    expect(toHistoryFilter(form({ kind: 'tournament', money: undefined } as never), now)).toEqual({ ok: true, filter: { kind: 'tournament' } });
    expect(toHistoryFilter(form({ kind: 'cash', tournamentId: 'sng4-x_1' }), now)).toEqual({ ok: true, filter: { kind: 'tournament', tournamentId: 'sng4-x_1' } });
    expect(toHistoryFilter(form({ tournamentId: 'not an id' }), now)).toEqual({ ok: true, filter: {} });
  });

  it('reads days both ways', () => {
    expect(dayText(dayStart('2026-03-29')!)).toBe('2026-03-29');
    expect(dayStart('29/03/2026')).toBeNull();
  });

  it('reads a typed hand id', () => {
    expect(lookupId('  #h-42 ')).toBe('h-42');
    expect(lookupId('   ')).toBeNull();
    expect(lookupId('x'.repeat(201))).toBeNull();
  });
});
