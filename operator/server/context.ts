/**
 * What every connection of the wire server shares (`ServerContext`), and the few questions about it
 * that both the connection (its life: authentication, re-attaching seats) and its routes (routes/)
 * ask. The connection is seen here only through `LiveConnection`, so that this module, connection.ts
 * and the routes import one another in one direction (no import cycle: tests/lint/cycles.test.ts).
 */
import type { WebSocket } from 'ws';
import type { ServerMessage } from '../../shared/protocol/messages';
import type { AccountView, Accounts } from '../accounts';
import type { Cashier } from '../cashier/cashier';
import type { HandHistoryStore } from '../history/history';
import type { Lobby } from '../lobby/lobby';
import type { Protection } from '../protection/service';
import type { TableManager } from '../tables/manager';
import type { Table } from '../tables/table';
import type { TournamentHub } from '../tournaments/hub';
import type { Wallet } from '../wallet';
import type { KeyedBuckets, RateLimit } from './ratelimit';
import type { KeptWatches } from './watches';

/** A connection as the server, the tournaments and another connection of the same account see it. */
export interface LiveConnection {
  readonly ws: WebSocket;
  readonly ip: string;
  /** Answered the last heartbeat ping (server.ts drops one that did not). */
  alive: boolean;
  readonly account: AccountView | null;
  send(message: ServerMessage): void;
  sendRaw(frame: string): void;
  /** Follows a tournament table the player was seated at or moved to. */
  follow(t: Table): void;
  onClose(): void;
  /**
   * Another connection of the same account took over (`SESSION_REPLACED`): this one closes, and gives
   * the tables it watched when the newcomer resumes this same session (`sessionId`), else none.
   */
  replacedBy(sessionId: string | null): string[];
}

export interface ServerContext {
  accounts: Accounts;
  wallet: Wallet;
  /** Deposits and withdrawals (R-CASHIER; cashier/cashier.ts). */
  cashier: Cashier;
  /** Limits, self-exclusion, playing time (protection/service.ts). */
  protection: Protection;
  manager: TableManager;
  /** The operator's tournaments; absent: none offered. */
  tournaments?: TournamentHub;
  lobby: Lobby;
  history: HandHistoryStore;
  /** Clients older than this are told `UPDATE_REQUIRED`. */
  minClientVersion: string;
  serverVersion: string;
  heartbeatMs: number;
  rateLimit: RateLimit;
  /** Account creation (guests, registrations) per address and overall. */
  signup: { perAddress: KeyedBuckets; global: KeyedBuckets };
  /** Play chips given to a new account (guest or registered). */
  welcomePlayChips: number;
  now: () => number;
  byAccount: Map<number, LiveConnection>;
  /**
   * Tables an account watched when its connection dropped, kept for a `resume` of the same session
   * (watching survives a break in the link; KeptWatches).
   */
  keptWatches: KeptWatches;
  connections: Set<LiveConnection>;
  closing: boolean;
  log: (line: string) => void;
}

/** A cash table or a running tournament's table by id. */
export function findTable(ctx: ServerContext, tableId: string): Table | undefined {
  return ctx.manager.get(tableId) ?? ctx.tournaments?.table(tableId);
}

/** Every table where the account sits: cash tables and tournament tables. */
export function seatsOf(ctx: ServerContext, accountId: number): Table[] {
  return [...ctx.manager.tablesOf(accountId), ...(ctx.tournaments?.tablesOf(accountId) ?? [])];
}

/** The account's two balances: real money and play chips (R-NODEBT keeps both ≥ 0). */
export function balancesOf(ctx: ServerContext, accountId: number): { real: number; play: number } {
  return { real: ctx.wallet.balance(accountId, 'real'), play: ctx.wallet.balance(accountId, 'play') };
}
