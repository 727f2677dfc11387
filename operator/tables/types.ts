/**
 * What a table needs from outside, as interfaces, so the same table runs cash games now and tournament
 * tables later: where money comes from and goes (`TableMoney`: the wallet for cash games; a
 * tournament's chip bank later), what is written to the regulatory trace (`TableTrace`), the rules of
 * each next hand (`rulesForNextHand`: fixed for cash, the blind level for tournaments), the players'
 * history, and the operator's own players (`Brain`, practice players).
 */
import type { Refusal } from '../../shared/protocol/refusal';
import type { Action, HandState, LegalActions } from '../../shared/rules/engine';
import type { HandRecord } from '../../shared/rules/record';
import type { LastPositions } from '../../shared/rules/table';
import type { TableRules } from '../../shared/rules/tableRules';
import type { Movement, PojeuData } from '../trace/records';
import type { MoneyKind } from '../wallet';

/** A player as the table knows them. */
export interface TablePlayer {
  accountId: number;
  /** Shown at the table and written in hand records; unique (usernames are). */
  name: string;
  /** A practice player of the operator (play money only, labelled in every view). */
  practice: boolean;
  /** The address the player connects from (R-NOBOT; IPJoueur). */
  ip: string;
  /** IDSession of the trace. */
  sessionId: string;
}

/** A refusal as a value: the wire's one `Refusal` (shared/protocol/refusal.ts), sent as it is. */
export type TableRefusal = Refusal;

export type MoneyResult = { ok: true; movement: Movement } | TableRefusal;

/** A player's chips at the table after a settled hand. */
export interface SeatStack {
  accountId: number;
  stack: number;
}

/**
 * Where the blinds stand after a settled hand: the last positions (button, small
 * and big blind, T 6-3 to 6-5) and the players who have been dealt in at this table (T 6-12, 6-16),
 * so that a tournament restarted after a crash deals its next hand where the last one left off.
 */
export interface TablePositions {
  last: LastPositions | null;
  /** Accounts that have played at this table (not newcomers). */
  played: number[];
}

/**
 * Money in and out of the table. Each call carries an idempotency key: a repeat applies once. Besides
 * the movements, the table says who holds what (the seat, each settled hand's stacks, the hand in
 * play), so that chips held at a table when the operator stops without closing it go back to their
 * owners on the next start (R-CASH; tables/seats.ts, tables/recovery.ts).
 */
export interface TableMoney {
  /** Chips to the table for a player sitting down at `seat.seat` under `seat.inscription`. */
  buyIn(player: TablePlayer, amount: number, key: string, seat: { inscription: string; seat: number }): MoneyResult;
  /** More chips for a seated player, between hands. */
  topUp(player: TablePlayer, amount: number, key: string): MoneyResult;
  /** The player's stack back (R-CASH); `amount` 0 moves nothing and reports the balance. */
  cashOut(player: TablePlayer, amount: number, key: string): MoneyResult;
  /** A hand starts with these players' chips in play. */
  /** `bigBlind`: the seat posting the hand's big blind (null in games without blinds): T 6-9, 6-10 count from it. */
  handStarted(handId: string, accountIds: readonly number[], bigBlind: number | null): void;
  /**
   * The hand is settled: its rake leaves the table (R-RAKE; 0 for none) and the players' stacks become
   * `stacks` (every seated player's), as one write: either both happen or neither.
   */
  settle(handId: string, rake: number, stacks: readonly SeatStack[], positions: TablePositions): void;
  /** The hand was cancelled: every stack stays at its start-of-hand value. */
  handCancelled(handId: string): void;
  /** The participation is closed in the trace (its POBILAN written): nothing of it is left to recover. */
  participationClosed(inscription: string): void;
  /**
   * The seated player now connects from another address or session (a resume, a login elsewhere):
   * kept with the seat, so that records written after a crash carry it too.
   */
  moved?(inscription: string, player: TablePlayer): void;
}

/** Why a hand was voided; the operator's log says it (docs/trace.md). */
export type CancelReason = 'stop' | 'fault' | 'restart';

/**
 * A hand voided (the table stops, or a fault stopped it): not a POANNUL, which cancels a whole
 * inscription "et tous les évènements qui lui sont liés" (A 1.3.6.c.6), and no POJEU, the hand having
 * no outcome; the operator's log keeps the reason and what became of each stake (docs/trace.md).
 */
export interface HandVoided {
  /** The hand's id: the Pool its POJEU would have had. */
  pool: string;
  reason: CancelReason;
  participants: {
    idJoueur: string;
    inscription: string;
    /** What the player had put in the hand, given back to their stack; unknown after a crash (null). */
    stake: number | null;
    /** The player's stack, as it was at the start of the hand and is again. */
    cave: number;
  }[];
}

