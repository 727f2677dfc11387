/**
 * Where main stores the local record of each tournament (issue 17 item 4): the history store's
 * `putTournament` (an upsert by tournament id) and `removeTournament`, written by the history's
 * side of the issue (branch `chist`). Until the store has them, a record is not kept:
 * the tournament calls and the tracker work the same.
 */
import type { TournamentRecordView } from '../../../shared/api';
import type { HistoryStore } from '../history/store';

type Written = { ok: true } | { ok: false; reason: string } | undefined | void;

interface TournamentWrites {
  putTournament?: (t: TournamentRecordView) => Written;
  removeTournament?: (tournamentId: string) => Written;
}

/** A refused write is thrown, so that the caller logs it (client/tournaments.ts). */
function done(r: Written): void {
  if (r && r.ok === false) throw new Error(r.reason);
}

export function tournamentRecords(store: HistoryStore): { putTournament: (t: TournamentRecordView) => void; removeTournament: (tournamentId: string) => void } {
  const w = store as unknown as TournamentWrites;
  return {
    putTournament: (t) => done(w.putTournament?.call(store, t)),
    removeTournament: (id) => done(w.removeTournament?.call(store, id)),
  };
}
