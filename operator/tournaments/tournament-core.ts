/**
 * The tournament's state and what every part of it uses: the counts that make the pool and
 * the prizes, the money between the wallets and the fund with its trace records, each change saved in
 * the step that makes it (crash safety).
 *
 * The first link of the chain that makes `Tournament` (tournament.ts): core → field (tables, seating,
 * balancing, the clock) → end (eliminations, places, prizes) → entries (registration, purchases) →
 * Tournament (start, cancel, restore). One class split by inheritance rather than helpers given its
 * state: the parts call each other both ways between hands, and `this` keeps those calls as they were.
 */
import { centsText } from '../../shared/rules/money';
import { payout, prizePool, satellitePrizes } from '../../shared/rules/tournament';
import { moneyResult, playerRecord } from '../tables/cash';
import { secureRandomInt, type RandomInt } from '../tables/deck';
import type { Table } from '../tables/table';
import type { TimerHandle } from '../tables/timers';
import type { MoneyResult, TablePlayer } from '../tables/types';
import type { Movement, PojeuData } from '../trace/records';
import { tournamentVersion, validateTournamentSpec, type TournamentSpec } from './spec';
import { StackOrder } from './stack-order';
import { refusal, type Entrant, type Refusal, type SavedEntrant, type SavedState, type TournamentDeps, type TournamentNotice, type TournamentState } from './tournament-types';

/**
 * The entrants changed since the last save: every change a save records is a change the order of
 * stacks takes too (each one added is touched there), so the ranks never miss one.
 */
class Changed extends Set<Entrant> {
  constructor(private readonly stacks: StackOrder<Entrant>) {
    super();
  }

  override add(e: Entrant): this {
    this.stacks.touch(e);
    return super.add(e);
  }
}

export abstract class TournamentCore {
  readonly spec: TournamentSpec;
  readonly version: string;
  readonly fundId: string;
  state: TournamentState = 'registering';
  /** Hands settled at its tables (this process). */
  handsPlayed = 0;
  protected readonly entrants = new Map<number, Entrant>();
  protected readonly order: Entrant[] = [];
  /** Busted groups in the order they went out, the worst first (places are counted from the last). */
  protected readonly busted: Entrant[][] = [];
  protected bustSeq = 0;
  protected readonly tables = new Map<number, Table>();
  protected readonly tableNo = new Map<Table, number>();
  protected startedAt: number | null = null;
  protected poolFinal = false;
  protected prizeList: number[] = [];
  protected startTimer: TimerHandle | null = null;
  protected clockTimer: TimerHandle | null = null;
  /** Hand-for-hand (R-TOURN-RUN): the tables that may deal one hand in this round. */
  protected released = new Set<Table>();
  /** Hand-for-hand: the tables dealing this round's hand (released, not finished yet). */
  protected dealing = new Set<Table>();
  /** Hand-for-hand: players busted in this round, ranked together when its last hand ends (T 8-16). */
  protected roundBusts: Entrant[] = [];
  protected readonly random: RandomInt;
  protected moving = false;
  protected finishing = false;
  protected entryCount = 0;
  protected rebuyCount = 0;
  protected addOnCount = 0;
  /** Prizes paid from the fund (before v9, a play-money overlay was granted beside it: restore). */
  protected paidFromPool = 0;
  /** The guarantee's overlay the operator put into the fund, once the pool is final. */
  protected overlayIn = 0;
  /** Players back in (chips bought as they busted) waiting for a seat, seated between hands. */
  protected comebacks: Entrant[] = [];
  /**
   * The players in, in the order of their chips (stack, with chips bought not yet at the table): the
   * standing's rank in O(log n) for a field of 10,000 (stack-order.ts).
   */
  protected readonly stacks = new StackOrder<Entrant>((e) => (e.out ? null : e.stack + e.pendingChips));
  /** Entrants changed since the last save, and those gone (unregistered before the start). */
  protected readonly dirty: Set<Entrant> = new Changed(this.stacks);
  protected readonly dropped: number[] = [];
  protected registered = 0;
  protected outCount = 0;
  /** Table sizes changed since the last rebalance (or a move waits for a table's hand to end). */
  protected fieldDirty = false;
  /** Tables in a hand that a planned move waits for: the plan is made again when one ends its hand. */
  protected readonly waitingFor = new Set<Table>();
  protected wasHandForHand = false;
  /** Busted groups already given their places, and the players in them. */
  protected placedGroups = 0;
  protected placedPlayers = 0;
  /** Tables are being filled at the start: no hand is dealt until everyone is seated. */
  protected seating = false;
  /** Chips removed from play with excluded players (Σ their `removedChips`; counted, read per standing). */
  protected removedTotal = 0;
  /** Excluded players still in (R-EXCLUDE, R-BANNED): they leave when their table is between hands. */
  protected readonly excludedIn = new Set<Entrant>();

