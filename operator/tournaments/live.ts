/**
 * One tournament at the operator (R-TOURN, R-TOURN-RUN): the pure machine's runner (its money,
 * records and state in one transaction per event) and its floor driver (the real tables), put
 * together and read the way the hub reads a tournament: its phase and field, the pool and prizes, the
 * clock, each entrant and their table, a stack's rank; the players' requests as machine events.
 *
 *   hub ─ register / unregister / rebuy / add-on / exclude / sit in ─▶ live ─ event ─▶ runner ─▶ machine
 *   runner ─ effects after commit ─▶ floor driver (tables) ─ notices ─▶ live ─▶ hub (players told)
 *
 * What is the operator's and not the machine's stays here: the version shown (R-INFO), the start
 * timer of a scheduled tournament, the inscription codes (operator/trace/inscription.ts), practice
 * players' brains, a satellite's seat bought in its target (T 1-5), the order of stacks for ranks.
 */
import { randomInt } from 'node:crypto';
import { alive, chipsIssued, entrantIds, entrantOf, legal, poolParts, prizeTable, type Entrant as MachineEntrant, type Effect, type MachineEvent, type MachineState, type Notice, type Refusal as MachineRefusal, type Who } from '../../shared/rules/tournament/machine';
import type { HandTournament } from '../../shared/protocol/messages';
import type { HandRecord } from '../../shared/rules/record';
import type { Db } from '../../shared/node/sqlite';
import type { Table, TableOptions } from '../tables/table';
import type { TimerHandle, Timers } from '../tables/timers';
import type { Brain, TablePlayer, TableRefusal } from '../tables/types';
import { newInscription } from '../trace/inscription';
import type { TraceOutbox } from '../trace/outbox';
import type { Wallet } from '../wallet';
import { FloorDriver } from './floor-driver';
import type { MachineStore } from './machine-store';
import { TournamentRunner, type RunnerRefusal } from './runner';
import { tournamentVersion, validateTournamentSpec, type TournamentSpec } from './spec';
import { StackOrder } from './stack-order';

export type TournamentState = MachineState['phase'];
export type ExclusionWhy = NonNullable<MachineEntrant['excluded']>;
export type SeatWhy = 'start' | 'late' | 'balance' | 'broken' | 'back' | 'final';

/** What the tournament tells its players (the hub turns them into protocol messages). */
export type TournamentNotice =
  | { type: 'state'; tournamentId: string; state: TournamentState }
  | { type: 'seated'; tournamentId: string; accountId: number; tableId: string; seat: number; moved: boolean; why: SeatWhy }
  | { type: 'finished'; tournamentId: string; accountId: number; place: number; tied: number; prize: number; bounties: number }
  | { type: 'clock'; tournamentId: string; level: number; onBreak: boolean }
  /** A hand ended at a table where people play: the people seated there and those it eliminated. */
  | { type: 'hand'; tournamentId: string; tableId: string; accountIds: number[] }
  /** An excluded person left the running tournament (R-EXCLUDE, R-BANNED; their place follows when known). */
  | { type: 'removed'; tournamentId: string; accountId: number; why: ExclusionWhy };

export interface LiveDeps {
  db: Db;
  wallet: Wallet;
  outbox: TraceOutbox;
  store: MachineStore;
  timers: Timers;
  /** Tests and demos only: the tournament clock this many times faster than `timers` (not the tables' action clocks). */
  clockRate?: number;
  idOper: string;
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper'>>;
  error(e: unknown): void;
  log?(line: string): void;
  notify(n: TournamentNotice): void;
  /** The operator's other tournaments: a satellite's seats are entries in its target (T 1-5). */
  directory(id: string): LiveTournament | undefined;
  /** A practice player's brain (the operator deciding for its practice entrants). */
  brain(): Brain;
  /** R-RANDSEAT: the seed of the machine's draws; the CSPRNG when absent (tests give one). */
  seed?: number;
  history?: { add(accountId: number, tableId: string, handId: string, endedAt: number, record: HandRecord, tournament: HandTournament): void };
  /** R-TIMELIMIT at real-money tournament tables: counted, never a stand-up (decree 2010-518 art. 16-1). */
  playtime?: { handDealt(accountId: number, tableId: string): void; left(accountId: number, tableId: string): void };
  /** How long a person busted with a rebuy open has to decide (T 5-3: the hand break). */
  rebuyDecisionMs?: number;
}

