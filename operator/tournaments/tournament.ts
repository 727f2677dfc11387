/**
 * One tournament, from registration to prizes (R-TOURN, R-TOURN-FORMATS, -RUN, -LEAVE; issue 16).
 *
 *   register ─ entry (buy-in + fee) from the wallet to the tournament's fund, POINSCRIT (R-NODEBT, R-INFO)
 *   unregister before the start ─ the whole entry back, POANNUL (R-TOURN-LEAVE)
 *   start (sit & go: full; scheduled: its time, or cancelled and refunded under the minimum field)
 *     ─ fees to the operator, random draw of tables and seats (R-RANDSEAT), the operator's clock starts
 *   every hand ─ on `Table`s in tournament mode: the level at its start (T 6-1), absent players dealt in
 *     and blinded (T 2-15), one POJEU with the tournament's Tech and inscriptions
 *   between hands ─ eliminations ranked (R-ELIM, T 8-16), prizes paid as they are won (POBILAN), tables
 *     broken (T 6-6) and balanced (T 6-8 to 6-11), hand-for-hand on the bubble, breaks all together
 *   the end ─ one player holds every chip (T 1-5): first prize, the fund is empty.
 *
 * Money: the tournament's fund is a `table_funds` row of the wallet (`tournament:<id>`), so the entries
 * move by the ledger like any buy-in: wallets + tables + tournaments + fees + rake = money in
 * (`tournamentAudit`). Entries are `buy-in` rows into the fund, refunds and prizes `cash-out` rows out
 * of it, the fees a `rake` row from it to the operator. Chips are the tournament's, not money: its
 * tables hold no money (their `TableMoney` is the tournament's chip bank).
 */
import { randomBytes } from 'node:crypto';
import {
  clockAt,
  drawSeats,
  fieldMoves,
  handForHand,
  payoutTable,
  prizePool,
  prizes as prizesOf,
  registrationOpen,
  sharedPrizes,
  tableRulesAt,
} from '../../shared/rules/tournament';
import type { Db } from '../db';
import { playerRecord } from '../tables/cash';
import { secureRandomInt, type RandomInt } from '../tables/deck';
import { Table, type TableOptions } from '../tables/table';
import type { TimerHandle, Timers } from '../tables/timers';
import type { Brain, MoneyResult, TableHooks, TablePlayer, TableRefusal, TableSpec } from '../tables/types';
import type { Movement, PojeuData } from '../trace/records';
import type { TraceOutbox } from '../trace/outbox';
import { walletMovement, type Wallet } from '../wallet';
import { formatCode, tournamentVersion, validateTournamentSpec, type TournamentSpec } from './spec';

export interface TournamentDeps {
  wallet: Wallet;
  /** The operator database: a money movement and its trace record commit together (issue 12 item 5). */
  db: Db;
  outbox: TraceOutbox;
  timers: Timers;
  idOper: string;
  /** Seats and tables drawn (R-RANDSEAT): the CSPRNG, or a seeded one in tests. */
  random?: RandomInt;
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper' | 'random'>>;
  error: (e: unknown) => void;
  log?: (line: string) => void;
  /** What players are told (the protocol layer): seats, moves, eliminations, the end. */
  notify?: (n: TournamentNotice) => void;
}

export type TournamentState = 'registering' | 'running' | 'finished' | 'cancelled';

/** What the tournament tells its players (shared/protocol/tournament.ts carries them). */
export type TournamentNotice =
  | { type: 'state'; tournamentId: string; state: TournamentState }
  | { type: 'seated'; tournamentId: string; accountId: number; tableId: string; seat: number; moved: boolean }
  | { type: 'finished'; tournamentId: string; accountId: number; place: number; prize: number }
  | { type: 'clock'; tournamentId: string; level: number; onBreak: boolean };

export interface Entrant {
  player: TablePlayer;
  brain: Brain | null;
  /** The POINSCRIT's Inscription (A 1.3.6.b): one per registration. */
  inscription: string;
  /** Chips: the last settled stack (at a table: at the start of the hand in play). */
  stack: number;
  table: Table | null;
  /** Eliminated (or, before the start, never). */
  out: boolean;
  /** Final place, 1 = the winner (null while playing, or until late registration closes). */
  place: number | null;
  prize: number | null;
  /** Left after the start: sat out for good, blinded away (R-TOURN-LEAVE, T 2-15). */
  forfeited: boolean;
}

