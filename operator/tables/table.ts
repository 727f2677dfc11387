/**
 * One table, authoritative (DESIGN.md §1): seats, money in and out, the hands, the action clock, and
 * every frame its players receive.
 *
 *   join ──▶ seat at random (R-RANDSEAT) ──▶ buy-in through TableMoney (R-NODEBT) ──▶ POINSCRIT
 *   hand loop: planNextHand ─▶ startHand ─▶ { deal from the CSPRNG deck (R-DEAL) | a decision } ─▶ …
 *              decisions: a person (action clock, then time bank; timeout: check, else fold),
 *                         a practice player's Brain (it sees only viewFor(its seat)),
 *                         the operator for a player who is leaving (check, else fold)
 *              ─▶ settle: rake through TableMoney, one POJEU, records to history, afterHand
 *   between hands: pending top-ups (POACHAT), leaves (cash-out, POBILAN), repeated timeouts sit out
 *   a hand voided (the table stops, or a fault): every stake back on its cave, the reason in the
 *              operator's log; no POJEU, no POANNUL (docs/trace.md; issue 15 item 4)
 *   records written without the player's action (time-outs, the disconnection grace, the table
 *   stopping, practice players) carry `supervision` (A 1.3.6.c; issue 15 item 5)
 *
 * Money: every movement goes through TableMoney together with who holds the chips (the seat, each
 * settled hand's stacks, the hand in play), so an operator that stops without closing its tables
 * returns every stack on the next start (R-CASH; recovery.ts).
 *
 * Information hiding (DESIGN.md §1, item 5): every frame a person receives is rendered for their seat
 * from the engine's `viewFor` (snapshots, hand starts, results) and `actionFor` (each action, as
 * the state it applied to lets that seat see it). Nothing is filtered after the fact.
 *
 * Streams: each person at the table has their own stream of frames, numbered 1, 2, 3, … without
 * gaps; the last frames are kept so that a reconnecting client gets what it missed (`framesSince`),
 * else a snapshot. A new seat starts numbering above any number this table used before, so a stale
 * sequence number never matches frames of another seating.
 */
import { randomBytes } from 'node:crypto';
import type { Move, SeatView, TableEvent, TableInfo, TableView, TurnView } from '../../shared/protocol/messages';
import type { Card } from '../../shared/rules/cards';
import { actionFor, apply, legalActions, startHand, viewFor, type Action, type HandPlan, type HandState, type LegalActions } from '../../shared/rules/engine';
import { recordOf, type HandRecord } from '../../shared/rules/record';
import {
  addChips,
  afterHand,
  clockwiseFrom,
  createSeating,
  freeSeats,
  leave as leaveSeat,
  playerToMoveForBalancing,
  seatForBalancing,
  planNextHand,
  seatPlayer,
  setWaitForBigBlind,
  sitIn,
  sitOut,
  type Seating,
  type TablePlan,
} from '../../shared/rules/table';
import { VARIANTS } from '../../shared/rules/variants';
import { addressKey } from '../accounts';
import { Deck, secureRandomInt, type RandomInt } from './deck';
import { describeTable, pojeuOf, type PojeuSeat } from './pojeu';
import type { TimerHandle, Timers } from './timers';
import type { Brain, CancelReason, MoneyResult, RecordOrigin, TableHooks, TablePlayer, TableRefusal, TableSpec } from './types';

export interface TableOptions {
  timers: Timers;
  /** The IDOper written for POJEU participants. */
  idOper: string;
  /** Uniform integers for seats and the first button; the deck always shuffles with crypto. */
  random?: RandomInt;
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

/** A record of the player's own doing (A 1.3.6.c: no `supervision`). */
const PLAYER: RecordOrigin = { supervision: false };

/**
 * The table's settings, defaults filled in. The conditions of play the lobby serves are written from
 * these (conditions.ts; R-RULES, issue 15 item 8), so what players read is what tables do.
 */
export function tableSettings(options: Partial<TableOptions>): Required<Omit<TableOptions, 'timers' | 'random' | 'idOper'>> {
  return {
    betweenHandsMs: options.betweenHandsMs ?? 2500,
    practiceDelayMs: options.practiceDelayMs ?? [600, 1800],
    disconnectGraceMs: options.disconnectGraceMs ?? 120_000,
    maxTimeouts: options.maxTimeouts ?? 2,
    ringSize: options.ringSize ?? 512,
    requireHuman: options.requireHuman ?? false,
  };
}

export type ActionOutcome = ({ ok: true } | TableRefusal) & { replayed: boolean };

interface Member {
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

interface Turn {
  seat: number;
  token: number;
  phase: 'action' | 'bank' | 'practice';
  /** When the turn was announced (the time bank, when it runs, continues the same turn). */
  since: number;
  startedAt: number;
  endsAt: number;
  timer: TimerHandle;
}

interface HandInPlay {
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

const ACTION_RESULTS_KEPT = 256;

function refusal(code: TableRefusal['code'], message: string, extra: Partial<TableRefusal> = {}): TableRefusal {
  return { ok: false, code, message, ...extra };
}

/** What the clock (or the operator, for a player leaving) does: check if possible, else fold (R-FORCED: a bring-in is posted). */
export function timeoutAction(legal: LegalActions): Action {
  const seat = legal.seat as number;
  switch (legal.next) {
    case 'draw':
      return { type: 'draw', seat, discards: [] };
    case 'show':
      return legal.muck ? { type: 'muck', seat } : { type: 'show', seat };
    default:
      if (legal.check) return { type: 'check', seat };
      if (legal.bringIn !== null) return { type: 'bringIn', seat };
      return { type: 'fold', seat };
  }
}

function engineAction(move: Move, seat: number): Action {
  switch (move.type) {
    case 'bet':
      return { type: 'bet', seat, to: move.to };
    case 'draw':
      return { type: 'draw', seat, discards: move.discards.slice() };
    default:
      return { type: move.type, seat };
  }
}

export class Table {
  readonly spec: TableSpec;
  private seating: Seating;
  private readonly members = new Map<number, Member>();
  private readonly bySeat: (Member | null)[];
  private humans: Member[] = [];
  private hand: HandInPlay | null = null;
  private handNo = 0;
  private readonly runId = Date.now().toString(36) + randomBytes(2).toString('hex');
  private seqBase = 0;
  private turnToken = 0;
  private nextHandTimer: TimerHandle | null = null;
  private lastSeatKeys: (string | null)[];
  private closed = false;
  private readonly timers: Timers;
  private readonly random: RandomInt;
  private readonly opt: Required<Omit<TableOptions, 'timers' | 'random' | 'idOper'>>;
  private readonly game: 'blinds' | 'stud';
  /** Hands finished here. */
  handsPlayed = 0;

