/**
 * A table's streams (table.ts split into its streams, its hand loop and its
 * requests): the state every part of a table shares, and who sees what.
 *
 * Information hiding (DESIGN.md §1, item 5): every frame a person receives is rendered for their seat
 * from the engine's `viewFor` (snapshots, hand starts, results) and `actionFor` (each action, as
 * the state it applied to lets that seat see it). Nothing is filtered after the fact.
 *
 * Streams: each person at the table has their own stream of frames, numbered 1, 2, 3, … without
 * gaps; the last frames are kept so that a reconnecting client gets what it missed (`framesSince`),
 * else a snapshot. A new seat starts numbering above any number this table used before, so a stale
 * sequence number never matches frames of another seating.
 *
 * The hand loop (hand-loop.ts) builds on this, and the table's requests (table.ts) on the hand loop.
 */
import type { SeatView, TableEvent, TableView, TurnView } from '../../shared/protocol/messages';
import { handViewFor } from '../../shared/protocol/hand';
import type { HandState } from '../../shared/rules/engine';
import { createSeating, type Seating, type TablePlan } from '../../shared/rules/table';
import { VARIANTS } from '../../shared/rules/variants';
import { secureRandomInt, type Deck, type RandomInt } from './deck';
import type { PojeuSeat } from '../trace/pojeu';
import type { TimerHandle, Timers } from './timers';
import type { Brain, TableHooks, TablePlayer, TableRefusal, TableSpec } from './types';

export interface TableOptions {
  timers: Timers;
  /** The IDOper written for POJEU participants. */
  idOper: string;
  /** Uniform integers for seats and the first button; the deck shuffles with crypto (R-DEAL)... */
  random?: RandomInt;
  /** ...unless a test fixes the deal (a seeded run). The operator never sets it. */
  dealRandom?: RandomInt;
  /** Pause after a hand so people see the result (0: next hand at once). */
  betweenHandsMs?: number;
  /** How long practice players think, [min, max] ms; [0, 0] decides at once (benchmarks). */
  practiceDelayMs?: readonly [number, number];
  /** A disconnected person keeps the seat this long, then leaves (stack returned, R-CASH). */
  disconnectGraceMs?: number;
  /** Consecutive clock timeouts after which a person is sat out. */
  maxTimeouts?: number;
  /** Frames kept per person for resume. */
  ringSize?: number;
  /** Deal only while a person sits in (practice tables stay quiet when nobody watches). */
  requireHuman?: boolean;
}

/**
 * The table's settings, defaults filled in. The conditions of play the lobby serves are written from
 * these (conditions.ts; R-RULES), so what players read is what tables do.
 */
export function tableSettings(options: Partial<TableOptions>): Required<Omit<TableOptions, 'timers' | 'random' | 'dealRandom' | 'idOper'>> {
  return {
    betweenHandsMs: options.betweenHandsMs ?? 2500,
    practiceDelayMs: options.practiceDelayMs ?? [600, 1800],
    disconnectGraceMs: options.disconnectGraceMs ?? 120_000,
    maxTimeouts: options.maxTimeouts ?? 2,
    ringSize: options.ringSize ?? 512,
    requireHuman: options.requireHuman ?? false,
  };
}

export interface Member {
  player: TablePlayer;
  seat: number;
  inscription: string;
  brain: Brain | null;
  sink: ((frame: string) => void) | null;
  connected: boolean;
  graceTimer: TimerHandle | null;
  seq: number;
  ring: { seq: number; frame: string }[];
  /** Frames numbered up to this one are no longer kept. */
  dropped: number;
  youKey: string;
  timeBankMs: number;
  timeouts: number;
  leaving: boolean;
  /** Who decided the leave: the player, or the operator (grace period over, table stopping). */
  leaveBy: 'player' | 'operator';
  pendingTopUp: number;
  topUps: number;
  results: Map<string, { fingerprint: string; result: { ok: true } | TableRefusal }>;
}