export type Refusal = TableRefusal;
const refusal = (code: Refusal['code'], message: string, rule?: string): Refusal => ({ ok: false, code, message, ...(rule ? { rule } : {}) });

/** Balancing at 2 players' difference once this few tables remain (T 6-8: "un nombre prédéfini de tables"). */
export const LATE_TABLES = 3;

export class Tournament {
  readonly spec: TournamentSpec;
  readonly version: string;
  readonly fundId: string;
  state: TournamentState = 'registering';
  private readonly entrants = new Map<number, Entrant>();
  private readonly order: Entrant[] = [];
  /** Busted groups in the order they went out, the worst first (places are counted from the last). */
  private readonly busted: Entrant[][] = [];
  private readonly tables = new Map<number, Table>();
  private readonly tableNo = new Map<Table, number>();
  private startedAt: number | null = null;
  private registrationClosed = false;
  private prizeList: number[] = [];
  private startTimer: TimerHandle | null = null;
  private clockTimer: TimerHandle | null = null;
  /** Hand-for-hand (R-TOURN-RUN): the tables that may deal one hand in this round. */
  private released = new Set<Table>();
  private readonly random: RandomInt;
  private moving = false;
  /** Tables are being filled at the start: no hand is dealt until everyone is seated. */
  private seating = false;

  constructor(
    spec: TournamentSpec,
    private readonly deps: TournamentDeps,
  ) {
    const check = validateTournamentSpec(spec);
    if (!check.ok) throw new RangeError(`tournament ${String(spec?.id)}: ${check.field}: ${check.reason}`);
    this.spec = spec;
    this.version = tournamentVersion(spec);
    this.fundId = `tournament:${spec.id}`;
    this.random = deps.random ?? secureRandomInt;
    const opened = deps.wallet.openTable(this.fundId, spec.money);
    if (!opened.ok) throw new Error(`${this.fundId}: ${opened.code}: ${opened.message}`);
    if (spec.format === 'scheduled') {
      this.startTimer = deps.timers.set(() => this.guard(() => this.start()), Math.max(0, spec.startAt! - deps.timers.now()));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  get entries(): number {
    return this.order.length;
  }

  /** Players still in (registered, not eliminated). */
  get remaining(): number {
    return this.order.filter((e) => !e.out).length;
  }

  entrant(accountId: number): Entrant | undefined {
    return this.entrants.get(accountId);
  }

  all(): readonly Entrant[] {
    return this.order;
  }

  liveTables(): Table[] {
    return [...this.tables.values()];
  }

  /** The prize pool as it stands (entries' buy-ins). */
  pool(): number {
    return prizePool({ entries: this.order.length, buyIn: this.spec.buyIn }).pool;
  }

  /** Prizes by place, best first (known once registration has closed; before, for the field as it is). */
  prizes(): number[] {
    return this.registrationClosed ? this.prizeList.slice() : prizesOf(this.pool(), payoutTable(this.order.length));
  }

  /** Milliseconds since the start (null before). */
  elapsed(): number | null {
    return this.startedAt === null ? null : this.deps.timers.now() - this.startedAt;
  }

  /** Σ chips of the players still in: always entries × starting stack (R-CONSERVE; no rebuys yet). */
  chipsInPlay(): number {
    let n = 0;
    for (const e of this.order) if (!e.out) n += e.table ? (e.table.players().find((p) => p.accountId === e.player.accountId)?.stack ?? 0) : e.stack;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Registration (R-TOURN-LEAVE, R-NODEBT, R-INFO)

  /**
   * Registers a player who confirmed the tournament's information at `version` (R-INFO): the entry
   * (buy-in + fee) moves from their wallet to the tournament's fund with its POINSCRIT, in one step.
   * `brain`: a practice player of the operator (play money only).
   */
  register(player: TablePlayer, version: string, opts: { brain?: Brain } = {}): { ok: true; inscription: string } | Refusal {
    if (version !== this.version) return refusal('RULES_CHANGED', 'the tournament changed since it was shown: read it again', 'R-INFO');
    if (player.practice && this.spec.money !== 'play') throw new Error(`practice players never enter ${this.spec.id}`);
    const late = this.state === 'running' && !this.registrationClosed && registrationOpen(this.spec.structure, this.elapsed());
    if (this.state !== 'registering' && !late) return refusal('REGISTRATION_CLOSED', 'registration is closed', 'R-TOURN-FORMATS');
    if (this.entrants.has(player.accountId)) return refusal('ALREADY_REGISTERED', 'you are registered already');
    if (this.order.length >= this.spec.maxEntrants) return refusal('TOURNAMENT_FULL', 'the tournament is full');
    const inscription = `${this.spec.id}.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}`;
    const entry = this.spec.buyIn + this.spec.fee;
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.moveMoney(player, entry, 'in', `t-entry:${inscription}`);
        if (!r.ok) return r;
        this.deps.outbox.put({
          kind: 'POINSCRIT',
          ...this.record(player, inscription, r.movement, false),
          description: this.description(),
          format: formatCode(this.spec),
        });
        // A late entry's fee goes to the operator at once (the others' at the start).
        if (late && this.spec.fee > 0) this.collectFee(this.spec.fee, `t-fee:${inscription}`);
        return r;
      });
    } catch (e) {
      this.deps.error(e);
      return refusal('INTERNAL', 'the operator could not record the registration; nothing was taken');
    }
    if (!paid.ok) return paid;
    const e: Entrant = { player, brain: opts.brain ?? null, inscription, stack: this.spec.structure.startingStack, table: null, out: false, place: null, prize: null, forfeited: false };
    this.entrants.set(player.accountId, e);
    this.order.push(e);
    if (late) this.seatLate(e);
    else if (this.spec.format === 'sit-and-go' && this.order.length === this.spec.maxEntrants) this.guard(() => this.start());
    return { ok: true, inscription };
  }

