/**
 * The tournament machine's tables (R-TOURN-RUN; docs/tournaments.md, "The tournament machine … and its
 * runner"): the runner's effects that act outside the database, applied to the operator's `Table`s,
 * and each table's hooks sent back to the runner as events. One job: the machine decides, this acts.
 *
 *   openTable / closeTable ─▶ a tournament-mode Table made / closed
 *   seat (start, late, back, balance, broken, final) ─▶ join at the machine's seat (moved: leave first)
 *   chips ─▶ a top-up, or a busted player back in their kept seat (T 5-3)
 *   stand ─▶ the player leaves   ·   deal ─▶ the table deals if it may (breaks, hand-for-hand, rebuys)
 *   notice ─▶ the caller's callback; the clock's ticks from injected timers (levels and breaks)
 *   Table hooks: mayDeal (the machine's say) · money.handStarted ─▶ handStarted (the big blind's seat)
 *                settle + eliminated + afterHand ─▶ handEnded (stacks, busted groups and their winners)
 *
 * Tournament chips are not money: the tables hold none, their money hooks only report the chips (the
 * tournament's fund holds the entries; runner.ts books them). Each hand's POJEU goes to the trace in
 * the table's own step, under the tournament's Tech and each player's tournament inscription.
 */
import { entrantIds, entrantOf, legal, mayDeal, tableList, tableOf, type Applied, type Bust, type Effect, type MachineEvent, type MachineState, type Notice, type SeatWhy, type Who } from '../../shared/rules/tournament/machine';
import type { HandRecord } from '../../shared/rules/record';
import { clockAt, tableRulesAt } from '../../shared/rules/tournament/structure';
import { VARIANTS } from '../../shared/rules/variants';
import type { Db } from '../../shared/node/sqlite';
import { Table } from '../tables/table';
import type { TableOptions } from '../tables/streams';
import type { TimerHandle, Timers } from '../tables/timers';
import type { Brain, HandVoided, MoneyResult, SeatStack, TableHooks, TablePlayer, TablePositions, TableSpec } from '../tables/types';
import type { TraceOutbox } from '../trace/outbox';
import type { PojeuData } from '../trace/records';
import type { RunnerRefusal, TournamentRunner } from './runner';

export interface FloorDeps {
  db: Db;
  outbox: TraceOutbox;
  /** The tables' time and the tournament clock's (`realTimers`, `scaledTimers`, `ManualTimers`). */
  timers: Timers;
  idOper: string;
  /** The tables' settings (pause between hands, practice thinking time). */
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper'>>;
  /** The operator's own player deciding for this entrant (practice players), none for a person. */
  brainFor?(who: Who): Brain | undefined;
  /** Notices (state, clock, places, hand-for-hand) for the players' connections. */
  notice?(n: Notice): void;
  /** A player sat at a table (the start's draw, a late entry, a move, back after a rebuy), once the table has them. */
  seated?(accountId: number, table: Table, seat: number, why: SeatWhy, moved: boolean): void;
  /**
   * After a table's `handEnded` is applied (the lobby's standings, a test's checks): `busted`, the
   * players the hand eliminated (their seats are gone from the table).
   */
  handEnded?(table: number, state: MachineState, busted: readonly number[]): void;
  /** R-HISTORY: a tournament hand in each player's history, with the level it was dealt at (T 6-1). */
  history?(accountId: number, tableId: string, handId: string, endedAt: number, record: HandRecord, level: number): void;
  /** R-TIMELIMIT: a table's playing-time hooks (real-money tournaments), none otherwise. */
  playtime?(tableId: string): TableHooks['playtime'];
  /**
   * The tournament clock's speed against `timers` (tests and demos run levels faster; the tables'
   * action clocks do not): 1 when absent.
   */
  clockRate?: number;
  /** A bug or I/O failure in a table or an effect: logged; the table goes on. */
  error(e: unknown): void;
  /**
   * Where each table's button and blinds are kept after its hands (T 6-3 to 6-5): saved with the
   * hand's event, read back by `resume` (the machine store's).
   */
  positions?: { save(no: number, p: TablePositions | null): void; load(): Map<number, TablePositions> };
  /** A person busted with a rebuy open decides within this (T 5-3: the hand break); then declined. */
  rebuyDecisionMs?: number;
}