  constructor(
    spec: TableSpec,
    private readonly hooks: TableHooks,
    private readonly options: TableOptions,
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
    this.game = VARIANTS[spec.rules.variant].forcedBets === 'ante-bring-in' ? 'stud' : 'blinds';
    this.opt = tableSettings(options);
  }

  // -------------------------------------------------------------------------------------------
  // Who is here

  get tableId(): string {
    return this.spec.tableId;
  }

  get seatsTaken(): number {
    return this.members.size;
  }

  get handInProgress(): boolean {
    return this.hand !== null;
  }

  isSeated(accountId: number): boolean {
    return this.members.has(accountId);
  }

  seatOf(accountId: number): number | null {
    return this.members.get(accountId)?.seat ?? null;
  }

  /** Everyone seated: account, practice or not, chips on the table between hands. */
  players(): { accountId: number; name: string; practice: boolean; seat: number; stack: number; sittingOut: boolean }[] {
    return [...this.members.values()].map((m) => {
      const p = this.seating.seats[m.seat]!;
      return { accountId: m.player.accountId, name: m.player.name, practice: m.player.practice, seat: m.seat, stack: p.stack, sittingOut: p.status === 'sitting-out' };
    });
  }

  /**
   * Σ chips belonging to the players here: what the wallet holds for this table (seating stacks stay at
   * their start-of-hand value until the hand is settled, and the rake leaves with the settlement).
   */
  chipsOnTable(): number {
    return this.seating.seats.reduce((a, p) => a + (p?.stack ?? 0), 0);
  }

