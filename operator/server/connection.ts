/**
 * One client connection, as a state machine:
 *
 *   hello ──hello──▶ anon ──guest | register | login | resume──▶ authed ──logout──▶ anon
 *     (anything else: HELLO_REQUIRED)   (table, lobby, history: AUTH_REQUIRED)
 *
 * Every frame is size-checked, rate-limited (ratelimit.ts) and validated (`parseClientMessage`) before
 * anything acts on it; a refusal is an `error` frame with a stable code and the request's `rid`, and
 * the connection stays open. Requests are handled one after another (a login's password check is
 * asynchronous; what follows it waits).
 *
 * On authentication the player's tables are re-attached: for each table where the account holds a
 * seat, the frames missed since the `lastSeq` the client gave (resume) when they are still kept, else
 * a full snapshot; then the live stream. A second connection of the same account replaces the first
 * (`SESSION_REPLACED`).
 */
import type { RawData, WebSocket } from 'ws';
import type { ProtectionDetails } from '../../shared/protocol/cashier';
import type { ErrorCode } from '../../shared/protocol/codes';
import { ERROR_CODES } from '../../shared/protocol/codes';
import type { ClientMessage, ClientMessageOf, ServerMessage } from '../../shared/protocol/messages';
import { parseClientMessage, requestRid } from '../../shared/protocol/parse';
import { refusalDetails } from '../../shared/protocol/refusal';
import { compareVersions, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { AccountView, Accounts } from '../accounts';
import type { Cashier, PaymentView } from '../cashier/cashier';
import { PROTECTION_RULES } from '../protection/rules';
import type { Protection } from '../protection/service';
import type { Lobby } from '../lobby/lobby';
import type { HandHistoryStore } from '../history/history';
import type { TableManager } from '../tables/manager';
import type { Table } from '../tables/table';
import type { TableRefusal } from '../tables/types';
import type { TournamentHub } from '../tournaments/hub';
import type { Wallet } from '../wallet';
import { addressKey } from '../login-throttle';
import { TokenBucket, type KeyedBuckets, type RateLimit } from './ratelimit';
import { closeAccount, stopPlay } from './closure';
import { tournamentRequest } from './tournament-requests';
import { MAX_WATCHED, type KeptWatches } from './watches';

/** What every connection shares. */
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
  byAccount: Map<number, Connection>;
  /**
   * Tables an account watched when its connection dropped, kept for a `resume` of the same session
   * (watching survives a break in the link; KeptWatches).
   */
  keptWatches: KeptWatches;
  connections: Set<Connection>;
  closing: boolean;
  log: (line: string) => void;
}

function frameText(data: RawData): string {
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
}

/** Most bytes waiting to be sent before a client is considered stuck and dropped (it may resume). */
const MAX_BUFFERED = 16 * 1024 * 1024;

type Extra = { rule?: string; minVersion?: string; retryAfterMs?: number; tableId?: string; min?: number; max?: number; call?: number; details?: ProtectionDetails };

/** A refusal of the cashier or the protection service as the wire says it: its code, rule and details. */
function protectionError(r: { code: string; message: string } & Record<string, unknown>): { code: ErrorCode; message: string; extra: Extra } {
  const code: ErrorCode =
    r.code === 'GUEST_REAL_MONEY' ? 'REAL_MONEY_FORBIDDEN' : r.code === 'INVALID_REQUEST' ? 'BAD_MESSAGE' : (ERROR_CODES as readonly string[]).includes(r.code) ? (r.code as ErrorCode) : 'INTERNAL';
  const details: Record<string, unknown> = {};
  if (typeof r.limit === 'string') details.limitKind = r.limit;
  else if (typeof r.limit === 'number') details.limit = r.limit;
  for (const k of ['used', 'freeAt', 'until', 'withdrawable', 'atTables'] as const) if (r[k] !== undefined) details[k] = r[k];
  const extra: Extra = {};
  if (PROTECTION_RULES[code] !== undefined) extra.rule = PROTECTION_RULES[code];
  // An account the player closed, or closed by their permanent exclusion: R-EXCLUDE, not R-BANNED.
  if (code === 'ACCOUNT_CLOSED' && r.reason !== undefined && r.reason !== 'banned') extra.rule = 'R-EXCLUDE';
  if (Object.keys(details).length > 0) extra.details = details as ProtectionDetails;
  return { code, message: r.message, extra };
}

