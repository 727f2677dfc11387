/**
 * Where main stores the local record of each tournament (issue 17 item 4): the history store's
 * `putTournament` (an upsert by tournament id) and `removeTournament`, written by the history's
 * side of the issue (branch `chist`). Until the store has them, a record is not kept:
 * the tournament calls and the tracker work the same.
 */
import type { TournamentRecordView } from '../../../shared/api';
import type { HistoryStore } from '../history/store';

interface TournamentWrites {
  putTournament?: (t: TournamentRecordView) => unknown;
  removeTournament?: (tournamentId: string) => unknown;
}

export function tournamentRecords(store: HistoryStore): { putTournament: (t: TournamentRecordView) => void; removeTournament: (tournamentId: string) => void } {
  const w = store as unknown as TournamentWrites;
  return {
    putTournament: (t) => void w.putTournament?.call(store, t),
    removeTournament: (id) => void w.removeTournament?.call(store, id),
  };
}