  info(): TableInfo {
    const r = this.spec.rules;
    return {
      tableId: this.spec.tableId,
      name: this.spec.name,
      money: this.spec.money,
      practice: this.spec.practice,
      variant: r.variant,
      stakes: { smallBlind: r.smallBlind, bigBlind: r.bigBlind, ante: r.ante, bringIn: r.bringIn, smallBet: r.smallBet, bigBet: r.bigBet },
      rules: r,
      buyIn: { ...this.spec.buyIn },
      seatsTaken: this.members.size,
      seatsMax: this.spec.seats,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  /**
   * Seats a player with `buyIn` chips. `opts.seat`: the seat the operator chose (a tournament player
   * moved in to balance the tables sits in the worst free position, T 6-10; issue 16); else drawn.
   */
  join(player: TablePlayer, buyIn: number, opts: { waitForBigBlind: boolean; brain?: Brain; seat?: number }): { ok: true; seat: number; stack: number } | TableRefusal {
    if (this.closed) return refusal('SHUTTING_DOWN', 'the table is closing');
    if (this.members.has(player.accountId)) return refusal('ALREADY_SEATED', 'one seat per player at a table', { rule: 'R-ONEHAND' });
    if (player.practice && !this.spec.practice) throw new Error(`practice players never sit at ${this.spec.tableId}`);
    if (!player.practice) {
      // R-NOBOT, D art. 2: no two accounts from one address at one table.
      const key = addressKey(player.ip) ?? player.ip;
      if (this.humans.some((m) => (addressKey(m.player.ip) ?? m.player.ip) === key)) {
        return refusal('SAME_ADDRESS', 'another account from your address plays at this table', { rule: 'R-NOBOT' });
      }
    }
    const { min, max } = this.spec.buyIn;
    if (!Number.isSafeInteger(buyIn) || buyIn < min || buyIn > max) {
      return refusal('BUY_IN_RANGE', `the buy-in is between ${min} and ${max}`, { min, max, rule: 'R-INFO' });
    }
    const free = freeSeats(this.seating);
    if (free.length === 0) return refusal('TABLE_FULL', 'every seat is taken', { rule: 'R-SEATS' });
    // R-RANDSEAT: the operator picks the seat (drawn, or the one a tournament chose).
    const seat = opts.seat !== undefined && free.includes(opts.seat) ? opts.seat : free[this.random(free.length)];
    const inscription = `${this.spec.tableId}.${Date.now().toString(36)}.${randomBytes(4).toString('hex')}`;
    const change = seatPlayer(this.seating, { id: player.name, seat, stack: buyIn, waitForBigBlind: opts.waitForBigBlind });
    if (!change.ok) throw new Error(`${this.spec.tableId}: seating refused ${player.name} at free seat ${seat}: ${change.reason}`);
    // The buy-in and its POINSCRIT in one step (issue 12 item 5): a record that cannot be written takes nothing.
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.buyIn(player, buyIn, `buy-in:${inscription}`, { inscription, seat });
        if (r.ok) this.hooks.trace.joined(player, inscription, r.movement, PLAYER);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      return refusal('INTERNAL', 'the operator could not record the buy-in; nothing was taken');
    }
    if (!paid.ok) return paid;
    this.seating = change.seating;
    const m: Member = {
      player,
      seat,
      inscription,
      brain: opts.brain ?? null,
      sink: null,
      connected: true,
      graceTimer: null,
      seq: this.seqBase,
      ring: [],
      dropped: this.seqBase,
      youKey: '',
      timeBankMs: this.spec.rules.timeBankSeconds * 1000,
      timeouts: 0,
      leaving: false,
      leaveBy: 'player',
      pendingTopUp: 0,
      topUps: 0,
      results: new Map(),
    };
    this.members.set(player.accountId, m);
    this.bySeat[seat] = m;
    if (!m.brain) this.humans = [...this.humans, m];
    this.syncSeats();
    this.maybeStart();
    return { ok: true, seat, stack: buyIn };
  }

  /**
   * Leaves now between hands (the stack is returned, R-CASH), or at the end of the hand the player is in.
   * `by`: the player asked, or the operator decided (the disconnection grace is over): its records then
   * carry `supervision` (A 1.3.6.c).
   */
  leave(accountId: number, by: 'player' | 'operator' = 'player'): { ok: true; cashedOut: number | null } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    if (!m.leaving) m.leaveBy = by;
    if (this.inHand(m)) {
      if (!m.leaving) {
        m.leaving = true;
        this.syncYou(m);
        this.guard(() => {
          // The player may be the one to act: the operator checks or folds for them now.
          if (this.hand?.turn?.seat === m.seat) {
            this.stopClock(m, false);
            this.hand.supervised = true;
            this.commit(timeoutAction(legalActions(this.hand.state)), 'operator');
            this.advance();
          }
        });
      }
      return { ok: true, cashedOut: null };
    }
    return { ok: true, cashedOut: this.removeMember(m, false) };
  }

  /** Chips added between hands (R-NODEBT: through the wallet); during the player's hand, when it ends. */
  topUp(accountId: number, amount: number): { ok: true; applied: boolean } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const stack = this.seating.seats[m.seat]!.stack;
    const room = this.spec.buyIn.max - stack - m.pendingTopUp;
    // A seat below the table's minimum (a bust, a short stack) comes back to the minimum at least,
    // as a buy-in would (issue 13 defect 3: a rebuy of 100 at a 2,000 minimum was taken).
    const least = Math.max(1, this.spec.buyIn.min - stack - m.pendingTopUp);
    if (!Number.isSafeInteger(amount) || amount < least || amount > room) {
      return refusal('BUY_IN_RANGE', `a top-up brings the stack to between ${this.spec.buyIn.min} and ${this.spec.buyIn.max}`, { min: least, max: Math.max(0, room), rule: 'R-INFO' });
    }
    if (this.inHand(m)) {
      m.pendingTopUp += amount;
      this.syncYou(m);
      return { ok: true, applied: false };
    }
    const done = this.applyTopUp(m, amount);
    if (!done.ok) return done;
    this.maybeStart();
    return { ok: true, applied: true };
  }

  sitOut(accountId: number): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = sitOut(this.seating, m.player.name);
    if (!c.ok) return refusal(c.reason === 'already-sitting-out' ? 'ALREADY_SITTING_OUT' : 'NOT_SEATED', c.reason, { rule: c.rule });
    this.seating = c.seating;
    this.syncSeats();
    return { ok: true };
  }

  sitIn(accountId: number, waitForBigBlind: boolean): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = sitIn(this.seating, m.player.name, { waitForBigBlind });
    if (!c.ok) {
      const code = c.reason === 'not-sitting-out' ? 'NOT_SITTING_OUT' : c.reason === 'no-chips' ? 'NO_CHIPS' : 'NOT_SEATED';
      return refusal(code, c.reason, { rule: c.rule });
    }
    this.seating = c.seating;
    m.timeouts = 0;
    this.syncSeats();
    this.maybeStart();
    return { ok: true };
  }

