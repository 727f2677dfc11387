// Tournaments on the results page: the graph of cash and tournaments together, and
// the figures' text.
import { describe, expect, it } from 'vitest';
import type { SeriesView } from '../../../shared/api';
import { tournamentFigures } from '../../../shared/history/tournaments';
import { i18n } from '../i18n';
import { decimal, gameName, mergeSeries, percent, periodLines, placeCell, recordState, tournamentNet } from './tournaments';

const line = (points: [at: number, hands: number, total: number, showdown: number][]): SeriesView => ({
  at: points.map((p) => p[0]),
  hands: points.map((p) => p[1]),
  total: points.map((p) => p[2]),
  showdown: points.map((p) => p[3]),
  noShowdown: points.map((p) => p[2] - p[3]),
  allInAdjusted: points.map((p) => p[2]),
});

describe('mergeSeries: cash and tournaments on one line, in time order', () => {
  it('adds the line of the other kind as it stood at each point', () => {
    const cash = line([
      [100, 0, 0, 0],
      [100, 1, 50, 50],
      [300, 2, 20, 50],
      [500, 3, 120, 150],
    ]);
    // Tournaments at their end times: +400 at 200, −110 at 400.
    const tour = line([
      [200, 0, 0, 0],
      [200, 1, 400, 0],
      [400, 2, 290, 0],
    ]);
    const both = mergeSeries(cash, tour);
    expect(both.at).toEqual([100, 100, 200, 200, 300, 400, 500]);
    expect(both.total).toEqual([0, 50, 50, 450, 420, 310, 410]);
    expect(both.hands).toEqual([0, 1, 1, 2, 3, 4, 5]);
    expect(both.showdown).toEqual([0, 50, 50, 50, 50, 50, 150]);
    // showdown + no showdown = total at every point.
    for (let i = 0; i < both.at.length; i++) expect(both.showdown[i] + both.noShowdown[i]).toBe(both.total[i]);
    // The end: the cash end + the tournaments' end.
    expect(both.total.at(-1)).toBe(120 + 290);
  });

  it('one kind alone is returned as it is', () => {
    const cash = line([
      [1, 0, 0, 0],
      [2, 1, 5, 0],
    ]);
    const none = line([]);
    expect(mergeSeries(cash, none)).toBe(cash);
    expect(mergeSeries(none, cash)).toBe(cash);
  });
});

describe('figures', () => {
  it('a tournament’s net, null while it runs', () => {
    expect(tournamentNet({ place: 2, prize: 420, bounties: 40, spent: 220 })).toBe(240);
    expect(tournamentNet({ place: 5, prize: 0, bounties: 0, spent: 1100 })).toBe(-1100);
    expect(tournamentNet({ place: null, prize: 0, bounties: 0, spent: 1100 })).toBeNull();
  });

  it('percentages and means in the page’s language, "—" for none', () => {
    expect(percent(0.125, 'en', true)).toBe('+12.5%');
    expect(percent(-0.5, 'fr', true).replace(/\s/g, ' ')).toBe('-50,0 %');
    expect(percent(null, 'fr')).toBe('—');
    expect(decimal(3.25, 'fr')).toMatch(/^3,[23]$/);
    expect(decimal(null, 'en')).toBe('—');
  });
});

describe('refunds, running tournaments and period lines', () => {
  it('a refunded registration is its own state, without a net; a running one is running', () => {
    expect(recordState({ place: null, refundedAt: 5 })).toBe('refunded');
    expect(recordState({ place: null })).toBe('running');
    expect(recordState({ place: 3 })).toBe('finished');
    expect(tournamentNet({ place: null, prize: 0, bounties: 0, spent: 0, refundedAt: 5 })).toBeNull();
  });

  it('the net counts a running tournament’s entry and bounties; ROI only the finished ones', () => {
    // One finished (spent 1100, won 2000 + 100), one running (spent 1100, a bounty of 200 so far).
    const f = tournamentFigures({ count: 1, spent: 2200, prizes: 2000, bounties: 300, net: 100, cashes: 1, placeSum: 1, entriesSum: 6, running: 1, runningSpent: 1100, runningBounties: 200 });
    expect(f).toMatchObject({ count: 1, running: 1, net: 100, itm: 1, averageFinish: 1 });
    expect(f.roi).toBeCloseTo(1000 / 1100, 12);
    expect(tournamentFigures({ count: 0, spent: 1100, prizes: 0, bounties: 0, net: -1100, cashes: 0, placeSum: 0, entriesSum: 0, running: 1, runningSpent: 1100, runningBounties: 0 })).toMatchObject({ net: -1100, roi: null, itm: null });
  });

  it('a period’s lines of one money kind: cash net + tournament net each, newest day first, adding up to the total', () => {
    const groups = [
      { money: 'real' as const, day: '2026-01-14', hands: 10, net: 250, rake: 5, entries: 1100, prizes: 0 },
      { money: 'play' as const, day: '2026-01-14', hands: 3, net: -40, rake: 0, entries: 0, prizes: 0 },
      { money: 'real' as const, day: '2026-01-15', hands: 0, net: 0, rake: 0, entries: 1100, prizes: 3600 },
    ];
    const { lines, total } = periodLines(groups, 'real', 'day');
    expect(lines).toEqual([
      { key: '2026-01-15', hands: 0, cash: 0, tournaments: 2500, result: 2500 },
      { key: '2026-01-14', hands: 10, cash: 250, tournaments: -1100, result: -850 },
    ]);
    expect(total).toEqual({ key: '', hands: 10, cash: 250, tournaments: 1400, result: 1650 });
    expect(periodLines([{ money: 'real', variant: 'THNL', hands: 2, net: 5, entries: 0, prizes: 7 }], 'real', 'variant').lines).toEqual([{ key: 'THNL', hands: 2, cash: 5, tournaments: 7, result: 12 }]);
    expect(gameName('THNL', 'fr')).not.toBe(gameName('THNL', 'en'));
    expect(gameName('2026-01-14', 'fr')).toBe('2026-01-14');
  });
});

describe('the list’s place cell (T 8-16, schema version 8)', () => {
  const tr = (key: string, params?: Record<string, unknown>): string => i18n.global.t(key, params ?? {});
  it('says a tied finish with the places shared; alone, the place of the field; refunded and running as such', () => {
    i18n.global.locale.value = 'fr';
    expect(placeCell({ place: 2, tied: 3, entries: 4 }, tr)).toEqual({
      text: '2 ex aequo / 4',
      title: 'Places 2 à 4 partagées entre 3 joueurs sortis sur la même main avec le même tapis : leurs gains sont répartis à parts égales.',
    });
    expect(placeCell({ place: 2, entries: 4 }, tr)).toEqual({ text: '2 / 4', title: '' });
    expect(placeCell({ place: null, entries: 4, refundedAt: 9 }, tr).text).toBe('remboursé');
    expect(placeCell({ place: null, entries: 4 }, tr).text).toBe('en cours');
    i18n.global.locale.value = 'en';
    expect(placeCell({ place: 2, tied: 3, entries: 4 }, tr).text).toBe('2 tied / 4');
    i18n.global.locale.value = 'fr';
  });
});
