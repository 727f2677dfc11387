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
  bountyShares,
  clockAt,
  drawSeats,
  fieldMoves,
  handForHand,
  mayAddOn,
  mayRebuy,
  payoutTable,
  prizePool,
  prizes as prizesOf,
  registrationOpen,
  satellitePrizes,
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
import type { SavedTournament, TournamentStore } from './store';

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
  /** The operator's other tournaments: a satellite's seats are entries in its target (T 1-5). */
  directory?: (id: string) => Tournament | undefined;
  /** Where the tournament's state is kept, in the steps that change it (crash safety, issue 16 item 7). */
  store?: TournamentStore;
  /** A practice player's brain, for practice entrants restored after a restart. */
  brain?: () => Brain;
  /**
   * Effective playing time (R-TIMELIMIT, decree 2010-518 art. 16-1; protection/watch.ts): real-money
   * tournament tables count it like cash tables, but at the limit the player finishes the tournament
   * (no entry to another: the wallet's stake check refuses it).
   */
  playtime?: { handDealt(accountId: number, tableId: string): void; left(accountId: number, tableId: string): void };
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
  rebuys: number;
  addOn: boolean;
  reEntries: number;
  /** The bounty on the player's head (money in the fund), paid to who eliminates them. */
  bounty: number;
  /** Chips bought (rebuy, add-on) not yet at the table (the hand in play ends first). */
  pendingChips: number;
  /** A practice player: rebuys when busted and takes the add-on while it may. */
  autoRebuy: boolean;
  /** Registration order (kept across restarts). */
  n: number;
  /** The busted group the player is in (its number in the order of eliminations), null while in. */
  bust: number | null;
}

/** An entrant as saved (store.ts): the table by its number, the seat in it. */
interface SavedEntrant extends Omit<Entrant, 'brain' | 'table'> {
  brain: boolean;
  table: number | null;
  seat: number | null;
}

/** The tournament's own state as saved; `elapsed`: the clock at the save (restored on restart). */
interface SavedState {
  elapsed: number | null;
  poolFinal: boolean;
  entryCount: number;
  rebuyCount: number;
  addOnCount: number;
  paidFromPool: number;
  /** Busted groups numbered so far (each entrant keeps its group's number: saved with the entrant). */
  bustSeq: number;
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
  /** Hands settled at its tables (this process). */
  handsPlayed = 0;
  private readonly entrants = new Map<number, Entrant>();
  private readonly order: Entrant[] = [];
  /** Busted groups in the order they went out, the worst first (places are counted from the last). */
  private readonly busted: Entrant[][] = [];
  private bustSeq = 0;
  private readonly tables = new Map<number, Table>();
  private readonly tableNo = new Map<Table, number>();
  private startedAt: number | null = null;
  private poolFinal = false;
  private prizeList: number[] = [];
  private startTimer: TimerHandle | null = null;
  private clockTimer: TimerHandle | null = null;
  /** Hand-for-hand (R-TOURN-RUN): the tables that may deal one hand in this round. */
  private released = new Set<Table>();
  private readonly random: RandomInt;
  private moving = false;
  private finishing = false;
  private entryCount = 0;
  private rebuyCount = 0;
  private addOnCount = 0;
  /** Prizes paid from the entries (the rest of a guarantee is the overlay). */
  private paidFromPool = 0;
  /** Players back in (chips bought as they busted) waiting for a seat, seated between hands. */
  private comebacks: Entrant[] = [];
  /** Entrants changed since the last save, and those gone (unregistered before the start). */
  private readonly dirty = new Set<Entrant>();
  private readonly dropped: number[] = [];
  private registered = 0;
  private outCount = 0;
  /** Table sizes changed since the last rebalance (or a move waits for a table's hand to end). */
  private fieldDirty = false;
  private wasHandForHand = false;
  /** Busted groups already given their places, and the players in them. */
  private placedGroups = 0;
  private placedPlayers = 0;
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

