/**
 * Every message of the client↔operator wire (docs/protocol.md documents each one), as closed schemas.
 * A message is one JSON object per WebSocket text frame, told apart by `type`.
 *
 * Requests from the client carry `rid`, a number the client chooses; the operator's answer (or
 * `error`) carries the same `rid`. Table streams (`table.snapshot`, `table.event`) carry a sequence
 * number per table: events follow a snapshot at `seq + 1, seq + 2, …`.
 */
import type { Move } from '../rules/decide';
import type { Action } from '../rules/engine/types';
import type { HandRecord } from '../rules/record';
import type { TableRules } from '../rules/tableRules';
import { arr, bool, int, nullable, obj, oneOf, str, type Infer, type Schema } from '../validate';
import { cashierClientVariants, cashierServerVariants, protectionDetailsSchema, registerMessage } from './cashier';
import { ERROR_CODES } from './codes';
import { playConditionsSchema, versionText } from './conditions';
import { actionSchema, handRecordSchema, tableRulesSchema, variantCode } from './game';
import { handViewSchema, type HandView } from './hand';
import { amount, card, millis, seatIndex, union } from './schema';
import { tournamentClientVariants, tournamentId, tournamentServerVariants } from './tournament';
import { HISTORY_PAGE_MAX } from './version';

const rid = int({ min: 0, max: 2 ** 31 - 1 });
/** Table ids: short, printable, safe in a file name and in a trace reference (Tech). */
export const tableId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/ });
/** A client's action id: unique per table for that client; a repeat is applied once (idempotent). */
export const actionId = str({ min: 1, max: 64, pattern: /^[\x21-\x7e]+$/ });
const version = str({ min: 5, max: 60, pattern: /^\d{1,6}\.\d{1,6}\.\d{1,6}(?:[-+][0-9A-Za-z.-]{1,40})?$/ });
const username = str({ min: 1, max: 64 });
const password = str({ min: 1, max: 256 });
const token = str({ min: 1, max: 128 });
const money = oneOf('real', 'play');

// ---------------------------------------------------------------------------------------------
// Client → operator

/** What a player decides; the operator adds the seat (R-ONEHAND: a player acts only from their seat). */
export const moveSchema = union<Move>('type', {
  fold: obj({ type: oneOf('fold') }),
  check: obj({ type: oneOf('check') }),
  call: obj({ type: oneOf('call') }),
  bet: obj({ type: oneOf('bet'), to: amount }),
  bringIn: obj({ type: oneOf('bringIn') }),
  draw: obj({ type: oneOf('draw'), discards: arr(card, { max: 5 }) }),
  show: obj({ type: oneOf('show') }),
  muck: obj({ type: oneOf('muck') }),
});
/** The move itself is the rules package's (shared/rules/decide.ts): the one decision path judges it. */
export type { Move };