export interface Turn {
  seat: number;
  token: number;
  phase: 'action' | 'bank' | 'practice';
  /** When the turn was announced (the time bank, when it runs, continues the same turn). */
  since: number;
  startedAt: number;
  endsAt: number;
  timer: TimerHandle;
}

export interface HandInPlay {
  no: number;
  id: string;
  plan: TablePlan;
  state: HandState;
  deck: Deck;
  /** When each log entry happened, for the POJEU round timestamps. */
  times: number[];
  /** Who sat at each seat when the hand started (for the trace and the history). */
  who: ((PojeuSeat & { accountId: number; practice: boolean; player: TablePlayer }) | null)[];
  turn: Turn | null;
  /** The operator acted for a player in this hand (a time-out, a player leaving or absent): its POJEU carries `supervision`. */
  supervised: boolean;
}

/** The state a table's parts share, its views and its streams (who sees what, emit). */
export abstract class TableStreams {
  readonly spec: TableSpec;
  protected seating: Seating;
  protected readonly members = new Map<number, Member>();
  protected readonly bySeat: (Member | null)[];
  protected humans: Member[] = [];
  /**
   * People following the table without a seat (`table.watch`): each has its own
   * numbered stream, rendered as no seat sees the table (R-HIDDEN: no hidden card, ever).
   */
  protected readonly watchers = new Map<number, { sink: (frame: string) => void; seq: number }>();
  protected hand: HandInPlay | null = null;
  protected handNo = 0;
  protected seqBase = 0;
  protected lastSeatKeys: (string | null)[];
  protected closed = false;
  protected readonly timers: Timers;
  protected readonly random: RandomInt;
  protected readonly opt: Required<Omit<TableOptions, 'timers' | 'random' | 'dealRandom' | 'idOper'>>;

  constructor(
    spec: TableSpec,
    protected readonly hooks: TableHooks,
    protected readonly options: TableOptions,
  ) {
    if (spec.seats < 2 || spec.seats > VARIANTS[spec.rules.variant].maxSeats) {
      throw new RangeError(`${spec.tableId}: ${spec.rules.variant} is played at 2 to ${VARIANTS[spec.rules.variant].maxSeats} seats (R-SEATS)`);
    }
    this.spec = spec;
    this.seating = createSeating(spec.seats);
    this.bySeat = new Array<Member | null>(spec.seats).fill(null);
    this.lastSeatKeys = new Array<string | null>(spec.seats).fill(null);
    this.timers = options.timers;
    this.random = options.random ?? secureRandomInt;
    this.opt = tableSettings(options);
  }

  /** Frames after `lastSeq` if all are still kept, else null (send a snapshot). */
  framesSince(accountId: number, lastSeq: number): string[] | null {
    const m = this.members.get(accountId);
    if (!m || lastSeq < m.dropped || lastSeq > m.seq) return null;
    return m.ring.filter((f) => f.seq > lastSeq).map((f) => f.frame);
  }

  /** The table as this person may see it, and the number of the last frame it includes. */
  snapshot(accountId: number | null): { seq: number; table: TableView } {
    const m = accountId === null ? undefined : this.members.get(accountId);
    return { seq: m?.seq ?? 0, table: this.view(m ?? null) };
  }

  // -------------------------------------------------------------------------------------------
  // Views and frames

  private seatView(i: number): SeatView | null {
    const p = this.seating.seats[i];
    const m = this.bySeat[i];
    if (p === null || m === null) return null;
    return { name: p.id, practice: m.player.practice, stack: p.stack, status: p.status, connected: m.connected };
  }

  private turnView(): TurnView | null {
    const t = this.hand?.turn;
    if (!t) return null;
    const m = this.bySeat[t.seat];
    const left = Math.max(0, t.endsAt - this.timers.now());
    if (t.phase === 'bank') return { seat: t.seat, actionMs: 0, timeBankMs: left };
    if (t.phase === 'practice') return { seat: t.seat, actionMs: this.hand!.state.rules.actionSeconds * 1000, timeBankMs: 0 };
    return { seat: t.seat, actionMs: left, timeBankMs: m?.timeBankMs ?? 0 };
  }

