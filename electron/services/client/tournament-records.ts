/**
 * Where main stores the local record of each tournament: the history store's
 * `putTournament` (an upsert by tournament id). A refused write is thrown, so that the caller logs it
 * (client/tournaments.ts) or counts it (history/sync.ts).
 */
import type { TournamentRecordView } from '../../../shared/api';
import type { HistoryStore } from '../history/store';

function done(r: { ok: true } | { ok: false; reason: string }): void {
  if (!r.ok) throw new Error(r.reason);
}

export function tournamentRecords(store: HistoryStore): { putTournament: (t: TournamentRecordView, at?: number) => void; syncTournament: (t: TournamentRecordView) => void } {
  return {
    putTournament: (t, at) => done(store.putTournament(t, at)),
    // The operator's results do not say when the player registered, nor a tie: a record kept here knows
    // them (not a refunded registration's: the result is of a later one).
    syncTournament: (t) => {
      const known = store.tournament(t.tournamentId);
      if (!known || known.refundedAt !== undefined) return done(store.putTournament(t));
      const tied = t.tied ?? (known.place === t.place ? known.tied : undefined);
      done(store.putTournament({ ...t, registeredAt: Math.min(known.registeredAt, t.endedAt ?? known.registeredAt), ...(tied !== undefined ? { tied } : {}) }));
    },
  };
}