const clientVariants = {
  hello: obj({ type: oneOf('hello'), protocol: int({ min: 0, max: 1_000_000 }), client: version }),
  guest: obj({ type: oneOf('guest'), rid }),
  register: registerMessage,
  login: obj({ type: oneOf('login'), rid, username, password }),
  resume: obj({
    type: oneOf('resume'),
    rid,
    token,
    tables: arr(obj({ tableId, lastSeq: int({ min: 0, max: Number.MAX_SAFE_INTEGER }) }), { max: 64 }),
  }),
  logout: obj({ type: oneOf('logout'), rid }),
  /** A new nickname; the operator checks its form (accounts.ts NICKNAME_PATTERN), bounded here. */
  'account.rename': obj({ type: oneOf('account.rename'), rid, username: str({ min: 1, max: 64 }) }),
  balance: obj({ type: oneOf('balance'), rid }),
  'lobby.subscribe': obj({ type: oneOf('lobby.subscribe'), rid }),
  'lobby.unsubscribe': obj({ type: oneOf('lobby.unsubscribe'), rid }),
  /** `rulesVersion`: the version of the rules the player was shown and confirmed (R-INFO; conditions.ts). */
  'table.join': obj({ type: oneOf('table.join'), rid, tableId, buyIn: amount, waitForBigBlind: bool, rulesVersion: versionText }),
  'table.leave': obj({ type: oneOf('table.leave'), rid, tableId }),
  'table.topUp': obj({ type: oneOf('table.topUp'), rid, tableId, amount }),
  'table.sitOut': obj({ type: oneOf('table.sitOut'), rid, tableId }),
  'table.sitIn': obj({ type: oneOf('table.sitIn'), rid, tableId, waitForBigBlind: bool }),
  'table.waitForBigBlind': obj({ type: oneOf('table.waitForBigBlind'), rid, tableId, waitForBigBlind: bool }),
  'table.snapshot': obj({ type: oneOf('table.snapshot'), rid, tableId }),
  /**
   * Watch a table without a seat (open any table of a tournament): `ok`, then its
   * snapshot and stream as an observer sees them (no hidden card, R-HIDDEN); `table.unwatch` stops it.
   */
  'table.watch': obj({ type: oneOf('table.watch'), rid, tableId }),
  'table.unwatch': obj({ type: oneOf('table.unwatch'), rid, tableId }),
  'table.action': obj({ type: oneOf('table.action'), rid, tableId, actionId, move: moveSchema }),
  history: obj({ type: oneOf('history'), rid, cursor: nullable(str({ min: 1, max: 100 })), limit: int({ min: 1, max: HISTORY_PAGE_MAX }) }),
  ping: obj({ type: oneOf('ping'), t: millis }),
  ...cashierClientVariants,
};

// Tournaments' messages live in tournament.ts and join the union here.
const allClientVariants = { ...clientVariants, ...tournamentClientVariants };
export const CLIENT_TYPES = Object.keys(allClientVariants) as (keyof typeof allClientVariants)[];
export type ClientType = keyof typeof allClientVariants;
type ClientUnion = { [K in ClientType]: Infer<(typeof allClientVariants)[K]> }[ClientType];
export type ClientMessage = ClientUnion;
export type ClientMessageOf<K extends ClientType> = Extract<ClientMessage, { type: K }>;
export const clientMessageSchema: Schema<ClientMessage> = union<ClientMessage>('type', allClientVariants);

// ---------------------------------------------------------------------------------------------
// Operator → client

const stakesSchema = obj({ smallBlind: amount, bigBlind: amount, ante: amount, bringIn: amount, smallBet: amount, bigBet: amount });

/** A table in the lobby (R-INFO: the variant, the stakes and every table rule, before sitting). */
export const tableInfoSchema = obj({
  tableId,
  name: str({ min: 1, max: 80 }),
  money,
  /** Practice players (labelled, play money only) fill seats here. */
  practice: bool,
  variant: variantCode,
  stakes: stakesSchema,
  rules: tableRulesSchema,
  buyIn: obj({ min: amount, max: amount }),
  seatsTaken: int({ min: 0, max: 10 }),
  seatsMax: int({ min: 2, max: 10 }),
});
export type TableInfo = Omit<Infer<typeof tableInfoSchema>, 'rules'> & { rules: TableRules };

/** A seat as everyone at the table sees it. */
export const seatViewSchema = obj({
  name: str({ min: 1, max: 64 }),
  /** A practice player of the operator, never a person (labelled in every view). */
  practice: bool,
  stack: amount,
  status: oneOf('active', 'new', 'waiting-for-big-blind', 'sitting-out'),
  connected: bool,
});
export type SeatView = Infer<typeof seatViewSchema>;

/** Whose decision it is and how long they have (the action clock and its time bank). */
export const turnSchema = obj({ seat: seatIndex, actionMs: millis, timeBankMs: millis });
export type TurnView = Infer<typeof turnSchema>;

/** The recipient's own situation at the table. */
export const youSchema = obj({
  seat: seatIndex,
  waitForBigBlind: bool,
  /** Leaving at the end of the hand in progress. */
  leaving: bool,
  /** Chips bought during the hand, added when it ends. */
  pendingTopUp: amount,
  timeBankMs: millis,
});

