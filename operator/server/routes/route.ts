/**
 * A client message's route (docs/protocol.md): the state a connection must be in for it, and its
 * handler. `RouteMap` has one route per client message type, checked by the compiler: a message type
 * added to shared/protocol without its route, or a route for a type that does not exist, fails
 * `npm run typecheck`. The routes live one file per domain beside this one (index.ts joins them).
 *
 * A route sees its connection only through `RoutedConnection`, what the connection lends it: its
 * context, its identity, its sends and the few pieces of its state a request changes.
 */
import type { ProtectionDetails } from '../../../shared/protocol/cashier';
import type { ErrorCode } from '../../../shared/protocol/codes';
import type { ClientMessage, ClientMessageOf, ClientType, ServerMessage } from '../../../shared/protocol/messages';
import type { AccountView } from '../../accounts';
import type { Table } from '../../tables/table';
import type { ServerContext } from '../context';

/** What an `error` frame may carry beside its code and message. */
export type Extra = { rule?: string; minVersion?: string; retryAfterMs?: number; tableId?: string; min?: number; max?: number; call?: number; details?: ProtectionDetails };

/** A new session for this connection: what `bind` needs of an authentication. */
export interface Binding {
  account: AccountView;
  sessionId: string;
  token: string;
  expiresAt: number;
  /** resume: the last `seq` the client has of each table, for the frames it missed. */
  since: Map<string, number>;
  /** A resume of a kept session: its token is not sent again, its watches come back. */
  resumed: boolean;
}

export interface RoutedConnection {
  readonly ctx: ServerContext;
  readonly ip: string;
  readonly account: AccountView | null;
  /** The session signed in on this connection (null before and after). */
  readonly sessionId: string | null;
  /** The socket is gone (a request that waited on a provider or a password check stops there). */
  readonly closed: boolean;
  /** Tables whose seat this connection holds (R-NOBOT: a seat acts only through the connection that holds it). */
  readonly holds: Set<Table>;
  /** Tables followed without a seat (`table.watch`). */
  readonly watched: Set<Table>;
  send(message: ServerMessage): void;
  sendRaw(frame: string): void;
  error(rid: number | null, code: ErrorCode, message: string, extra?: Extra): void;
  /** The table as this connection's account sees it, as a `table.snapshot` frame. */
  sendSnapshot(t: Table, rid: number | null): void;
  /** The account is this connection's: `authed`, then its seats and watches re-attached. */
  bind(rid: number, b: Binding): void;
  /** `logout`: the session ends, its seats go on without this connection. */
  signOut(): void;
  /** The account's name changed (`account.rename`). */
  renamed(account: AccountView): void;
  /** Replaces the lobby feed (the previous one is unsubscribed); null: none. */
  setLobbyFeed(unsubscribe: (() => void) | null): void;
}

type Result = void | Promise<void>;

/**
 * `open`: any time after `hello`; `anon`: only before authentication (else ALREADY_AUTHENTICATED);
 * `account`: only after it (else AUTH_REQUIRED), the handler given the signed-in account.
 */
export type Route<M extends ClientMessage> =
  | { readonly when: 'open'; handle(m: M, c: RoutedConnection): Result }
  | { readonly when: 'anon'; handle(m: M, c: RoutedConnection): Result }
  | { readonly when: 'account'; handle(m: M, c: RoutedConnection, account: AccountView): Result };

/** Routes for the message types `K` (a domain's file exports one of these). */
export type Routes<K extends ClientType> = { readonly [T in K]: Route<ClientMessageOf<T>> };

/** Every client message type's route. */
export type RouteMap = Routes<ClientType>;

/** A route needing the signed-in account. */
export function authed<K extends ClientType>(handle: (m: ClientMessageOf<K>, c: RoutedConnection, account: AccountView) => Result): Route<ClientMessageOf<K>> {
  return { when: 'account', handle };
}
