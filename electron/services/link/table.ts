/**
 * One table as the client keeps it (DESIGN.md §1: the client runs the same rules): the operator's
 * snapshot, then its numbered event stream applied in order. The hand travels as a `HandView` (its
 * start and the actions as our seat sees them, shared/protocol/hand.ts); each `action` extends it and
 * is folded through the rules engine (`foldHand`, incremental), so the state here stays the one the
 * operator's `viewFor` of our seat gives (docs/protocol.md "Table streams"). The view is what the
 * pages get; they fold it with the same function.
 *
 * - Sequence: events follow the snapshot at seq + 1, + 2, …; a repeat is ignored, a gap (or an action
 *   the engine refuses: a desynchronised view) drops the stream until a fresh snapshot comes
 *   (`requestSnapshot`).
 * - Finished hands (R-HISTORY, R-TRACKER): on `handEnd` the record is checked against the one this
 *   engine builds (`recordOf` of our own state) and handed to the tracker (`handEnded`), which stores
 *   it in the local history. Each hand id is handed over once, whatever is replayed after a
 *   reconnection; the history store also refuses a second copy of a hand id.
 * - Chips (R-TRACKER): the buy-in, the stack during a hand (`chipsNow`), top-ups (seen as a stack that
 *   grew between hands, which covers a top-up applied at once and one applied when the hand ended),
 *   the cash-out.
 * - Tournament tables (`view.tournament`): their chips are the tournament's, not money,
 *   so none of them goes to the tracker (no buy-in, chips in play or cash-out); their hands are stored
 *   with the tournament's id and the level at the hand's start (`HandMeta.tournament`), the level read
 *   from the last standing the client core knows (`feed`'s `levelOf`) when the hand began.
 * - Hands that ended while the stream was lost (a snapshot instead of the missed frames) are not in the
 *   stream: `missedHands` says so, the link fetches them from the operator's history and gives them to
 *   `backfill` before the stream goes on (events meanwhile are held in order).
 */
import { foldHand, withAction, type FoldedHand, type HandView } from '../../../shared/protocol/hand';
import type { HandTournament, HistoryHand, Move, TableEvent, TableView } from '../../../shared/protocol/messages';
import { decide, type MoveRefusal } from '../../../shared/rules/decide';
import { legalActions, type HandState } from '../../../shared/rules/engine';
import { recordOf, type HandRecord } from '../../../shared/rules/record';
import type { AddResult, HandMeta, MoneyKind } from '../history/store';
import type { TrackerEvent } from '../history/tracker';

/** Where finished hands and chip movements go: the win/loss tracker (history/tracker.ts). */
export interface HandSink {
  handEnded(meta: HandMeta, record: HandRecord): AddResult;
  buyIn(tableId: string, money: MoneyKind, amount: number): TrackerEvent;
  topUp(tableId: string, amount: number): TrackerEvent;
  cashOut(tableId: string, amount: number): TrackerEvent;
  chipsNow(tableId: string, chips: number): TrackerEvent;
}

export type TableStatus = 'joining' | 'syncing' | 'live' | 'gone';

export type TableChange =
  | { type: 'snapshot' }
  | { type: 'event'; seq: number; event: TableEvent }
  /** `via`: the table stream, or the operator's history (a hand that ended while the stream was lost). */
  | { type: 'hand-stored'; handId: string; stored: boolean; duplicate: boolean; via: 'stream' | 'history' }
  | { type: 'problem'; message: string }
  | { type: 'gone'; cashedOut: number | null };

/** What the model needs from its link. */
export interface TableModelDeps {
  /** The tracker, if known when the model is made; else given by `feed` (the client core does). */
  sink?: HandSink | null;
  /** When a hand ended, as the client saw it (ms). */
  now: () => number;
  /** Ask the operator for a snapshot of this table (the stream has a gap or no longer applies). */
  requestSnapshot: (tableId: string) => void;
  log: (line: string) => void;
}

