/**
 * The figures of tournament results (R-RESULTS), from the whole sums the history
 * returns (shared/api/tournaments.ts `tournamentTotalsSchema`): net, ROI, in-the-money rate, average
 * finish and average field. Pure: the results page shows them, tests check them against a brute force.
 * A figure with nothing to divide by is null (shown as "—"), never 0 or NaN.
 */
import type { TournamentResultsView } from './tournament-record';

export type TournamentTotals = TournamentResultsView['real'];

export interface TournamentFigures {
  /** Finished tournaments. */
  count: number;
  /** Running tournaments counted in `net`. */
  running: number;
  /** prizes + bounties − spent (integers: money). */
  net: number;
  /** net / spent, a fraction (0.25: +25 %). */
  roi: number | null;
  /** Tournaments with a prize above 0 / tournaments. */
  itm: number | null;
  /** Mean of the places (1 = won). */
  averageFinish: number | null;
  /** Mean of the fields' sizes. */
  averageField: number | null;
}

/**
 * `net` counts the running tournaments' spent and bounties so far (an entry paid is lost until a prize
 * comes, R-TRACKER); ROI is over the finished ones (a running tournament's result is not known yet).
 */
export function tournamentFigures(t: TournamentTotals): TournamentFigures {
  const per = (x: number, d: number): number | null => (d > 0 ? x / d : null);
  const finishedSpent = t.spent - t.runningSpent;
  return {
    count: t.count,
    running: t.running,
    net: t.prizes + t.bounties - t.spent,
    roi: per(t.prizes + t.bounties - t.runningBounties - finishedSpent, finishedSpent),
    itm: per(t.cashes, t.count),
    averageFinish: per(t.placeSum, t.count),
    averageField: per(t.entriesSum, t.count),
  };
}

/**
 * Sums of tournaments' records, as the history sums them (the same meaning, for tests and the page's own
 * lists): the finished ones (a place), and the running ones (no end, not refunded) in `running`,
 * `runningSpent`, `runningBounties` and in `spent`, `bounties` and `net`. A refunded one counts nowhere.
 */
export function sumTournaments(
  list: readonly { spent: number; prize: number; bounties: number; place: number | null; entries: number; endedAt?: number | null; refundedAt?: number }[],
): TournamentTotals {
  const t: TournamentTotals = { count: 0, spent: 0, prizes: 0, bounties: 0, net: 0, cashes: 0, placeSum: 0, entriesSum: 0, running: 0, runningSpent: 0, runningBounties: 0 };
  for (const x of list) {
    if (x.refundedAt !== undefined) continue;
    if (x.place === null) {
      if (x.endedAt !== null && x.endedAt !== undefined) continue;
      t.running++;
      t.runningSpent += x.spent;
      t.runningBounties += x.bounties;
      t.spent += x.spent;
      t.bounties += x.bounties;
      continue;
    }
    t.count++;
    t.spent += x.spent;
    t.prizes += x.prize;
    t.bounties += x.bounties;
    t.cashes += x.prize > 0 ? 1 : 0;
    t.placeSum += x.place;
    t.entriesSum += x.entries;
  }
  t.net = t.prizes + t.bounties - t.spent;
  return t;
}
