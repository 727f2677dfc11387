/**
 * Error codes of the wire: stable strings the client branches on and translates (the `message` that
 * comes with them is for logs). Adding a code is compatible; renaming or removing one is a protocol
 * change (version.ts).
 */
import { PROTECTION_ERROR_CODES } from './cashier';

export const ERROR_CODES = [
  // The frame itself.
  'BAD_MESSAGE', // not JSON, or not a message of the protocol (wrong field, wrong type)
  'UNKNOWN_TYPE', // a JSON object whose `type` the protocol does not have
  'FRAME_TOO_LARGE', // longer than MAX_CLIENT_FRAME_BYTES
  'RATE_LIMITED', // too many messages on this connection, or too many failed logins
  // Handshake and session.
  'HELLO_REQUIRED', // the first message must be `hello`
  'UPDATE_REQUIRED', // the client (or its protocol) is older than the operator accepts: `minVersion`
  'AUTH_REQUIRED', // this message needs an authenticated session
  'ALREADY_AUTHENTICATED',
  'INVALID_CREDENTIALS',
  'INVALID_USERNAME',
  'USERNAME_TAKEN',
  'NAME_WHILE_SEATED', // a nickname changes only while the account is seated at no table
  'WEAK_PASSWORD',
  'INVALID_SESSION',
  'SESSION_EXPIRED',
  'SESSION_REPLACED', // the same account connected again elsewhere; this connection is closed
  // Tables.
  'UNKNOWN_TABLE',
  'TABLE_FULL',
  'ALREADY_SEATED', // R-ONEHAND: one seat per player per table
  'NOT_SEATED',
  'WATCH_LIMIT', // `table.watch` past the tables a connection may watch at once (MAX_WATCHED)
  'BUY_IN_RANGE', // buy-in or top-up outside the table's min/max
  'INSUFFICIENT_FUNDS', // R-NODEBT
  'SAME_ADDRESS', // R-NOBOT: another account from this address sits at the table
  'SEAT_ELSEWHERE', // R-NOBOT: the seat is held by this account's connection from another address (a refused rebind)
  'REAL_MONEY_FORBIDDEN', // a guest account at a real-money table
  'NOT_SITTING_OUT',
  'ALREADY_SITTING_OUT',
  'NO_CHIPS',
  'RULES_CHANGED', // R-INFO: the join confirmed rules that are no longer the table's (`rulesVersion`); read them again
  // Tournaments.
  'UNKNOWN_TOURNAMENT',
  'REGISTRATION_CLOSED', // before the start, or after late registration (R-TOURN-LEAVE)
  'ALREADY_REGISTERED',
  'NOT_REGISTERED',
  'TOURNAMENT_FULL',
  // Actions.
  'NO_HAND', // no hand in progress, or the player is not in it
  'NOT_YOUR_TURN',
  'ILLEGAL_ACTION', // refused by the rules engine: `rule` names the requirement
  'ACTION_ID_REUSED', // an action id already used for a different action
  // History.
  'BAD_CURSOR',
  // The operator.
  'SHUTTING_DOWN',
  'INTERNAL',
  // The cashier and the protection duties.
  ...PROTECTION_ERROR_CODES,
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