/** An entrant as the hub reads one: the machine's, with their live table. */
export interface EntrantView {
  player: TablePlayer;
  inscription: string;
  /** Out of the tournament (busted with no rebuy left, or placed). */
  out: boolean;
  /** Busted with a rebuy still open (T 5-3): their seat is kept for the hand break. */
  deciding: boolean;
  stack: number;
  pendingChips: number;
  table: Table | null;
  place: number | null;
  prize: number | null;
  rebuys: number;
  addOn: boolean;
  reEntries: number;
  won: number;
  excluded: ExclusionWhy | null;
  /** Sat out (left after the start, or timed out): dealt in and blinded (T 2-15). */
  absent: boolean;
  /** A practice player: rebuys and takes the add-on whenever they may. */
  auto: boolean;
  n: number;
}

export type Refusal = TableRefusal;

/** A machine or wallet refusal as the wire says it (the machine's `NOT_NOW`: closed for this request). */
function wireRefusal(r: RunnerRefusal): Refusal {
  const code = r.code === 'NOT_NOW' ? 'REGISTRATION_CLOSED' : r.code;
  return { ok: false, code, message: r.message, ...(r.rule !== undefined ? { rule: r.rule } : {}) };
}

const whoOf = (p: TablePlayer): Who => ({ accountId: p.accountId, name: p.name, practice: p.practice, ip: p.ip, sessionId: p.sessionId });

export class LiveTournament {
  readonly version: string;
  private readonly runner: TournamentRunner;
  private readonly driver: FloorDriver;
  private readonly brains = new Map<number, Brain>();
  private readonly stacks: StackOrder<number>;
  private startTimer: TimerHandle | null = null;
  private closed = false;

  private constructor(
    readonly spec: TournamentSpec,
    private readonly deps: LiveDeps,
    make: (act: (effects: readonly Effect[], state: MachineState, changed: { entrants: readonly number[] }) => void) => TournamentRunner,
  ) {
    this.version = tournamentVersion(spec);
    this.stacks = new StackOrder<number>((id) => {
      const e = entrantOf(this.runner.state, id);
      return e && e.status === 'in' ? e.stack + e.pending : null;
    });
    this.driver = new FloorDriver({
      db: deps.db,
      outbox: deps.outbox,
      timers: deps.timers,
      idOper: deps.idOper,
      clockRate: deps.clockRate,
      table: { betweenHandsMs: 1500, ...deps.table },
      rebuyDecisionMs: deps.rebuyDecisionMs,
      positions: { save: (no, p) => deps.store.savePositions(spec.id, no, p), load: () => deps.store.positions(spec.id) },
      brainFor: (w) => this.brainOf(w),
      error: deps.error,
      notice: (n) => this.notice(n),
      seated: (accountId, table, seat, why, moved) => this.notify({ type: 'seated', tournamentId: spec.id, accountId, tableId: table.tableId, seat, moved, why }),
      handEnded: (no, state, busted) => this.handEnded(no, state, busted),
      history: deps.history ? (accountId, tableId, handId, endedAt, record, level) => deps.history!.add(accountId, tableId, handId, endedAt, record, { tournamentId: spec.id, level }) : undefined,
      playtime: (tableId) => {
        const watch = deps.playtime;
        if (!watch || spec.money !== 'real') return undefined;
        return { dealt: (id) => watch.handDealt(id, tableId), mayPlayOn: () => true, left: (id) => watch.left(id, tableId) };
      },
    });
    this.runner = make((effects, state, changed) => {
      for (const id of changed.entrants) this.stacks.touch(id);
      this.driver.act(effects, state);
    });
    this.driver.attach(this.runner);
    for (const id of entrantIds(this.runner.state)) this.stacks.touch(id);
  }

  /** A new tournament, open for registration (a scheduled one starts at its time). */
  static create(spec: TournamentSpec, deps: LiveDeps): LiveTournament {
    const check = validateTournamentSpec(spec);
    if (!check.ok) throw new RangeError(`tournament ${String(spec?.id)}: ${check.field}: ${check.reason}`);
    const seed = deps.seed ?? randomInt(2 ** 31);
    let t: LiveTournament | null = null;
    t = new LiveTournament(spec, deps, (act) => TournamentRunner.create(spec, seed, { ...runnerDeps(deps, () => t?.elapsed() ?? null), act }));
    t.scheduleStart();
    return t;
  }