/** What a table's hand left, gathered from its hooks until `afterHand` sends it. */
interface HandEnd {
  stacks: readonly SeatStack[];
  busts: readonly (readonly Bust[])[];
  /** The hand's POJEU, written with the handEnded event (none for a voided hand). */
  pojeu: PojeuData | null;
  /** The button and blinds the hand left (none for a voided hand: they stay as they were). */
  positions?: TablePositions;
}

const player = (w: Who): TablePlayer => ({ accountId: w.accountId, name: w.name, practice: w.practice, ip: w.ip, sessionId: w.sessionId });
const chips = (amount: number): MoneyResult => ({ ok: true, movement: { avant: amount, mouvement: amount, apres: amount } });

export class FloorDriver {
  private runner: TournamentRunner | null = null;
  private readonly tables = new Map<number, Table>();
  /** Tables the machine said may deal, told once the effects are all applied. */
  private readonly pokes = new Set<number>();
  /** Effects are being applied: no table deals meanwhile (a join would deal on a state half acted). */
  private acting = false;
  private poking = false;
  private clockTimer: TimerHandle | null = null;
  /** When (on `timers`) the machine's clock was last set: the start, a resume, the last tick. */
  private tickAt = 0;
  private readonly decisions = new Set<TimerHandle>();
  private closed = false;
  /** Hands played to their end at the tournament's tables. */
  hands = 0;

  constructor(private readonly deps: FloorDeps) {}

  /** The runner whose effects this applies (made with `act` as its `RunnerDeps.act`). */
  attach(runner: TournamentRunner): void {
    this.runner = runner;
  }

  private get state(): MachineState {
    if (!this.runner) throw new Error('the floor driver has no runner');
    return this.runner.state;
  }

  /** One event through the runner, then the tables it released deal. */
  send(event: MachineEvent): Applied | RunnerRefusal {
    if (!this.runner) throw new Error('the floor driver has no runner');
    const r = this.runner.dispatch(event);
    // T 2-14, 2-15: absent (left after the start, or asked back): sat out or in at their table.
    if (r.ok && (event.type === 'absent' || event.type === 'unregister')) this.absent(event.accountId, entrantOf(this.state, event.accountId)?.absent ?? false);
    this.poke();
    return r;
  }

  /** T 2-14, 2-15: an absent player sits out at their table, dealt in and folded; back, they sit in. */
  private absent(accountId: number, absent: boolean): void {
    const no = entrantOf(this.state, accountId)?.table;
    const t = no === null || no === undefined ? undefined : this.tables.get(no);
    if (!t?.isSeated(accountId)) return;
    if (absent) t.sitOut(accountId);
    else t.sitIn(accountId, false);
  }

  /** The operator Table playing machine table `no`. */
  table(no: number): Table | undefined {
    return this.tables.get(no);
  }

  tableNumbers(): number[] {
    return [...this.tables.keys()];
  }

  /** `RunnerDeps.act`: the effects of one committed event, in order. */
  readonly act = (effects: readonly Effect[], state: MachineState): void => {
    this.acting = true;
    const redrawn = new Set<number>();
    try {
      for (const e of effects) {
        try {
          this.effect(e, state, redrawn);
        } catch (x) {
          this.deps.error(x);
        }
      }
    } finally {
      this.acting = false;
    }
  };

  private effect(e: Effect, state: MachineState, redrawn: Set<number>): void {
    switch (e.kind) {
      case 'openTable':
        this.open(e.table);
        return;
      case 'closeTable':
        this.deps.positions?.save(e.table, null);
        this.tables.get(e.table)?.close();
        this.tables.delete(e.table);
        this.pokes.delete(e.table);
        return;
      case 'seat': {
        const who = entrantOf(state, e.accountId)!.who;
        if (e.from !== null) this.leave(e.from, e.accountId);
        // T 1-4: the final table's seats drawn again, its button too: a fresh table, everyone re-seated.
        if (e.why === 'final' && !redrawn.has(e.table)) {
          redrawn.add(e.table);
          this.tables.get(e.table)?.close();
          this.open(e.table);
        }
        this.join(e.table, who, e.stack, e.seat);
        this.deps.seated?.(e.accountId, this.must(e.table), e.seat, e.why, e.from !== null);
        return;
      }
      case 'chips': {
        const t = this.must(e.table);
        if (t.isSeated(e.accountId)) {
          const r = t.topUp(e.accountId, e.chips);
          if (!r.ok) throw new Error(`${t.tableId}: ${e.chips} chips refused to ${e.accountId}: ${r.code}`);
          return;
        }
        // A busted player who rebought sits again in the seat the machine kept (T 5-3).
        const en = entrantOf(state, e.accountId)!;
        this.join(e.table, en.who, e.chips, en.seat!);
        this.deps.seated?.(e.accountId, t, en.seat!, 'back', false);
        return;
      }
      case 'stand':
        this.leave(e.table, e.accountId);
        return;
      case 'deal':
        for (const no of e.tables) this.pokes.add(no);
        return;
      case 'notice':
        this.notice(e.notice, state);
        return;
      default:
        // money, fee, overlay: booked by the runner in the event's transaction.
        return;
    }
  }

