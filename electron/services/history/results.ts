/**
 * The results side of the history (R-RESULTS): the graph's lines, the sessions and the player's
 * statistics over a filtered set of stored hands. Definitions in docs/stats.md.
 */
import type { CallResult, HistoryFilter } from '../../../shared/api';
import type { HistoryStore } from './store';

export function resultsSeries(store: HistoryStore, filter: HistoryFilter, maxPoints: number): CallResult<'resultsSeries'> {
  void store;
  void filter;
  void maxPoints;
  throw new Error('resultsSeries: not built yet');
}

export function resultsSessions(store: HistoryStore, filter: HistoryFilter, gapMinutes: number): CallResult<'resultsSessions'> {
  void store;
  void filter;
  void gapMinutes;
  throw new Error('resultsSessions: not built yet');
}

export function playerStats(store: HistoryStore, filter: HistoryFilter): CallResult<'playerStats'> {
  void store;
  void filter;
  throw new Error('playerStats: not built yet');
}