export class Connection {
  state: 'hello' | 'anon' | 'authed' | 'closed' = 'hello';
  account: AccountView | null = null;
  private sessionId: string | null = null;
  private token: string | null = null;
  private expiresAt = 0;
  private unsubscribeLobby: (() => void) | null = null;
  /**
   * Tables whose seat this connection holds: joined here, rejoined at sign-in (the seat took this
   * connection's address), or followed after a tournament's seating. R-NOBOT, D art. 2: a seat acts only
   * through the connection that holds it; one whose rebind was refused (another account plays there
   * from this address) does not act for it.
   */
  private readonly holds = new Set<Table>();
  /** Tables followed without a seat (`table.watch`). */
  private readonly watched = new Set<Table>();
  private queue: Promise<void> = Promise.resolve();
  private readonly bucket: TokenBucket;
  alive = true;

  constructor(
    private readonly ctx: ServerContext,
    readonly ws: WebSocket,
    readonly ip: string,
    /** Told when `hello` is accepted (the server's hello deadline stops: gate.ts). */
    private readonly onHello: () => void = () => undefined,
  ) {
    this.bucket = new TokenBucket(ctx.rateLimit, ctx.now);
  }

  // -------------------------------------------------------------------------------------------
  // Frames in and out

  onFrame(data: RawData, isBinary: boolean): void {
    if (this.state === 'closed') return;
    const verdict = this.bucket.take();
    if (verdict === 'close') {
      this.error(null, 'RATE_LIMITED', 'too many messages: closing the connection');
      this.ws.close(1008, 'rate limit');
      return;
    }
    if (verdict === 'refuse') {
      // With the frame's rid: the request it refuses is answered (requestRid, docs/protocol.md "Limits").
      this.error(isBinary ? null : requestRid(frameText(data)), 'RATE_LIMITED', 'too many messages: slow down');
      return;
    }
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
    if (bytes > MAX_CLIENT_FRAME_BYTES) {
      this.error(null, 'FRAME_TOO_LARGE', `a frame is at most ${MAX_CLIENT_FRAME_BYTES} bytes`);
      return;
    }
    if (isBinary) {
      this.error(null, 'BAD_MESSAGE', 'messages are JSON text frames');
      return;
    }
    const text = frameText(data);
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.error(parsed.rid, parsed.code, parsed.message);
      return;
    }
    const message = parsed.message;
    this.queue = this.queue
      .then(() => this.handle(message))
      .catch((e: unknown) => {
        this.ctx.log(`connection ${this.ip}: ${(e as Error)?.stack ?? String(e)}`);
        this.error('rid' in message ? message.rid : null, 'INTERNAL', 'the operator could not handle this request');
      });
  }

  send(message: ServerMessage): void {
    this.sendRaw(JSON.stringify(message));
  }

  sendRaw(frame: string): void {
    if (this.state === 'closed' || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.terminate();
      return;
    }
    this.ws.send(frame);
  }

  private error(rid: number | null, code: ErrorCode, message: string, extra: Extra = {}): void {
    this.send({ type: 'error', rid, code, message, ...extra });
  }

  private refuse(rid: number, r: TableRefusal, tableId: string): void {
    this.error(rid, r.code, r.message, { tableId, ...refusalDetails(r) });
  }

  // -------------------------------------------------------------------------------------------
  // The state machine

  private async handle(m: ClientMessage): Promise<void> {
    if (this.state === 'closed') return;
    if (this.ctx.closing) {
      this.error('rid' in m ? m.rid : null, 'SHUTTING_DOWN', 'the operator is shutting down');
      return;
    }
    if (this.state === 'hello') {
      if (m.type !== 'hello') return this.error('rid' in m ? m.rid : null, 'HELLO_REQUIRED', 'the first message is hello');
      return this.hello(m);
    }
    switch (m.type) {
      case 'hello':
        return this.error(null, 'BAD_MESSAGE', 'hello was already received');
      case 'ping':
        return this.send({ type: 'pong', t: m.t, time: this.ctx.now() });
      case 'guest':
      case 'register':
      case 'login':
      case 'resume':
        if (this.state === 'authed') return this.error(m.rid, 'ALREADY_AUTHENTICATED', 'log out first');
        return this.authenticate(m);
    }
    if (this.state !== 'authed' || this.account === null) return this.error(m.rid, 'AUTH_REQUIRED', 'log in first');
    const account = this.account;
    switch (m.type) {
      case 'logout':
        if (this.token !== null) this.ctx.accounts.logout(this.token);
        // A watch ends with the session (nothing kept for a resume: the token is revoked).
        this.ctx.keptWatches.take(account.id, null);
        this.unbind();
        this.state = 'anon';
        return this.send({ type: 'ok', rid: m.rid });
      case 'balance':
        return this.send({ type: 'balance', rid: m.rid, balances: this.balances(account.id) });
      case 'account.rename': {
        // Seats, hand histories and the table streams name a player by username, so it
        // changes only while the account sits nowhere (no hand is ever written under two names).
        if (this.seatsOf(account.id).length > 0) return this.error(m.rid, 'NAME_WHILE_SEATED', 'leave your tables before changing your name');
        const r = this.ctx.accounts.rename(account.id, m.username);
        if (!r.ok) return this.error(m.rid, r.code, r.message);
        this.account = r.account;
        return this.send({ type: 'account', rid: m.rid, account: { id: r.account.id, username: r.account.username, guest: r.account.guest } });
      }
      case 'lobby.subscribe':
        this.unsubscribeLobby?.();
        this.send({ type: 'lobby', rid: m.rid, tables: this.ctx.lobby.list(), conditions: this.ctx.lobby.conditions });
        this.unsubscribeLobby = this.ctx.lobby.subscribe((frame) => this.sendRaw(frame));
        return;
      case 'lobby.unsubscribe':
        this.unsubscribeLobby?.();
        this.unsubscribeLobby = null;
        return this.send({ type: 'ok', rid: m.rid });
      case 'history': {
        const page = this.ctx.history.page(account.id, m.cursor, m.limit);
        if (!page.ok) return this.error(m.rid, 'BAD_CURSOR', 'not a cursor of this history');
        return this.send({ type: 'history', rid: m.rid, hands: page.hands, next: page.next });
      }
      case 'cashier.deposit':
      case 'cashier.withdraw':
        // The provider may take its time (up to the cashier's timeout): the payment is answered when it
        // is done, while the connection's other requests (a table action on the clock) go on.
        void this.payment(m, account.id).catch((e: unknown) => {
          this.ctx.log(`connection ${this.ip}: ${(e as Error)?.stack ?? String(e)}`);
          this.error(m.rid, 'INTERNAL', 'the operator could not handle this payment; see your movements');
        });
        return;
      case 'cashier.movements': {
        const before = m.before === null ? undefined : Number(m.before.slice('cercle-'.length));
        const payments: PaymentView[] = this.ctx.cashier.payments(account.id, { beforeId: before, limit: m.limit });
        const next = payments.length === m.limit ? payments[payments.length - 1]!.paymentId : null;
        return this.send({ type: 'cashier.movements', rid: m.rid, payments, next });
      }
      case 'protection.get':
        return this.sendProtection(m.rid, account.id);
      case 'protection.setLimit': {
        const now = this.ctx.now();
        const r = this.ctx.protection.setLimit(account.id, m.limit, m.value, now);
        if (!r.ok) return this.refuseProtection(m.rid, r);
        return this.sendProtection(m.rid, account.id, now);
      }
      case 'protection.exclude': {
        // R-EXCLUDE: confirmed twice on the client; `confirm: true` is required by the schema.
        const now = this.ctx.now();
        const r = this.ctx.protection.exclude(account.id, m.choice, now);
        if (!r.ok) return this.refuseProtection(m.rid, r);
        // At once everywhere: cash seats after the hand in progress, tournaments (closure.ts); a
        // permanent exclusion closes the account (withdrawal and history stay open).
        if (r.exclusion.until === null) closeAccount(this.ctx, account.id, 'excluded-permanently');
        else stopPlay(this.ctx, account.id, 'self-excluded');
        return this.sendProtection(m.rid, account.id, now);
      }
      case 'account.close':
        // R-EXCLUDE: "a player can also close their account themselves"; confirmed twice on the client.
        closeAccount(this.ctx, account.id, 'closed-by-player');
        return this.sendProtection(m.rid, account.id);
      case 'table.watch':
        return this.watch(m, account.id);
      case 'table.unwatch': {
        const t = this.findTable(m.tableId);
        const was = [...this.watched].find((x) => x.tableId === m.tableId);
        if (!t && !was) return this.error(m.rid, 'UNKNOWN_TABLE', `no table ${m.tableId}`, { tableId: m.tableId });
        if (was) this.watched.delete(was);
        (t ?? was)!.unwatch(account.id);
        return this.send({ type: 'ok', rid: m.rid });
      }
      case 'tournament.list':
      case 'tournament.details':
      case 'tournament.register':
      case 'tournament.unregister':
      case 'tournament.rebuy':
      case 'tournament.addOn':
      case 'tournament.results':
        return tournamentRequest(m, { hub: this.ctx.tournaments, account, ip: this.ip, sessionId: this.sessionId!, send: (x) => this.send(x), error: (rid, code, message, extra) => this.error(rid, code, message, extra) });
      default:
        return this.tableRequest(m, account);
    }
  }

  private async payment(m: ClientMessageOf<'cashier.deposit' | 'cashier.withdraw'>, accountId: number): Promise<void> {
    const ask = { requestId: m.requestId, amount: m.amount, card: m.card };
    const r = m.type === 'cashier.deposit' ? await this.ctx.cashier.deposit(accountId, ask) : await this.ctx.cashier.withdraw(accountId, ask);
    if (this.state === 'closed' || this.ctx.closing) return;
    if (!r.ok) return this.refuseProtection(m.rid, r);
    this.send({
      type: 'cashier.payment',
      rid: m.rid,
      payment: r.payment,
      replayed: r.replayed,
      balances: this.balances(accountId),
      withdrawable: this.ctx.cashier.withdrawable(accountId),
    });
  }

  private refuseProtection(rid: number, r: { code: string; message: string }, tableId?: string): void {
    const e = protectionError(r as { code: string; message: string } & Record<string, unknown>);
    if (tableId !== undefined) e.extra.tableId = tableId;
    this.error(rid, e.code, e.message, e.extra);
  }

  private sendProtection(rid: number, accountId: number, now = this.ctx.now()): void {
    const v = this.ctx.protection.view(accountId, now);
    const account = this.ctx.accounts.getAccount(accountId);
    this.send({
      type: 'protection',
      rid,
      protection: { ...v, identified: account?.identified ?? false, withdrawable: this.ctx.cashier.withdrawable(accountId) },
    });
  }

  /** A cash table or a running tournament's table by id. */
  private findTable(tableId: string): Table | undefined {
    return this.ctx.manager.get(tableId) ?? this.ctx.tournaments?.table(tableId);
  }

  /**
   * `table.watch`: any table, cash or tournament, followed without a seat: `ok`, its
   * snapshot as no seat sees it, then its stream (never a hidden card: R-HIDDEN). At most
   * MAX_WATCHED tables per connection (the client tiles 24); a seat is not affected.
   */
  private watch(m: ClientMessageOf<'table.watch'>, accountId: number): void {
    const t = this.findTable(m.tableId);
    if (!t) return this.error(m.rid, 'UNKNOWN_TABLE', `no table ${m.tableId}`, { tableId: m.tableId });
    if (t.isSeated(accountId)) return this.error(m.rid, 'ALREADY_SEATED', 'you have a seat at this table: its stream is yours already', { tableId: t.tableId });
    // Tables gone, or where the account took a seat since, no longer count.
    for (const x of [...this.watched]) if (!x.isWatching(accountId)) this.watched.delete(x);
    if (!this.watched.has(t) && this.watched.size >= MAX_WATCHED) {
      // Its own code: a limit on tables watched, not the message rate RATE_LIMITED says.
      return this.error(m.rid, 'WATCH_LIMIT', `at most ${MAX_WATCHED} tables are watched at once: stop watching one first`, { tableId: t.tableId });
    }
    const snap = t.watch(accountId, (frame) => this.sendRaw(frame));
    if (!snap) return this.error(m.rid, 'SHUTTING_DOWN', 'the table is closing', { tableId: t.tableId });
    this.watched.add(t);
    this.send({ type: 'ok', rid: m.rid });
    this.send({ type: 'table.snapshot', rid: null, tableId: t.tableId, seq: snap.seq, table: snap.table });
  }

  /** Watching stops with the connection (a disconnection, a logout, a replacement): it never outlives it. */
  private unwatchAll(accountId: number): void {
    for (const t of this.watched) t.unwatch(accountId);
    this.watched.clear();
  }

  /** Every table where the account sits: cash tables and tournament tables. */
  private seatsOf(accountId: number): Table[] {
    return [...this.ctx.manager.tablesOf(accountId), ...(this.ctx.tournaments?.tablesOf(accountId) ?? [])];
  }

  /** This connection follows a tournament table the player was seated at or moved to. */
  follow(t: Table): void {
    if (this.state !== 'authed' || this.account === null) return;
    this.sendSnapshot(t, null);
    this.holds.add(t);
    t.attach(this.account.id, (frame) => this.sendRaw(frame));
  }

  // -------------------------------------------------------------------------------------------
  // Tournaments

  private hello(m: ClientMessageOf<'hello'>): void {
    const min = this.ctx.minClientVersion;
    if (m.protocol < PROTOCOL_VERSION || compareVersions(m.client, min) < 0) {
      this.error(null, 'UPDATE_REQUIRED', `this operator needs protocol ${PROTOCOL_VERSION} and Cercle ${min} or later`, { minVersion: min });
      this.ws.close(4000, 'update required');
      this.state = 'closed';
      return;
    }
    this.state = 'anon';
    this.onHello();
    this.send({
      type: 'welcome',
      protocol: PROTOCOL_VERSION,
      server: this.ctx.serverVersion,
      heartbeatMs: this.ctx.heartbeatMs,
      maxFrameBytes: MAX_CLIENT_FRAME_BYTES,
      time: this.ctx.now(),
    });
  }

  private welcomeGrant(accountId: number): void {
    if (this.ctx.welcomePlayChips <= 0) return;
    const r = this.ctx.wallet.grantPlay(accountId, this.ctx.welcomePlayChips, { idempotencyKey: `grant:welcome:${accountId}` });
    if (!r.ok) throw new Error(`welcome grant refused: ${r.code}`);
  }

  private async authenticate(m: ClientMessageOf<'guest' | 'register' | 'login' | 'resume'>): Promise<void> {
    const a = this.ctx.accounts;
    if (m.type === 'guest' || m.type === 'register') {
      // A new account (and its welcome chips) is rationed per address and overall,
      // before any work (a registration's scrypt) is done.
      const key = addressKey(this.ip) ?? this.ip;
      const wait = Math.max(this.ctx.signup.perAddress.wait(key), this.ctx.signup.global.wait(''));
      if (wait > 0) return this.error(m.rid, 'RATE_LIMITED', `too many new accounts; try again in ${Math.ceil(wait / 1000)} s`, { retryAfterMs: wait });
      this.ctx.signup.perAddress.take(key);
      this.ctx.signup.global.take('');
    }
    switch (m.type) {
      case 'guest': {
        const g = a.createGuest({ ip: this.ip });
        if (!g.ok) return this.error(m.rid, 'INTERNAL', g.message);
        this.welcomeGrant(g.account.id);
        return this.bind(m.rid, g.account, g.session.sessionId, g.session.token, g.session.expiresAt, new Map());
      }
      case 'register': {
        const r = await a.register(m.username, m.password, m.identity);
        if (!r.ok) return this.error(m.rid, r.code as ErrorCode, r.message, PROTECTION_RULES[r.code] ? { rule: PROTECTION_RULES[r.code] } : {});
        this.welcomeGrant(r.account.id);
        return this.login(m.rid, m.username, m.password);
      }
      case 'login':
        return this.login(m.rid, m.username, m.password);
      case 'resume': {
        const r = a.authenticate(m.token);
        if (!r.ok) return this.error(m.rid, r.code, r.message);
        const since = new Map(m.tables.map((t) => [t.tableId, t.lastSeq]));
        return this.bind(m.rid, r.account, r.session.sessionId, m.token, r.session.expiresAt, since, false, true);
      }
    }
  }

  private async login(rid: number, username: string, password: string): Promise<void> {
    const r = await this.ctx.accounts.login(username, password, { ip: this.ip });
    if (this.state === 'closed') return;
    if (!r.ok) {
      if (r.code === 'RATE_LIMITED') return this.error(rid, 'RATE_LIMITED', r.message, { retryAfterMs: (r as { retryAfterMs: number }).retryAfterMs });
      if (r.code === 'INVALID_ADDRESS') return this.error(rid, 'INTERNAL', r.message);
      return this.error(rid, r.code as ErrorCode, r.message);
    }
    this.bind(rid, r.account, r.session.sessionId, r.session.token, r.session.expiresAt, new Map());
  }

  private balances(accountId: number): { real: number; play: number } {
    return { real: this.ctx.wallet.balance(accountId, 'real'), play: this.ctx.wallet.balance(accountId, 'play') };
  }

  /** The account is this connection's: its seats are re-attached, with missed frames or snapshots. */
  private bind(rid: number, account: AccountView, sessionId: string, token: string, expiresAt: number, since: Map<string, number>, giveToken = true, resumed = false): void {
    if (this.state === 'closed') return;
    // Watches the same session held: kept when its connection dropped, or still on
    // an old connection the operator has not seen drop yet (a half-open socket this resume replaces).
    // A login (a new session) starts with none.
    const kept = this.ctx.keptWatches.take(account.id, resumed ? sessionId : null);
    const prev = this.ctx.byAccount.get(account.id);
    if (prev && prev !== this) {
      if (resumed && prev.sessionId === sessionId) kept.push(...prev.watchedIds());
      prev.replaced();
    }
    this.ctx.byAccount.set(account.id, this);
    this.account = account;
    this.sessionId = sessionId;
    this.token = token;
    this.expiresAt = expiresAt;
    this.state = 'authed';
    // Each seat takes this connection's address and session, R-NOBOT permitting; a
    // table where another account plays from this address is not rejoined (its seat waits out the
    // grace period, then leaves with its stack: R-CASH).
    const refused: { t: Table; r: TableRefusal }[] = [];
    const tables = this.seatsOf(account.id).filter((t) => {
      const r = t.rebind(account.id, { ip: this.ip, sessionId });
      if (r.ok) return true;
      refused.push({ t, r });
      t.detach(account.id);
      return false;
    });
    this.send({
      type: 'authed',
      rid,
      account: { id: account.id, username: account.username, guest: account.guest },
      token: giveToken ? token : null,
      sessionId,
      expiresAt,
      balances: this.balances(account.id),
      seated: tables.map((t) => t.tableId),
    });
    for (const { t, r } of refused) {
      this.error(null, r.code, r.message, { tableId: t.tableId, ...refusalDetails(r) });
    }
    for (const t of tables) {
      const last = since.get(t.tableId);
      const frames = last === undefined ? null : t.framesSince(account.id, last);
      if (frames) for (const f of frames) this.sendRaw(f);
      else this.sendSnapshot(t, null);
      this.holds.add(t);
      t.attach(account.id, (frame) => this.sendRaw(frame));
    }
    this.rewatch(account.id, kept);
    // Where each of the player's tournaments stands now: a client back after a break
    // in the link, or on another machine, shows the tournament bar at once.
    this.ctx.tournaments?.tellAccount(account.id);
  }

  /**
   * The tables this session watched, watched again after a `resume`: each a fresh
   * snapshot as no seat sees it (`rid: null`) and its stream, as on a `table.watch`, so the client need
   * not ask. A table gone meanwhile (a tournament's table broken) is told as on its closing
   * (`table.left`, `cashedOut: 0`); one where the account took a seat meanwhile has its seat's stream.
   */
  private rewatch(accountId: number, tableIds: readonly string[]): void {
    for (const tableId of new Set(tableIds)) {
      const t = this.findTable(tableId);
      if (!t) {
        this.send({ type: 'table.left', rid: null, tableId, cashedOut: 0 });
        continue;
      }
      if (t.isSeated(accountId) || this.watched.has(t) || this.watched.size >= MAX_WATCHED) continue;
      const snap = t.watch(accountId, (frame) => this.sendRaw(frame));
      if (!snap) continue;
      this.watched.add(t);
      this.send({ type: 'table.snapshot', rid: null, tableId: t.tableId, seq: snap.seq, table: snap.table });
    }
  }

  /** The tables this connection watches now (gone ones and those where the account sat since left out). */
  private watchedIds(): string[] {
    const id = this.account?.id;
    return id === undefined ? [] : [...this.watched].filter((t) => t.isWatching(id)).map((t) => t.tableId);
  }

  private sendSnapshot(t: Table, rid: number | null): void {
    const snap = t.snapshot(this.account!.id);
    this.send({ type: 'table.snapshot', rid, tableId: t.tableId, seq: snap.seq, table: snap.table });
  }

  /** Another connection took over this account. */
  replaced(): void {
    this.error(null, 'SESSION_REPLACED', 'this account connected again elsewhere');
    if (this.account) this.unwatchAll(this.account.id);
    this.unsubscribeLobby?.();
    this.unsubscribeLobby = null;
    this.account = null;
    this.state = 'closed';
    this.ws.close(4001, 'session replaced');
  }

  /** The account's seats keep going without this connection (grace period, then leave: R-CASH). */
  private unbind(): void {
    const account = this.account;
    if (account) this.unwatchAll(account.id);
    if (account && this.ctx.byAccount.get(account.id) === this) {
      this.ctx.byAccount.delete(account.id);
      for (const t of this.seatsOf(account.id)) t.detach(account.id);
    }
    this.account = null;
    this.token = null;
    this.sessionId = null;
    this.holds.clear();
  }

  onClose(): void {
    this.unsubscribeLobby?.();
    this.unsubscribeLobby = null;
    // A dropped connection (not a logout, not a replacement: those cleared the account): its watches
    // are kept for a resume of this session.
    const account = this.account;
    if (account && this.sessionId !== null && this.ctx.byAccount.get(account.id) === this) {
      this.ctx.keptWatches.keep(account.id, this.sessionId, this.expiresAt, this.watchedIds(), this.ctx.now());
    }
    this.unbind();
    this.state = 'closed';
    this.ctx.connections.delete(this);
  }

  // -------------------------------------------------------------------------------------------
  // Tables

  private tableRequest(
    m: ClientMessageOf<'table.join' | 'table.leave' | 'table.topUp' | 'table.sitOut' | 'table.sitIn' | 'table.waitForBigBlind' | 'table.snapshot' | 'table.action'>,
    account: AccountView,
  ): void {
    const t = this.findTable(m.tableId);
    if (!t) return this.error(m.rid, 'UNKNOWN_TABLE', `no table ${m.tableId}`, { tableId: m.tableId });
    const id = account.id;
    if (m.type !== 'table.join' && t.isSeated(id) && !this.holds.has(t)) {
      return this.error(m.rid, 'SEAT_ELSEWHERE', 'your seat at this table stays with your connection from the address it was taken from (R-NOBOT): sign in from an address no other player at this table uses', {
        tableId: t.tableId,
        rule: 'R-NOBOT',
      });
    }
    if (t.spec.mode === 'tournament') {
      // A tournament's seats and chips are the tournament's: one registers, rebuys and
      // leaves through it; leaving the table is leaving the tournament (a forfeit after the start).
      if (m.type === 'table.join' || m.type === 'table.topUp') return this.error(m.rid, 'BAD_MESSAGE', 'a tournament table: use tournament.register, tournament.rebuy or tournament.addOn', { tableId: t.tableId });
      if (m.type === 'table.leave') {
        const owner = this.ctx.tournaments?.ofTable(t);
        const r = owner ? owner.unregister(id) : ({ ok: false, code: 'NOT_SEATED', message: 'no tournament here' } as TableRefusal);
        if (!r.ok) return this.refuse(m.rid, r, t.tableId);
        return this.send({ type: 'ok', rid: m.rid });
      }
    }
    switch (m.type) {
      case 'table.join': {
        if (t.spec.money === 'real' && account.guest) {
          return this.error(m.rid, 'REAL_MONEY_FORBIDDEN', 'guest accounts play for play money only', { tableId: t.tableId });
        }
        // R-INFO (D art. 8 II 3°): the player sits on the rules they were shown and confirmed, not others.
        if (m.rulesVersion !== this.ctx.lobby.rulesVersionOf(t)) {
          return this.error(m.rid, 'RULES_CHANGED', "the table's rules or the conditions of play are not the ones you confirmed: read them again", { tableId: t.tableId, rule: 'R-INFO' });
        }
        // R-LIMITS, R-TIMELIMIT, R-EXCLUDE, R-BANNED: a real-money buy-in is a stake. The wallet checks it
        // again where the money moves (its stake guard); asked here first for a refusal with its details.
        if (t.spec.money === 'real' && !t.isSeated(id)) {
          const refused = this.ctx.protection.stakeCheck(id, m.buyIn);
          if (refused) return this.refuseProtection(m.rid, refused, t.tableId);
        }
        const r = t.join({ accountId: id, name: account.username, practice: false, ip: this.ip, sessionId: this.sessionId! }, m.buyIn, { waitForBigBlind: m.waitForBigBlind });
        if (!r.ok) return this.refuse(m.rid, r, t.tableId);
        this.send({ type: 'table.joined', rid: m.rid, tableId: t.tableId, seat: r.seat, stack: r.stack });
        this.sendSnapshot(t, null);
        this.holds.add(t);
        t.attach(id, (frame) => this.sendRaw(frame));
        return;
      }
      case 'table.leave': {
        const r = t.leave(id);
        if (!r.ok) return this.refuse(m.rid, r, t.tableId);
        if (r.cashedOut === null) return this.send({ type: 'ok', rid: m.rid });
        return this.send({ type: 'table.left', rid: m.rid, tableId: t.tableId, cashedOut: r.cashedOut });
      }
      case 'table.topUp': {
        // A top-up is a stake too (docs/protection.md).
        // Top-ups already asked for during this hand are stakes too: two that pass the limit together are
        // refused now, not dropped in silence when the hand ends (R-LIMITS, art. 16).
        const refused = t.spec.money === 'real' ? this.ctx.protection.stakeCheck(id, m.amount + t.pendingTopUp(id)) : null;
        if (refused) return this.refuseProtection(m.rid, refused, t.tableId);
        return this.done(m.rid, t.topUp(id, m.amount), t.tableId);
      }
      case 'table.sitOut':
        return this.done(m.rid, t.sitOut(id), t.tableId);
      case 'table.sitIn':
        return this.done(m.rid, t.sitIn(id, m.waitForBigBlind), t.tableId);
      case 'table.waitForBigBlind':
        return this.done(m.rid, t.setWaitForBigBlind(id, m.waitForBigBlind), t.tableId);
      case 'table.snapshot':
        if (!t.isSeated(id)) return this.error(m.rid, 'NOT_SEATED', 'you have no seat at this table', { tableId: t.tableId });
        return this.sendSnapshot(t, m.rid);
      case 'table.action': {
        const r = t.act(id, m.actionId, m.move);
        const base = { type: 'table.actionResult' as const, rid: m.rid, tableId: t.tableId, actionId: m.actionId, replayed: r.replayed };
        if (r.ok) return this.send({ ...base, ok: true });
        // The refusal as the table made it (shared/rules decide), every detail kept.
        return this.send({ ...base, ok: false, code: r.code, message: r.message, ...refusalDetails(r) });
      }
    }
  }

  private done(rid: number, r: { ok: true } | TableRefusal, tableId: string): void {
    if (r.ok) this.send({ type: 'ok', rid });
    else this.refuse(rid, r, tableId);
  }
}