  private youView(m: Member) {
    return { seat: m.seat, waitForBigBlind: this.seating.seats[m.seat]?.waitForBigBlind ?? false, leaving: m.leaving, pendingTopUp: m.pendingTopUp, timeBankMs: m.timeBankMs };
  }

  private view(m: Member | null): TableView {
    const seat = m?.seat ?? null;
    return {
      tableId: this.spec.tableId,
      name: this.spec.name,
      money: this.spec.money,
      practice: this.spec.practice,
      rules: this.spec.rules,
      buyIn: { ...this.spec.buyIn },
      seats: this.seating.seats.map((_, i) => this.seatView(i)),
      handNo: this.handNo,
      hand: this.hand ? handViewFor(this.hand.state, seat) : null,
      turn: this.turnView(),
      you: m ? this.youView(m) : null,
      // Its chips are the tournament's, not money.
      tournament: this.spec.tournamentId ? { tournamentId: this.spec.tournamentId } : null,
    };
  }

  /** Someone receives this table's frames: a person seated, or a watcher. */
  protected get audience(): boolean {
    return this.humans.length > 0 || this.watchers.size > 0;
  }

  /** Sends each person the event as their seat may see it; watchers, as no seat sees it (rendered once for all). */
  protected emit(render: (seat: number | null) => TableEvent): void {
    for (const m of this.humans) this.push(m, render(m.seat));
    if (this.watchers.size === 0) return;
    const event = render(null);
    for (const w of this.watchers.values()) w.sink(JSON.stringify({ type: 'table.event', tableId: this.spec.tableId, seq: ++w.seq, event }));
  }

  /**
   * `table.watch`: the table as someone without a seat sees it, then its stream, to
   * `sink`; null when the account sits here (its seat's stream has it all) or the table is closed.
   * Watching again restarts the numbering with the new snapshot.
   */
  watch(accountId: number, sink: (frame: string) => void): { seq: number; table: TableView } | null {
    if (this.closed || this.members.has(accountId)) return null;
    const w = { sink, seq: 0 };
    this.watchers.set(accountId, w);
    return { seq: 0, table: this.view(null) };
  }

  /** Stops watching (`table.unwatch`, a disconnection, a seat taken here); true if the account was watching. */
  unwatch(accountId: number): boolean {
    return this.watchers.delete(accountId);
  }

  isWatching(accountId: number): boolean {
    return this.watchers.has(accountId);
  }

  private push(m: Member, event: TableEvent): void {
    const seq = ++m.seq;
    if (seq > this.seqBase) this.seqBase = seq;
    const frame = JSON.stringify({ type: 'table.event', tableId: this.spec.tableId, seq, event });
    m.ring.push({ seq, frame });
    if (m.ring.length > this.opt.ringSize) m.dropped = m.ring.shift()!.seq;
    m.sink?.(frame);
  }

  /** Seat events for what changed since the last call, and each person's own `you` event. */
  protected syncSeats(): void {
    let countChanged = false;
    for (let i = 0; i < this.lastSeatKeys.length; i++) {
      const v = this.seatView(i);
      const key = v === null ? null : JSON.stringify(v);
      const last = this.lastSeatKeys[i];
      if (key === last) continue;
      this.lastSeatKeys[i] = key;
      if (v === null) {
        countChanged = true;
        this.emit(() => ({ type: 'left', seat: i }));
      } else if (last === null) {
        countChanged = true;
        this.emit(() => ({ type: 'seated', seat: i, player: v }));
      } else {
        this.emit(() => ({ type: 'seat', seat: i, player: v }));
      }
    }
    for (const m of this.humans) this.syncYou(m);
    if (countChanged) this.hooks.changed?.();
  }

  protected syncYou(m: Member): void {
    if (m.brain || !this.members.has(m.player.accountId)) return;
    const you = this.youView(m);
    const key = JSON.stringify(you);
    if (key === m.youKey) return;
    m.youKey = key;
    this.push(m, { type: 'you', you });
  }
}
