/**
 * The table streams: one TableModel per seat (table.ts) follows its table's
 * numbered stream with the rules engine; a gap, or a stream lost while away, gets a snapshot; hands
 * that ended unseen are fetched from the operator's history before the stream goes on; a seat
 * released while we were away is closed with the hands it played meanwhile.
 *
 * Tournament tables are tables: the operator sends `tournament.seat`, then the new
 * table's snapshot (`rid: null`, a model is made for it) and stream. A table the player leaves in a
 * tournament (moved, or out) is ended here (`end`), without a cash-out: once its hand in progress has
 * ended, so that hand is stored. Watched tables (`table.watch`, no seat) are followed the same way;
 * after a reconnection the operator watches them again for the resumed session and sends each a fresh
 * snapshot with the resume's frames; one still without a snapshot once in step (an
 * operator that did not keep it) is watched again from here, which the operator takes as the same watch.
 */
import type { HistoryHand, ServerMessage, ServerMessageOf } from '../../../shared/protocol/messages';
import { HISTORY_PAGE_MAX } from '../../../shared/protocol/version';
import { TableModel, type TableChange } from './table';
import type { Refused, Reply, Request } from './types';

export interface StreamsDeps {
  now: () => number;
  log: (line: string) => void;
  request(body: Request): Promise<ServerMessage | Refused>;
  history(cursor: string | null, limit: number): Promise<Reply<ServerMessageOf<'history'>>>;
  /** The link is in step (snapshots asked now; else the resume sends them). */
  ready(): boolean;
  /** Our account's name (to find our seat in hands fetched from the history). */
  username(): string | null;
  /** A model was made, before any frame reaches it (the client core feeds it the tracker). */
  created(model: TableModel): void;
  changed(tableId: string, model: TableModel, change: TableChange): void;
  /** Pages of the operator history read at most to find hands missed while away. */
  backfillPages: number;
}

export class TableStreams {
  private readonly models = new Map<string, TableModel>();
  private readonly snapshotAsked = new Set<string>();
  /** Tables followed without a seat (`table.watch`). */
  private readonly watched = new Set<string>();
  /** Tables to end once their hand in progress has ended (a tournament move or finish). */
  private readonly endAfterHand = new Set<string>();
  /**
   * Tables we stopped watching. A watch asked before (a resync, a resume) is answered with a snapshot
   * that can arrive after we stopped (the operator answers in order: the watch, then the unwatch):
   * that snapshot must not make a model again, or the page keeps a table nothing is sent for.
   */
  private readonly unwatched = new Set<string>();

  constructor(private readonly d: StreamsDeps) {}

  all(): TableModel[] {
    return [...this.models.values()];
  }

  get(tableId: string): TableModel | undefined {
    return this.models.get(tableId);
  }

  /** A model whose stream can be resumed from its seq (else it is sent a snapshot). */
  followable(m: TableModel): boolean {
    return m.status === 'live' && m.seq !== null && !m.isHeld && !this.watched.has(m.tableId);
  }

  /** Watched without a seat (`table.watch`). */
  isWatched(tableId: string): boolean {
    return this.watched.has(tableId);
  }

  /** We watch this table from now on (its snapshot makes the model). */
  watch(tableId: string): void {
    this.unwatched.delete(tableId);
    this.watched.add(tableId);
  }

  /** A seat at a table we watched (a tournament's move there): its seat's stream replaces the watch. */
  seatedAt(tableId: string): void {
    this.unwatched.delete(tableId);
    this.watched.delete(tableId);
  }

  /** We stop watching: the model ends (nothing was ours there). */
  unwatch(tableId: string): void {
    if (!this.watched.delete(tableId)) return;
    this.unwatched.add(tableId);
    this.end(tableId);
  }