/** A full table as the recipient may see it: sent on join, rejoin, resume and request. */
export const tableViewSchema = obj({
  tableId,
  name: str({ min: 1, max: 80 }),
  money,
  practice: bool,
  rules: tableRulesSchema,
  buyIn: obj({ min: amount, max: amount }),
  seats: arr(nullable(seatViewSchema), { min: 2, max: 10 }),
  /** Hands started at this table so far. */
  handNo: amount,
  /** The hand in progress as our seat sees it (`handViewFor(state, yourSeat)`, hand.ts), or null between hands. */
  hand: nullable(handViewSchema),
  turn: nullable(turnSchema),
  you: nullable(youSchema),
  /** A tournament's table (its chips are the tournament's, not money); null at a cash table. */
  tournament: nullable(obj({ tournamentId })),
});
export type TableView = Omit<Infer<typeof tableViewSchema>, 'rules' | 'hand'> & { rules: TableRules; hand: HandView | null };

/** One event of a table stream. `action` carries the engine's action as the recipient may see it. */
export const tableEventSchema = union<TableEvent>('type', {
  seated: obj({ type: oneOf('seated'), seat: seatIndex, player: seatViewSchema }),
  seat: obj({ type: oneOf('seat'), seat: seatIndex, player: seatViewSchema }),
  left: obj({ type: oneOf('left'), seat: seatIndex }),
  handStart: obj({ type: oneOf('handStart'), handNo: amount, hand: handViewSchema }),
  action: obj({ type: oneOf('action'), action: actionSchema, by: oneOf('dealer', 'player', 'clock', 'operator') }),
  turn: obj({ type: oneOf('turn'), turn: turnSchema }),
  handEnd: obj({ type: oneOf('handEnd'), handNo: amount, record: handRecordSchema }),
  handCancelled: obj({ type: oneOf('handCancelled'), handNo: amount }),
  you: obj({ type: oneOf('you'), you: nullable(youSchema) }),
});
export type TableEvent =
  | { type: 'seated'; seat: number; player: SeatView }
  | { type: 'seat'; seat: number; player: SeatView }
  | { type: 'left'; seat: number }
  | { type: 'handStart'; handNo: number; hand: HandView }
  | { type: 'action'; action: Action; by: 'dealer' | 'player' | 'clock' | 'operator' }
  | { type: 'turn'; turn: TurnView }
  | { type: 'handEnd'; handNo: number; record: HandRecord }
  | { type: 'handCancelled'; handNo: number }
  | { type: 'you'; you: Infer<typeof youSchema> | null };

/** A hand of a tournament carries its id and level (0-based): its chips are not money. */
export const handTournamentSchema = obj({ tournamentId, level: int({ min: 0, max: 1000 }) });
export type HandTournament = Infer<typeof handTournamentSchema>;
export const historyHandSchema = obj({ handId: str({ min: 1, max: 200 }), tableId, endedAt: millis, record: handRecordSchema, tournament: nullable(handTournamentSchema) });
export type HistoryHand = { handId: string; tableId: string; endedAt: number; record: HandRecord; tournament: HandTournament | null };

const accountSchema = obj({ id: int({ min: 1, max: Number.MAX_SAFE_INTEGER }), username: str({ min: 1, max: 64 }), guest: bool });
const balancesSchema = obj({ real: amount, play: amount });

