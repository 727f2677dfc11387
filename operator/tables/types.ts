/**
 * What a table needs from outside, as interfaces, so the same table runs cash games now and tournament
 * tables later: where money comes from and goes (`TableMoney`: the wallet for cash games; a
 * tournament's chip bank later), what is written to the regulatory trace (`TableTrace`), the rules of
 * each next hand (`rulesForNextHand`: fixed for cash, the blind level for tournaments), the players'
 * history, and the operator's own players (`Brain`, practice players).
 */
import type { ErrorCode } from '../../shared/protocol/codes';
import type { Action, HandState, LegalActions } from '../../shared/rules/engine';
import type { HandRecord } from '../../shared/rules/record';
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

/** A refusal as a value, with the wire's stable code. */
export interface TableRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
}

export type MoneyResult = { ok: true; movement: Movement } | TableRefusal;

/** Money in and out of the table. Each call carries an idempotency key: a repeat applies once. */
export interface TableMoney {
  /** Chips to the table for a player sitting down. */
  buyIn(player: TablePlayer, amount: number, key: string): MoneyResult;
  /** More chips for a seated player, between hands. */
  topUp(player: TablePlayer, amount: number, key: string): MoneyResult;
  /** The player's stack back (R-CASH); `amount` 0 moves nothing and reports the balance. */
  cashOut(player: TablePlayer, amount: number, key: string): MoneyResult;
  /** The operator's deduction from a hand (R-RAKE). */
  rake(handId: string, amount: number): void;
}

/** The regulatory trace of a table (R-TRACE, SPEC.md §4). */
export interface TableTrace {
  /** POINSCRIT: a player joins (inscription). */
  joined(player: TablePlayer, inscription: string, movement: Movement): void;
  /** POACHAT: a top-up during the game. */
  purchased(player: TablePlayer, inscription: string, movement: Movement): void;
  /** POJEU: one hand. */
  hand(data: PojeuData): void;
  /** POBILAN: the player leaves with the result of their participation. */
  left(player: TablePlayer, inscription: string, movement: Movement): void;
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
  /** A bug or an I/O failure inside the table loop: logged, the hand is cancelled, the table goes on. */
  error(e: unknown): void;
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
}