/** Where an action was decided, to tell after a reconnection whether sending it again is safe. */
export interface ActionContext {
  handId: string | null;
  logLength: number;
  heroPlayerActions: number;
}

/** Hand ids remembered per table to hand each one over once. */
const ENDED_KEPT = 4096;

/** The engine action for our seat's move: the rules package's, the one the operator uses. */
export { engineAction } from '../../../shared/rules/decide';

export class TableModel {
  /** The last frame applied (the snapshot's, then each event's); null before the first snapshot. */
  seq: number | null = null;
  status: TableStatus = 'joining';
  /** The table as our seat sees it, kept current: seats, whose turn, our situation, the hand (a view). */
  view: TableView | null = null;
  /** The hand's view folded through the engine (null between hands or when the view does not fold). */
  private folded: FoldedHand | null = null;
  /** Problems seen (a refused action, a record that differs): logged, and kept for tests and diagnostics. */
  readonly problems: string[] = [];

  private readonly listeners = new Set<(c: TableChange) => void>();
  private readonly ended = new Set<string>();
  /** Chips bought in by the join this model was made for (the snapshot tells the money kind). */
  private joinedStack: number | null = null;
  /** The tracker holds this table (bought in, not cashed out); never at a tournament's table. */
  private tracked = false;
  /** Our seat was seen here with the tracker fed: our hands go to it (at cash and tournament tables). */
  private playing = false;
  /** A tournament's level now (the client core's last standing), read as each hand starts. */
  private levelOf: ((tournamentId: string) => number | null) | null = null;
  /** The level each hand of a tournament started at, by hand id (the last few). */
  private readonly handLevels = new Map<string, number>();
  /** Our chips after the last finished hand (the tracker's `settled`). */
  private settled = 0;
  /** Highest hand number seen started; the hand started and not yet ended or cancelled. */
  private lastHandNo = 0;
  private openHandId: string | null = null;
  /** Actions by our seat that the operator applied for us as decided by us (`by: 'player'`). */
  private heroPlayerActions = 0;
  /** Events held while missed hands are fetched (applied in order afterwards). */
  private held: { seq: number; event: TableEvent }[] | null = null;
  private reconcileAfterBackfill = false;

  /** Where finished hands and chips go (the tracker); null: not tracked. */
  private sink: HandSink | null;

  constructor(
    readonly tableId: string,
    private readonly deps: TableModelDeps,
  ) {
    this.sink = deps.sink ?? null;
  }

  /**
   * The tracker this table's hands and chips go to, given by the client core as the model is made
   * (before any frame): the transport never holds it.
   */
  feed(sink: HandSink | null, levelOf?: (tournamentId: string) => number | null): void {
    this.sink = sink;
    this.levelOf = levelOf ?? null;
  }

  /** The tournament this table belongs to (its chips are not money), or null at a cash table. */
  get tournamentId(): string | null {
    return this.view?.tournament?.tournamentId ?? null;
  }

  /** A hand of this tournament table starts: the level now is its level (T 6-1: a level applies from the next hand). */
  private noteLevel(handId: string | null): void {
    const t = this.tournamentId;
    if (t === null || handId === null || this.handLevels.has(handId)) return;
    const level = this.levelOf?.(t) ?? null;
    if (level === null) return;
    this.handLevels.set(handId, level);
    if (this.handLevels.size > 64) this.handLevels.delete(this.handLevels.keys().next().value as string);
  }