  /**
   * Before the start: the whole entry back (buy-in + fee), POANNUL (R-TOURN-LEAVE). After it, leaving
   * forfeits the entry (D art. 1 II 2°): the player is sat out for good, dealt in and blinded away
   * (T 2-15), and keeps whatever place that earns.
   */
  unregister(accountId: number): { ok: true; refunded: number | null } | Refusal {
    const e = this.entrants.get(accountId);
    if (!e || e.out) return refusal('NOT_REGISTERED', 'you are not registered');
    if (this.state === 'registering') {
      const refunded = this.refund(e, 'Désinscription avant le début du tournoi (remboursement intégral)', false);
      if (!refunded.ok) return refunded;
      this.entrants.delete(accountId);
      this.order.splice(this.order.indexOf(e), 1);
      return { ok: true, refunded: refunded.amount };
    }
    if (this.state !== 'running') return refusal('REGISTRATION_CLOSED', 'the tournament is over');
    e.forfeited = true;
    e.table?.sitOut(accountId);
    return { ok: true, refunded: null };
  }

  /** A forfeited or timed-out player comes back (they are still in: T 2-15). */
  sitIn(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    if (!e || e.out || !e.table) return refusal('NOT_REGISTERED', 'you are not playing in this tournament');
    e.forfeited = false;
    return e.table.sitIn(accountId, false);
  }

  // ---------------------------------------------------------------------------------------------
  // The start

