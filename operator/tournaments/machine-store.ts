/**
 * The tournament machine's states in the operator database (schema.ts v11, v12): written by the
 * runner in the transaction of each event, with the money and records that event moved; read back on
 * a start after a crash, the tournament goes on from its last event. What grows with the field is kept
 * in rows an event writes only when it changes them: one per entrant, per table, per busted group and
 * one for the prizes; the rest of the state (counters, the clock, the round) is one small JSON. The
 * tables by size are not saved: they are counted again from the tables when read back.
 */
import { bucketOf, emptyBuckets, entrantOf, tableOf, type Buckets } from '../../shared/rules/tournament/machine/buckets';
import { allGroups, groupAt, groupCount, groupsOf } from '../../shared/rules/tournament/machine/groups';
import { indexTables } from '../../shared/rules/tournament/machine/sizes';
import type { Applied, Entrant, MachineState, Table } from '../../shared/rules/tournament/machine';
import type { Db } from '../../shared/node/sqlite';
import type { TablePositions } from '../tables/types';

/** Row kinds: `e` an entrant by account id, `t` a table by number, `g` a busted group by position, `p` the prizes (key 0). */
type Kind = 'e' | 't' | 'g' | 'p';

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
      dropFrom: db.prepare<[string, string, number]>('DELETE FROM tournament_machine_rows WHERE tournament_id = ? AND kind = ? AND key >= ?'),
      get: db.prepare<[string], { state: string; events: number }>('SELECT state, events FROM tournament_machines WHERE id = ?'),
      rows: db.prepare<[string], { kind: Kind; key: number; data: string }>('SELECT kind, key, data FROM tournament_machine_rows WHERE tournament_id = ? ORDER BY kind, key'),
      position: db.prepare<[string, number, string]>(
        `INSERT INTO tournament_machine_positions(tournament_id, table_no, data) VALUES (?, ?, ?)
         ON CONFLICT(tournament_id, table_no) DO UPDATE SET data = excluded.data`,
      ),
      dropPosition: db.prepare<[string, number]>('DELETE FROM tournament_machine_positions WHERE tournament_id = ? AND table_no = ?'),
      positions: db.prepare<[string], { no: number; data: string }>('SELECT table_no AS no, data FROM tournament_machine_positions WHERE tournament_id = ?'),
      open: db.prepare<[], { id: string }>(`SELECT id FROM tournament_machines WHERE phase IN ('registering', 'running') ORDER BY id`),
    };
  }

  /** The state after an event, with the rows of what it changed (all of them: `changed` absent). */
  save(state: MachineState, events: number, at: number, changed?: Applied['changed']): void {
    const id = state.spec.id;
    this.q.put.run(id, state.phase, JSON.stringify({ ...state, entrants: [], tables: [], busted: [], prizes: [], sizes: [], bySize: [] }), events, at);
    const write = <T>(kind: Kind, key: number, value: T | undefined) => (value === undefined ? this.q.dropRow.run(id, kind, key) : this.q.row.run(id, kind, key, JSON.stringify(value)));
    if (changed) {
      for (const k of changed.entrants) write('e', k, entrantOf(state, k));
      for (const k of changed.tables) write('t', k, tableOf(state, k));
      if (changed.busted !== null) {
        const count = groupCount(state.busted);
        for (let k = changed.busted; k < count; k++) write('g', k, groupAt(state.busted, k));
        this.q.dropFrom.run(id, 'g', count);
      }
      if (changed.prizes) write('p', 0, state.prizes);
      return;
    }
    for (const b of state.entrants) for (const k in b) write('e', Number(k), b[k]);
    for (const b of state.tables) for (const k in b) write('t', Number(k), b[k]);
    allGroups(state.busted).forEach((g, k) => write('g', k, g));
    this.q.dropFrom.run(id, 'g', groupCount(state.busted));
    write('p', 0, state.prizes);
  }

  load(id: string): { state: MachineState; events: number } | null {
    const r = this.q.get.get(id);
    if (!r) return null;
    const core = JSON.parse(r.state) as MachineState;
    const entrants = emptyBuckets<Entrant>() as Record<string, Entrant>[];
    const tables = emptyBuckets<Table>() as Record<string, Table>[];
    const busted: (readonly number[])[] = [];
    let prizes: readonly number[] = [];
    for (const row of this.q.rows.all(id)) {
      if (row.kind === 'g') busted.push(JSON.parse(row.data) as number[]);
      else if (row.kind === 'p') prizes = JSON.parse(row.data) as number[];
      else (row.kind === 'e' ? entrants : (tables as Record<string, unknown>[]))[bucketOf(row.key)][row.key] = JSON.parse(row.data);
    }
    // Keys in each bucket in ascending order, as the machine's own maps hold them (integer keys).
    const t = tables as Buckets<Table>;
    return { state: { ...core, entrants: entrants, tables: t, busted: groupsOf(busted), prizes, ...indexTables(core.spec.seats, t) }, events: r.events };
  }

  /** A table's button and blinds after its hand ended (in that hand's transaction), or gone with the table. */
  savePositions(id: string, no: number, positions: TablePositions | null): void {
    if (positions === null) this.q.dropPosition.run(id, no);
    else this.q.position.run(id, no, JSON.stringify(positions));
  }

  /** Each table's positions as its last ended hand left them. */
  positions(id: string): Map<number, TablePositions> {
    return new Map(this.q.positions.all(id).map((r) => [r.no, JSON.parse(r.data) as TablePositions]));
  }

  /** Tournaments not over: the runners a start after a crash makes again. */
  unfinished(): string[] {
    return this.q.open.all().map((r) => r.id);
  }
}