  /**
   * A tournament found unfinished in the store after the operator stopped without closing it (a
   * crash): as of its last saved step. A hand that was in play is void: its players' chips are those
   * of the last settled hand (every bet back; T 1-5's chips conserved), it left no POJEU. A running
   * tournament's tables open again with their players in their seats (the button is drawn anew), and
   * the clock goes on from where the last save left it (issue 16 item 7).
   */
  static restore(saved: SavedTournament, deps: TournamentDeps): Tournament {
    const t = new Tournament(saved.spec, deps);
    const st = JSON.parse(saved.data) as SavedState;
    const rows = saved.entrants.map((d) => JSON.parse(d) as SavedEntrant).sort((a, b) => a.n - b.n);
    const seats = new Map<Entrant, { table: number | null; seat: number | null }>();
    for (const r of rows) {
      const e: Entrant = { ...r, brain: r.brain ? (deps.brain?.() ?? null) : null, table: null };
      t.entrants.set(e.player.accountId, e);
      t.order.push(e);
      seats.set(e, { table: r.table, seat: r.seat });
      t.registered = Math.max(t.registered, e.n + 1);
      if (e.out) t.outCount++;
    }
    t.poolFinal = st.poolFinal;
    t.entryCount = st.entryCount;
    t.rebuyCount = st.rebuyCount;
    t.addOnCount = st.addOnCount;
    t.paidFromPool = st.paidFromPool;
    // The prizes follow from the counts and the field (payouts.ts): not saved with every hand.
    if (t.poolFinal) t.prizeList = t.prizeTable();
    t.bustSeq = st.bustSeq;
    const groups = new Map<number, Entrant[]>();
    for (const e of t.order) if (e.bust !== null) groups.set(e.bust, [...(groups.get(e.bust) ?? []), e]);
    for (const k of [...groups.keys()].sort((a, b) => a - b)) t.busted.push(groups.get(k)!);
    if (saved.state !== 'running') return t;
    deps.timers.clear(t.startTimer);
    t.startTimer = null;
    t.state = 'running';
    t.startedAt = deps.timers.now() - (st.elapsed ?? 0);
    t.seating = true;
    try {
      const alive = t.order.filter((e) => !e.out);
      const tables = [...new Set(alive.map((e) => seats.get(e)!.table).filter((x): x is number => x !== null))].sort((a, b) => a - b);
      for (const no of tables) t.openTable(no);
      const loose: Entrant[] = [];
      for (const e of alive) {
        const at = seats.get(e)!;
        const table = at.table === null ? undefined : t.tables.get(at.table);
        // Chips bought but not yet at the table are added to the stack the player sits with.
        e.stack += e.pendingChips;
        e.pendingChips = 0;
        if (!table || !t.seat(e, table, at.seat ?? undefined, false)) loose.push(e);
      }
      for (const e of loose) t.seatLate(e);
      for (const e of alive) t.dirty.add(e);
    } finally {
      t.seating = false;
    }
    t.save();
    t.scheduleClock();
    t.releaseAll();
    if (!t.poolFinal && !t.fieldOpen()) t.closeRegistration();
    // Stopped between its last prizes and its end: it ends now.
    t.maybeFinish();
    return t;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** Players registered (one place each). */
  get entries(): number {
    return this.order.length;
  }

  /** Entries bought: registrations and re-entries (the pool's count). */
  get entryTotal(): number {
    return this.entryCount;
  }

  /** Players still in (registered, not eliminated). */
  get remaining(): number {
    return this.order.length - this.outCount;
  }

  /** In or out (counted, so that `remaining` costs nothing per hand: a 10,000-player field). */
  private setOut(e: Entrant, out: boolean): void {
    if (e.out !== out) this.outCount += out ? 1 : -1;
    e.out = out;
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

  /** The prize pool as it stands: entries' buy-ins less bounties, rebuys, add-ons; at least the guarantee. */
  pool(): number {
    return this.poolParts().pool;
  }

  private poolParts() {
    const s = this.spec.structure;
    return prizePool({
      entries: this.entryCount,
      buyIn: this.spec.buyIn,
      bounty: this.spec.bounty,
      rebuys: this.rebuyCount,
      rebuyPrice: s.rebuy?.price,
      addOns: this.addOnCount,
      addOnPrice: s.addOn?.price,
      guarantee: this.spec.guarantee,
    });
  }

  /** Prizes by place, best first (fixed once the field and pool are final; before, for the field as it is). */
  prizes(): number[] {
    return this.poolFinal ? this.prizeList.slice() : this.prizeTable();
  }

  /**
   * Places are paid from the payout table (payouts.ts) by the number of players (re-entries add to
   * the pool, not to the places); a satellite pays seats in its target, the rest in cash to the next
   * place (T 1-5).
   */
  private prizeTable(): number[] {
    const pool = this.pool();
    if (this.spec.satellite) {
      const { seats, cash } = satellitePrizes(pool, this.spec.satellite.seatValue);
      const list = [...new Array<number>(seats).fill(this.spec.satellite.seatValue), ...(cash > 0 ? [cash] : [])];
      return list.length > 0 ? list : [pool];
    }
    return prizesOf(pool, payoutTable(this.order.length));
  }

  /** Seats won in a satellite (0 for other tournaments). */
  private seatsWon(): number {
    return this.spec.satellite ? Math.floor(this.pool() / this.spec.satellite.seatValue) : 0;
  }

  /** Chips given out: entries' stacks, rebuys and add-ons (R-CONSERVE: the players in hold exactly these). */
  chipsIssued(): number {
    const s = this.spec.structure;
    return this.entryCount * s.startingStack + this.rebuyCount * (s.rebuy?.chips ?? 0) + this.addOnCount * (s.addOn?.chips ?? 0);
  }

  /** Milliseconds since the start (null before). */
  elapsed(): number | null {
    return this.startedAt === null ? null : this.deps.timers.now() - this.startedAt;
  }

  /** Σ chips of the players still in: always entries × starting stack (R-CONSERVE; no rebuys yet). */
  chipsInPlay(): number {
    let n = 0;
    for (const e of this.order) {
      if (e.out) continue;
      n += (e.table ? (e.table.players().find((p) => p.accountId === e.player.accountId)?.stack ?? 0) : e.stack) + e.pendingChips;
    }
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Registration (R-TOURN-LEAVE, R-NODEBT, R-INFO)

  /**
   * Registers a player who confirmed the tournament's information at `version` (R-INFO): the entry
   * (buy-in + fee) moves from their wallet to the tournament's fund with its POINSCRIT, in one step.
   * `brain`: a practice player of the operator (play money only).
   */
  register(player: TablePlayer, version: string, opts: { brain?: Brain; autoRebuy?: boolean } = {}): { ok: true; inscription: string } | Refusal {
    if (version !== this.version) return refusal('RULES_CHANGED', 'the tournament changed since it was shown: read it again', 'R-INFO');
    const known = this.entrants.get(player.accountId);
    // A busted player registering again within late registration re-enters (issue 16 item 3).
    if (known && known.out && known.place === null && this.state === 'running') return this.reEnter(known);
    if (player.practice && this.spec.money !== 'play') throw new Error(`practice players never enter ${this.spec.id}`);
    const late = this.state === 'running' && !this.poolFinal && registrationOpen(this.spec.structure, this.elapsed());
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
    const e: Entrant = {
      player,
      brain: opts.brain ?? null,
      inscription,
      stack: this.spec.structure.startingStack,
      table: null,
      out: false,
      place: null,
      prize: null,
      forfeited: false,
      rebuys: 0,
      addOn: false,
      reEntries: 0,
      bounty: this.spec.bounty ?? 0,
      pendingChips: 0,
      autoRebuy: opts.autoRebuy ?? false,
      n: this.registered++,
      bust: null,
    };
    this.entrants.set(player.accountId, e);
    this.order.push(e);
    this.entryCount++;
    this.dirty.add(e);
    this.save();
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
      this.entryCount--;
      this.dirty.delete(e);
      this.dropped.push(accountId);
      this.save();
      return { ok: true, refunded: refunded.amount };
    }
    if (this.state !== 'running') return refusal('REGISTRATION_CLOSED', 'the tournament is over');
    e.forfeited = true;
    e.table?.sitOut(accountId);
    this.dirty.add(e);
    this.save();
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
  // Purchases during the tournament: rebuy, add-on, re-entry (T 5-1 to 5-5; POACHAT)

  /**
   * T 5-2: a rebuy while the player's chips are at or below the structure's condition, during the
   * rebuy period; at zero too (the bust waits for it: the player comes back between hands). The price
   * goes to the pool, the fee to the operator, with a POACHAT, in one step.
   */
  rebuy(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    const r = this.spec.structure.rebuy;
    if (!e || this.state !== 'running' || e.place !== null || r === null) return refusal('NOT_REGISTERED', 'no rebuy here', 'T 5-2');
    const stack = e.out ? 0 : this.stackOf(e);
    if (!mayRebuy(this.spec.structure, this.elapsed() ?? 0, stack + e.pendingChips, e.rebuys)) return refusal('REGISTRATION_CLOSED', 'a rebuy is not allowed now', 'T 5-2');
    const paid = this.purchase(e, r.price, r.fee, `t-rebuy:${e.inscription}:${e.rebuys + 1}`, 'Recave');
    if (!paid.ok) return paid;
    e.rebuys++;
    this.rebuyCount++;
    this.addChips(e, r.chips);
    return { ok: true };
  }

  /** T 5-4, 5-5: the add-on, once, at the end of the rebuy period, whatever the stack. */
  addOn(accountId: number): { ok: true } | Refusal {
    const e = this.entrants.get(accountId);
    const a = this.spec.structure.addOn;
    if (!e || e.out || this.state !== 'running' || a === null) return refusal('NOT_REGISTERED', 'no add-on here', 'T 5-4');
    if (!mayAddOn(this.spec.structure, this.elapsed() ?? 0, e.addOn)) return refusal('REGISTRATION_CLOSED', 'the add-on is not available now', 'T 5-4');
    const paid = this.purchase(e, a.price, a.fee, `t-addon:${e.inscription}`, 'Add-on');
    if (!paid.ok) return paid;
    e.addOn = true;
    this.addOnCount++;
    this.addChips(e, a.chips);
    return { ok: true };
  }

  /**
   * Re-entry (`T/M`): a busted player buys a new starting stack within late registration, at most
   * `reEntries` times; it is a whole entry (buy-in, bounty, fee) written as a POACHAT of the player's
   * inscription (issue 16 item 6). The player's bust is forgotten: one place per player, at the end.
   */
  private reEnter(e: Entrant): { ok: true; inscription: string } | Refusal {
    if (e.reEntries >= this.spec.structure.reEntries || !registrationOpen(this.spec.structure, this.elapsed())) {
      return refusal('REGISTRATION_CLOSED', 'no re-entry now', 'R-TOURN-FORMATS');
    }
    const paid = this.purchase(e, this.spec.buyIn, this.spec.fee, `t-reentry:${e.inscription}:${e.reEntries + 1}`, 'Ré-entrée');
    if (!paid.ok) return paid;
    e.reEntries++;
    this.entryCount++;
    e.bounty = this.spec.bounty ?? 0;
    this.comeBack(e, this.spec.structure.startingStack);
    this.seatLate(this.comebacks.splice(this.comebacks.indexOf(e), 1)[0]);
    return { ok: true, inscription: e.inscription };
  }

  /** The player's chips at their table (between hands: their stack; in a hand: at its start). */
  private stackOf(e: Entrant): number {
    return e.table?.players().find((p) => p.accountId === e.player.accountId)?.stack ?? e.stack;
  }

  /** Chips bought: at the table (now, or when the hand in play ends), or, busted, back in play. */
  private addChips(e: Entrant, chips: number): void {
    if (e.out) {
      this.comeBack(e, chips);
      this.seatLate(this.comebacks.splice(this.comebacks.indexOf(e), 1)[0]);
      return;
    }
    e.pendingChips += chips;
    const r = e.table!.topUp(e.player.accountId, chips);
    if (!r.ok) throw new Error(`${this.spec.id}: ${chips} chips for ${e.player.name} refused: ${r.code} ${r.message}`);
  }

  /** A busted player is in again with `chips` (not yet seated): their bust is forgotten. */
  private comeBack(e: Entrant, chips: number): void {
    for (const g of this.busted) {
      const i = g.indexOf(e);
      if (i >= 0) g.splice(i, 1);
    }
    for (let i = this.busted.length - 1; i >= 0; i--) if (this.busted[i].length === 0) this.busted.splice(i, 1);
    e.bust = null;
    this.setOut(e, false);
    e.stack = chips;
    e.pendingChips = 0;
    e.table = null;
    this.dirty.add(e);
    this.comebacks.push(e);
  }

  /** A purchase from the wallet: the price to the fund, the fee to the operator, a POACHAT, in one step. */
  private purchase(e: Entrant, price: number, fee: number, key: string, what: string): MoneyResult {
    try {
      return this.step(() => {
        const r = this.moveMoney(e.player, price + fee, 'in', key);
        if (!r.ok) return r;
        this.deps.outbox.put({ kind: 'POACHAT', ...this.record(e.player, e.inscription, r.movement, e.autoRebuy), description: `${what}: ${this.description()}` });
        if (fee > 0) this.collectFee(fee, `${key}:fee`);
        return r;
      });
    } catch (x) {
      this.deps.error(x);
      return refusal('INTERNAL', 'the operator could not record the purchase; nothing was taken');
    }
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
    if (!this.fieldOpen()) this.closeRegistration();
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
    this.save();
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
    this.save();
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
          this.dirty.add(e);
          return chips(amount);
        },
        // Chips bought (rebuy, add-on: paid already, tournament.purchase) reach the table.
        topUp: (p, amount) => {
          const e = entrantOf(p);
          e.pendingChips = Math.max(0, e.pendingChips - amount);
          e.stack += amount;
          this.dirty.add(e);
          return chips(amount);
        },
        cashOut: (p, amount) => {
          const e = entrantOf(p);
          e.stack = amount;
          e.table = null;
          this.dirty.add(e);
          return chips(amount);
        },
        handStarted: () => undefined,
        settle: (_handId, _rake, stacks) => {
          this.handsPlayed++;
          for (const s of stacks) {
            const e = this.entrants.get(s.accountId);
            if (e) {
              e.stack = s.stack;
              this.dirty.add(e);
            }
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
      playtime: this.playtimeHooks(tableId),
    };
    table = new Table(spec, hooks, { betweenHandsMs: 1500, ...this.deps.table, timers: this.deps.timers, idOper: this.deps.idOper, random: this.random });
    this.tables.set(no, table);
    this.tableNo.set(table, no);
    return table;
  }

  /** R-TIMELIMIT at a real-money tournament's tables: counted, never a stand-up (art. 16-1). */
  private playtimeHooks(tableId: string): TableHooks['playtime'] {
    const watch = this.deps.playtime;
    if (!watch || this.spec.money !== 'real') return undefined;
    return { dealt: (id) => watch.handDealt(id, tableId), mayPlayOn: () => true, left: (id) => watch.left(id, tableId) };
  }

  /** Seats a player with their stack at `table` (a seat the tournament chose, or drawn there). */
  private seat(e: Entrant, table: Table, seat: number | undefined, moved: boolean): boolean {
    const r = table.join(e.player, e.stack, { waitForBigBlind: false, brain: e.brain ?? undefined, seat });
    if (!r.ok) return false;
    this.fieldDirty = true;
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
    return this.poolFinal;
  }

  /** Hand-for-hand play is on (R-TOURN-RUN). */
  get inHandForHand(): boolean {
    return this.handForHand();
  }

  private handForHand(): boolean {
    return this.poolFinal && handForHand(this.remaining, this.prizeList.length, this.tables.size);
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
    // Players back in (a rebuy at zero) are seated now, between hands.
    for (const e of this.comebacks.splice(0)) this.seatLate(e);
    const touched = this.rebalance();
    const hfh = this.handForHand();
    if (hfh) {
      // The next round when every table has finished its hand and used its turn (nobody gains by stalling).
      if (this.released.size === 0 && this.liveTables().every((t) => !t.handInProgress)) this.releaseAll();
    } else if (this.wasHandForHand) {
      // The money is reached: every table deals again.
      this.released.clear();
      this.pokeAll();
    } else {
      // Tables deal on their own between hands; those a move gave players may deal now.
      for (const t of touched) if (this.tableNo.has(t)) t.dealWhenReady();
    }
    this.wasHandForHand = hfh;
  }

  /**
   * Tables broken and balanced between hands (T 6-6 to 6-11, field.ts): a move out of a table happens
   * when it is between hands; a table in a hand gives its player at the end of it. The player moved
   * to balance is the next big blind (T 6-9), sitting in the worst free position (T 6-10); a broken
   * table's players sit where the draw puts them (T 6-11).
   */
  private rebalance(): Set<Table> {
    const touched = new Set<Table>();
    if (this.moving || this.state !== 'running' || !this.fieldDirty) return touched;
    this.moving = true;
    let blocked = false;
    try {
      // One plan for the field as it is (field.ts); the moves out of tables in a hand wait for the
      // next rebalance, after that hand (a 10,000-player field: no plan recomputed per move).
      const field = this.liveTables().map((t) => ({ table: this.tableNo.get(t)!, players: t.seatsTaken, seats: this.spec.seats }));
      for (const move of fieldMoves(field, { late: field.length <= LATE_TABLES })) {
        const from = this.tables.get(move.from);
        const to = this.tables.get(move.to);
        if (!from || !to || from.handInProgress) {
          blocked = true;
          continue;
        }
        const who = move.why === 'balance' ? from.balancing().moveOut : (from.players()[0]?.accountId ?? null);
        if (who === null) continue;
        const e = this.entrants.get(who)!;
        const seatIn = move.why === 'balance' ? (to.balancing().seatIn ?? undefined) : undefined;
        const left = from.leave(who, 'operator');
        if (!left.ok) throw new Error(`${from.tableId}: ${e.player.name} could not be moved: ${left.code}`);
        // R-NOBOT may refuse a table (one address per table), or it may be full: the next table with a free seat, else back.
        const at = this.seat(e, to, seatIn, true)
          ? to
          : [...this.liveTables().filter((t) => t !== to && t !== from && t.seatsTaken < this.spec.seats), from].find((t) => this.seat(e, t, undefined, t !== from));
        if (!at) throw new Error(`${this.spec.id}: ${e.player.name} could not be seated anywhere`);
        touched.add(at);
        if (from.seatsTaken === 0) this.closeTable(from);
        else touched.add(from);
      }
    } finally {
      this.moving = false;
      // Checked again after the next hand only if a move still waits for a table in a hand.
      this.fieldDirty = blocked;
    }
    return touched;
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
    // Practice players take the add-on while they may (T 5-4).
    for (const e of this.order) if (e.autoRebuy && !e.out && mayAddOn(this.spec.structure, this.elapsed() ?? 0, e.addOn)) this.addOn(e.player.accountId);
    if (!this.poolFinal && !this.fieldOpen()) this.closeRegistration();
    this.scheduleClock();
    // A break's end: every table deals again (a level change needs nothing: it applies from the next hand, T 6-1).
    if (this.state === 'running' && !c.onBreak) {
      this.afterHand();
      this.pokeAll();
    }
  }

  /**
   * The field or the pool may still grow: late registration, or the rebuy period and the add-on after
   * it (T 5-2, 5-4). Until then places are not known (busted players may come back).
   */
  private fieldOpen(): boolean {
    const elapsed = this.elapsed() ?? 0;
    if (registrationOpen(this.spec.structure, elapsed)) return true;
    const r = this.spec.structure.rebuy;
    if (r === null) return false;
    const level = clockAt(this.spec.structure, elapsed).level;
    return level < r.untilLevel || (this.spec.structure.addOn !== null && level === r.untilLevel);
  }

  /** The field is final: the payouts are fixed and the places of players already out are known. */
  private closeRegistration(): void {
    this.poolFinal = true;
    this.prizeList = this.prizeTable();
    this.save();
    this.placeBusted();
    this.maybeFinish();
  }

  // ---------------------------------------------------------------------------------------------
  // Eliminations and prizes (R-ELIM, T 8-16; R-TOURN-RUN)

  /** Groups of one hand at one table, best first, tied players together (shared/rules/table elimination). */
  private eliminated(groups: { accountId: number; stackAtStart: number; by: number[] }[][]): void {
    for (const g of [...groups].reverse()) {
      const out: Entrant[] = [];
      for (const x of g) {
        const e = this.entrants.get(x.accountId);
        if (!e || e.out) continue;
        this.setOut(e, true);
        e.table = null;
        e.stack = 0;
        // Bounty (`T/G`): to the winners of the pot that eliminated the player (POGAIN).
        if (e.bounty > 0) this.payBounty(e, x.by);
        if (e.pendingChips > 0) {
          // Chips bought during the hand that busted them: the player is back in with those (T 5-2).
          this.comeBack(e, e.pendingChips);
          continue;
        }
        out.push(e);
      }
      if (out.length > 0) {
        const no = this.bustSeq++;
        for (const e of out) e.bust = no;
        this.busted.push(out);
      }
      // Practice players rebuy at zero while they may (a person asks with `rebuy`).
      for (const e of out) if (e.autoRebuy && mayRebuy(this.spec.structure, this.elapsed() ?? 0, 0, e.rebuys)) this.rebuyLater(e);
    }
    for (const g of groups) for (const x of g) this.touch(x.accountId);
    this.fieldDirty = true;
    if (this.poolFinal) this.placeBusted();
    this.maybeFinish();
    this.save();
  }

  private touch(accountId: number): void {
    const e = this.entrants.get(accountId);
    if (e) this.dirty.add(e);
  }

  /** A rebuy at zero decided inside a hand's settlement: paid now, seated between hands (afterHand). */
  private rebuyLater(e: Entrant): void {
    const r = this.spec.structure.rebuy!;
    const paid = this.purchase(e, r.price, r.fee, `t-rebuy:${e.inscription}:${e.rebuys + 1}`, 'Recave');
    if (!paid.ok) return;
    e.rebuys++;
    this.rebuyCount++;
    this.comeBack(e, r.chips);
  }

  /** The bounty on `e`'s head, split between `by` (units left one each in the order given, R-ODDCHIP). */
  private payBounty(e: Entrant, by: readonly number[]): void {
    let winners = by.map((id) => this.entrants.get(id)).filter((x): x is Entrant => x !== undefined);
    if (winners.length === 0) {
      // No pot names a winner (cannot happen in a settled hand): the chip leader collects it.
      const leader = this.order.filter((x) => !x.out).sort((a, b) => this.stackOf(b) - this.stackOf(a))[0];
      winners = leader ? [leader] : [e];
    }
    const shares = bountyShares(e.bounty, winners.length);
    e.bounty = 0;
    this.dirty.add(e);
    winners.forEach((w, i) => this.gain(w, shares[i], `t-bounty:${e.inscription}:${e.rebuys}:${e.reEntries}:${w.player.accountId}`, `Prime sur ${e.player.name}`));
  }

  /** A gain during the tournament (a bounty): from the fund to the wallet with its POGAIN (A 1.3.6.c.5). */
  private gain(w: Entrant, amount: number, key: string, what: string): void {
    if (amount <= 0) return;
    this.step(() => {
      const r = this.moveMoney(w.player, amount, 'out', key);
      if (!r.ok) throw new Error(`${this.spec.id}: bounty for ${w.player.name} refused: ${r.code} ${r.message}`);
      this.deps.outbox.put({ kind: 'POGAIN', ...this.record(w.player, w.inscription, r.movement, true), description: `${what}: ${this.description()}` });
    });
  }

  /**
   * Places of the busted groups not placed yet: counted from the last place (the first out is last);
   * tied players share the places they cover and their prizes (sharedPrizes: the units left one each
   * in the order given). Each prize is paid at once with the player's POBILAN.
   */
  private placeBusted(): void {
    // Groups are only appended once places are fixed (no one comes back then): each is placed once.
    for (; this.placedGroups < this.busted.length; this.placedGroups++) {
      const g = this.busted[this.placedGroups];
      const first = this.order.length - this.placedPlayers - g.length + 1;
      this.placedPlayers += g.length;
      if (g[0].place !== null) continue;
      const shares = sharedPrizes(this.prizeList, first - 1, g.length);
      g.forEach((e, i) => this.pay(e, first, shares[i]));
    }
  }

  /**
   * The end (T 1-5): one player holds every chip; a satellite ends when the remaining players are all
   * qualified (as many as the seats it pays), each with a seat.
   */
  private maybeFinish(): void {
    if (this.state !== 'running' || !this.poolFinal) return;
    const alive = this.order.filter((e) => !e.out);
    if (alive.length > Math.max(1, this.seatsWon())) return;
    if (this.finishing) return;
    this.finishing = true;
    this.deps.timers.clear(this.clockTimer);
    this.clockTimer = null;
    // The last tables close first (the chips back to the bank), then the prizes: the players left share
    // the places they cover (a satellite's seats; else the winner alone). The last prizes, the winner's
    // own bounty and the end are one step: a crash leaves all of them or none (then the next start
    // finishes it: restore).
    for (const t of this.liveTables()) this.closeTable(t);
    const shares = sharedPrizes(this.prizeList, 0, Math.max(1, alive.length));
    this.step(() => {
      alive.forEach((e, i) => {
        this.setOut(e, true);
        this.dirty.add(e);
        // The winner's own bounty is theirs (no one eliminated them).
        if (e.bounty > 0) this.payBounty(e, [e.player.accountId]);
        if (this.spec.satellite) this.qualify(e, shares[i]);
        else this.pay(e, 1, shares[i]);
      });
      this.state = 'finished';
    });
    const left = this.deps.wallet.tableHeld(this.fundId)?.held ?? 0;
    if (left !== 0) this.deps.error(new Error(`${this.spec.id}: the fund holds ${left} after the last prize`));
    this.notify({ type: 'state', tournamentId: this.spec.id, state: 'finished' });
  }

  /**
   * A satellite's seat (T 1-5): the prize, then the entry in the target tournament bought with it.
   * Written policy: if the target refuses (closed, full, gone), the player keeps the prize in cash.
   */
  private qualify(e: Entrant, prize: number): void {
    this.pay(e, 1, prize);
    const target = this.deps.directory?.(this.spec.satellite!.target);
    if (!target || prize !== target.spec.buyIn + target.spec.fee) {
      this.deps.log?.(`${this.spec.id}: ${e.player.name} keeps ${prize} in cash (target ${this.spec.satellite!.target} not open or not worth it)`);
      return;
    }
    const r = target.register(e.player, target.version, { brain: e.brain ?? undefined, autoRebuy: e.autoRebuy });
    if (!r.ok) this.deps.log?.(`${this.spec.id}: ${e.player.name} keeps ${prize} in cash (${target.spec.id}: ${r.code})`);
  }

  /**
   * The player's place and prize: from the fund to the wallet with the POBILAN, in one step. With a
   * guarantee (play money), what the entries do not cover is the operator's overlay, granted.
   */
  private pay(e: Entrant, place: number, prize: number): void {
    this.step(() => {
      const fromPool = Math.min(prize, this.poolParts().collected - this.paidFromPool);
      const r = this.moveMoney(e.player, fromPool, 'out', `t-prize:${e.inscription}`);
      if (!r.ok) throw new Error(`${this.spec.id}: prize of ${e.player.name} refused: ${r.code} ${r.message}`);
      let movement = r.movement;
      if (prize > fromPool) {
        const g = this.deps.wallet.grantPlay(e.player.accountId, prize - fromPool, { idempotencyKey: `t-overlay:${e.inscription}` });
        if (!g.ok) throw new Error(`${this.spec.id}: overlay for ${e.player.name} refused: ${g.code}`);
        movement = { avant: movement.avant, mouvement: prize, apres: g.entry.balanceAfter };
      }
      this.paidFromPool += fromPool;
      this.deps.outbox.put({ kind: 'POBILAN', ...this.record(e.player, e.inscription, movement, e.forfeited || e.brain !== null) });
      // Saved with the prize (the step's end): a player paid is never placed and paid again after a crash.
      e.place = place;
      e.prize = prize;
      this.dirty.add(e);
    });
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
    const r = this.deps.db
      .transaction(() => {
        const out = fn();
        this.persist();
        return out;
      })
      .immediate();
    if (!this.deps.db.inTransaction) this.deps.outbox.flushSoon();
    return r;
  }

  /** Writes what changed (issue 16 item 7): inside the current step, or as a step of its own. */
  private save(): void {
    if (!this.deps.store) return;
    if (this.deps.db.inTransaction) this.persist();
    else this.deps.db.transaction(() => this.persist()).immediate();
  }

  private persist(): void {
    const store = this.deps.store;
    if (!store) return;
    const state: SavedState = {
      elapsed: this.elapsed(),
      poolFinal: this.poolFinal,
      entryCount: this.entryCount,
      rebuyCount: this.rebuyCount,
      addOnCount: this.addOnCount,
      paidFromPool: this.paidFromPool,
      bustSeq: this.bustSeq,
    };
    store.saveTournament(this.spec, this.state, JSON.stringify(state), this.deps.timers.now());
    for (const id of this.dropped.splice(0)) store.dropEntrant(this.spec.id, id);
    for (const e of this.dirty) {
      const saved: SavedEntrant = { ...e, brain: e.brain !== null, table: e.table ? (this.tableNo.get(e.table) ?? null) : null, seat: e.table?.seatOf(e.player.accountId) ?? null };
      store.saveEntrant(this.spec.id, e.player.accountId, JSON.stringify(saved));
    }
    this.dirty.clear();
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