  /** R-BUTTON: while owing an entry, wait for the big blind or post to come in sooner. */
  setWaitForBigBlind(accountId: number, wait: boolean): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m) return refusal('NOT_SEATED', 'you have no seat at this table');
    const c = setWaitForBigBlind(this.seating, m.player.name, wait);
    if (!c.ok) return refusal('NOT_SEATED', c.reason, { rule: c.rule });
    this.seating = c.seating;
    this.syncSeats();
    this.maybeStart();
    return { ok: true };
  }

  /**
   * A person's decision, with their action id: a repeated id is applied once and answered with the
   * first result (`replayed`); the same id for another move is refused. The engine validates it.
   */
  act(accountId: number, actionId: string, move: Move): ActionOutcome {
    const m = this.members.get(accountId);
    if (!m) return { ...refusal('NOT_SEATED', 'you have no seat at this table'), replayed: false };
    const fingerprint = JSON.stringify(move);
    const prior = m.results.get(actionId);
    if (prior) {
      if (prior.fingerprint !== fingerprint) return { ...refusal('ACTION_ID_REUSED', `action id ${actionId} was used for another move`), replayed: false };
      return { ...prior.result, replayed: true };
    }
    let result: { ok: true } | TableRefusal = refusal('INTERNAL', 'the action could not be applied');
    this.guard(() => {
      result = this.tryAct(m, move);
    });
    m.results.set(actionId, { fingerprint, result });
    if (m.results.size > ACTION_RESULTS_KEPT) m.results.delete(m.results.keys().next().value as string);
    return { ...result, replayed: false };
  }

  private tryAct(m: Member, move: Move): { ok: true } | TableRefusal {
    const h = this.hand;
    if (!h || !h.plan.dealtIn.includes(m.seat)) return refusal('NO_HAND', 'you are not in a hand at this table');
    const legal = legalActions(h.state);
    if (legal.seat !== m.seat || legal.next === 'deal' || legal.next === 'done') {
      return refusal('NOT_YOUR_TURN', 'it is not your turn', { rule: 'R-ACTORDER' });
    }
    const action = engineAction(move, m.seat);
    const r = apply(h.state, action);
    if (!r.ok) {
      const extra: Partial<TableRefusal> = { rule: r.rule };
      if (r.min !== undefined) extra.min = r.min;
      if (r.max !== undefined) extra.max = r.max;
      if (r.call !== undefined) extra.call = r.call;
      return refusal('ILLEGAL_ACTION', r.reason, extra);
    }
    const turn = h.turn;
    if (turn?.seat === m.seat) {
      // R-NOBOT: how long the person took, from the turn announced (fair-play report, fairplay.ts).
      const decision = { handId: h.id, move: move.type, turnAt: turn.since, ms: Math.max(0, this.timers.now() - turn.since) };
      this.safely(() => this.hooks.decided?.(m.player, decision));
    }
    this.stopClock(m, true);
    this.commitApplied(action, r.state, 'player');
    this.advance();
    return { ok: true };
  }

  // -------------------------------------------------------------------------------------------
  // Streams

  /**
   * The seated person now connects from `where` (a resume or a login, perhaps from another address):
   * R-NOBOT's one address per table is checked again (D art. 2: before, a player could resume from the
   * address of another player at the table and play beside them), and if it holds, the seat takes the
   * new address and session, so that every record from now on carries them (IPJoueur, IDSession;
   * issue 12 item 4). A refusal changes nothing.
   */
  rebind(accountId: number, where: { ip: string; sessionId: string }): { ok: true } | TableRefusal {
    const m = this.members.get(accountId);
    if (!m || m.brain) return refusal('NOT_SEATED', 'you have no seat at this table');
    const key = addressKey(where.ip) ?? where.ip;
    if (this.humans.some((o) => o !== m && (addressKey(o.player.ip) ?? o.player.ip) === key)) {
      return refusal('SAME_ADDRESS', 'another account from your address plays at this table', { rule: 'R-NOBOT' });
    }
    if (m.player.ip === where.ip && m.player.sessionId === where.sessionId) return { ok: true };
    m.player = { ...m.player, ip: where.ip, sessionId: where.sessionId };
    // The hand in play records the address at its settlement (its POJEU is written then).
    const w = this.hand?.who[m.seat];
    if (this.hand && w && w.accountId === accountId) this.hand.who[m.seat] = { ...w, player: m.player, ipJoueur: where.ip };
    this.safely(() => this.hooks.money.moved?.(m.inscription, m.player));
    return { ok: true };
  }

  /** A person's connection is back (or new): frames go to `sink` from now on. */
  attach(accountId: number, sink: (frame: string) => void): boolean {
    const m = this.members.get(accountId);
    if (!m || m.brain) return false;
    m.sink = sink;
    m.connected = true;
    this.timers.clear(m.graceTimer);
    m.graceTimer = null;
    this.syncSeats();
    this.maybeStart();
    return true;
  }

  /**
   * The connection dropped: the seat is kept for the grace period, then the player leaves (R-CASH). A
   * tournament player keeps the seat for good, dealt in and blinded away (T 2-15, R-TOURN-LEAVE).
   */
  detach(accountId: number): void {
    const m = this.members.get(accountId);
    if (!m || m.brain) return;
    m.sink = null;
    m.connected = false;
    this.timers.clear(m.graceTimer);
    if (this.spec.mode === 'tournament') {
      this.syncSeats();
      return;
    }
    m.graceTimer = this.timers.set(() => {
      m.graceTimer = null;
      if (this.members.get(accountId) === m && !m.connected) this.guard(() => void this.leave(accountId, 'operator'));
    }, this.opt.disconnectGraceMs);
    this.syncSeats();
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

  /** A tournament released the table (its start, a break's end, the next hand-for-hand round): deal if it can. */
  dealWhenReady(): void {
    if (this.hand === null) this.guard(() => this.maybeStart());
  }

  /**
   * For balancing a tournament's tables (T 6-9, 6-10; issue 16): the player who would post the next
   * big blind (the one moved out), and the worst free seat (where a player moved in sits).
   */
  balancing(): { moveOut: number | null; seatIn: number | null } {
    const out = playerToMoveForBalancing(this.seating, { mode: 'tournament' });
    const m = out === null ? undefined : this.bySeat[out.seat];
    return { moveOut: m ? m.player.accountId : null, seatIn: seatForBalancing(this.seating) };
  }

  // -------------------------------------------------------------------------------------------
  // Closing

  /**
   * Stops the table: a hand in progress is voided (every stack back to its start-of-hand value, no
   * rake, the reason in the operator's log), every player cashed out (R-CASH) with a POBILAN flagged
   * `supervision` (the operator's doing, not theirs).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.timers.clear(this.nextHandTimer);
    this.nextHandTimer = null;
    this.cancelHand('stop');
    for (const m of [...this.members.values()]) {
      m.leaving = true;
      m.leaveBy = 'operator'; // the table stops: not the player's action (A 1.3.6.c, supervision)
      this.removeMember(m, true);
    }
    this.hooks.closed?.();
  }

  // -------------------------------------------------------------------------------------------
  // The hand loop

  private inHand(m: Member): boolean {
    return this.hand !== null && this.hand.plan.dealtIn.includes(m.seat) && this.hand.who[m.seat]?.accountId === m.player.accountId;
  }

  private humanPresent(): boolean {
    return this.humans.some((m) => m.connected && this.seating.seats[m.seat]?.status !== 'sitting-out');
  }

  /** Runs `fn`; a bug or I/O failure is reported, the hand cancelled, and the table goes on. */
  /** A money movement and its record as one durable step (TableHooks.step). */
  private step<T>(fn: () => T): T {
    return this.hooks.step ? this.hooks.step(fn) : fn();
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.hooks.error(e);
      this.cancelHand('fault');
      this.scheduleNextHand();
    }
  }

  private scheduleNextHand(): void {
    if (this.closed || this.nextHandTimer !== null) return;
    this.nextHandTimer = this.timers.set(() => {
      this.nextHandTimer = null;
      this.guard(() => this.maybeStart());
    }, this.opt.betweenHandsMs);
  }

  private maybeStart(): void {
    if (this.hand !== null || this.closed || this.nextHandTimer !== null) return;
    if (this.opt.requireHuman && !this.humanPresent()) return;
    const plan = planNextHand(this.seating, { game: this.game, mode: this.spec.mode, firstButton: this.random(this.spec.seats) });
    if (!plan.ok) return;
    // A tournament holds its tables between hands (start, breaks, hand-for-hand; issue 16).
    if (this.hooks.mayDeal && !this.hooks.mayDeal()) return;
    const rules = this.hooks.rulesForNextHand();
    const no = ++this.handNo;
    const id = `${this.spec.tableId}-${this.runId}-${no}`;
    const enginePlan: HandPlan = {
      button: plan.button,
      smallBlind: plan.smallBlind,
      bigBlind: plan.bigBlind,
      extraBigBlinds: plan.extraBigBlinds,
      deadSmallBlinds: plan.deadSmallBlinds,
      dealtIn: plan.dealtIn,
    };
    const seats = this.seating.seats.map((p) => (p === null ? null : { player: p.id, stack: p.stack }));
    const state = startHand({ rules, seats, plan: enginePlan, handId: id });
    const now = this.timers.now();
    const who = this.bySeat.map((m) =>
      m === null
        ? null
        : { accountId: m.player.accountId, practice: m.player.practice, player: m.player, idJoueur: String(m.player.accountId), ipJoueur: m.player.ip, inscription: m.inscription },
    );
    // Written before the hand goes on: a hand found in play after a crash is void (recovery.ts).
    this.hooks.money.handStarted(id, plan.dealtIn.flatMap((seat) => (who[seat] ? [who[seat].accountId] : [])));
    this.hand = { no, id, plan, state, deck: new Deck(), times: state.log.map(() => now), who, turn: null, supervised: false };
    this.emit((seat) => ({ type: 'handStart', handNo: no, hand: viewFor(state, seat) }));
    this.advance();
  }

  /** Plays the hand forward until a person must decide, a practice player thinks, or it ends. */
  private advance(): void {
    for (let guard = 0; guard < 100_000; guard++) {
      const h = this.hand;
      if (h === null) return;
      const legal = legalActions(h.state);
      if (legal.next === 'done') {
        this.finishHand();
        return;
      }
      if (legal.next === 'deal') {
        this.commit(h.deck.next(h.state, legal), 'dealer');
        continue;
      }
      const seat = legal.seat as number;
      const m = this.bySeat[seat];
      const absent = m === null || m.leaving || (this.spec.mode === 'tournament' && this.seating.seats[seat]?.status === 'sitting-out');
      if ((legal.next === 'show' && !legal.muck) || absent) {
        // Nothing to choose (all-in showdown, T 8-4), or the player is leaving / absent (T 2-15): the
        // latter is the operator acting for them (supervision, A 1.3.6.c).
        if (absent) h.supervised = true;
        this.commit(timeoutAction(legal), 'operator');
        continue;
      }
      if (m.brain) {
        // Each practice decision is its own turn of the event loop (even without a delay), so that busy
        // practice tables never hold up people's frames for longer than one decision.
        const [lo, hi] = this.opt.practiceDelayMs;
        this.startTurn(seat, 'practice', hi <= 0 ? 0 : lo + this.random(Math.max(1, hi - lo)), m);
        return;
      }
      this.startTurn(seat, 'action', h.state.rules.actionSeconds * 1000, m);
      return;
    }
    throw new Error(`${this.spec.tableId}: the hand did not progress`);
  }

  private practiceMove(m: Member, legal: LegalActions): void {
    const h = this.hand!;
    const decided = m.brain!.decide(viewFor(h.state, m.seat), legal);
    const r = apply(h.state, decided);
    if (r.ok) this.commitApplied(decided, r.state, 'player');
    else this.commit(timeoutAction(legal), 'operator');
  }

  private startTurn(seat: number, phase: Turn['phase'], ms: number, m: Member): void {
    const h = this.hand!;
    const token = ++this.turnToken;
    const now = this.timers.now();
    h.turn = { seat, token, phase, since: now, startedAt: now, endsAt: now + ms, timer: this.timers.set(() => this.guard(() => this.onTurnTimer(token)), ms) };
    if (this.humans.length === 0) return;
    const actionMs = phase === 'practice' ? h.state.rules.actionSeconds * 1000 : ms;
    this.emit(() => ({ type: 'turn', turn: { seat, actionMs, timeBankMs: m.brain ? 0 : m.timeBankMs } }));
  }

  private onTurnTimer(token: number): void {
    const h = this.hand;
    if (!h || !h.turn || h.turn.token !== token) return;
    const seat = h.turn.seat;
    const m = this.bySeat[seat];
    const legal = legalActions(h.state);
    if (h.turn.phase === 'practice' && m?.brain) {
      h.turn = null;
      this.practiceMove(m, legal);
      this.advance();
      return;
    }
    if (h.turn.phase === 'action' && m && m.timeBankMs > 0) {
      // The action time is over: the time bank runs.
      const now = this.timers.now();
      h.turn = { seat, token, phase: 'bank', since: h.turn.since, startedAt: now, endsAt: now + m.timeBankMs, timer: this.timers.set(() => this.guard(() => this.onTurnTimer(token)), m.timeBankMs) };
      this.emit(() => ({ type: 'turn', turn: { seat, actionMs: 0, timeBankMs: m.timeBankMs } }));
      return;
    }
    h.turn = null;
    h.supervised = true; // a time-out: the operator acts for the player (A 1.3.6.c, supervision)
    if (m) {
      m.timeBankMs = 0;
      m.timeouts++;
    }
    this.commit(timeoutAction(legal), 'clock');
    if (m && m.timeouts >= this.opt.maxTimeouts && this.seating.seats[seat]?.status !== 'sitting-out') {
      const c = sitOut(this.seating, m.player.name);
      if (c.ok) this.seating = c.seating;
      this.syncSeats();
    }
    this.advance();
  }

  /** The person acted (or is leaving): the clock stops; time bank used is spent. */
  private stopClock(m: Member, acted: boolean): void {
    const h = this.hand;
    if (!h || !h.turn || h.turn.seat !== m.seat) return;
    this.timers.clear(h.turn.timer);
    if (h.turn.phase === 'bank') m.timeBankMs = Math.max(0, m.timeBankMs - (this.timers.now() - h.turn.startedAt));
    if (acted) m.timeouts = 0;
    h.turn = null;
  }

  private commit(action: Action, by: 'dealer' | 'player' | 'clock' | 'operator'): void {
    const r = apply(this.hand!.state, action);
    if (!r.ok) throw new Error(`${this.spec.tableId}: the engine refused the table's own ${action.type}: ${r.rule} ${r.reason}`);
    this.commitApplied(action, r.state, by);
  }

  private commitApplied(action: Action, after: HandState, by: 'dealer' | 'player' | 'clock' | 'operator'): void {
    const h = this.hand!;
    const before = h.state;
    h.state = after;
    const now = this.timers.now();
    for (let i = before.log.length; i < after.log.length; i++) h.times.push(now);
    if (this.humans.length === 0) return;
    this.emit((seat) => {
      let seen = actionFor(before, action, seat);
      if (seen.type === 'show') {
        // Shown cards are public once shown: taken from the recipient's own view of the state after.
        seen = { ...seen, cards: viewFor(after, seat).seats[seen.seat].hole as Card[] };
      }
      return { type: 'action', action: seen, by };
    });
  }

  /**
   * Settles the hand. Everything that can fail on a bug is computed first (the record, the POJEU, the
   * next seating), then the money moves (the rake, R-RAKE, with the new stacks): from that point the
   * hand is settled, and a failure writing the trace or the history is reported without undoing it.
   */
  private finishHand(): void {
    const h = this.hand!;
    const final = h.state;
    const result = final.result!;
    const endedAt = this.timers.now();
    const record = recordOf(final);
    const pojeu = pojeuOf(record, {
      tech: this.spec.tableId,
      pool: h.id,
      idOper: this.options.idOper,
      seats: h.who,
      times: h.times,
      description: describeTable(final.rules, this.spec.money),
      info: `${this.spec.name}, hand ${h.no}`,
      scale: this.spec.money === 'real' ? 2 : 0,
      test: this.spec.money === 'play',
      supervision: h.supervised,
    });
    const after = afterHand(this.seating, { plan: h.plan, finalStacks: h.plan.dealtIn.map((seat) => ({ seat, stack: final.seats[seat].stack })) });
    if (!after.ok) throw new Error(`${this.spec.tableId}: afterHand refused: ${after.reason} ${after.detail ?? ''}`);

    // The rake (R-RAKE) and the stacks after the hand, in one write: a crash leaves both or neither.
    const stacks = [...this.members.values()].map((m) => ({ accountId: m.player.accountId, stack: after.seating.seats[m.seat]?.stack ?? 0 }));
    // With its POJEU, in one step (issue 12 item 5): a hand whose record cannot be written is not
    // settled; the error reaches guard(), which voids it (every stake back on its cave).
    this.step(() => {
      this.hooks.money.settle(h.id, result.rake, stacks);
      this.hooks.trace.hand(pojeu);
    });
    this.seating = after.seating;
    this.hand = null;
    this.handsPlayed++;

    // Results and history, each rendered from the recipient's view (R-RESULTS, R-HISTORY).
    const seen = new Map<number, HandRecord>();
    const recordFor = (seat: number): HandRecord => {
      let rec = seen.get(seat);
      if (!rec) seen.set(seat, (rec = recordOf(viewFor(final, seat))));
      return rec;
    };
    const history = this.hooks.history;
    if (history) {
      for (const seat of h.plan.dealtIn) {
        const who = h.who[seat];
        if (who && !who.practice) this.safely(() => history(who.accountId, this.spec.tableId, h.id, endedAt, recordFor(seat)));
      }
    }
    this.emit((seat) => ({ type: 'handEnd', handNo: h.no, record: recordFor(seat) }));
    // Tournament: the players busted leave once they have seen the hand's end (T 8-15; issue 16).
    if (after.eliminated.length > 0) this.eliminate(h.id, after.eliminated, h);
    this.betweenHands();
    this.syncSeats();
    this.scheduleNextHand();
    this.hooks.afterHand?.();
  }

  /**
   * Tournament players eliminated by the hand (T 8-15): their seats are already empty in the seating;
   * they leave the table (told with `table.left`, nothing to cash out) and the tournament ranks them
   * (R-ELIM, T 8-16: groups from afterHand). Issue 16.
   */
  private eliminate(handId: string, groups: string[][], h: HandInPlay): void {
    const byName = new Map([...this.members.values()].map((m) => [m.player.name, m]));
    const out = groups.map((g) =>
      g.flatMap((name) => {
        const m = byName.get(name);
        if (!m) return [];
        this.members.delete(m.player.accountId);
        this.bySeat[m.seat] = null;
        this.humans = this.humans.filter((x) => x !== m);
        this.timers.clear(m.graceTimer);
        m.graceTimer = null;
        if (m.sink) m.sink(JSON.stringify({ type: 'table.left', rid: null, tableId: this.spec.tableId, cashedOut: 0 }));
        m.sink = null;
        return [{ accountId: m.player.accountId, stackAtStart: h.plan.atStart[m.seat]?.stack ?? 0, by: this.eliminatedBy(h, m.seat) }];
      }),
    );
    this.safely(() => this.hooks.eliminated?.(handId, out));
  }

  /** The winners of the last pot `seat` was in (a bounty's collectors), from the button's left (R-ODDCHIP). */
  private eliminatedBy(h: HandInPlay, seat: number): number[] {
    const pots = h.state.result?.pots ?? [];
    const pot = [...pots].reverse().find((p) => p.eligible.includes(seat)) ?? pots[0];
    const seats = [...new Set((pot?.shares ?? []).map((x) => x.seat))].filter((x) => x !== seat);
    const ordered = clockwiseFrom(h.plan.button ?? 0, seats, this.spec.seats);
    return ordered.flatMap((x) => (h.who[x] ? [h.who[x].accountId] : []));
  }

  /** A write that follows money already moved: a failure is reported, never allowed to undo the movement. */
  private safely(fn: () => void): boolean {
    try {
      fn();
      return true;
    } catch (e) {
      this.hooks.error(e);
      return false;
    }
  }

  /** Pending top-ups (POACHAT), then leaves (cash-out, POBILAN). */
  private betweenHands(): void {
    for (const m of [...this.members.values()]) {
      if (m.pendingTopUp > 0) {
        const amount = m.pendingTopUp;
        m.pendingTopUp = 0;
        this.applyTopUp(m, amount);
      }
      if (m.leaving) this.removeMember(m, true);
    }
  }

  private applyTopUp(m: Member, amount: number): { ok: true } | TableRefusal {
    const c = addChips(this.seating, m.player.name, amount);
    if (!c.ok) throw new Error(`${this.spec.tableId}: addChips refused: ${c.reason}`);
    // The top-up and its POACHAT in one step (issue 12 item 5).
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.topUp(m.player, amount, `top-up:${m.inscription}:${++m.topUps}`);
        if (r.ok) this.hooks.trace.purchased(m.player, m.inscription, r.movement, PLAYER);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      paid = refusal('INTERNAL', 'the operator could not record the top-up; nothing was taken');
    }
    if (!paid.ok) {
      this.syncYou(m);
      return paid;
    }
    this.seating = c.seating;
    this.syncSeats();
    return { ok: true };
  }

  private removeMember(m: Member, notify: boolean): number {
    const stack = this.seating.seats[m.seat]!.stack;
    const key = `cash-out:${m.inscription}`;
    const refused = (r: TableRefusal) => new Error(`${this.spec.tableId}: cash-out of ${m.player.name} refused: ${r.code} ${r.message}`);
    // The cash-out, its POBILAN and the seat forgotten, in one step (issue 12 item 5). The money goes
    // back whatever happens (R-CASH): if the record cannot be written, the cash-out alone, and the
    // kept seat has the next start write the POBILAN (recovery.ts).
    let paid: MoneyResult;
    try {
      paid = this.step(() => {
        const r = this.hooks.money.cashOut(m.player, stack, key);
        if (!r.ok) throw refused(r);
        this.hooks.trace.left(m.player, m.inscription, r.movement, { supervision: m.leaveBy === 'operator' });
        this.hooks.money.participationClosed(m.inscription);
        return r;
      });
    } catch (e) {
      this.hooks.error(e);
      paid = this.hooks.money.cashOut(m.player, stack, key);
      if (!paid.ok) throw refused(paid);
    }
    const c = leaveSeat(this.seating, m.player.name);
    if (!c.ok) throw new Error(`${this.spec.tableId}: leave refused: ${c.reason}`);
    this.seating = c.seating;
    this.members.delete(m.player.accountId);
    this.bySeat[m.seat] = null;
    this.humans = this.humans.filter((x) => x !== m);
    this.timers.clear(m.graceTimer);
    m.graceTimer = null;
    if (notify && m.sink) m.sink(JSON.stringify({ type: 'table.left', rid: null, tableId: this.spec.tableId, cashedOut: stack }));
    m.sink = null;
    this.syncSeats();
    return stack;
  }

  /**
   * The hand is void (the table stops, or a bug stopped it): every stack stays as it was before it
   * (the seating's stacks change only when a hand is settled, and nothing was paid out). Not a POANNUL:
   * that cancels an inscription "et tous les évènements qui lui sont liés" (A 1.3.6.c.6), and these
   * players stay seated; no POJEU either, the hand having no outcome. The operator's log keeps the
   * reason and each stake given back (docs/trace.md; issue 15 item 4).
   */
  private cancelHand(reason: CancelReason): void {
    const h = this.hand;
    if (!h) return;
    if (h.turn) this.timers.clear(h.turn.timer);
    this.hand = null;
    this.safely(() => this.hooks.money.handCancelled(h.id));
    this.safely(() =>
      this.hooks.voided?.({
        pool: h.id,
        reason,
        participants: h.plan.dealtIn.flatMap((seat) => {
          const who = h.who[seat];
          if (!who) return [];
          return [{ idJoueur: who.idJoueur, inscription: who.inscription, stake: h.state.seats[seat]?.committed ?? 0, cave: this.seating.seats[seat]?.stack ?? 0 }];
        }),
      }),
    );
    this.emit(() => ({ type: 'handCancelled', handNo: h.no }));
    for (const m of [...this.members.values()]) if (m.leaving && !this.closed) this.removeMember(m, true);
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
      hand: this.hand ? viewFor(this.hand.state, seat) : null,
      turn: this.turnView(),
      you: m ? this.youView(m) : null,
    };
  }

  /** Sends each person the event as their seat may see it. */
  private emit(render: (seat: number) => TableEvent): void {
    for (const m of this.humans) this.push(m, render(m.seat));
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
  private syncSeats(): void {
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

  private syncYou(m: Member): void {
    if (m.brain || !this.members.has(m.player.accountId)) return;
    const you = this.youView(m);
    const key = JSON.stringify(you);
    if (key === m.youKey) return;
    m.youKey = key;
    this.push(m, { type: 'you', you });
  }
}
