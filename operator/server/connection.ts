/**
 * One client connection, as a state machine:
 *
 *   hello ──hello──▶ anon ──guest | register | login | resume──▶ authed ──logout──▶ anon
 *     (anything else: HELLO_REQUIRED)   (table, lobby, history: AUTH_REQUIRED)
 *
 * Every frame is size-checked, rate-limited (ratelimit.ts) and validated (`parseClientMessage`) before
 * anything acts on it; a refusal is an `error` frame with a stable code and the request's `rid`, and
 * the connection stays open. Requests are handled one after another (a login's password check is
 * asynchronous; what follows it waits), each by its route (routes/: one file per domain, one route
 * per client message type, checked by the compiler). This file keeps the connection's life: the
 * first `hello`, the session bound to it, its rate limit, its sends and its end.
 *
 * On authentication the player's tables are re-attached: for each table where the account holds a
 * seat, the frames missed since the `lastSeq` the client gave (resume) when they are still kept, else
 * a full snapshot; then the live stream. A second connection of the same account replaces the first
 * (`SESSION_REPLACED`).
 */
import type { RawData, WebSocket } from 'ws';
import type { ErrorCode } from '../../shared/protocol/codes';
import type { ClientMessage, ClientMessageOf, ServerMessage } from '../../shared/protocol/messages';
import { parseClientMessage, requestRid } from '../../shared/protocol/parse';
import { refusalDetails } from '../../shared/protocol/refusal';
import { compareVersions, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { AccountView } from '../accounts';
import type { Table } from '../tables/table';
import type { TableRefusal } from '../tables/types';
import { balancesOf, findTable, seatsOf, type LiveConnection, type ServerContext } from './context';
import { TokenBucket } from './ratelimit';
import { routeOf } from './routes';
import type { Binding, Extra, RoutedConnection } from './routes/route';
import { MAX_WATCHED } from './watches';

function frameText(data: RawData): string {
  return Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
}

/** Most bytes waiting to be sent before a client is considered stuck and dropped (it may resume). */
const MAX_BUFFERED = 16 * 1024 * 1024;

const ridOf = (m: ClientMessage): number | null => ('rid' in m ? m.rid : null);

export class Connection implements LiveConnection, RoutedConnection {
  state: 'hello' | 'anon' | 'authed' | 'closed' = 'hello';
  account: AccountView | null = null;
  private sid: string | null = null;
  private token: string | null = null;
  private expiresAt = 0;
  private unsubscribeLobby: (() => void) | null = null;
  /**
   * Tables whose seat this connection holds: joined here, rejoined at sign-in (the seat took this
   * connection's address), or followed after a tournament's seating. R-NOBOT, D art. 2: a seat acts only
   * through the connection that holds it; one whose rebind was refused (another account plays there
   * from this address) does not act for it.
   */
  readonly holds = new Set<Table>();
  /** Tables followed without a seat (`table.watch`). */
  readonly watched = new Set<Table>();
  private queue: Promise<void> = Promise.resolve();
  private readonly bucket: TokenBucket;
  alive = true;

  constructor(
    readonly ctx: ServerContext,
    readonly ws: WebSocket,
    readonly ip: string,
    /** Told when `hello` is accepted (the server's hello deadline stops: gate.ts). */
    private readonly onHello: () => void = () => undefined,
  ) {
    this.bucket = new TokenBucket(ctx.rateLimit, ctx.now);
  }

  get sessionId(): string | null {
    return this.sid;
  }

  get closed(): boolean {
    return this.state === 'closed';
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

  error(rid: number | null, code: ErrorCode, message: string, extra: Extra = {}): void {
    this.send({ type: 'error', rid, code, message, ...extra });
  }

  // -------------------------------------------------------------------------------------------
  // The state machine: the first `hello` here, then each message by its route (routes/)

  private async handle(m: ClientMessage): Promise<void> {
    if (this.state === 'closed') return;
    if (this.ctx.closing) return this.error(ridOf(m), 'SHUTTING_DOWN', 'the operator is shutting down');
    if (this.state === 'hello') {
      if (m.type !== 'hello') return this.error(ridOf(m), 'HELLO_REQUIRED', 'the first message is hello');
      return this.hello(m);
    }
    const route = routeOf(m);
    if (route.when === 'open') return route.handle(m, this);
    if (route.when === 'anon') {
      if (this.state === 'authed') return this.error(ridOf(m), 'ALREADY_AUTHENTICATED', 'log out first');
      return route.handle(m, this);
    }
    if (this.state !== 'authed' || this.account === null) return this.error(ridOf(m), 'AUTH_REQUIRED', 'log in first');
    return route.handle(m, this, this.account);
  }

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

  // -------------------------------------------------------------------------------------------
  // The session

  /** The account is this connection's: its seats are re-attached, with missed frames or snapshots. */
  bind(rid: number, b: Binding): void {
    if (this.state === 'closed') return;
    const { account, sessionId } = b;
    // Watches the same session held: kept when its connection dropped, or still on
    // an old connection the operator has not seen drop yet (a half-open socket this resume replaces).
    // A login (a new session) starts with none.
    const kept = this.ctx.keptWatches.take(account.id, b.resumed ? sessionId : null);
    const prev = this.ctx.byAccount.get(account.id);
    if (prev && prev !== this) kept.push(...prev.replacedBy(b.resumed ? sessionId : null));
    this.ctx.byAccount.set(account.id, this);
    this.account = account;
    this.sid = sessionId;
    this.token = b.token;
    this.expiresAt = b.expiresAt;
    this.state = 'authed';
    const { tables, refused } = this.rebindSeats(account.id, sessionId);
    this.send({
      type: 'authed',
      rid,
      account: { id: account.id, username: account.username, guest: account.guest },
      token: b.resumed ? null : b.token,
      sessionId,
      expiresAt: b.expiresAt,
      balances: balancesOf(this.ctx, account.id),
      seated: tables.map((t) => t.tableId),
    });
    for (const { t, r } of refused) this.error(null, r.code, r.message, { tableId: t.tableId, ...refusalDetails(r) });
    this.reattach(account.id, tables, b.since);
    this.rewatch(account.id, kept);
    // Where each of the player's tournaments stands now: a client back after a break
    // in the link, or on another machine, shows the tournament bar at once.
    this.ctx.tournaments?.tellAccount(account.id);
  }

  /**
   * Each seat takes this connection's address and session, R-NOBOT permitting; a table where another
   * account plays from this address is not rejoined (its seat waits out the grace period, then leaves
   * with its stack: R-CASH).
   */
  private rebindSeats(accountId: number, sessionId: string): { tables: Table[]; refused: { t: Table; r: TableRefusal }[] } {
    const refused: { t: Table; r: TableRefusal }[] = [];
    const tables = seatsOf(this.ctx, accountId).filter((t) => {
      const r = t.rebind(accountId, { ip: this.ip, sessionId });
      if (r.ok) return true;
      refused.push({ t, r });
      t.detach(accountId);
      return false;
    });
    return { tables, refused };
  }

  /** The frames missed since the client's `lastSeq` when still kept, else a snapshot; then the stream. */
  private reattach(accountId: number, tables: Table[], since: Map<string, number>): void {
    for (const t of tables) {
      const last = since.get(t.tableId);
      const frames = last === undefined ? null : t.framesSince(accountId, last);
      if (frames) for (const f of frames) this.sendRaw(f);
      else this.sendSnapshot(t, null);
      this.holds.add(t);
      t.attach(accountId, (frame) => this.sendRaw(frame));
    }
  }

  /**
   * The tables this session watched, watched again after a `resume`: each a fresh
   * snapshot as no seat sees it (`rid: null`) and its stream, as on a `table.watch`, so the client need
   * not ask. A table gone meanwhile (a tournament's table broken) is told as on its closing
   * (`table.left`, `cashedOut: 0`); one where the account took a seat meanwhile has its seat's stream.
   */
  private rewatch(accountId: number, tableIds: readonly string[]): void {
    for (const tableId of new Set(tableIds)) {
      const t = findTable(this.ctx, tableId);
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

  sendSnapshot(t: Table, rid: number | null): void {
    const snap = t.snapshot(this.account!.id);
    this.send({ type: 'table.snapshot', rid, tableId: t.tableId, seq: snap.seq, table: snap.table });
  }

  /** This connection follows a tournament table the player was seated at or moved to. */
  follow(t: Table): void {
    if (this.state !== 'authed' || this.account === null) return;
    this.sendSnapshot(t, null);
    this.holds.add(t);
    t.attach(this.account.id, (frame) => this.sendRaw(frame));
  }

  renamed(account: AccountView): void {
    this.account = account;
  }

  setLobbyFeed(unsubscribe: (() => void) | null): void {
    this.unsubscribeLobby?.();
    this.unsubscribeLobby = unsubscribe;
  }

  /** `logout`: the token is revoked; a watch ends with the session (nothing kept for a resume). */
  signOut(): void {
    if (this.token !== null) this.ctx.accounts.logout(this.token);
    if (this.account) this.ctx.keptWatches.take(this.account.id, null);
    this.unbind();
    this.state = 'anon';
  }

  replacedBy(sessionId: string | null): string[] {
    const watching = sessionId !== null && sessionId === this.sid ? this.watchedIds() : [];
    this.replaced();
    return watching;
  }

  /** Another connection took over this account. */
  /** Watching stops with the connection (a disconnection, a logout, a replacement): it never outlives it. */
  private unwatchAll(accountId: number): void {
    for (const t of this.watched) t.unwatch(accountId);
    this.watched.clear();
  }

  private replaced(): void {
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
      for (const t of seatsOf(this.ctx, account.id)) t.detach(account.id);
    }
    this.account = null;
    this.token = null;
    this.sid = null;
    this.holds.clear();
  }

  onClose(): void {
    this.unsubscribeLobby?.();
    this.unsubscribeLobby = null;
    // A dropped connection (not a logout, not a replacement: those cleared the account): its watches
    // are kept for a resume of this session.
    const account = this.account;
    if (account && this.sid !== null && this.ctx.byAccount.get(account.id) === this) {
      this.ctx.keptWatches.keep(account.id, this.sid, this.expiresAt, this.watchedIds(), this.ctx.now());
    }
    this.unbind();
    this.state = 'closed';
    this.ctx.connections.delete(this);
  }
}