  private notice(n: Notice, state: MachineState): void {
    if (n.type === 'state') {
      if (n.state === 'running') {
        this.tickAt = this.deps.timers.now();
        this.scheduleClock(state);
      }
      else this.stopTimers();
    }
    this.deps.notice?.(n);
  }

  private must(no: number): Table {
    const t = this.tables.get(no);
    if (!t) throw new Error(`${this.state.spec.id}: no table ${no} at the operator`);
    return t;
  }

  private join(no: number, who: Who, stack: number, seat: number): void {
    const t = this.must(no);
    const r = t.join(player(who), stack, { waitForBigBlind: false, brain: this.deps.brainFor?.(who), seat });
    if (!r.ok) throw new Error(`${t.tableId}: ${who.name} could not sit: ${r.code} ${r.message}`);
    if (r.seat !== seat) throw new Error(`${t.tableId}: ${who.name} sat at ${r.seat}, the machine said ${seat}`);
    // An absent player moved or back in keeps sitting out (T 2-15).
    if (entrantOf(this.state, who.accountId)?.absent) t.sitOut(who.accountId);
  }

  /** The machine moves players only from a table between hands: they leave at once. */
  private leave(no: number, accountId: number): void {
    const t = this.tables.get(no);
    if (t?.isSeated(accountId)) t.leave(accountId, 'operator');
  }