  /**
   * `tournament.seat`: we sit at `tableId` now (its snapshot and stream follow: `snapshot` makes its
   * model); a table of that tournament where we sat before is ours no more: a move, its model ends.
   */
  tournamentSeat(tournamentId: string, tableId: string): void {
    for (const model of this.all()) {
      if (model.tableId !== tableId && model.tournamentId === tournamentId && !this.watched.has(model.tableId)) this.end(model.tableId);
    }
    this.seatedAt(tableId);
  }

  /** `tournament.finished`: the models of that tournament's tables where we sat end (watched ones go on). */
  tournamentFinished(tournamentId: string): void {
    for (const model of this.all()) {
      if (model.tournamentId === tournamentId && !this.watched.has(model.tableId)) this.end(model.tableId);
    }
  }

  /** Watched tables (sent `table.watch` again after a reconnection). */
  watchedTables(): string[] {
    return [...this.watched];
  }

  /**
   * A tournament table we no longer sit at (moved to another, or out): its model ends
   * without a cash-out (tournament chips are not money), after the hand in progress if ours is open.
   */
  end(tableId: string): void {
    const model = this.models.get(tableId);
    if (!model || model.status === 'gone') return;
    if (model.status === 'live' && model.handOpen && !this.watched.has(tableId)) {
      this.endAfterHand.add(tableId);
      return;
    }
    this.endAfterHand.delete(tableId);
    this.models.delete(tableId);
    model.gone(null);
  }

  /** What a `resume` asks for: each followable table from its last frame. */
  resumeList(): { tableId: string; lastSeq: number }[] {
    return this.all()
      .filter((m) => this.followable(m))
      .map((m) => ({ tableId: m.tableId, lastSeq: m.seq! }));
  }

  private newModel(tableId: string): TableModel {
    this.models.get(tableId)?.gone(null);
    this.endAfterHand.delete(tableId);
    const model = new TableModel(tableId, {
      sink: null,
      now: this.d.now,
      requestSnapshot: (id) => this.requestSnapshot(id),
      log: this.d.log,
    });
    model.onChange((change) => this.d.changed(tableId, model, change));
    this.models.set(tableId, model);
    this.d.created(model);
    return model;
  }

  /** A seat was taken: its model follows the snapshot that comes next. */
  joined(m: ServerMessageOf<'table.joined'>): void {
    this.unwatched.delete(m.tableId);
    this.newModel(m.tableId).joined(m.stack);
  }

  left(m: ServerMessageOf<'table.left'>): void {
    // A watched table that closed is left too (the operator says so to its watchers).
    this.watched.delete(m.tableId);
    this.endAfterHand.delete(m.tableId);
    const model = this.models.get(m.tableId);
    this.models.delete(m.tableId);
    model?.gone(m.cashedOut);
  }

  snapshot(m: ServerMessageOf<'table.snapshot'>): void {
    this.snapshotAsked.delete(m.tableId);
    if (!this.models.has(m.tableId) && this.unwatched.has(m.tableId)) {
      this.d.log(`a snapshot of table ${m.tableId}, asked while we watched it: we stopped since, ignored`);
      return;
    }
    const model = this.models.get(m.tableId) ?? this.newModel(m.tableId);
    const { missedHands } = model.applySnapshot(m.seq, m.table);
    if (missedHands) void this.catchUp(model);
  }

  event(m: ServerMessageOf<'table.event'>): void {
    const model = this.models.get(m.tableId);
    if (!model) this.d.log(`an event of table ${m.tableId}, where we hold no seat: ignored`);
    else {
      model.receive(m.seq, m.event);
      if (this.endAfterHand.has(m.tableId) && !model.handOpen) this.end(m.tableId);
    }
  }

  /** After an authentication: the seats held get their missed frames or a snapshot; the others were released. */
  seated(ids: readonly string[]): void {
    // A table we followed that is not among them was left while we were away (the grace period ran
    // out: the stack went back to the wallet).
    const seated = new Set(ids);
    // A seat taken while away at a table we watched (a tournament's move there): its stream replaces the watch.
    for (const id of ids) this.watched.delete(id);
    for (const model of this.all()) if (!seated.has(model.tableId) && !this.watched.has(model.tableId)) void this.lose(model);
    for (const id of ids) if (!this.models.has(id)) this.newModel(id);
  }

