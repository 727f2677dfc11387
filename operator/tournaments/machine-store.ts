/**
 * The tournament machine's states in the operator database (schema.ts v11): written by the runner in
 * the transaction of each event, with the money and records that event moved; read back on a start
 * after a crash, the tournament goes on from its last event.
 */
import type { MachineState } from '../../shared/rules/tournament/machine';
import type { Db } from '../db';

export class MachineStore {
  private readonly q;

  constructor(readonly db: Db) {
    this.q = {
      put: db.prepare<[string, string, string, number, number]>(
        `INSERT INTO tournament_machines(id, phase, state, events, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET phase = excluded.phase, state = excluded.state, events = excluded.events, updated_at = excluded.updated_at`,
      ),
      get: db.prepare<[string], { state: string; events: number }>('SELECT state, events FROM tournament_machines WHERE id = ?'),
      open: db.prepare<[], { id: string }>(`SELECT id FROM tournament_machines WHERE phase IN ('registering', 'running') ORDER BY id`),
    };
  }

  save(state: MachineState, events: number, at: number): void {
    this.q.put.run(state.spec.id, state.phase, JSON.stringify(state), events, at);
  }

  load(id: string): { state: MachineState; events: number } | null {
    const r = this.q.get.get(id);
    return r ? { state: JSON.parse(r.state) as MachineState, events: r.events } : null;
  }

  /** Tournaments not over: the runners a start after a crash makes again. */
  unfinished(): string[] {
    return this.q.open.all().map((r) => r.id);
  }
}