  /** The tables released by the last events deal (each in turn: a deal is itself an event). */
  private poke(): void {
    if (this.poking) return;
    this.poking = true;
    try {
      for (const no of this.pokes) {
        this.pokes.delete(no);
        this.tables.get(no)?.dealWhenReady();
      }
    } finally {
      this.poking = false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // A table and its hooks

  private open(no: number): Table {
    const s = this.state.spec;
    const tableId = `${s.id}-t${no}`;
    const spec: TableSpec = {
      tableId,
      name: `${s.name}, table ${no}`,
      // Tournament chips are not money: the tables hold none (the tournament's fund does).
      money: 'play',
      practice: s.money === 'play',
      rules: tableRulesAt(s.variant, s.structure, this.state.level),
      seats: s.seats,
      buyIn: { min: 1, max: Number.MAX_SAFE_INTEGER },
      mode: 'tournament',
      tournamentId: s.id,
    };
    // No blinds in stud games: no big blind to count a moved player's seat from (T 6-10: drawn).
    const blinds = VARIANTS[s.variant].forcedBets !== 'ante-bring-in';
    let table: Table | null = null;
    let end: HandEnd | null = null;
    let level = this.state.level;
    const live = () => table !== null && this.tables.get(no) === table;
    const hooks: TableHooks = {
      money: {
        buyIn: (_p, amount) => chips(amount),
        topUp: (_p, amount) => chips(amount),
        cashOut: (_p, amount) => chips(amount),
        // Before the hand goes on (it may end at once, everyone all in): the machine knows it is in play.
        handStarted: (_handId, _ids, handBigBlind) => {
          if (!live()) return;
          // The hand's own big blind (its first hand's button is drawn: no plan made earlier knows it).
          const r = this.send({ type: 'handStarted', table: no, bigBlind: blinds ? handBigBlind : null });
          if (!r.ok) throw new Error(`${tableId}: handStarted refused: ${r.code} ${r.message}`);
        },
        settle: (_handId, _rake, stacks, positions) => {
          end = { stacks, busts: [], pojeu: null, positions };
        },
        handCancelled: () => undefined,
        participationClosed: () => undefined,
      },
      trace: {
        // POINSCRIT, POACHAT, POBILAN are the tournament's (runner.ts), not each table's.
        joined: () => undefined,
        purchased: () => undefined,
        left: () => undefined,
        // Kept for `afterHand`: the POJEU and the machine's handEnded commit together (both or neither).
        hand: (data) => {
          if (end) end = { ...end, pojeu: this.pojeu(data) };
        },
      },
      // Nothing a table step does here writes: chips are no money, and the hand's record waits for afterHand.
      step: (fn) => fn(),
      // T 6-1: the level the machine's clock is at when the hand is dealt (kept for its history).
      rulesForNextHand: () => tableRulesAt(s.variant, s.structure, (level = this.state.level)),
      // R-HISTORY: each person's hands, with the tournament's level the hand was dealt at.
      history: this.deps.history ? (accountId, tid, handId, endedAt, record) => this.deps.history!(accountId, tid, handId, endedAt, record, level) : undefined,
      playtime: this.deps.playtime?.(tableId),
      mayDeal: () => {
        return !this.acting && live() && mayDeal(this.state, no);
      },
      eliminated: (_handId, groups) => {
        if (end) end = { ...end, busts: groups };
      },
      afterHand: () => {
        const done = end;
        end = null;
        if (!done || !live()) return;
        this.handEnded(no, done, true);
      },
      // A hand voided by a fault: every stack as it was before it, nobody busted (the machine's hand ends).
      voided: (v: HandVoided) => {
        end = null;
        if (v.reason === 'stop' || !live() || !tableOf(this.state, no)?.inHand) return;
        this.handEnded(no, { stacks: v.participants.map((p) => ({ accountId: Number(p.idJoueur), stack: p.cave })), busts: [], pojeu: null }, false);
      },
      error: (e) => this.deps.error(e),
    };
    table = new Table(spec, hooks, { betweenHandsMs: 0, ...this.deps.table, timers: this.deps.timers, idOper: this.deps.idOper });
    this.tables.set(no, table);
    return table;
  }

  /** `played`: the hand was settled (a voided one ends in the machine too, but is no hand played). */
  private handEnded(no: number, end: HandEnd, played: boolean): void {
    const event: MachineEvent = { type: 'handEnded', table: no, stacks: end.stacks, busts: end.busts };
    const runner = this.runner!;
    const { db, outbox } = this.deps;
    // The hand's POJEU and the event's ledger rows, records and state in one transaction (the
    // runner's nests in it): a crash leaves the hand recorded and ended in the machine, or neither.
    db.transaction(() => {
      if (end.pojeu) outbox.put(end.pojeu);
      if (end.positions) this.deps.positions?.save(no, end.positions);
      const r = runner.dispatch(event);
      if (!r.ok) throw new Error(`${this.state.spec.id}: table ${no}'s handEnded refused: ${r.code} ${r.message}`);
    }).immediate();
    outbox.flushSoon();
    if (played) this.hands++;
    // T 5-3: a person busted with a rebuy open decides in the hand break; its end declines for them.
    // A practice player decides at once: its rebuy is its own event (refused by its wallet, declined).
    for (const g of end.busts) {
      for (const b of g) {
        const e = entrantOf(this.state, b.accountId);
        if (e?.status !== 'deciding') continue;
        if (!e.auto) this.decideLater(b.accountId);
        else if (!this.runner!.dispatch({ type: 'rebuy', accountId: b.accountId }).ok) this.runner!.dispatch({ type: 'declineRebuy', accountId: b.accountId });
      }
    }
    this.poke();
    const state = this.state;
    this.deps.handEnded?.(
      no,
      state,
      end.busts.flatMap((g) => g.map((b) => b.accountId)),
    );
  }

  /** The hand's POJEU under the tournament's Tech, each player's tournament inscription (A 1.3.6.b). */
  private pojeu(d: PojeuData): PojeuData {
    const s = this.state;
    return {
      ...d,
      tech: s.spec.id,
      description: `${s.spec.name}: ${d.description}`,
      scale: 0,
      ...(s.spec.money === 'play' ? { test: true } : { test: undefined }),
      participants: d.participants.map((p) => ({ ...p, inscription: entrantOf(s, Number(p.idJoueur))?.inscription ?? p.inscription })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // The clock (R-TOURN-RUN: the operator's clock drives levels and breaks)

  /** The next tick at the clock's next change (a level, a break's start or end). */
  private scheduleClock(state: MachineState): void {
    this.deps.timers.clear(this.clockTimer);
    this.clockTimer = null;
    if (this.closed) return;
    const c = clockAt(state.spec.structure, state.elapsed);
    if (c.msToNext === null) return;
    const at = state.elapsed + c.msToNext;
    this.clockTimer = this.deps.timers.set(
      () => {
        this.clockTimer = null;
        if (this.state.phase !== 'running') return;
        this.tickAt = this.deps.timers.now();
        const r = this.send({ type: 'tick', elapsed: at });
        if (!r.ok) this.deps.error(new Error(`${this.state.spec.id}: tick refused: ${r.code} ${r.message}`));
        this.autoAddOns();
        this.scheduleClock(this.state);
      },
      Math.ceil(c.msToNext / this.rate),
    );
  }

  private get rate(): number {
    return this.deps.clockRate ?? 1;
  }

  /**
   * The tournament clock now (ms since the start): the machine's, as of its last tick, plus the time
   * since on the tournament clock. Null before the start.
   */
  elapsedNow(): number | null {
    const s = this.state;
    if (s.phase === 'registering') return null;
    if (s.phase !== 'running') return s.elapsed;
    return s.elapsed + Math.max(0, this.deps.timers.now() - this.tickAt) * this.rate;
  }

  /**
   * A tournament made again from its store after the operator stopped without closing (a crash):
   * its tables opened with their players in the seats the machine kept. A hand that was in play is
   * void (never recorded: its POJEU commits with its end): its table's hand ends with the stacks of
   * the last ended hand, nobody busted. A player busted with a rebuy open decides again within the
   * hand break. The clock goes on from the machine's last tick.
   */
  resume(): void {
    const state = this.state;
    if (state.phase !== 'running') return;
    this.tickAt = this.deps.timers.now();
    this.acting = true;
    const deciding: number[] = [];
    const positions = this.deps.positions?.load() ?? new Map<number, TablePositions>();
    try {
      for (const t of tableList(state)) {
        const table = this.open(t.no);
        t.seats.forEach((id, seat) => {
          if (id === null) return;
          const e = entrantOf(state, id);
          if (!e) return;
          if (e.status === 'deciding') return void deciding.push(id);
          this.join(t.no, e.who, e.stack, seat);
          this.deps.seated?.(id, table, seat, 'back', false);
        });
        // T 6-3 to 6-5: the button and blinds go on from where the table's last ended hand left them.
        const p = positions.get(t.no);
        if (p) table.restorePositions(p);
      }
    } finally {
      this.acting = false;
    }
    for (const t of tableList(state)) {
      if (!t.inHand) continue;
      const stacks = t.seats.flatMap((id) => {
        const e = id === null ? undefined : entrantOf(this.state, id);
        return e && e.status === 'in' ? [{ accountId: e.who.accountId, stack: e.stack }] : [];
      });
      this.handEnded(t.no, { stacks, busts: [], pojeu: null }, false);
    }
    for (const id of deciding) this.decideLater(id);
    this.scheduleClock(this.state);
    for (const t of tableList(this.state)) this.pokes.add(t.no);
    this.poke();
  }

  /**
   * T 5-4: practice players take the add-on as soon as it opens, each its own event (a wallet that
   * refuses one refuses that add-on only). Read once per change of the clock.
   */
  private autoAddOns(): void {
    const s = this.state;
    if (s.phase !== 'running' || s.spec.structure.addOn === null) return;
    for (const id of entrantIds(s)) {
      const e = entrantOf(s, id)!;
      if (e.auto && e.status === 'in' && legal(this.state, id).addOn) this.send({ type: 'addOn', accountId: id });
    }
  }

  /** T 5-3: a person busted with a rebuy open decides in the hand break; its end declines for them. */
  private decideLater(accountId: number): void {
    const h = this.deps.timers.set(() => {
      this.decisions.delete(h);
      if (entrantOf(this.state, accountId)?.status === 'deciding') this.send({ type: 'declineRebuy', accountId });
    }, this.deps.rebuyDecisionMs ?? 20_000);
    this.decisions.add(h);
  }

  private stopTimers(): void {
    this.deps.timers.clear(this.clockTimer);
    this.clockTimer = null;
    for (const h of this.decisions) this.deps.timers.clear(h);
    this.decisions.clear();
  }

  /** Stops the clock and closes the tables (a hand in play is voided: the operator stopping). */
  close(): void {
    this.closed = true;
    this.stopTimers();
    for (const t of this.tables.values()) t.close();
    this.tables.clear();
  }
}