  constructor(
    spec: TournamentSpec,
    protected readonly deps: TournamentDeps,
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

  /** Starts (sit & go: full; scheduled: its time), or cancels under the minimum field (tournament.ts). */
  abstract start(): void;

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
  protected setOut(e: Entrant, out: boolean): void {
    if (e.out !== out) this.outCount += out ? 1 : -1;
    e.out = out;
    this.stacks.touch(e);
  }

  /**
   * Players in with more chips than `stack` (stack and chips bought not yet at the table): a rank is
   * 1 + this, equal stacks sharing it. O(log n), the changes since the last read
   * taken first.
   */
  playersAbove(stack: number): number {
    return this.stacks.above(stack);
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

  protected poolParts() {
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
  protected prizeTable(): number[] {
    const pool = this.pool();
    if (this.spec.satellite) {
      const { seats, cash } = satellitePrizes(pool, this.spec.satellite.seatValue);
      const list = [...new Array<number>(seats).fill(this.spec.satellite.seatValue), ...(cash > 0 ? [cash] : [])];
      return list.length > 0 ? list : [pool];
    }
    return payout(pool, this.order.length, this.spec.structure.payouts);
  }

  /** Seats won in a satellite (0 for other tournaments). */
  protected seatsWon(): number {
    return this.spec.satellite ? Math.floor(this.pool() / this.spec.satellite.seatValue) : 0;
  }

  /** Chips given out: entries' stacks, rebuys and add-ons (R-CONSERVE: the players in hold exactly these). */
  chipsIssued(): number {
    const s = this.spec.structure;
    return this.entryCount * s.startingStack + this.rebuyCount * (s.rebuy?.chips ?? 0) + this.addOnCount * (s.addOn?.chips ?? 0);
  }

  /** Milliseconds since the start on the tournament's clock (null before); `clockRate` times the wall's. */
  elapsed(): number | null {
    return this.startedAt === null ? null : (this.deps.timers.now() - this.startedAt) * this.clockRate;
  }

  /** How many times faster than the wall clock the tournament's clock runs (TournamentDeps.clockRate). */
  get clockRate(): number {
    return this.deps.clockRate ?? 1;
  }

  /**
   * Chips taken out of play with excluded players (R-EXCLUDE, R-BANNED; T 13-1: a disqualified
   * player's chips are removed): the players in hold `chipsIssued() - chipsRemoved()` (R-CONSERVE).
   */
  chipsRemoved(): number {
    return this.removedTotal;
  }

  /** Σ chips of the players still in: always the chips issued less those removed (R-CONSERVE). */
  chipsInPlay(): number {
    let n = 0;
    for (const e of this.order) {
      if (e.out) continue;
      n += (e.table ? (e.table.players().find((p) => p.accountId === e.player.accountId)?.stack ?? 0) : e.stack) + e.pendingChips;
    }
    return n;
  }

  /** The player's chips at their table (between hands: their stack; in a hand: at its start). */
  protected stackOf(e: Entrant): number {
    return e.table?.players().find((p) => p.accountId === e.player.accountId)?.stack ?? e.stack;
  }

  /** The entrant is saved with the next step (persist). */
  protected touch(accountId: number): void {
    const e = this.entrants.get(accountId);
    if (e) this.dirty.add(e);
  }

  /** A purchase from the wallet: the price to the fund, the fee to the operator, a POACHAT, in one step. */
  protected purchase(e: Entrant, price: number, fee: number, key: string, what: string): MoneyResult {
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
  // Money and records

  /** Money between the player's wallet and the fund (`in`: an entry; `out`: a refund or prize); 0 moves nothing. */
  protected moveMoney(p: TablePlayer, amount: number, way: 'in' | 'out', key: string): MoneyResult {
    const w = this.deps.wallet;
    if (amount === 0) {
      const b = w.balance(p.accountId, this.spec.money);
      return { ok: true, movement: { avant: b, mouvement: 0, apres: b } };
    }
    const r = way === 'in' ? w.buyIn(p.accountId, this.fundId, amount, { idempotencyKey: key }) : w.cashOut(p.accountId, this.fundId, amount, { idempotencyKey: key });
    // One reading of the wallet's refusals for tables and tournaments (tables/cash.ts): an entry is a
    // stake, so the protection refusals (limits, playing time, self-exclusion) reach the player as such.
    return moneyResult(r);
  }

  /**
   * A guaranteed pool larger than what the entries brought: the operator puts the
   * difference into the fund, one `overlay` ledger row (wallet.ts: money in, the operator's), so the
   * prizes are paid from the fund like any other and the audit holds exactly. `owed` defaults to the
   * whole overlay; a restore of a tournament saved before v9 passes what was not granted yet.
   */
  protected fundOverlay(owed = this.poolParts().overlay): void {
    if (owed <= 0) return;
    const r = this.deps.wallet.fundOverlay(this.fundId, owed, { idempotencyKey: `t-overlay:${this.spec.id}` });
    if (!r.ok) throw new Error(`${this.spec.id}: the overlay of ${owed} refused: ${r.code} ${r.message}`);
    this.overlayIn = owed;
  }

  protected collectFee(amount: number, key: string): void {
    const r = this.deps.wallet.collectRake(this.fundId, amount, { idempotencyKey: key, handId: key });
    if (!r.ok) throw new Error(`${this.spec.id}: fees refused: ${r.code} ${r.message}`);
  }

  protected refund(e: Entrant, motif: string, byOperator: boolean): { ok: true; amount: number } | Refusal {
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

  protected record(p: TablePlayer, inscription: string, movement: Movement, supervision: boolean) {
    return playerRecord(p, inscription, this.spec.id, this.spec.money, movement, { supervision });
  }

  protected description(): string {
    const unit = this.spec.money === 'real' ? (n: number) => `${centsText(n)} EUR` : (n: number) => `${n} jetons fictifs`;
    return `${this.spec.name}: tournoi ${this.spec.variant}, droit d'entrée ${unit(this.spec.buyIn)} + frais ${unit(this.spec.fee)}`;
  }

  /** A table's POJEU as the tournament's (A 1.3.6.b): its Tech, the players' tournament inscriptions, chips (scale 0). */
  protected pojeu(d: PojeuData): PojeuData {
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
  protected step<T>(fn: () => T): T {
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

  /** Writes what changed: inside the current step, or as a step of its own. */
  protected save(): void {
    if (!this.deps.store) return;
    if (this.deps.db.inTransaction) this.persist();
    else this.deps.db.transaction(() => this.persist()).immediate();
  }

  protected persist(): void {
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
      overlay: this.overlayIn,
    };
    store.saveTournament(this.spec, this.state, JSON.stringify(state), this.deps.timers.now());
    for (const id of this.dropped.splice(0)) store.dropEntrant(this.spec.id, id);
    for (const e of this.dirty) {
      const saved: SavedEntrant = { ...e, brain: e.brain !== null, table: e.table ? (this.tableNo.get(e.table) ?? null) : null, seat: e.table?.seatOf(e.player.accountId) ?? null };
      store.saveEntrant(this.spec.id, e.player.accountId, JSON.stringify(saved));
    }
    this.dirty.clear();
  }

  protected notify(n: TournamentNotice): void {
    if (!this.deps.notify) return;
    try {
      this.deps.notify(n);
    } catch (e) {
      this.deps.error(e);
    }
  }

  protected guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.deps.error(e);
    }
  }
}