/**
 * Who a record is written for (A 1.3.6.c, attribute `supervision`: "transmis par l'opérateur sans
 * acquittement du joueur"): true when the operator writes it without the player's action (a time-out,
 * a player left after the disconnection grace, the table or the operator stopping, crash recovery,
 * the operator's practice players).
 */
export interface RecordOrigin {
  supervision: boolean;
}

/** The regulatory trace of a table (R-TRACE, SPEC.md §4). */
export interface TableTrace {
  /** POINSCRIT: a player joins (inscription). */
  joined(player: TablePlayer, inscription: string, movement: Movement, origin: RecordOrigin): void;
  /** POACHAT: a top-up during the game. */
  purchased(player: TablePlayer, inscription: string, movement: Movement, origin: RecordOrigin): void;
  /** POJEU: one hand (its `supervision` set by the table when the operator acted for a player). */
  hand(data: PojeuData): void;
  /** POBILAN: the player leaves with the result of their participation. */
  left(player: TablePlayer, inscription: string, movement: Movement, origin: RecordOrigin): void;
}

/** A person's decision, timed from the turn announced to the action received (R-NOBOT). */
export interface TimedDecision {
  handId: string;
  /** The move's type (`fold`, `call`, `bet`, `draw`, `show`, …). */
  move: string;
  /** When the turn was announced (table clock, ms). */
  turnAt: number;
  /** How long the decision took (ms; the time bank included). */
  ms: number;
}

/** An operator-run player: decides from what its seat may see (`viewFor`), never more. */
export interface Brain {
  decide(view: HandState, legal: LegalActions): Action;
}

export interface TableHooks {
  money: TableMoney;
  trace: TableTrace;
  /** The rules of the next hand (cash: the table's; tournament: the current blind level). */
  rulesForNextHand(): TableRules;
  /** A finished hand as one human participant may see it (R-HISTORY). */
  history?(accountId: number, tableId: string, handId: string, endedAt: number, record: HandRecord): void;
  /** A hand was settled and the table is between hands (practice players are topped up here). */
  afterHand?(): void;
  /** The lobby's view of the table changed (seats taken). */
  changed?(): void;
  /** A person decided (not the clock, nor the operator for them): the time it took, for the fair-play report. */
  decided?(player: TablePlayer, decision: TimedDecision): void;
  /** A bug or an I/O failure inside the table loop: logged, the hand is cancelled, the table goes on. */
  error(e: unknown): void;
  /**
   * Tournament tables: players eliminated by the hand just settled (T 8-15: they leave the table), in
   * finishing order best first, players tied by their stack at the start of the hand grouped (R-ELIM,
   * T 8-16). `by`: the winners of the pot that eliminated the player (the last pot they were in), in
   * seat order from the button's left (R-ODDCHIP), who collect a bounty. Called after the settlement.
   */
  eliminated?(handId: string, groups: { accountId: number; stackAtStart: number; by: number[] }[][]): void;
  /**
   * Tournament tables: may the next hand be dealt now? false holds the table between hands (the start
   * not given yet, a break taken by all tables together, hand-for-hand play); the tournament calls
   * `Table.dealWhenReady()` when it may. R-TOURN-RUN.
   */
  mayDeal?(): boolean;
  /** A hand was voided: written to the operator's log, not to the trace (docs/trace.md). */
  voided?(v: HandVoided): void;
  /** The table is closed, its last records written: what is still queued for the trace goes now. */
  closed?(): void;
  /**
   * Effective playing time (R-TIMELIMIT, decree 2010-518 art. 16-1; operator/protection/watch.ts), set
   * for real-money cash tables: a hand was dealt to these people; after a hand, whether each person may
   * go on (false: the limit is reached, or they self-excluded or were banned: they are stood up, their
   * stack back to the wallet, R-CASH); a person left the table.
   */
  playtime?: {
    dealt(accountId: number): void;
    mayPlayOn(accountId: number): boolean;
    left(accountId: number): void;
  };
  /**
   * Runs `fn` (a money movement and its trace record) as one durable step: both or neither (the trace never
   * falls behind the money). Without it, `fn` runs as is.
   */
  step?<T>(fn: () => T): T;
}

/** What a table is: shown in the lobby before sitting (R-INFO). */
export interface TableSpec {
  tableId: string;
  name: string;
  money: MoneyKind;
  /** Practice players may sit here (play money only). */
  practice: boolean;
  rules: TableRules;
  /** Seats at the table (R-SEATS: at most the variant's maximum). */
  seats: number;
  buyIn: { min: number; max: number };
  /** `cash`: join and leave at will (R-CASH). `tournament`: absent players are dealt in and folded (T 2-15). */
  mode: 'cash' | 'tournament';
  /** A tournament's table: the tournament's id (`TableView.tournament`); absent at cash tables. */
  tournamentId?: string;
}