  /** The session ended: every table is gone. */
  signedOut(): void {
    this.watched.clear();
    this.endAfterHand.clear();
    for (const model of this.all()) {
      this.models.delete(model.tableId);
      model.gone(null);
    }
  }

  /** The connection dropped: a model waiting for missed hands or a snapshot gets a snapshot in the resume. */
  dropped(): void {
    this.snapshotAsked.clear();
    for (const m of this.models.values()) {
      // A watched table is not resumed from a seq: the operator's resume sends it a fresh snapshot
      // (else it is watched again once in step).
      if (this.watched.has(m.tableId)) m.resync('the connection dropped: watching again');
      else if (m.status === 'live' && !this.followable(m)) m.resync('the connection dropped while catching up');
    }
  }

  /** In step again: tables still waiting for a snapshot ask for one. */
  ready(): void {
    for (const m of this.models.values()) if (m.status === 'syncing') this.requestSnapshot(m.tableId);
  }

  requestSnapshot(tableId: string): void {
    // Not connected: the resume sends a snapshot of every table not followable.
    if (!this.d.ready() || this.snapshotAsked.has(tableId)) return;
    this.snapshotAsked.add(tableId);
    // A watched table's snapshot comes with watching it again (we hold no seat there to ask one of).
    const watching = this.watched.has(tableId);
    void this.d.request(watching ? { type: 'table.watch', tableId } : { type: 'table.snapshot', tableId }).then((r) => {
      this.snapshotAsked.delete(tableId);
      const model = this.models.get(tableId);
      if (!model || !('ok' in r) || r.ok !== false) return;
      if (watching && (r.code === 'UNKNOWN_TABLE' || r.code === 'NOT_SEATED')) {
        // The table closed (a tournament's table broken): nothing more to watch.
        this.watched.delete(tableId);
        this.end(tableId);
      } else if (r.code === 'NOT_SEATED' || r.code === 'UNKNOWN_TABLE') void this.lose(model);
    });
  }

  /** Hands that ended while the stream was lost, from the operator's history, then the stream goes on. */
  private async catchUp(model: TableModel): Promise<void> {
    const fetched = await this.missedHands(model);
    if (this.models.get(model.tableId) !== model || model.status !== 'live') return;
    if (!fetched.ok && (fetched.code === 'DISCONNECTED' || fetched.code === 'TIMEOUT' || fetched.code === 'OFFLINE')) {
      model.resync('the missed hands could not be fetched');
      return;
    }
    model.backfill(fetched.hands, this.d.username());
    model.release();
  }

  /** Pages of the operator's history until a hand of this table already handed over (all older ones were). */
  private async missedHands(model: TableModel): Promise<{ ok: boolean; code?: string; hands: HistoryHand[] }> {
    const hands: HistoryHand[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < this.d.backfillPages; page++) {
      const r = await this.d.history(cursor, HISTORY_PAGE_MAX);
      if (!r.ok) return { ok: false, code: r.code, hands };
      hands.push(...r.hands);
      if (r.next === null || r.hands.some((h) => h.tableId === model.tableId && model.hasEnded(h.handId))) break;
      cursor = r.next;
    }
    return { ok: true, hands };
  }

  /** The seat is gone (released while we were away): the hands it played meanwhile, then the cash-out. */
  private async lose(model: TableModel): Promise<void> {
    if (model.status === 'gone') return;
    if (model.playingHere) {
      model.hold();
      const fetched = await this.missedHands(model);
      model.backfill(fetched.hands, this.d.username());
    }
    if (this.models.get(model.tableId) === model) this.models.delete(model.tableId);
    model.gone(null);
  }
}
