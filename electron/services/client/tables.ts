/**
 * The lobby and the tables the player follows (DESIGN.md §1-§3): the operator's lobby and conditions
 * of play, each followed table's model (electron/services/link/table.ts) pushed to the pages as a
 * `TableState`, gathered over one display frame (pushes.ts); the pace of redraws is decided once, by
 * the page (renderer/src/stores/tables.ts). "Pending" is read from the link's action outbox. The
 * seat calls (join, leave, top-up, sit out) and the decisions (act) go to the operator from here.
 */
import type { CallArgs, Handlers, Outcome, TableState } from '../../../shared/api';
import type { PlayConditions } from '../../../shared/protocol/conditions';
import type { TableInfo } from '../../../shared/protocol/messages';
import type { OperatorLink } from '../link/link';
import type { TableChange, TableModel } from '../link/table';
import type { ClientCoreOptions } from './options';
import { notConnected, refusal, tableRefusal } from './outcome';
import type { ClientPushes } from './pushes';

export interface ClientTablesOptions {
  /** The link now (null while none). */
  link: () => OperatorLink | null;
  broadcast: ClientCoreOptions['broadcast'];
  pushes: ClientPushes;
  /** Balances moved (a buy-in, a cash-out, a hand's end): main reads them again. */
  balancesMoved: () => void;
  now: () => number;
}

type TableCalls = 'lobby' | 'conditions' | 'tables' | 'join' | 'leave' | 'topUp' | 'sitOut' | 'act';

/** Per table: what the pages see besides the model and the outbox (the last hand, the last refusal). */
type Extras = Pick<TableState, 'lastHand' | 'error' | 'cashedOut' | 'tournamentId'>;

export class ClientTables {
  private readonly lobbyTables = new Map<string, TableInfo>();
  private conditions: PlayConditions | null = null;
  private readonly extras = new Map<string, Extras>();

  constructor(private readonly o: ClientTablesOptions) {
    o.pushes.provide('lobby', () => o.broadcast('lobby', this.lobby()));
    o.pushes.provideTables((ids) => this.push(ids));
  }

  handlers(): Pick<Handlers, TableCalls> {
    return {
      lobby: async () => this.lobby(),
      conditions: async () => this.playConditions(),
      tables: async () => this.list(),
      join: (a) => this.join(a),
      leave: (a) => this.leave(a),
      topUp: (a) => this.topUp(a),
      sitOut: (a) => this.sitOut(a),
      act: (a) => this.act(a),
    };
  }

  /** Follows a new link: its lobby, its conditions of play and its tables. */
  attach(link: OperatorLink): () => void {
    const offs = [
      link.on('lobby', (tables) => this.setLobby(tables)),
      link.on('conditions', (c) => {
        this.conditions = c;
      }),
      link.on('lobby.table', (t) => {
        this.lobbyTables.set(t.tableId, t);
        this.o.pushes.schedule('lobby');
      }),
      link.on('table', ({ tableId, model, change }) => this.tableChanged(tableId, model, change)),
    ];
    return () => offs.forEach((off) => off());
  }

  lobby(): TableInfo[] {
    return [...this.lobbyTables.values()];
  }

  /** The operator's conditions of play, as served with its lobby (R-RULES); null before the lobby came. */
  playConditions(): PlayConditions | null {
    return this.conditions;
  }

  /** The money a lobby table plays for (the history's sync stores hands with it); null: not listed. */
  moneyOf(tableId: string): TableInfo['money'] | null {
    return this.lobbyTables.get(tableId)?.money ?? null;
  }

  list(): TableState[] {
    const list: TableState[] = [];
    for (const m of this.o.link()?.tables() ?? []) list.push(this.tableState(m.tableId, m));
    return list;
  }

  /** Reads the lobby and the conditions of play (on each sign-in). */
  async refreshLobby(link: OperatorLink): Promise<void> {
    const r = await link.lobby();
    if (!r.ok) return;
    this.conditions = r.conditions;
    this.setLobby(r.tables);
  }

  /** Another operator: the old one's lobby goes. */
  clearLobby(): void {
    this.lobbyTables.clear();
    this.o.pushes.schedule('lobby');
  }

  private setLobby(tables: readonly TableInfo[]): void {
    this.lobbyTables.clear();
    for (const t of tables) this.lobbyTables.set(t.tableId, t);
    this.o.pushes.schedule('lobby');
  }

