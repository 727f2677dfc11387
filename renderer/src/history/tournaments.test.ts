// Tournaments on the results page (issue 17 item 4): the graph of cash and tournaments together, and
// the figures' text.
import { describe, expect, it } from 'vitest';
import type { SeriesView } from '../../../shared/api';
import { decimal, mergeSeries, percent, tournamentNet } from './tournaments';

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
