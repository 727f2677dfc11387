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
import { entrantOf, mayDeal, tableOf, type Applied, type Bust, type Effect, type MachineEvent, type MachineState, type Notice, type Who } from '../../shared/rules/tournament/machine';
import { clockAt, tableRulesAt } from '../../shared/rules/tournament/structure';
import { VARIANTS } from '../../shared/rules/variants';
import type { Db } from '../../shared/node/sqlite';
import { Table } from '../tables/table';
import type { TableOptions } from '../tables/streams';
import type { TimerHandle, Timers } from '../tables/timers';
import type { Brain, HandVoided, MoneyResult, SeatStack, TableHooks, TablePlayer, TableSpec } from '../tables/types';
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
  /** After a table's `handEnded` is applied (the lobby's standings, a test's checks). */
  handEnded?(table: number, state: MachineState): void;
  /** A bug or I/O failure in a table or an effect: logged; the table goes on. */
  error(e: unknown): void;
  /** A person busted with a rebuy open decides within this (T 5-3: the hand break); then declined. */
  rebuyDecisionMs?: number;
}

/** What a table's hand left, gathered from its hooks until `afterHand` sends it. */
interface HandEnd {
  stacks: readonly SeatStack[];
  busts: readonly (readonly Bust[])[];
  /** The hand's POJEU, written with the handEnded event (none for a voided hand). */
  pojeu: PojeuData | null;
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
    if (r.ok && event.type === 'absent') this.absent(event.accountId, event.absent);
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
      if (n.state === 'running') this.scheduleClock(state);
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
    let bigBlind: number | null = null;
    let end: HandEnd | null = null;
    const live = () => table !== null && this.tables.get(no) === table;
    const hooks: TableHooks = {
      money: {
        buyIn: (_p, amount) => chips(amount),
        topUp: (_p, amount) => chips(amount),
        cashOut: (_p, amount) => chips(amount),
        // Before the hand goes on (it may end at once, everyone all in): the machine knows it is in play.
        handStarted: () => {
          if (!live()) return;
          const r = this.send({ type: 'handStarted', table: no, bigBlind });
          if (!r.ok) throw new Error(`${tableId}: handStarted refused: ${r.code} ${r.message}`);
        },
        settle: (_handId, _rake, stacks) => {
          end = { stacks, busts: [], pojeu: null };
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
      // T 6-1: the level the machine's clock is at when the hand is dealt.
      rulesForNextHand: () => tableRulesAt(s.variant, s.structure, this.state.level),
      mayDeal: () => {
        if (this.acting || !live() || !mayDeal(this.state, no)) return false;
        const out = blinds ? table!.balancing().moveOut : null;
        bigBlind = out === null ? null : table!.seatOf(out);
        return true;
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
      const r = runner.dispatch(event);
      if (!r.ok) throw new Error(`${this.state.spec.id}: table ${no}'s handEnded refused: ${r.code} ${r.message}`);
    }).immediate();
    outbox.flushSoon();
    this.poke();
    if (played) this.hands++;
    const state = this.state;
    // T 5-3: a person busted with a rebuy open decides in the hand break; its end declines for them.
    for (const g of end.busts) {
      for (const b of g) {
        if (entrantOf(state, b.accountId)?.status !== 'deciding') continue;
        const h = this.deps.timers.set(() => {
          this.decisions.delete(h);
          this.send({ type: 'declineRebuy', accountId: b.accountId });
        }, this.deps.rebuyDecisionMs ?? 20_000);
        this.decisions.add(h);
      }
    }
    this.deps.handEnded?.(no, state);
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
    this.clockTimer = this.deps.timers.set(() => {
      this.clockTimer = null;
      if (this.state.phase !== 'running') return;
      const r = this.send({ type: 'tick', elapsed: at });
      if (!r.ok) this.deps.error(new Error(`${this.state.spec.id}: tick refused: ${r.code} ${r.message}`));
      this.scheduleClock(this.state);
    }, c.msToNext);
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