  /** Starts (sit & go: full; scheduled: its time), or cancels under the minimum field. */
  start(): void {
    if (this.state !== 'registering') return;
    this.deps.timers.clear(this.startTimer);
    this.startTimer = null;
    if (this.order.length < this.spec.minEntrants) {
      this.cancel(`Tournoi annulé : ${this.order.length} inscrits, moins que le minimum de ${this.spec.minEntrants}`);
      return;
    }
    if (this.spec.fee > 0) this.step(() => this.collectFee(this.spec.fee * this.order.length, `t-fees:${this.spec.id}`));
    this.state = 'running';
    this.startedAt = this.deps.timers.now();
    if (!registrationOpen(this.spec.structure, 0)) this.closeRegistration();
    // R-RANDSEAT: every player at a random table and seat, the tables as even as can be.
    const places = drawSeats(this.order.length, this.spec.seats, this.random);
    const count = places.reduce((a, [t]) => Math.max(a, t + 1), 0);
    this.seating = true;
    try {
      for (let t = 0; t < count; t++) this.openTable(t + 1);
      this.order.forEach((e, i) => {
        const [t, seat] = places[i];
        if (!this.seat(e, this.tables.get(t + 1)!, seat, false)) this.seatLate(e);
      });
    } finally {
      this.seating = false;
    }
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'running' });
    this.scheduleClock();
    this.releaseAll();
  }

  /** Cancelled before its start: every entry refunded whole, with a POANNUL (A 1.3.6.c.6). */
  cancel(motif: string): void {
    if (this.state !== 'registering') throw new Error(`${this.spec.id}: only a tournament not started is cancelled`);
    this.deps.timers.clear(this.startTimer);
    this.startTimer = null;
    for (const e of [...this.order]) {
      const r = this.refund(e, motif, true);
      if (!r.ok) throw new Error(`${this.spec.id}: refund of ${e.player.name} refused: ${r.code} ${r.message}`);
    }
    this.state = 'cancelled';
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'cancelled' });
  }

  // ---------------------------------------------------------------------------------------------
  // Tables

  private openTable(no: number): Table {
    const tableId = `${this.spec.id}-t${no}`;
    const spec: TableSpec = {
      tableId,
      name: `${this.spec.name}, table ${no}`,
      // Tournament chips are not money: the tables hold none (the tournament's fund does).
      money: 'play',
      practice: this.spec.money === 'play',
      rules: tableRulesAt(this.spec.variant, this.spec.structure, 0),
      seats: this.spec.seats,
      buyIn: { min: 1, max: Number.MAX_SAFE_INTEGER },
      mode: 'tournament',
    };
    let table: Table | null = null;
    const entrantOf = (p: TablePlayer): Entrant => {
      const e = this.entrants.get(p.accountId);
      if (!e) throw new Error(`${tableId}: ${p.name} is not in ${this.spec.id}`);
      return e;
    };
    const chips = (amount: number): MoneyResult => ({ ok: true, movement: { avant: amount, mouvement: amount, apres: amount } });
    const hooks: TableHooks = {
      money: {
        // The tournament's chip bank: a player brings their stack to the table and takes it away when moved.
        buyIn: (p, amount) => {
          const e = entrantOf(p);
          if (e.stack !== amount) throw new Error(`${tableId}: ${p.name} brings ${amount}, holds ${e.stack}`);
          e.table = table;
          return chips(amount);
        },
        topUp: () => ({ ok: false, code: 'BUY_IN_RANGE', message: 'no chips are bought at a tournament table' }),
        cashOut: (p, amount) => {
          const e = entrantOf(p);
          e.stack = amount;
          e.table = null;
          return chips(amount);
        },
        handStarted: () => undefined,
        settle: (_handId, _rake, stacks) => {
          for (const s of stacks) {
            const e = this.entrants.get(s.accountId);
            if (e) e.stack = s.stack;
          }
        },
        handCancelled: () => undefined,
        participationClosed: () => undefined,
      },
      trace: {
        // POINSCRIT and POBILAN are the tournament's (registration, elimination), not each table's.
        joined: () => undefined,
        purchased: () => undefined,
        left: () => undefined,
        hand: (data) => this.deps.outbox.put(this.pojeu(data)),
      },
      step: (fn) => this.step(fn),
      rulesForNextHand: () => tableRulesAt(this.spec.variant, this.spec.structure, clockAt(this.spec.structure, this.elapsed() ?? 0).level),
      mayDeal: () => this.mayDeal(table!),
      eliminated: (_handId, groups) => this.eliminated(groups),
      afterHand: () => this.guard(() => this.afterHand()),
      error: this.deps.error,
      voided: (v) => this.deps.log?.(`${tableId}: hand ${v.pool} voided (${v.reason}): stakes back on the caves`),
    };
    table = new Table(spec, hooks, { betweenHandsMs: 1500, ...this.deps.table, timers: this.deps.timers, idOper: this.deps.idOper, random: this.random });
    this.tables.set(no, table);
    this.tableNo.set(table, no);
    return table;
  }

  /** Seats a player with their stack at `table` (a seat the tournament chose, or drawn there). */
  private seat(e: Entrant, table: Table, seat: number | undefined, moved: boolean): boolean {
    const r = table.join(e.player, e.stack, { waitForBigBlind: false, brain: e.brain ?? undefined, seat });
    if (!r.ok) return false;
    if (e.forfeited) table.sitOut(e.player.accountId);
    this.notify({ type: 'seated', tournamentId: this.spec.id, accountId: e.player.accountId, tableId: table.tableId, seat: r.seat, moved });
    return true;
  }

  /** A late entry: at the table with the most free seats, or a new table (issue 16 item 4). */
  private seatLate(e: Entrant): void {
    const open = this.liveTables().filter((t) => t.seatsTaken < this.spec.seats).sort((a, b) => a.seatsTaken - b.seatsTaken);
    for (const t of open) if (this.seat(e, t, undefined, false)) return this.afterSeating();
    const no = Math.max(0, ...this.tables.keys()) + 1;
    this.seat(e, this.openTable(no), undefined, false);
    this.afterSeating();
  }

  /** After players were seated or moved: the field rebalanced, idle tables given their next hand. */
  private afterSeating(): void {
    this.rebalance();
    this.pokeAll();
  }

  private mayDeal(table: Table): boolean {
    if (this.state !== 'running' || this.seating) return false;
    if (clockAt(this.spec.structure, this.elapsed() ?? 0).onBreak) return false;
    if (!this.handForHand()) return true;
    // Hand-for-hand: one hand per table per round, the next round once every table has finished.
    if (!this.released.has(table)) return false;
    this.released.delete(table);
    return true;
  }

  /** The field is final (late registration over): the payouts are fixed. */
  get fieldFinal(): boolean {
    return this.registrationClosed;
  }

  /** Hand-for-hand play is on (R-TOURN-RUN). */
  get inHandForHand(): boolean {
    return this.handForHand();
  }

  private handForHand(): boolean {
    return this.registrationClosed && handForHand(this.remaining, this.prizeList.length, this.tables.size);
  }

  /** Every table that can play is released (a new hand-for-hand round) and dealt to. */
  private releaseAll(): void {
    this.released = new Set(this.liveTables().filter((t) => t.seatsTaken >= 2));
    this.pokeAll();
  }

  private pokeAll(): void {
    for (const t of this.liveTables()) t.dealWhenReady();
  }

  /** A table finished a hand: eliminations are ranked already; the field is rebalanced. */
  private afterHand(): void {
    if (this.state !== 'running') return;
    this.rebalance();
    if (this.handForHand()) {
      // The next round when every table has finished its hand and used its turn (nobody gains by stalling).
      if (this.released.size === 0 && this.liveTables().every((t) => !t.handInProgress)) this.releaseAll();
    } else {
      this.released.clear();
      this.pokeAll();
    }
  }

  /**
   * Tables broken and balanced between hands (T 6-6 to 6-11, field.ts): a move out of a table happens
   * when it is between hands; a table in a hand gives its player at the end of it. The player moved
   * to balance is the next big blind (T 6-9), sitting in the worst free position (T 6-10); a broken
   * table's players sit where the draw puts them (T 6-11).
   */
  private rebalance(): void {
    if (this.moving || this.state !== 'running') return;
    this.moving = true;
    try {
      for (let guard = 0; guard < this.spec.seats * 4; guard++) {
        const field = this.liveTables().map((t) => ({ table: this.tableNo.get(t)!, players: t.seatsTaken, seats: this.spec.seats }));
        const moves = fieldMoves(field, { late: field.length <= LATE_TABLES });
        const move = moves.find((m) => !this.tables.get(m.from)!.handInProgress);
        if (!move) break;
        const from = this.tables.get(move.from)!;
        const to = this.tables.get(move.to)!;
        const who = move.why === 'balance' ? from.balancing().moveOut : (from.players()[0]?.accountId ?? null);
        if (who === null) break;
        const e = this.entrants.get(who)!;
        const seatIn = move.why === 'balance' ? (to.balancing().seatIn ?? undefined) : undefined;
        const left = from.leave(who, 'operator');
        if (!left.ok) throw new Error(`${from.tableId}: ${e.player.name} could not be moved: ${left.code}`);
        // R-NOBOT may refuse a table (one address per table): the next table with a free seat, else back.
        const targets = [to, ...this.liveTables().filter((t) => t !== to && t !== from && t.seatsTaken < this.spec.seats), from];
        if (!targets.some((t) => this.seat(e, t, t === to ? seatIn : undefined, t !== from))) throw new Error(`${this.spec.id}: ${e.player.name} could not be seated anywhere`);
        if (from.seatsTaken === 0) this.closeTable(from);
      }
    } finally {
      this.moving = false;
    }
  }

  private closeTable(t: Table): void {
    const no = this.tableNo.get(t)!;
    this.tables.delete(no);
    this.tableNo.delete(t);
    this.released.delete(t);
    t.close();
  }

  // ---------------------------------------------------------------------------------------------
  // The clock (R-TOURN-RUN: the operator's clock drives levels and breaks)

  private scheduleClock(): void {
    const c = clockAt(this.spec.structure, this.elapsed() ?? 0);
    if (c.msToNext === null) return;
    this.clockTimer = this.deps.timers.set(() => this.guard(() => this.tick()), c.msToNext);
  }

  private tick(): void {
    this.clockTimer = null;
    if (this.state !== 'running') return;
    const c = clockAt(this.spec.structure, this.elapsed() ?? 0);
    this.notify({ type: 'clock', tournamentId: this.spec.id, level: c.level, onBreak: c.onBreak });
    if (!this.registrationClosed && !registrationOpen(this.spec.structure, this.elapsed())) this.closeRegistration();
    this.scheduleClock();
    // A break's end: every table deals again (a level change needs nothing: it applies from the next hand, T 6-1).
    if (this.state === 'running' && !c.onBreak) this.afterHand();
  }

  /** The field is final: the payouts are fixed and the places of players already out are known. */
  private closeRegistration(): void {
    this.registrationClosed = true;
    this.prizeList = prizesOf(this.pool(), payoutTable(this.order.length));
    this.placeBusted();
    this.maybeFinish();
  }

  // ---------------------------------------------------------------------------------------------
  // Eliminations and prizes (R-ELIM, T 8-16; R-TOURN-RUN)

  /** Groups of one hand at one table, best first, tied players together (shared/rules/table elimination). */
  private eliminated(groups: { accountId: number; stackAtStart: number }[][]): void {
    for (const g of [...groups].reverse()) {
      const out = g.map((x) => this.entrants.get(x.accountId)!).filter((e) => e && !e.out);
      for (const e of out) {
        e.out = true;
        e.table = null;
        e.stack = 0;
      }
      if (out.length > 0) this.busted.push(out);
    }
    if (this.registrationClosed) this.placeBusted();
    this.maybeFinish();
  }

  /**
   * Places of the busted groups not placed yet: counted from the last place (the first out is last);
   * tied players share the places they cover and their prizes (sharedPrizes: the units left one each
   * in the order given). Each prize is paid at once with the player's POBILAN.
   */
  private placeBusted(): void {
    let before = 0;
    for (const g of this.busted) {
      const first = this.order.length - before - g.length + 1;
      before += g.length;
      if (g[0].place !== null) continue;
      const shares = sharedPrizes(this.prizeList, first - 1, g.length);
      g.forEach((e, i) => this.pay(e, first, shares[i]));
    }
  }

  private maybeFinish(): void {
    if (this.state !== 'running' || !this.registrationClosed) return;
    const alive = this.order.filter((e) => !e.out);
    if (alive.length > 1) return;
    this.state = 'finished';
    this.deps.timers.clear(this.clockTimer);
    this.clockTimer = null;
    const winner = alive[0];
    // The last table closes first (the winner's chips back to the bank), then the first prize.
    for (const t of this.liveTables()) this.closeTable(t);
    if (winner) {
      winner.out = true;
      this.pay(winner, 1, this.prizeList[0] ?? 0);
    }
    const left = this.deps.wallet.tableHeld(this.fundId)?.held ?? 0;
    if (left !== 0) this.deps.error(new Error(`${this.spec.id}: the fund holds ${left} after the last prize`));
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'finished' });
  }

  /** The player's place and prize: the prize from the fund to the wallet with the POBILAN, in one step. */
  private pay(e: Entrant, place: number, prize: number): void {
    this.step(() => {
      const r = this.moveMoney(e.player, prize, 'out', `t-prize:${e.inscription}`);
      if (!r.ok) throw new Error(`${this.spec.id}: prize of ${e.player.name} refused: ${r.code} ${r.message}`);
      this.deps.outbox.put({ kind: 'POBILAN', ...this.record(e.player, e.inscription, r.movement, e.forfeited || e.brain !== null) });
    });
    e.place = place;
    e.prize = prize;
    this.notify({ type: 'finished', tournamentId: this.spec.id, accountId: e.player.accountId, place, prize });
  }

  // ---------------------------------------------------------------------------------------------
  // Money and records

  /** Money between the player's wallet and the fund (`in`: an entry; `out`: a refund or prize); 0 moves nothing. */
  private moveMoney(p: TablePlayer, amount: number, way: 'in' | 'out', key: string): MoneyResult {
    const w = this.deps.wallet;
    if (amount === 0) {
      const b = w.balance(p.accountId, this.spec.money);
      return { ok: true, movement: { avant: b, mouvement: 0, apres: b } };
    }
    const r = way === 'in' ? w.buyIn(p.accountId, this.fundId, amount, { idempotencyKey: key }) : w.cashOut(p.accountId, this.fundId, amount, { idempotencyKey: key });
    if (r.ok) return { ok: true, movement: walletMovement(r.entry)! };
    if (r.code === 'INSUFFICIENT_FUNDS') return { ok: false, code: 'INSUFFICIENT_FUNDS', message: r.message, rule: 'R-NODEBT' };
    if (r.code === 'GUEST_REAL_MONEY') return { ok: false, code: 'REAL_MONEY_FORBIDDEN', message: r.message };
    return { ok: false, code: 'INTERNAL', message: `${r.code}: ${r.message}` };
  }

  private collectFee(amount: number, key: string): void {
    const r = this.deps.wallet.collectRake(this.fundId, amount, { idempotencyKey: key, handId: key });
    if (!r.ok) throw new Error(`${this.spec.id}: fees refused: ${r.code} ${r.message}`);
  }

  private refund(e: Entrant, motif: string, byOperator: boolean): { ok: true; amount: number } | Refusal {
    const amount = this.spec.buyIn + this.spec.fee;
    let r: MoneyResult;
    try {
      r = this.step(() => {
        const m = this.moveMoney(e.player, amount, 'out', `t-refund:${e.inscription}`);
        if (m.ok) this.deps.outbox.put({ kind: 'POANNUL', ...this.record(e.player, e.inscription, m.movement, byOperator || e.brain !== null), motif });
        return m;
      });
    } catch (x) {
      this.deps.error(x);
      return refusal('INTERNAL', 'the operator could not record the refund; nothing moved');
    }
    return r.ok ? { ok: true, amount } : r;
  }

  private record(p: TablePlayer, inscription: string, movement: Movement, supervision: boolean) {
    return playerRecord(p, inscription, this.spec.id, this.spec.money, movement, { supervision });
  }

  private description(): string {
    const unit = this.spec.money === 'real' ? (n: number) => `${(n / 100).toFixed(2)} EUR` : (n: number) => `${n} jetons fictifs`;
    return `${this.spec.name}: tournoi ${this.spec.variant}, droit d'entrée ${unit(this.spec.buyIn)} + frais ${unit(this.spec.fee)}`;
  }

  /** A table's POJEU as the tournament's (A 1.3.6.b): its Tech, the players' tournament inscriptions, chips (scale 0). */
  private pojeu(d: PojeuData): PojeuData {
    const test = this.spec.money === 'play';
    return {
      ...d,
      tech: this.spec.id,
      description: `${this.spec.name}: ${d.description}`,
      scale: 0,
      ...(test ? { test: true } : { test: undefined }),
      participants: d.participants.map((p) => ({ ...p, inscription: this.entrants.get(Number(p.idJoueur))?.inscription ?? p.inscription })),
    };
  }

  /** A money movement and its record as one durable step; the vault gets the records once it commits. */
  private step<T>(fn: () => T): T {
    const r = this.deps.db.transaction(fn).immediate();
    if (!this.deps.db.inTransaction) this.deps.outbox.flushSoon();
    return r;
  }

  private notify(n: TournamentNotice): void {
    if (!this.deps.notify) return;
    try {
      this.deps.notify(n);
    } catch (e) {
      this.deps.error(e);
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.deps.error(e);
    }
  }

  /** Stops the tournament's timers (the operator closing); its tables close with it. */
  close(): void {
    this.deps.timers.clear(this.startTimer);
    this.deps.timers.clear(this.clockTimer);
    for (const t of this.liveTables()) t.close();
  }
}