const serverVariants = {
  welcome: obj({
    type: oneOf('welcome'),
    protocol: int({ min: 0, max: 1_000_000 }),
    server: str({ min: 1, max: 60 }),
    heartbeatMs: millis,
    maxFrameBytes: int({ min: 1, max: 1 << 30 }),
    time: millis,
  }),
  error: obj(
    {
      type: oneOf('error'),
      rid: nullable(rid),
      code: oneOf(...ERROR_CODES),
      message: str({ max: 2000 }),
      rule: str({ max: 40 }),
      minVersion: version,
      retryAfterMs: millis,
      tableId,
      min: amount,
      max: amount,
      call: amount,
      details: protectionDetailsSchema,
    },
    // The refusal's details (refusal.ts): the same on every frame that carries one.
    ['rule', 'minVersion', 'retryAfterMs', 'tableId', 'min', 'max', 'call', 'details'],
  ),
  authed: obj({
    type: oneOf('authed'),
    rid,
    account: accountSchema,
    /** The bearer token, given once at login (null on resume: the client already holds it). */
    token: nullable(token),
    sessionId: str({ min: 1, max: 100 }),
    expiresAt: millis,
    balances: balancesSchema,
    /** Tables where the account holds a seat; snapshots of each follow. */
    seated: arr(tableId, { max: 64 }),
  }),
  ok: obj({ type: oneOf('ok'), rid }),
  /** The account after `account.rename`. */
  account: obj({ type: oneOf('account'), rid, account: accountSchema }),
  balance: obj({ type: oneOf('balance'), rid, balances: balancesSchema }),
  /** The tables (R-INFO) and the operator's conditions of play (R-RULES; conditions.ts). */
  lobby: obj({ type: oneOf('lobby'), rid: nullable(rid), tables: arr(tableInfoSchema, { max: 10_000 }), conditions: playConditionsSchema }),
  'lobby.table': obj({ type: oneOf('lobby.table'), table: tableInfoSchema }),
  'table.joined': obj({ type: oneOf('table.joined'), rid, tableId, seat: seatIndex, stack: amount }),
  'table.left': obj({ type: oneOf('table.left'), rid: nullable(rid), tableId, cashedOut: amount }),
  'table.snapshot': obj({ type: oneOf('table.snapshot'), rid: nullable(rid), tableId, seq: amount, table: tableViewSchema }),
  'table.event': obj({ type: oneOf('table.event'), tableId, seq: amount, event: tableEventSchema }),
  'table.actionResult': obj(
    {
      type: oneOf('table.actionResult'),
      rid,
      tableId,
      actionId,
      ok: bool,
      /** True when this action id had been seen: the first result is repeated, nothing applied again. */
      replayed: bool,
      code: oneOf(...ERROR_CODES),
      rule: str({ max: 40 }),
      message: str({ max: 2000 }),
      min: amount,
      max: amount,
      call: amount,
    },
    ['code', 'rule', 'message', 'min', 'max', 'call'],
  ),
  history: obj({ type: oneOf('history'), rid, hands: arr(historyHandSchema, { max: HISTORY_PAGE_MAX }), next: nullable(str({ min: 1, max: 100 })) }),
  pong: obj({ type: oneOf('pong'), t: millis, time: millis }),
  ...cashierServerVariants,
};

const allServerVariants = { ...serverVariants, ...tournamentServerVariants };
export const SERVER_TYPES = Object.keys(allServerVariants) as (keyof typeof allServerVariants)[];
export type ServerType = keyof typeof allServerVariants;
type Patch<T, K extends string, V> = Omit<T, K> & { [P in K]: V };
type ServerRaw = { [K in ServerType]: Infer<(typeof allServerVariants)[K]> };
/** Server messages; the engine-typed fields carry the rules package's own types. */
export type ServerMessageMap = Omit<ServerRaw, 'lobby' | 'lobby.table' | 'table.snapshot' | 'table.event' | 'history'> & {
  lobby: Patch<ServerRaw['lobby'], 'tables', TableInfo[]>;
  'lobby.table': Patch<ServerRaw['lobby.table'], 'table', TableInfo>;
  'table.snapshot': Patch<ServerRaw['table.snapshot'], 'table', TableView>;
  'table.event': Patch<ServerRaw['table.event'], 'event', TableEvent>;
  history: Patch<ServerRaw['history'], 'hands', HistoryHand[]>;
};
export type ServerMessage = { [K in ServerType]: ServerMessageMap[K] }[ServerType];
export type ServerMessageOf<K extends ServerType> = ServerMessageMap[K];
export const serverMessageSchema: Schema<ServerMessage> = union<ServerMessage>('type', allServerVariants);
export type ErrorMessage = ServerMessageOf<'error'>;
export type ActionResultMessage = ServerMessageOf<'table.actionResult'>;
