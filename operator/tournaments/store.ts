/**
 * Tournaments in the operator database (schema.ts v6): each tournament's state and
 * each entrant's, written by the tournament in the transaction of the step that changed them (a
 * settled hand, a registration, a purchase, a prize), so that an operator killed mid-tournament finds
 * on its next start the tournament as of its last completed hand (tournament.ts `restore`).
 */
import type { TournamentResult } from '../../shared/protocol/tournament';
import type { Db } from '../../shared/node/sqlite';
import { formatCode, type TournamentSpec } from './spec';
import type { SavedEntrant, SavedState } from './tournament-types';

interface ResultRow {
  id: string;
  spec: string;
  tdata: string;
  ended_at: number;
  edata: string;
}

/**
 * One finished tournament as its entrant saw it: what it cost (every entry, rebuy and add-on with its
 * fee) and what it paid (the place's prize, the bounties won). Null for an entrant without a place
 * (cannot happen in a finished tournament: every player is placed before its end).
 */
function resultOf(r: ResultRow): TournamentResult | null {
  const spec = JSON.parse(r.spec) as TournamentSpec;
  const st = JSON.parse(r.tdata) as SavedState;
  const e = JSON.parse(r.edata) as SavedEntrant;
  if (e.place === null) return null;
  const s = spec.structure;
  const entry = spec.buyIn + spec.fee;
  const spent = (1 + e.reEntries) * entry + e.rebuys * (s.rebuy ? s.rebuy.price + s.rebuy.fee : 0) + (e.addOn && s.addOn ? s.addOn.price + s.addOn.fee : 0);
  return {
    tournamentId: spec.id,
    name: spec.name,
    variant: spec.variant,
    money: spec.money,
    format: spec.format,
    kinds: formatCode(spec).replace(/^T\/?/, ''),
    buyIn: spec.buyIn,
    fee: spec.fee,
    entries: st.entryCount,
    startedAt: Math.max(0, r.ended_at - (st.elapsed ?? 0)),
    endedAt: r.ended_at,
    place: e.place,
    prize: e.prize ?? 0,
    bounties: e.won ?? 0,
    rebuys: e.rebuys,
    addOns: e.addOn ? 1 : 0,
    reEntries: e.reEntries,
    spent,
  };
}

export interface SavedTournament {
  spec: TournamentSpec;
  state: 'registering' | 'running' | 'finished' | 'cancelled';
  data: string;
  entrants: string[];
  /** Its tables' positions after their last settled hands (v9). */
  tables: { no: number; data: string }[];
}

export class TournamentStore {
  private readonly q;
  private readonly specs = new WeakMap<TournamentSpec, string>();

  constructor(readonly db: Db) {
    this.q = {
      // `ended_at`: when the state first became `finished` (v8; the results' order and their year).
      put: db.prepare<[string, string, string, string, number, string, number]>(
        `INSERT INTO tournaments(id, spec, state, data, updated_at, ended_at) VALUES (?, ?, ?, ?, ?, CASE WHEN ? = 'finished' THEN ? END)
         ON CONFLICT(id) DO UPDATE SET state = excluded.state, data = excluded.data, updated_at = excluded.updated_at,
           ended_at = COALESCE(tournaments.ended_at, excluded.ended_at)`,
      ),
      results: db.prepare<[number, number, number, number, string, number], ResultRow>(
        `SELECT t.id, t.spec, t.data AS tdata, t.ended_at, e.data AS edata
         FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id
         WHERE e.account_id = ? AND t.state = 'finished' AND t.ended_at >= ? AND (t.ended_at < ? OR (t.ended_at = ? AND t.id < ?))
         ORDER BY t.ended_at DESC, t.id DESC LIMIT ?`,
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
    // The spec never changes (what players confirmed): serialised once, not again with every hand.
    let json = this.specs.get(spec);
    if (json === undefined) this.specs.set(spec, (json = JSON.stringify(spec)));
    this.q.put.run(spec.id, json, state, data, at, state, at);
  }

  /**
   * A page of the account's finished tournaments ended at or after `since`, newest first
   * (`tournament.results`): `cursor` is the previous page's `next` (null for the first);
   * `BAD_CURSOR` when it is not one. Read from what each tournament saved of its entrants (their
   * place, prize, purchases and bounties were written in the step that paid them: a restart keeps them).
   */
  results(accountId: number, cursor: string | null, limit: number, since: number): { ok: true; results: TournamentResult[]; next: string | null } | { ok: false; code: 'BAD_CURSOR' } {
    let endedBefore = Number.MAX_SAFE_INTEGER;
    let idBefore = '\u{10FFFF}';
    if (cursor !== null) {
      const m = /^(\d{1,16})\.([A-Za-z0-9][A-Za-z0-9_-]{0,59})$/.exec(cursor);
      if (!m) return { ok: false, code: 'BAD_CURSOR' };
      endedBefore = Number(m[1]);
      idBefore = m[2];
    }
    const rows = this.q.results.all(accountId, since, endedBefore, endedBefore, idBefore, limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const results = shown.flatMap((r) => {
      const x = resultOf(r);
      return x ? [x] : [];
    });
    const last = shown[shown.length - 1];
    return { ok: true, results, next: more && last ? `${last.ended_at}.${last.id}` : null };
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