  onChange(listener: (c: TableChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(c: TableChange): void {
    for (const l of this.listeners) {
      try {
        l(c);
      } catch (e) {
        this.deps.log(`table ${this.tableId}: a listener failed: ${(e as Error)?.stack ?? String(e)}`);
      }
    }
  }

  private problem(message: string): void {
    this.problems.push(message);
    this.deps.log(`table ${this.tableId}: ${message}`);
    this.changed({ type: 'problem', message });
  }

  get heroSeat(): number | null {
    return this.view?.you?.seat ?? null;
  }

  /** The hand in progress as the engine state our seat's view gives. */
  get hand(): HandState | null {
    return this.folded?.state ?? null;
  }

  /** Sets the hand's view and folds it (from the previous fold when it extends it); false when the engine refuses it. */
  private setHand(hand: HandView | null): boolean {
    this.view!.hand = hand;
    if (hand === null) {
      this.folded = null;
      return true;
    }
    const r = foldHand(hand, this.folded);
    if (!r.ok) {
      this.folded = null;
      this.problem(`the client's engine refused the operator's action ${r.at} of hand ${hand.handId ?? '?'}: ${r.rule} ${r.message}`);
      this.resync('the hand no longer applies');
      return false;
    }
    this.folded = { view: hand, state: r.state };
    return true;
  }

  /** A hand is in progress here (started, not yet ended or cancelled). */
  get handOpen(): boolean {
    return this.openHandId !== null;
  }

  /** Events are held while missed hands are fetched. */
  get isHeld(): boolean {
    return this.held !== null;
  }

  /** The tracker holds this table's chips. */
  get tracking(): boolean {
    return this.tracked;
  }

  /** Our hands here go to the tracker (a seat seen with the tracker fed; cash or tournament table). */
  get playingHere(): boolean {
    return this.playing;
  }

  get money(): MoneyKind {
    return this.view?.money ?? 'play';
  }

  /** Our seat is dealt into the hand in progress. */
  private heroInHand(): boolean {
    const seat = this.heroSeat;
    const hand = this.hand;
    return seat !== null && hand !== null && hand.plan.dealtIn.includes(seat);
  }

  /** The join was answered: this many chips were bought in; the snapshot follows. */
  joined(stack: number): void {
    this.joinedStack = stack;
  }

  // -------------------------------------------------------------------------------------------
  // Snapshots

  /**
   * A full table (on join, on resume when the missed frames are gone, on request). Returns whether
   * hands may have ended unseen since the stream was last followed (then the link backfills).
   */
  applySnapshot(seq: number, table: TableView): { missedHands: boolean } {
    const wasFollowing = this.view !== null && this.status !== 'joining';
    const missed =
      wasFollowing &&
      this.playing &&
      ((this.openHandId !== null && table.hand?.handId !== this.openHandId) ||
        table.handNo - this.lastHandNo > (table.hand !== null && table.hand.handId !== this.openHandId ? 1 : 0));
    this.view = structuredClone(table);
    this.folded = null;
    this.seq = seq;
    this.status = 'live';
    if (!this.setHand(this.view.hand)) return { missedHands: false };
    this.lastHandNo = Math.max(this.lastHandNo, table.handNo);
    this.openHandId = table.hand?.handId ?? null;
    this.noteLevel(this.openHandId);
    const sink = this.sink;
    const seat = this.heroSeat;
    if (sink && seat !== null && !this.playing && table.tournament !== null) {
      // A tournament's table: our hands are stored, its chips are not money (no buy-in).
      this.playing = true;
      this.settled = table.seats[seat]?.stack ?? 0;
    } else if (sink && seat !== null && !this.tracked && !this.playing) {
      // First sight of our seat in this session: the chips bought in (or found there on a resume after
      // a restart, which count as brought into the session).
      const amount = this.joinedStack ?? table.seats[seat]?.stack ?? 0;
      this.tracked = ok(sink.buyIn(this.tableId, table.money, amount), (r) => this.problem(`tracker buy-in: ${r}`));
      this.playing = this.tracked;
      this.settled = amount;
      this.joinedStack = null;
      this.trackHandChips();
    } else if (missed) {
      // Events are held until the link has fetched the missed hands (`backfill`, then `release`).
      this.reconcileAfterBackfill = true;
      this.hold();
    } else {
      this.reconcileSnapshot();
    }
    this.changed({ type: 'snapshot' });
    return { missedHands: missed };
  }

  // -------------------------------------------------------------------------------------------
  // Events

  /** One `table.event` frame. */
  receive(seq: number, event: TableEvent): 'applied' | 'duplicate' | 'dropped' | 'held' | 'gap' | 'desync' {
    if (this.status !== 'live' || this.seq === null) return 'dropped'; // a snapshot is on its way
    if (this.held !== null) {
      this.held.push({ seq, event });
      return 'held';
    }
    if (seq <= this.seq) return 'duplicate';
    if (seq !== this.seq + 1) {
      this.resync(`event ${seq} after ${this.seq}: frames are missing`);
      return 'gap';
    }
    this.seq = seq;
    if (!this.applyEvent(event)) return 'desync';
    this.changed({ type: 'event', seq, event });
    return 'applied';
  }

  /** Drop the stream and ask for a snapshot. */
  resync(why: string): void {
    if (this.status === 'gone') return;
    this.deps.log(`table ${this.tableId}: ${why}; asking for a snapshot`);
    this.status = 'syncing';
    this.held = null;
    this.deps.requestSnapshot(this.tableId);
  }

  private applyEvent(e: TableEvent): boolean {
    const view = this.view!;
    switch (e.type) {
      case 'seated':
      case 'seat':
        view.seats[e.seat] = e.player;
        if (e.seat === this.heroSeat && !this.heroInHand()) this.reconcile(e.player.stack);
        return true;
      case 'left':
        view.seats[e.seat] = null;
        return true;
      case 'you':
        view.you = e.you;
        return true;
      case 'turn':
        view.turn = e.turn;
        return true;
      case 'handStart': {
        view.handNo = e.handNo;
        view.turn = null;
        this.folded = null;
        if (!this.setHand(e.hand)) return false;
        this.lastHandNo = Math.max(this.lastHandNo, e.handNo);
        this.openHandId = e.hand.handId;
        this.noteLevel(e.hand.handId);
        const seat = this.heroSeat;
        if (seat !== null && this.heroInHand()) this.reconcile(e.hand.seated[seat]?.stack ?? 0);
        this.trackHandChips();
        return true;
      }
      case 'action': {
        view.turn = null;
        if (view.hand === null) {
          this.resync('an action without a hand');
          return false;
        }
        if (!this.setHand(withAction(view.hand, e.action))) return false;
        if (e.by === 'player' && 'seat' in e.action && e.action.seat === this.heroSeat) this.heroPlayerActions++;
        this.trackHandChips();
        return true;
      }
      case 'handEnd':
        this.handEnded(e.record);
        // The stacks as the hand left them. The operator's seat events follow, but not to a player
        // who leaves with the hand's end (out of a tournament, or its winner when it ends: T 8-15),
        // whose table would otherwise keep the stacks from before the hand.
        for (const r of e.record.seats) {
          const seat = view.seats[r.seat];
          if (seat) view.seats[r.seat] = { ...seat, stack: r.stackAfter };
        }
        this.setHand(null);
        view.turn = null;
        this.openHandId = null;
        return true;
      case 'handCancelled':
        // The hand is void: every stack is as it was before it.
        this.setHand(null);
        view.turn = null;
        this.openHandId = null;
        if (this.tracked) ok(this.sink!.chipsNow(this.tableId, this.settled), (r) => this.problem(`tracker: ${r}`));
        return true;
    }
  }

  /** During a hand: our chips in front of us now (bets in the pot excluded). */
  private trackHandChips(): void {
    const seat = this.heroSeat;
    const hand = this.hand;
    if (!this.tracked || seat === null || hand === null || !this.heroInHand()) return;
    ok(this.sink!.chipsNow(this.tableId, hand.seats[seat].stack), (r) => this.problem(`tracker: ${r}`));
  }

  /** Our stack before the hand in progress (or now, between hands) as a snapshot states it. */
  private reconcileSnapshot(): void {
    const seat = this.heroSeat;
    if (seat === null) return;
    if (this.heroInHand()) this.reconcile(this.hand!.stacksBefore[seat]);
    else {
      const s = this.view?.seats[seat];
      if (s) this.reconcile(s.stack);
    }
    this.trackHandChips();
  }

  /**
   * Our stack as the operator states it between hands. More than after the last hand: chips added
   * (a top-up, applied at once or when the hand ended). Less: hands we could not account for.
   */
  private reconcile(stack: number): void {
    if (!this.tracked) return;
    const sink = this.sink!;
    if (stack > this.settled) {
      ok(sink.topUp(this.tableId, stack - this.settled), (r) => this.problem(`tracker top-up: ${r}`));
      this.settled = stack;
    } else if (stack < this.settled) {
      this.problem(`our stack is ${stack}, ${this.settled - stack} less than the hands account for`);
      ok(sink.chipsNow(this.tableId, stack), (r) => this.problem(`tracker: ${r}`));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Finished hands

  private handEnded(record: HandRecord): void {
    const handId = record.handId;
    if (handId === null) {
      this.problem('a finished hand without an id cannot be stored once');
      return;
    }
    if (this.ended.has(handId)) return;
    const hand = this.hand;
    if (hand !== null && hand.handId === handId) {
      if (hand.phase !== 'done') this.problem(`hand ${handId} ended for the operator but not for the client's engine (${hand.phase})`);
      else if (!sameData(recordOf(hand), record)) this.problem(`hand ${handId}: the operator's record differs from the one the client's engine builds`);
    }
    // The operator's record is kept (the operator decides outcomes, DESIGN.md §1); it matches ours.
    this.store(record, this.heroSeat, this.deps.now(), 'stream', this.handTournament(handId));
  }

  /** A tournament hand's id and level (the level at its start, else the level now), or null at a cash table. */
  private handTournament(handId: string): HandTournament | null {
    const tournamentId = this.tournamentId;
    if (tournamentId === null) return null;
    return { tournamentId, level: this.handLevels.get(handId) ?? this.levelOf?.(tournamentId) ?? 0 };
  }

  private store(record: HandRecord, heroSeat: number | null, playedAt: number, via: 'stream' | 'history', tournament: HandTournament | null): void {
    const handId = record.handId!;
    this.remember(handId);
    const hero = heroSeat === null ? undefined : record.seats.find((s) => s.seat === heroSeat);
    if (hero === undefined || !hero.dealtIn) return; // a hand we watched, not played (R-HISTORY: hands taken part in)
    const sink = this.sink;
    // A hand fetched from history began with more than the hands before it left us: chips were added
    // in between while the stream was lost (a top-up applied when a missed hand ended), which the
    // snapshot after the backfill can no longer show (R-TRACKER: bought, not won). The stream sees it
    // at the hand's start (reconcile), so only missed hands are checked.
    if (via === 'history' && sink && this.tracked && hero.stackBefore > this.settled) {
      ok(sink.topUp(this.tableId, hero.stackBefore - this.settled), (r) => this.problem(`tracker top-up: ${r}`));
    }
    this.settled = hero.stackAfter;
    if (!sink) return;
    const meta: HandMeta = { playedAt, tableId: this.tableId, money: this.money, heroSeat: hero.seat };
    if (tournament !== null) meta.tournament = tournament;
    const r = sink.handEnded(meta, record);
    if (!r.stored && !r.duplicate) this.problem(`hand ${handId} not stored: ${r.reason}`);
    this.changed({ type: 'hand-stored', handId, stored: r.stored, duplicate: r.duplicate, via });
  }

  private remember(handId: string): void {
    this.ended.add(handId);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.values().next().value as string);
  }

  /** This hand id was handed over already. */
  hasEnded(handId: string): boolean {
    return this.ended.has(handId);
  }

  // -------------------------------------------------------------------------------------------
  // Backfill: hands that ended while the stream was lost

  /** Hold events while the link fetches missed hands. */
  hold(): void {
    if (this.held === null) this.held = [];
  }

  /**
   * Hands from the operator's history, as it pages them (newest first, any table): those of this
   * table not yet handed over go to the tracker, oldest first, in the operator's order (not re-sorted
   * by time: two hands can end in the same millisecond). Hands whose end is among the held events
   * (they ended while the history was fetched) are left to the stream, which applies them in order.
   */
  backfill(newestFirst: readonly HistoryHand[], username: string | null): number {
    const fromStream = new Set<string>();
    for (const q of this.held ?? []) if (q.event.type === 'handEnd' && q.event.record.handId !== null) fromStream.add(q.event.record.handId);
    if (this.openHandId !== null) fromStream.add(this.openHandId);
    const mine = newestFirst.filter((h) => h.tableId === this.tableId && !this.ended.has(h.handId) && !fromStream.has(h.handId)).reverse();
    for (const h of mine) {
      const seat = h.record.seats.find((s) => s.player === username)?.seat ?? this.heroSeat;
      this.store(h.record, seat, h.endedAt, 'history', h.tournament);
    }
    return mine.length;
  }

  /** The missed hands are in: reconcile the chips with the snapshot, then apply what was held. */
  release(): void {
    const queue = this.held;
    this.held = null;
    if (this.reconcileAfterBackfill) {
      this.reconcileAfterBackfill = false;
      this.reconcileSnapshot();
    }
    for (const q of queue ?? []) {
      const r = this.receive(q.seq, q.event);
      if (r !== 'applied' && r !== 'duplicate') break;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  /** Where an action is decided now. */
  actionContext(): ActionContext {
    return { handId: this.hand?.handId ?? null, logLength: this.hand?.log.length ?? 0, heroPlayerActions: this.heroPlayerActions };
  }

  /**
   * After a reconnection, for an action sent and never answered: send it again only if that cannot
   * act on another decision. If the stream shows our seat acted since, it was applied (the repeat is
   * answered `replayed`); if nothing happened in the hand and it is still our turn, it never arrived.
   * Otherwise (the clock acted for us, the hand moved on) it is stale.
   */
  mayResend(c: ActionContext): boolean {
    if (this.status === 'gone') return false;
    if (this.heroPlayerActions > c.heroPlayerActions) return true;
    const hand = this.hand;
    if (hand === null || hand.handId !== c.handId || hand.log.length !== c.logLength) return false;
    return legalActions(hand).seat === this.heroSeat;
  }

  /**
   * Checks a move with the rules engine before it leaves the machine (SPEC.md §1): null when it may
   * be sent, else the refusal naming the rule, as the operator would make it (the one decision path,
   * shared/rules `decide`). Only on a live stream (else the operator decides).
   */
  check(move: Move): Omit<MoveRefusal, 'ok'> | null {
    if (this.status !== 'live' || this.held !== null) return null;
    const d = decide(this.hand, this.heroSeat, move);
    if (d.ok) return null;
    const { ok: _, ...refused } = d; // the link's `act` answers it with the action id (`ok: false` there)
    return refused;
  }

  // -------------------------------------------------------------------------------------------
  // Leaving

  /**
   * We left the table: `cashedOut` chips went back to the wallet (R-CASH); null when unknown. A
   * tournament's table ends with null (moved to another table, or out): no money moved.
   */
  gone(cashedOut: number | null): void {
    if (this.status === 'gone') return;
    this.status = 'gone';
    this.held = null;
    this.playing = false;
    if (this.tracked) {
      // Unknown (the seat was released while we were away): what the last hands left us.
      ok(this.sink!.cashOut(this.tableId, cashedOut ?? this.settled), (r) => this.problem(`tracker cash-out: ${r}`));
      this.tracked = false;
    }
    // A tournament's chips are not money: nothing was cashed out, whatever the table's leave said.
    this.changed({ type: 'gone', cashedOut: this.tournamentId === null ? cashedOut : null });
  }
}

function ok(r: TrackerEvent, onRefused: (reason: string) => void): boolean {
  if (!r.ok) onRefused(r.reason);
  return r.ok;
}

/** Deep equality of plain JSON data, whatever the order of object keys. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameData(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && sameData(ao[k], bo[k]));
}
