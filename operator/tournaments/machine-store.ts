/**
 * The tournament machine's states in the operator database (schema.ts v11): written by the runner in
 * the transaction of each event, with the money and records that event moved; read back on a start
 * after a crash, the tournament goes on from its last event. The state is kept in parts so an event
 * writes what it changed: the state without its entrants and tables, and a row per entrant and table.
 */
import { bucketOf, emptyBuckets, entrantOf, tableOf, type Buckets } from '../../shared/rules/tournament/machine/buckets';
import type { Applied, Entrant, MachineState, Table } from '../../shared/rules/tournament/machine';
import type { Db } from '../../shared/node/sqlite';

export class MachineStore {
  private readonly q;

  constructor(readonly db: Db) {
    this.q = {
      put: db.prepare<[string, string, string, number, number]>(
        `INSERT INTO tournament_machines(id, phase, state, events, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET phase = excluded.phase, state = excluded.state, events = excluded.events, updated_at = excluded.updated_at`,
      ),
      row: db.prepare<[string, string, number, string]>(
        `INSERT INTO tournament_machine_rows(tournament_id, kind, key, data) VALUES (?, ?, ?, ?)
         ON CONFLICT(tournament_id, kind, key) DO UPDATE SET data = excluded.data`,
      ),
      dropRow: db.prepare<[string, string, number]>('DELETE FROM tournament_machine_rows WHERE tournament_id = ? AND kind = ? AND key = ?'),
      get: db.prepare<[string], { state: string; events: number }>('SELECT state, events FROM tournament_machines WHERE id = ?'),
      rows: db.prepare<[string], { kind: 'e' | 't'; key: number; data: string }>('SELECT kind, key, data FROM tournament_machine_rows WHERE tournament_id = ?'),
      open: db.prepare<[], { id: string }>(`SELECT id FROM tournament_machines WHERE phase IN ('registering', 'running') ORDER BY id`),
    };
  }

  /** The state after an event, with the rows of the entrants and tables it changed (all of them: `changed` absent). */
  save(state: MachineState, events: number, at: number, changed?: Applied['changed']): void {
    const id = state.spec.id;
    this.q.put.run(id, state.phase, JSON.stringify({ ...state, entrants: [], tables: [] }), events, at);
    const write = <T>(kind: 'e' | 't', key: number, value: T | undefined) => (value === undefined ? this.q.dropRow.run(id, kind, key) : this.q.row.run(id, kind, key, JSON.stringify(value)));
    if (changed) {
      for (const k of changed.entrants) write('e', k, entrantOf(state, k));
      for (const k of changed.tables) write('t', k, tableOf(state, k));
      return;
    }
    for (const b of state.entrants) for (const k in b) write('e', Number(k), b[k]);
    for (const b of state.tables) for (const k in b) write('t', Number(k), b[k]);
  }

  load(id: string): { state: MachineState; events: number } | null {
    const r = this.q.get.get(id);
    if (!r) return null;
    const core = JSON.parse(r.state) as MachineState;
    const entrants = emptyBuckets<Entrant>() as Record<string, Entrant>[];
    const tables = emptyBuckets<Table>() as Record<string, Table>[];
    for (const row of this.q.rows.all(id)) {
      const into: Record<string, unknown>[] = row.kind === 'e' ? entrants : tables;
      into[bucketOf(row.key)][row.key] = JSON.parse(row.data);
    }
    // Keys in each bucket in ascending order, as the machine's own maps hold them (integer keys).
    return { state: { ...core, entrants: entrants as Buckets<Entrant>, tables: tables as Buckets<Table> }, events: r.events };
  }

  /** Tournaments not over: the runners a start after a crash makes again. */
  unfinished(): string[] {
    return this.q.open.all().map((r) => r.id);
  }
}