  private tableState(tableId: string, model: TableModel | undefined): TableState {
    const extra = this.extras.get(tableId);
    const link = this.o.link();
    return {
      tableId,
      status: model?.status ?? 'gone',
      view: model?.view ?? null,
      seq: model?.seq ?? null,
      lastHand: extra?.lastHand ?? null,
      // The one owner of "pending" is the link's outbox.
      pending: (model && link?.pendingFor(tableId)) ?? null,
      error: extra?.error ?? null,
      cashedOut: extra?.cashedOut ?? null,
      tournamentId: model?.tournamentId ?? extra?.tournamentId ?? null,
      watching: link?.isWatching(tableId) ?? false,
    };
  }

  private extra(tableId: string): Extras {
    let e = this.extras.get(tableId);
    if (!e) this.extras.set(tableId, (e = { lastHand: null, error: null, cashedOut: null, tournamentId: null }));
    return e;
  }

  private tableChanged(tableId: string, model: TableModel, change: TableChange): void {
    if (change.type === 'gone') return this.gone(tableId, model, change.cashedOut);
    if (change.type === 'event') {
      const ev = change.event;
      if (ev.type === 'handEnd' && ev.record.handId) {
        this.extra(tableId).lastHand = { handId: ev.record.handId, endedAt: this.o.now(), record: ev.record };
      } else if (ev.type === 'handStart') {
        this.extra(tableId).error = null;
      }
      if (ev.type === 'handEnd' || ev.type === 'you') this.o.balancesMoved();
    }
    this.o.pushes.markTable(tableId);
  }

  private gone(tableId: string, model: TableModel, cashedOut: TableState['cashedOut']): void {
    const e = this.extra(tableId);
    e.cashedOut = cashedOut;
    e.tournamentId = model.tournamentId; // a tournament's table ends without a cash-out
    // A gone table is shown once more (the cash-out), then forgotten. Its last view goes with it:
    // the changes marked since the last push (the hand's end, the cards shown, the pot won) are
    // forgotten below, so a tournament tile kept after a bust showed the hand stopped at our
    // all-in, the opponent's cards hidden and no board (seen in the finish flow's screenshot).
    const state = { ...this.tableState(tableId, model), status: 'gone' as const, pending: null };
    this.o.broadcast('table', state);
    this.extras.delete(tableId);
    this.o.pushes.forgetTable(tableId);
    this.o.balancesMoved();
  }

  private push(tableIds: Iterable<string>): void {
    const link = this.o.link();
    for (const id of tableIds) {
      const model = link?.table(id);
      if (model) this.o.broadcast('table', this.tableState(id, model));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  async join(a: CallArgs<'join'>): Promise<Outcome> {
    const link = this.o.link();
    if (!link) return notConnected();
    const r = await link.join(a.tableId, a.buyIn, { waitForBigBlind: a.waitForBigBlind, rulesVersion: a.rulesVersion });
    this.o.balancesMoved();
    if (!r.ok) return refusal(r);
    this.o.pushes.markTable(a.tableId);
    return { ok: true };
  }

  async leave(a: CallArgs<'leave'>): Promise<Outcome> {
    const link = this.o.link();
    if (!link) return notConnected();
    const r = await link.leave(a.tableId);
    this.o.balancesMoved();
    if (!r.ok) return refusal(r);
    return r.cashedOut === null ? { ok: true } : { ok: true, cashedOut: r.cashedOut };
  }

  async topUp(a: CallArgs<'topUp'>): Promise<Outcome> {
    const link = this.o.link();
    if (!link) return notConnected();
    const r = await link.topUp(a.tableId, a.amount);
    this.o.balancesMoved();
    return r.ok ? { ok: true } : refusal(r);
  }

  async sitOut(a: CallArgs<'sitOut'>): Promise<Outcome> {
    const link = this.o.link();
    if (!link) return notConnected();
    const r = a.out ? await link.sitOut(a.tableId) : await link.sitIn(a.tableId, a.waitForBigBlind);
    return r.ok ? { ok: true } : refusal(r);
  }

  /** Sends a decision once by its id; the pages see it as pending until the operator answers. */
  async act(a: CallArgs<'act'>): Promise<Outcome> {
    const link = this.o.link();
    if (!link) return notConnected();
    const e = this.extra(a.tableId);
    e.error = null;
    const answer = link.act(a.tableId, a.move, { actionId: a.actionId });
    this.o.pushes.markTable(a.tableId); // shows it pending: the outbox holds it now
    const r = await answer;
    if (!r.ok) e.error = tableRefusal(r); // every detail, to the screen
    this.o.pushes.markTable(a.tableId);
    return r.ok ? { ok: true } : refusal(r);
  }
}
