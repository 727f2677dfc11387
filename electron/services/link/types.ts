/**
 * The operator link's public types (link.ts and its parts: connection.ts, requests.ts, outbox.ts,
 * streams.ts, and the requests of each domain).
 */
import type { LinkWhy } from '../../../shared/api/contract';
import type { ProtectionDetails } from '../../../shared/protocol/cashier';
import type { ErrorCode } from '../../../shared/protocol/codes';
import { refusalDetails } from '../../../shared/protocol/refusal';
import type { PlayConditions } from '../../../shared/protocol/conditions';
import type { ClientMessage, ServerMessage, ServerMessageOf, TableInfo } from '../../../shared/protocol/messages';
import type { BackoffOptions } from './backoff';
import type { TableChange, TableModel } from './table';

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'update-required';

export interface LinkStatus {
  state: LinkState;
  /** Attempts since the link was last connected (0 while connected). */
  attempt: number;
  /** reconnecting: the wait before the next attempt. */
  retryInMs: number | null;
  /** Why the link is offline or dropped, for the player (worded in their language by the renderer). */
  why: LinkWhy | null;
  /** The same in English with its detail, for the logs. */
  reason: string | null;
  /** update-required: the client version the operator needs. */
  minVersion: string | null;
}

/** Refusals made by the link itself, beside the operator's error codes. */
export type LinkCode =
  | 'OFFLINE' // the link is closed or gave up: nothing was sent
  | 'DISCONNECTED' // the connection dropped before the answer: it may or may not have been applied
  | 'TIMEOUT' // no answer in time
  | 'STALE'; // an action not sent again after a reconnection: the hand moved on without it

export interface Refused {
  ok: false;
  code: ErrorCode | LinkCode;
  message: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
  retryAfterMs?: number;
  minVersion?: string;
  tableId?: string;
  /** A cashier or protection refusal's details (the limit, what is used, when room frees up). */
  details?: ProtectionDetails;
  /** Refused on this machine, before anything was sent (the rules engine, SPEC.md §1). */
  local?: boolean;
}

export type Reply<T> = ({ ok: true } & T) | Refused;

/** How a domain's requests reach the operator (requests.ts, through the link). */
export type SendRequest = (body: Request, timeoutMs?: number) => Promise<ServerMessage | Refused>;

/** Sends `body` and gives its answer as a `Reply` of the message type `K` the operator answers with. */
export async function askWith<K extends ServerMessage['type']>(request: SendRequest, body: Request): Promise<Reply<ServerMessageOf<K>>> {
  return replyOf<K>(await request(body));
}

/** A request's answer as a `Reply`: the operator's message marked `ok: true`, or the refusal as it came (it has no `type`). */
export function replyOf<K extends ServerMessage['type']>(r: ServerMessage | Refused): Reply<ServerMessageOf<K>> {
  if ('ok' in r && r.ok === false && !('type' in r)) return r;
  return { ...(r as ServerMessageOf<K>), ok: true };
}

export type ActResult = { ok: true; actionId: string; replayed: boolean } | (Refused & { actionId: string; replayed?: boolean });

export interface LinkEvents {
  state: LinkStatus;
  /** Authenticated (guest, login, register, resume), also after each automatic resume. */
  authed: ServerMessageOf<'authed'>;
  /** The session token changed: keep it (safeStorage in main) to resume later; null when it ended. */
  session: { token: string | null };
  /** The operator no longer knows the session (expired, revoked): log in again. */
  'signed-out': { code: string };
  lobby: TableInfo[];
  /** The operator's conditions of play, served with the lobby (R-RULES). */
  conditions: PlayConditions;
  'lobby.table': TableInfo;
  /**
   * A table model was made (a seat taken or found on resume), before any frame reaches it: the
   * client core feeds it the tracker here (`model.feed`), the transport never holds the tracker.
   */
  model: TableModel;
  table: { tableId: string; model: TableModel; change: TableChange };
  /**
   * The operator's news of one of the player's tournaments: where they sit (the new
   * table's stream follows; the old table's model has ended), its state and their standing, their finish.
   */
  tournament: ServerMessageOf<'tournament.seat' | 'tournament.state' | 'tournament.finished'>;
  /** Every valid message, after the link handled it. */
  message: ServerMessage;
  /** Something went wrong that the link handled (a bad frame, an operator error without request). */
  problem: { kind: 'bad-frame' | 'operator-error' | 'pin' | 'internal'; message: string };
}

export interface OperatorLinkOptions {
  /** `wss://host:port` (TLS only: the pin is the trust). */
  url: string;
  /** Accepted public keys, `sha256/<base64>` (one or more). */
  pins: readonly string[];
  /** This client's version (`major.minor.patch`), sent in `hello`. */
  clientVersion: string;
  /** A session to resume on connecting (the embedded guest, a kept login). */
  token?: string | null;
  backoff?: Partial<BackoffOptions>;
  /** Give up (offline) after this many failed attempts in a row; default never. */
  maxAttempts?: number;
  /** Ping after this long without a frame; drop the connection after `timeoutMs` without one. */
  heartbeat?: { intervalMs?: number; timeoutMs?: number };
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Pages of the operator history read at most to find hands missed while away. */
  backfillPages?: number;
  now?: () => number;
  random?: () => number;
  log?: (line: string) => void;
}

/** A request without its `rid` (the link numbers requests). */
export type Request = ClientMessage extends infer M ? (M extends { rid: number } ? Omit<M, 'rid'> : never) : never;

/** An operator error (or a refused action result) as the link's refusal value. */
export function refusal(m: Omit<Refused, 'ok' | 'local' | 'code'> & { code: ErrorCode }): Refused {
  // The refusal's details through the one converter (shared/protocol/refusal.ts); the link's own fields after.
  const r: Refused = { ok: false, code: m.code, message: m.message, ...refusalDetails(m) };
  if (m.retryAfterMs !== undefined) r.retryAfterMs = m.retryAfterMs;
  if (m.minVersion !== undefined) r.minVersion = m.minVersion;
  if (m.tableId !== undefined) r.tableId = m.tableId;
  return r;
}
