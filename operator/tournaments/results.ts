/**
 * A player's finished tournaments (`tournament.results`, R-HISTORY: the last 366 days), newest first,
 * a page at a time: read from what each tournament saved of its entrants in the step that paid them
 * (a restart keeps them). Two sources, merged in one order: the machines' entrant rows
 * (machine-store.ts, schema v11 on), and the rows of tournaments played before the machine (schema v6
 * to v10: `tournaments` and `tournament_entrants`), which stay readable.
 */
import type { TournamentResult } from '../../shared/protocol/tournament';
import type { Entrant, MachineState } from '../../shared/rules/tournament/machine';
import type { Db } from '../../shared/node/sqlite';
import { formatCode, type TournamentSpec } from './spec';

interface Row {
  id: string;
  ended_at: number;
  /** The machine's state (spec inside) or, before the machine, the spec. */
  a: string;
  /** The entrant; before the machine, the tournament's own state is `b2`. */
  b: string;
  b2: string | null;
}

/** What a result needs of an entrant (the machine's, or one saved before it). */
interface Finish {
  place: number | null;
  prize: number | null;
  won?: number;
  rebuys: number;
  addOn: boolean;
  reEntries: number;
}

export type ResultsPage = { ok: true; results: TournamentResult[]; next: string | null } | { ok: false; code: 'BAD_CURSOR' };

function resultOf(spec: TournamentSpec, entries: number, elapsed: number, endedAt: number, e: Finish): TournamentResult | null {
  if (e.place === null) return null;
  const s = spec.structure;
  const entry = spec.buyIn + spec.fee;
  // What it cost: every entry, rebuy and add-on with its fee.
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
    entries,
    startedAt: Math.max(0, endedAt - elapsed),
    endedAt,
    place: e.place,
    prize: e.prize ?? 0,
    bounties: e.won ?? 0,
    rebuys: e.rebuys,
    addOns: e.addOn ? 1 : 0,
    reEntries: e.reEntries,
    spent,
  };
}

function fromMachine(r: Row): TournamentResult | null {
  const st = JSON.parse(r.a) as MachineState;
  return resultOf(st.spec as TournamentSpec, st.entries, st.elapsed, r.ended_at, JSON.parse(r.b) as Entrant);
}

function fromLegacy(r: Row): TournamentResult | null {
  const st = JSON.parse(r.b2 ?? '{}') as { entryCount?: number; elapsed?: number | null };
  return resultOf(JSON.parse(r.a) as TournamentSpec, st.entryCount ?? 0, st.elapsed ?? 0, r.ended_at, JSON.parse(r.b) as Finish);
}

export class TournamentResults {
  private readonly q;

  constructor(db: Db) {
    const page = 'AND ended_at >= ? AND (ended_at < ? OR (ended_at = ? AND id < ?)) ORDER BY ended_at DESC, id DESC LIMIT ?';
    this.q = {
      machine: db.prepare<[number, number, number, number, string, number], Row>(
        `SELECT * FROM (SELECT m.id, m.updated_at AS ended_at, m.state AS a, r.data AS b, NULL AS b2
           FROM tournament_machine_rows r JOIN tournament_machines m ON m.id = r.tournament_id
           WHERE r.kind = 'e' AND r.key = ? AND m.phase = 'finished') WHERE 1 ${page}`,
      ),
      legacy: db.prepare<[number, number, number, number, string, number], Row>(
        `SELECT * FROM (SELECT t.id, t.ended_at, t.spec AS a, e.data AS b, t.data AS b2
           FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id
           WHERE e.account_id = ? AND t.state = 'finished') WHERE 1 ${page}`,
      ),
      ids: db.prepare<[], { id: string }>('SELECT id FROM tournament_machines UNION SELECT id FROM tournaments'),
      legacyOpen: db.prepare<[], { id: string; state: string }>(`SELECT id, state FROM tournaments WHERE state IN ('registering', 'running') ORDER BY id`),
    };
  }

  /**
   * A page of the account's finished tournaments ended at or after `since`, newest first: `cursor` is
   * the previous page's `next` (null for the first); `BAD_CURSOR` when it is not one.
   */
  page(accountId: number, cursor: string | null, limit: number, since: number): ResultsPage {
    let endedBefore = Number.MAX_SAFE_INTEGER;
    let idBefore = '\u{10FFFF}';
    if (cursor !== null) {
      const m = /^(\d{1,16})\.([A-Za-z0-9][A-Za-z0-9_-]{0,59})$/.exec(cursor);
      if (!m) return { ok: false, code: 'BAD_CURSOR' };
      endedBefore = Number(m[1]);
      idBefore = m[2]!;
    }
    const args = [accountId, since, endedBefore, endedBefore, idBefore, limit + 1] as const;
    const rows = [...this.q.machine.all(...args).map((r) => ({ r, read: fromMachine })), ...this.q.legacy.all(...args).map((r) => ({ r, read: fromLegacy }))];
    rows.sort((x, y) => y.r.ended_at - x.r.ended_at || (x.r.id < y.r.id ? 1 : x.r.id > y.r.id ? -1 : 0));
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const results = shown.flatMap((x) => {
      const res = x.read(x.r);
      return res ? [res] : [];
    });
    const last = shown[shown.length - 1];
    return { ok: true, results, next: more && last ? `${last.r.ended_at}.${last.r.id}` : null };
  }

  /** Every tournament id ever used (never given again). */
  ids(): Set<string> {
    return new Set(this.q.ids.all().map((r) => r.id));
  }

  /**
   * Tournaments saved unfinished before the machine (schema v10 and earlier): not resumed (their
   * state is not the machine's); their fund keeps every chip's money, counted by the audit.
   */
  legacyUnfinished(): { id: string; state: string }[] {
    return this.q.legacyOpen.all();
  }
}