  /** A tournament the operator left unfinished (a crash), from its last committed event; null if none saved. */
  static resume(id: string, deps: LiveDeps): LiveTournament | null {
    const saved = deps.store.load(id);
    if (!saved) return null;
    const spec = saved.state.spec as TournamentSpec;
    let t: LiveTournament | null = null;
    t = new LiveTournament(spec, deps, (act) => TournamentRunner.resume(id, { ...runnerDeps(deps, () => t?.elapsed() ?? null), act })!);
    t.driver.resume();
    t.scheduleStart();
    return t;
  }

  private scheduleStart(): void {
    if (this.spec.format !== 'scheduled' || this.state !== 'registering' || this.spec.startAt === null) return;
    this.startTimer = this.deps.timers.set(
      () => {
        this.startTimer = null;
        this.guard(() => this.send({ type: 'start' }));
      },
      Math.max(0, this.spec.startAt - this.deps.timers.now()),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** The tournament's fund in the wallet (`table_funds`): entries in, prizes out. */
  get fundId(): string {
    return this.runner.fundId;
  }

  get machine(): MachineState {
    return this.runner.state;
  }

  get state(): TournamentState {
    return this.runner.state.phase;
  }

  /** Players registered (one place each). */
  get entries(): number {
    return this.runner.state.players;
  }

  /** Entries bought: registrations and re-entries (the pool's count). */
  get entryTotal(): number {
    return this.runner.state.entries;
  }

  /** Players still in (or deciding a rebuy); before the start, those registered. */
  get remaining(): number {
    const s = this.runner.state;
    return s.phase === 'registering' ? s.players : s.remaining;
  }

  get fieldFinal(): boolean {
    return this.runner.state.poolFinal;
  }

  get inHandForHand(): boolean {
    return this.runner.state.round.on;
  }

  get clockRate(): number {
    return this.deps.clockRate ?? 1;
  }

  /** Hands played to their end at the tournament's tables. */
  get handsPlayed(): number {
    return this.driver.hands;
  }

  /** Ms on the tournament clock since the start; null before it. */
  elapsed(): number | null {
    return this.driver.elapsedNow();
  }

  pool(): number {
    return poolParts(this.runner.state).pool;
  }

  /** The prizes: final once the field is; before, those of the field as it stands. */
  prizes(): number[] {
    const s = this.runner.state;
    return [...(s.poolFinal ? s.prizes : prizeTable(s))];
  }

  chipsIssued(): number {
    return chipsIssued(this.runner.state);
  }

  /** The chips the players in hold (stacks and chips bought during a hand): the chips issued less those removed. */
  chipsInPlay(): number {
    const s = this.runner.state;
    let held = 0;
    for (const id of entrantIds(s)) {
      const e = entrantOf(s, id)!;
      if (e.status === 'in') held += e.stack + e.pending;
    }
    return held;
  }

  /** Hand-for-hand's round: its tables still to play their hand, and its busts with their starting stacks (T 8-16). */
  get round(): { tables: number; busted: { accountId: number; stack: number }[] } {
    const r = this.runner.state.round;
    return { tables: r.tables.length, busted: r.busts.map((b) => ({ accountId: b.id, stack: b.stack })) };
  }

  /** Chips taken out of play with excluded or absent players (T 13-1, T 2-15). */
  chipsRemoved(): number {
    return this.runner.state.removed;
  }

  /** Players in with strictly more chips than `stack` (a rank is 1 + this; O(log n)). */
  playersAbove(stack: number): number {
    return this.stacks.above(stack);
  }

  /** What the account may do now (the machine's say): rebuy, add-on. */
  may(accountId: number): ReturnType<typeof legal> {
    return legal(this.runner.state, accountId);
  }

  entrant(accountId: number): EntrantView | undefined {
    const e = entrantOf(this.runner.state, accountId);
    return e ? this.view(e) : undefined;
  }

  /** Every entrant, in registration order. */
  all(): EntrantView[] {
    const s = this.runner.state;
    return entrantIds(s)
      .map((id) => entrantOf(s, id)!)
      .sort((a, b) => a.n - b.n)
      .map((e) => this.view(e));
  }

  /** The account ids of the people registered (no practice player). */
  people(): number[] {
    const s = this.runner.state;
    return entrantIds(s).filter((id) => !entrantOf(s, id)!.who.practice);
  }

  liveTables(): Table[] {
    return this.driver.tableNumbers().map((no) => this.driver.table(no)!);
  }

  /** Players in, by account id (the machine's order). */
  alive(): number[] {
    return alive(this.runner.state);
  }

  /** The entrant as read now: each field from the machine's latest state (a view kept stays current). */
  private view(first: MachineEntrant): EntrantView {
    const id = first.who.accountId;
    const state = (): MachineState => this.runner.state;
    const tableOf = (no: number): Table | null => this.driver.table(no) ?? null;
    const now = (): MachineEntrant => entrantOf(state(), id) ?? first;
    return {
      player: { accountId: id, name: first.who.name, practice: first.who.practice, ip: first.who.ip, sessionId: first.who.sessionId },
      get inscription() {
        return now().inscription;
      },
      get out() {
        return now().status === 'out';
      },
      get deciding() {
        return now().status === 'deciding';
      },
      get stack() {
        return now().stack;
      },
      get pendingChips() {
        return now().pending;
      },
      get table() {
        const no = now().table;
        return no === null ? null : tableOf(no);
      },
      get place() {
        return now().place;
      },
      get prize() {
        return now().prize;
      },
      get rebuys() {
        return now().rebuys;
      },
      get addOn() {
        return now().addOn;
      },
      get reEntries() {
        return now().reEntries;
      },
      get won() {
        return now().won;
      },
      get excluded() {
        return now().excluded;
      },
      get absent() {
        return now().absent;
      },
      get auto() {
        return now().auto;
      },
      n: first.n,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Requests

  /**
   * Registers a player who confirmed the tournament's information at `version` (R-INFO): the entry
   * from their wallet to the fund with its POINSCRIT. A busted player registering again within late
   * registration re-enters (`T/M`, a new inscription). `auto`: a practice player (rebuys, add-on).
   */
  register(player: TablePlayer, version: string, opts: { auto?: boolean; brain?: Brain } = {}): { ok: true; inscription: string } | Refusal {
    if (version !== this.version) return { ok: false, code: 'RULES_CHANGED', message: 'the tournament changed since it was shown: read it again', rule: 'R-INFO' };
    if (player.practice && this.spec.money !== 'play') throw new Error(`practice players never enter ${this.spec.id}`);
    // Who decides for this entrant: given (a test's scripted player), else the operator's own for a practice player.
    if (opts.brain) this.brains.set(player.accountId, opts.brain);
    const inscription = newInscription(this.spec.id, this.deps.timers.now());
    const known = entrantOf(this.runner.state, player.accountId);
    const event: MachineEvent =
      known && known.status === 'out' && known.place === null && this.state === 'running'
        ? { type: 're-enter', accountId: player.accountId, inscription }
        : { type: 'register', who: whoOf(player), inscription, auto: opts.auto ?? false };
    const r = this.send(event);
    return r.ok ? { ok: true, inscription } : r;
  }

  /** Before the start, the whole entry back (R-TOURN-LEAVE); after it, absent for good, blinded away (T 2-15). */
  unregister(accountId: number): { ok: true; refunded: number | null } | Refusal {
    const before = this.state;
    const r = this.send({ type: 'unregister', accountId });
    if (!r.ok) return r;
    return { ok: true, refunded: before === 'registering' ? this.spec.buyIn + this.spec.fee : null };
  }

  /** A player who left (or timed out) comes back to play their stack (T 2-15). */
  sitIn(accountId: number): { ok: true } | Refusal {
    const r = this.send({ type: 'absent', accountId, absent: false });
    return r.ok ? { ok: true } : r;
  }

  rebuy(accountId: number): { ok: true } | Refusal {
    const r = this.send({ type: 'rebuy', accountId });
    return r.ok ? { ok: true } : r;
  }

  addOn(accountId: number): { ok: true } | Refusal {
    const r = this.send({ type: 'addOn', accountId });
    return r.ok ? { ok: true } : r;
  }

  /**
   * R-EXCLUDE, R-BANNED in a real-money tournament: not started, refunded; running, out now if their
   * table is between hands (`removed`), else at its end (`leaving`); `none` when nothing changed.
   */
  exclude(accountId: number, why: ExclusionWhy): 'refunded' | 'removed' | 'leaving' | 'none' {
    const before = this.state;
    const was = entrantOf(this.runner.state, accountId)?.status;
    const r = this.send({ type: 'exclude', accountId, why });
    if (!r.ok) return 'none';
    if (before === 'registering') return 'refunded';
    if (was === 'out') return 'none';
    return entrantOf(this.runner.state, accountId)?.status === 'out' ? 'removed' : 'leaving';
  }

  /** Starts now (a scheduled tournament's time, or the operator's say); under the minimum field, cancelled. */
  start(): { ok: true } | Refusal {
    return this.send({ type: 'start' });
  }

  /** Cancelled by the operator before the start: every entry back (POANNUL). */
  cancel(): { ok: true } | Refusal {
    const r = this.send({ type: 'cancel' });
    return r.ok ? { ok: true } : r;
  }

  /** The operator stops: timers stopped, tables closed (a hand in play void); the next start resumes it. */
  close(): void {
    this.closed = true;
    this.deps.timers.clear(this.startTimer);
    this.startTimer = null;
    this.driver.close();
  }

  private send(event: MachineEvent): { ok: true } | Refusal {
    if (this.closed) return { ok: false, code: 'SHUTTING_DOWN', message: 'the operator is stopping' };
    try {
      const r = this.driver.send(event);
      return r.ok ? { ok: true } : wireRefusal(r);
    } catch (e) {
      this.deps.error(e);
      return { ok: false, code: 'INTERNAL', message: 'the operator could not record this; nothing was taken' };
    }
  }

  private guard(fn: () => unknown): void {
    try {
      fn();
    } catch (e) {
      this.deps.error(e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // What the machine says, to the players

  private brainOf(w: Who): Brain | undefined {
    let b = this.brains.get(w.accountId);
    if (!b && w.practice) this.brains.set(w.accountId, (b = this.deps.brain()));
    return b;
  }

  private notify(n: TournamentNotice): void {
    this.guard(() => this.deps.notify(n));
  }

  private notice(n: Notice): void {
    const id = this.spec.id;
    switch (n.type) {
      case 'state':
        if (n.state !== 'registering') {
          this.deps.timers.clear(this.startTimer);
          this.startTimer = null;
        }
        return this.notify({ type: 'state', tournamentId: id, state: n.state });
      case 'clock':
        return this.notify({ type: 'clock', tournamentId: id, level: n.level, onBreak: n.onBreak });
      case 'handForHand': {
        // The standing says hand-for-hand: everyone is told, as of a change of the clock.
        const s = this.runner.state;
        return this.notify({ type: 'clock', tournamentId: id, level: s.level, onBreak: s.onBreak });
      }
      case 'finished':
        return this.notify({ type: 'finished', tournamentId: id, accountId: n.accountId, place: n.place, tied: n.tied, prize: n.prize, bounties: n.bounties });
      case 'removed':
        return this.notify({ type: 'removed', tournamentId: id, accountId: n.accountId, why: n.why });
      case 'qualified':
        // After this event's commit (never inside a table's hand step): the seat bought in the target.
        this.deps.timers.set(() => this.guard(() => this.qualify(n.accountId, n.target)), 0);
        return;
    }
  }

  /**
   * A satellite's seat (T 1-5): the prize was paid; the entry in the target is bought with it.
   * Written policy: if the target refuses (closed, full, gone), the player keeps the prize in cash.
   */
  private qualify(accountId: number, targetId: string): void {
    const e = entrantOf(this.runner.state, accountId);
    const target = this.deps.directory(targetId);
    if (!e) return;
    if (!target || e.prize !== target.spec.buyIn + target.spec.fee) {
      this.deps.log?.(`${this.spec.id}: ${e.who.name} keeps ${e.prize} in cash (target ${targetId} not open or not worth it)`);
      return;
    }
    const r = target.register(this.view(e).player, target.version, { auto: e.auto });
    if (!r.ok) this.deps.log?.(`${this.spec.id}: ${e.who.name} keeps ${e.prize} in cash (${targetId}: ${r.code})`);
  }

  /** The people who played the hand, and those it eliminated, are told their standing (none for practice players). */
  private handEnded(no: number, state: MachineState, busted: readonly number[]): void {
    const table = this.driver.table(no);
    const people = [...(table?.people() ?? []), ...busted.filter((id) => entrantOf(state, id)?.who.practice === false)];
    if (people.length > 0) this.notify({ type: 'hand', tournamentId: this.spec.id, tableId: table?.tableId ?? `${this.spec.id}-t${no}`, accountIds: people });
  }
}

function runnerDeps(deps: LiveDeps, elapsedNow: () => number | null) {
  return { db: deps.db, wallet: deps.wallet, outbox: deps.outbox, store: deps.store, clock: () => deps.timers.now(), clockRate: deps.clockRate, elapsedNow };
}

/** Refusals the machine gives, narrowed for callers that test a code. */
export type { MachineRefusal };
