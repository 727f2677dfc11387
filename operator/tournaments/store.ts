/**
 * Tournaments in the operator database (schema.ts v6; issue 16 item 7): each tournament's state and
 * each entrant's, written by the tournament in the transaction of the step that changed them (a
 * settled hand, a registration, a purchase, a prize), so that an operator killed mid-tournament finds
 * on its next start the tournament as of its last completed hand (tournament.ts `restore`).
 */
import type { Db } from '../db';
import type { TournamentSpec } from './spec';

export interface SavedTournament {
  spec: TournamentSpec;
  state: 'registering' | 'running' | 'finished' | 'cancelled';
  data: string;
  entrants: string[];
  /** Its tables' positions after their last settled hands (v8; issue 16 item 3). */
  tables: { no: number; data: string }[];
}

export class TournamentStore {
  private readonly q;

  constructor(readonly db: Db) {
    this.q = {
      put: db.prepare<[string, string, string, string, number]>(
        `INSERT INTO tournaments(id, spec, state, data, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET state = excluded.state, data = excluded.data, updated_at = excluded.updated_at`,
      ),
      entrant: db.prepare<[string, number, string]>(
        `INSERT INTO tournament_entrants(tournament_id, account_id, data) VALUES (?, ?, ?)
         ON CONFLICT(tournament_id, account_id) DO UPDATE SET data = excluded.data`,
      ),
      drop: db.prepare<[string, number]>('DELETE FROM tournament_entrants WHERE tournament_id = ? AND account_id = ?'),
      open: db.prepare<[], { id: string; spec: string; state: SavedTournament['state']; data: string }>(
        `SELECT id, spec, state, data FROM tournaments WHERE state IN ('registering', 'running') ORDER BY updated_at, id`,
      ),
      ids: db.prepare<[], { id: string }>('SELECT id FROM tournaments'),
      entrants: db.prepare<[string], { data: string }>('SELECT data FROM tournament_entrants WHERE tournament_id = ?'),
      table: db.prepare<[string, number, string]>(
        `INSERT INTO tournament_tables(tournament_id, table_no, data) VALUES (?, ?, ?)
         ON CONFLICT(tournament_id, table_no) DO UPDATE SET data = excluded.data`,
      ),
      dropTable: db.prepare<[string, number]>('DELETE FROM tournament_tables WHERE tournament_id = ? AND table_no = ?'),
      tables: db.prepare<[string], { no: number; data: string }>('SELECT table_no AS no, data FROM tournament_tables WHERE tournament_id = ? ORDER BY table_no'),
    };
  }

  saveTournament(spec: TournamentSpec, state: SavedTournament['state'], data: string, at: number): void {
    this.q.put.run(spec.id, JSON.stringify(spec), state, data, at);
  }

  saveEntrant(tournamentId: string, accountId: number, data: string): void {
    this.q.entrant.run(tournamentId, accountId, data);
  }

  dropEntrant(tournamentId: string, accountId: number): void {
    this.q.drop.run(tournamentId, accountId);
  }

  /** A table's positions after its settled hand (in that hand's step), or gone with the table. */
  saveTable(tournamentId: string, no: number, data: string): void {
    this.q.table.run(tournamentId, no, data);
  }

  dropTable(tournamentId: string, no: number): void {
    this.q.dropTable.run(tournamentId, no);
  }

  /** Every tournament ever saved (their ids are not given again). */
  ids(): Set<string> {
    return new Set(this.q.ids.all().map((r) => r.id));
  }

  /** Tournaments not over (registering or running), with their entrants (each carries its registration order `n`). */
  unfinished(): SavedTournament[] {
    return this.q.open.all().map((r) => ({
      spec: JSON.parse(r.spec) as TournamentSpec,
      state: r.state,
      data: r.data,
      entrants: this.q.entrants.all(r.id).map((e) => e.data),
      tables: this.q.tables.all(r.id),
    }));
  }
}
