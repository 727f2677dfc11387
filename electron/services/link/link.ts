/**
 * The operator link (DESIGN.md §3 "The wire", docs/protocol.md): the client's one connection to an
 * operator, in the main process. Plain Node. Its parts:
 *
 * - connection.ts: the pinned WSS socket, its heartbeat, frames in (validated) and out;
 * - requests.ts: requests by `rid`, answered by a message or a refusal value (never thrown);
 * - outbox.ts: our actions, kept by action id until answered (the one owner of "pending");
 * - streams.ts: one TableModel per seat following its table's stream with the rules engine;
 * - the requests, one file per domain: session.ts (guest, login, register, resume, logout, balance,
 *   nickname), lobby.ts, table-requests.ts (seats, watching, actions), history.ts, tournaments.ts.
 *
 * This file holds the state machine, the session's life (hello, the automatic resume, what an
 * authentication changes), reconnection, the frames in, and the API its callers use, each request
 * handed to its domain's file:
 *
 *   connecting ──welcome (+ resume)──▶ connected ──drop──▶ reconnecting ──backoff──▶ … ──▶ connected
 *        │                                 │                    │
 *        └── pin refused, session replaced, close() ──▶ offline  └── UPDATE_REQUIRED ──▶ update-required
 *
 * Reconnection: exponential backoff with jitter (backoff.ts). Once the socket is back: `hello`, then
 * `resume` with the session token and the last `seq` of every followed table; the operator replays
 * the missed frames or sends snapshots; a `ping` after the resume marks the end of that replay (the
 * operator answers requests in order), and only then is the link `connected` again.
 *
 * Tournaments: the requests (list, details, register, unregister, rebuy, add-on,
 * results) and `table.watch`; the operator's `tournament.seat`, `tournament.state` and
 * `tournament.finished` are given to the core (`tournament` event) after the link has ended the
 * models of tables the player left in that tournament (streams.ts `end`: no cash-out).
 *
 * The link never holds the tracker: the client core feeds it to each table model as it is made
 * (`model` event, `TableModel.feed`).
 */
import type { LinkWhy } from '../../../shared/api/contract';
import type { Move, ServerMessage, ServerMessageOf } from '../../../shared/protocol/messages';
import { HISTORY_PAGE_MAX, isVersion, MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { Connection } from './connection';
import { Emitter } from './events';
import { ActionOutbox } from './outbox';
import { isPin } from './pinning';
import { HistoryRequests } from './history';
import { LobbyRequests } from './lobby';
import { Requests } from './requests';
import { SessionRequests, type Identity } from './session';
import { TableStreams } from './streams';
import type { TableModel } from './table';
import { TableRequests } from './table-requests';
import { TournamentRequests } from './tournaments';
import type { LinkCode, LinkEvents, LinkState, LinkStatus, OperatorLinkOptions, Refused, Request, SendRequest } from './types';

export type { ActResult, LinkCode, LinkEvents, LinkState, LinkStatus, OperatorLinkOptions, Refused, Reply, Request } from './types';

/** SESSION_REPLACED, or the operator's close 4001: no retry (it would take the session back). */
const REPLACED = { why: 'replaced', detail: 'this account connected again elsewhere' } as const;

type Listener<K extends keyof LinkEvents> = (payload: LinkEvents[K]) => void;

export class OperatorLink {
  private readonly backoff: BackoffOptions;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private readonly events: Emitter<LinkEvents>;
  private readonly connection: Connection;
  private readonly requests: Requests;
  private readonly outbox: ActionOutbox;
  private readonly streams: TableStreams;
  private readonly session: SessionRequests;
  private readonly lobbyRequests: LobbyRequests;
  private readonly tableRequests: TableRequests;
  private readonly historyRequests: HistoryRequests;

  private current: LinkStatus = { state: 'offline', attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null };
  private isReady = false;
  private closed = false;
  private everConnected = false;
  /** Why the current connection must not be retried (pin refused, session replaced, …): `why` for the player, `detail` for the logs. */
  private fatal: { why: LinkWhy; detail: string } | null = null;
  private updateRequired: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private connectWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  private pingCount = 0;
  private readonly pings = new Map<number, (rtt: number | null) => void>();
  /** The internal resume in progress: its rid; then the ping that marks the end of the replay. */
  private resumeRid: number | null = null;
  private resyncMarker: number | null = null;
  private readonly resumeTokens = new Map<number, string>();
  private readonly maxAttempts: number;

  token: string | null;
  account: ServerMessageOf<'authed'>['account'] | null = null;
  balances: ServerMessageOf<'authed'>['balances'] | null = null;
  /** Frames dropped because they failed validation. */
  badFrames = 0;
  /** The tournament requests (tournaments.ts): the one domain its callers reach by name. */
  readonly tournaments: TournamentRequests;

  constructor(readonly options: OperatorLinkOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'wss:') throw new TypeError(`the operator link is TLS only (wss://), not ${url.protocol}`);
    if (options.pins.length === 0 || !options.pins.every(isPin)) throw new TypeError('the operator link needs at least one pin, each sha256/<base64>');
    if (!isVersion(options.clientVersion)) throw new TypeError(`not a client version: ${options.clientVersion}`);
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.maxAttempts = options.maxAttempts ?? Infinity;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? ((line) => process.stderr.write(`[link] ${line}\n`));
    this.events = new Emitter<LinkEvents>(this.log);
    this.token = options.token ?? null;
    this.connection = new Connection(
      {
        url: url.href,
        pins: [...options.pins],
        connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
        heartbeatIntervalMs: options.heartbeat?.intervalMs ?? 5_000,
        heartbeatTimeoutMs: options.heartbeat?.timeoutMs ?? null,
      },
      {
        opened: () => this.connection.send({ type: 'hello', protocol: PROTOCOL_VERSION, client: this.options.clientVersion }),
        message: (m) => this.onMessage(m),
        badFrame: (message) => {
          this.badFrames++;
          this.log(`dropped a frame from the operator: ${message}`);
          this.events.emit('problem', { kind: 'bad-frame', message });
        },
        pinRefused: (e) => {
          this.fatal = { why: 'pin', detail: e.message };
          this.events.emit('problem', { kind: 'pin', message: e.message });
        },
        closed: (code) => this.afterDrop(code),
        log: this.log,
      },
    );
    const send = (m: Parameters<Connection['send']>[0]) => this.connection.send(m);
    const ready = () => this.isReady;
    const refusedNow = () => this.refusedNow();
    this.requests = new Requests({ send, ready, refusedNow, sending: (rid, body) => body.type === 'resume' && this.resumeTokens.set(rid, body.token) }, options.requestTimeoutMs ?? 15_000);
    this.streams = new TableStreams({
      now: this.now,
      log: this.log,
      request: (body) => this.requests.request(body),
      history: (cursor, limit) => this.history(cursor, limit),
      ready,
      username: () => this.account?.username ?? null,
      created: (model) => this.events.emit('model', model),
      changed: (tableId, model, change) => this.events.emit('table', { tableId, model, change }),
      backfillPages: options.backfillPages ?? 10,
    });
    this.outbox = new ActionOutbox({ nextRid: () => this.requests.nextRid(), send, ready, refusedNow, model: (id) => this.streams.get(id) });
    const request: SendRequest = (body, timeoutMs) => this.request(body, timeoutMs);
    this.session = new SessionRequests({ request, resumeList: () => this.streams.resumeList(), loggedOut: () => this.loggedOut() });
    this.lobbyRequests = new LobbyRequests(request);
    this.tableRequests = new TableRequests(request, this.streams, this.outbox);
    this.historyRequests = new HistoryRequests(request);
    this.tournaments = new TournamentRequests(request);
  }

  // -------------------------------------------------------------------------------------------
  // Events and state

  on<K extends keyof LinkEvents>(event: K, listener: Listener<K>): () => void {
    return this.events.on(event, listener);
  }

  get status(): LinkStatus {
    return { ...this.current };
  }

  get state(): LinkState {
    return this.current.state;
  }

  private setState(state: LinkState, extra: Partial<Omit<LinkStatus, 'state'>> = {}): void {
    const next: LinkStatus = { state, attempt: extra.attempt ?? 0, retryInMs: extra.retryInMs ?? null, why: extra.why ?? null, reason: extra.reason ?? null, minVersion: extra.minVersion ?? null };
    const c = this.current;
    if (c.state === next.state && c.attempt === next.attempt && c.retryInMs === next.retryInMs && c.why === next.why && c.reason === next.reason && c.minVersion === next.minVersion) return;
    this.current = next;
    this.events.emit('state', { ...next });
  }

  /** Why nothing can be sent (closed, offline, update required), else null. */
  private refusedNow(): Refused | null {
    if (this.closed || this.current.state === 'offline' || this.current.state === 'update-required') {
      return { ok: false, code: 'OFFLINE', message: this.current.reason ?? 'the link is not connected' };
    }
    return null;
  }

  /** The table models of this session. */
  tables(): TableModel[] {
    return this.streams.all();
  }

  table(tableId: string): TableModel | undefined {
    return this.streams.get(tableId);
  }

  // -------------------------------------------------------------------------------------------
  // Connecting

  /**
   * Connects (and resumes `token` if any). Resolves once connected; keeps retrying with backoff on
   * network failures; rejects when the link goes offline (pin refused, closed) or needs an update.
   */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the link is closed'));
    if (this.updateRequired !== null) return Promise.reject(new Error(`update required: ${this.updateRequired}`));
    if (this.isReady) return Promise.resolve();
    const p = new Promise<void>((resolve, reject) => this.connectWaiters.push({ resolve, reject }));
    if (!this.connection.active && this.retryTimer === null) {
      this.fatal = null;
      this.open(0);
    }
    return p;
  }

  private open(attempt: number): void {
    this.retryTimer = null;
    this.setState(this.everConnected || attempt > 0 ? 'reconnecting' : 'connecting', { attempt });
    const failed = this.connection.open();
    if (failed !== null) {
      this.fatal = { why: 'bad-url', detail: failed };
      this.afterDrop(1006);
    }
  }

  /** The connection is gone: settle what was in flight, then retry or stop. */
  private afterDrop(code: number): void {
    const wasReady = this.isReady;
    this.isReady = false;
    this.resumeRid = null;
    this.resyncMarker = null;
    this.requests.dropped();
    this.resumeTokens.clear();
    this.outbox.dropped(); // kept: sent again after the resume if still right
    for (const [, done] of this.pings) done(null);
    this.pings.clear();
    this.streams.dropped();

    if (this.closed) {
      this.setState('offline', { why: 'closed', reason: 'closed' });
      this.failAll('OFFLINE', 'the link is closed');
      return;
    }
    if (this.updateRequired !== null || code === 4000) {
      this.setState('update-required', { minVersion: this.updateRequired, why: 'update', reason: 'this operator needs a newer Cercle' });
      this.failAll('OFFLINE', 'an update is required');
      return;
    }
    if (code === 4001) this.fatal ??= REPLACED;
    if (this.fatal !== null) {
      this.setState('offline', { why: this.fatal.why, reason: this.fatal.detail });
      this.failAll('OFFLINE', this.fatal.detail);
      return;
    }
    const attempt = wasReady ? 1 : this.current.attempt + 1;
    if (attempt > this.maxAttempts) {
      this.setState('offline', { why: 'gave-up', reason: `no connection after ${this.maxAttempts} attempts`, attempt: attempt - 1 });
      this.failAll('OFFLINE', 'the operator cannot be reached');
      return;
    }
    const delay = backoffDelay(attempt, this.backoff, this.random);
    this.setState('reconnecting', { attempt, retryInMs: delay, why: wasReady ? 'lost' : 'unreachable', reason: wasReady ? 'connection lost' : 'no connection' });
    this.retryTimer = setTimeout(() => this.open(attempt), delay);
  }

  private failAll(code: LinkCode, message: string): void {
    this.requests.failWaiting(code, message);
    this.outbox.failAll(code, message);
    for (const w of this.connectWaiters.splice(0)) w.reject(new Error(message));
  }

  /** Closes the link for good: requests in flight are answered OFFLINE. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!(await this.connection.close())) this.afterDrop(1000);
  }

  /** Everything is in step: send what waited. */
  private ready(): void {
    if (!this.connection.active) return;
    this.isReady = true;
    this.everConnected = true;
    this.setState('connected');
    this.outbox.resend();
    this.requests.flush();
    this.streams.ready();
    this.lobbyRequests.resubscribe();
    for (const w of this.connectWaiters.splice(0)) w.resolve();
  }

  // -------------------------------------------------------------------------------------------
  // Frames

  private onMessage(m: ServerMessage): void {
    try {
      this.handle(m);
    } catch (e) {
      // A fault of ours must not take the connection down: logged, the frame dropped.
      this.log(`handling ${m.type} failed: ${(e as Error)?.stack ?? String(e)}`);
      this.events.emit('problem', { kind: 'internal', message: `handling ${m.type} failed: ${(e as Error)?.message ?? String(e)}` });
    }
    this.events.emit('message', m);
  }

  private handle(m: ServerMessage): void {
    switch (m.type) {
      case 'welcome':
        return this.welcome(m);
      case 'pong':
        return this.pong(m);
      case 'error':
        if (m.rid === null) return this.operatorError(m);
        if (m.rid === this.resumeRid) return this.resumeRefused(m);
        if (this.outbox.refused(m.rid, m)) return;
        break;
      case 'authed':
        this.authed(m);
        if (m.rid === this.resumeRid) {
          // The missed frames follow the answer; the operator answers this ping after them.
          this.resumeRid = null;
          this.resyncMarker = 1_000_000_000 + ++this.pingCount;
          this.connection.send({ type: 'ping', t: this.resyncMarker });
          return;
        }
        break;
      case 'account':
        // The nickname chosen after sign-in names us from now on (seats, the hero's hands).
        if (this.account?.id === m.account.id) this.account = m.account;
        break;
      case 'lobby':
        this.events.emit('conditions', m.conditions);
        this.events.emit('lobby', m.tables);
        break;
      case 'lobby.table':
        this.events.emit('lobby.table', m.table);
        return;
      case 'table.joined':
        this.streams.joined(m);
        break;
      case 'table.left':
        this.streams.left(m);
        if (m.rid === null) return;
        break;
      case 'table.snapshot':
        this.streams.snapshot(m);
        if (m.rid === null) return;
        break;
      case 'table.event':
        return this.streams.event(m);
      case 'table.actionResult':
        return this.outbox.result(m);
      case 'tournament.seat':
        this.streams.tournamentSeat(m.tournamentId, m.tableId);
        this.events.emit('tournament', m);
        return;
      case 'tournament.finished':
        this.streams.tournamentFinished(m.tournamentId);
        this.events.emit('tournament', m);
        return;
      case 'tournament.state':
        this.events.emit('tournament', m);
        return;
    }
    if ('rid' in m && m.rid !== null) this.requests.answer(m.rid, m);
  }

  private welcome(m: ServerMessageOf<'welcome'>): void {
    // An operator older than this client (docs/protocol.md "Versioning"): it would send frames of
    // an older shape, each refused here as invalid (a finish without its tie, protocol 5). Said
    // once, with what to do; no retry (the operator refuses an older client the same way).
    if (m.protocol < PROTOCOL_VERSION) {
      this.fatal = { why: 'operator-old', detail: `this operator speaks protocol ${m.protocol}, older than this Cercle's ${PROTOCOL_VERSION}: the operator must be updated` };
      this.events.emit('problem', { kind: 'operator-error', message: this.fatal.detail });
      this.connection.drop(1000, 'operator too old');
      return;
    }
    this.connection.serverHeartbeatMs = m.heartbeatMs;
    this.connection.maxClientFrameBytes = Math.min(m.maxFrameBytes, MAX_CLIENT_FRAME_BYTES);
    if (this.token !== null) this.resumeSession(this.token);
    else this.ready();
  }

  /** The end of a resume's replay (the link is in step), or the answer to a `ping()`. */
  private pong(m: ServerMessageOf<'pong'>): void {
    if (m.t === this.resyncMarker) {
      this.resyncMarker = null;
      this.ready();
      return;
    }
    const done = this.pings.get(m.t);
    this.pings.delete(m.t);
    done?.(Date.now());
  }

  private operatorError(m: ServerMessageOf<'error'>): void {
    this.log(`operator: ${m.code} ${m.message}`);
    if (m.code === 'UPDATE_REQUIRED') this.updateRequired = m.minVersion ?? 'a newer version';
    else if (m.code === 'SESSION_REPLACED') this.fatal = REPLACED;
    this.events.emit('problem', { kind: 'operator-error', message: `${m.code}: ${m.message}` });
  }

  // -------------------------------------------------------------------------------------------
  // Sessions

  private resumeSession(token: string): void {
    const rid = this.requests.nextRid();
    this.resumeRid = rid;
    this.connection.send({ type: 'resume', rid, token, tables: this.streams.resumeList() });
  }

  private resumeRefused(m: ServerMessageOf<'error'>): void {
    this.resumeRid = null;
    if (m.code === 'INVALID_SESSION' || m.code === 'SESSION_EXPIRED') {
      this.log(`the session ended (${m.code}): log in again`);
      this.token = null;
      this.account = null;
      this.events.emit('session', { token: null });
      this.events.emit('signed-out', { code: m.code });
      this.streams.signedOut();
      this.ready();
      return;
    }
    // Busy or stopping: try again later.
    this.log(`resume refused: ${m.code} ${m.message}`);
    this.connection.drop(1000, 'resume refused');
  }

  private authed(m: ServerMessageOf<'authed'>): void {
    this.account = m.account;
    this.balances = m.balances;
    const given = this.resumeTokens.get(m.rid);
    this.resumeTokens.delete(m.rid);
    const token = m.token ?? given ?? this.token;
    if (token !== this.token) {
      this.token = token;
      this.events.emit('session', { token });
    }
    this.streams.seated(m.seated);
    this.events.emit('authed', m);
  }

  /** Our `logout` was answered: the session is over (nothing to resume). */
  private loggedOut(): void {
    this.token = null;
    this.account = null;
    this.events.emit('session', { token: null });
  }

  // -------------------------------------------------------------------------------------------
  // Requests: each domain's in its own file, the link their one way to the operator

  /** Sends a request (now, or once connected) and resolves with the answer or a refusal. */
  request(body: Request, timeoutMs?: number): Promise<ServerMessage | Refused> {
    return this.requests.request(body, timeoutMs);
  }

  /** Round trip to the operator in ms, or null when the link dropped meanwhile. */
  ping(): Promise<number | null> {
    if (!this.isReady) return Promise.resolve(null);
    const t = ++this.pingCount;
    const sent = Date.now();
    return new Promise((resolve) => {
      this.pings.set(t, (at) => resolve(at === null ? null : at - sent));
      if (!this.connection.send({ type: 'ping', t })) {
        this.pings.delete(t);
        resolve(null);
      }
    });
  }

  // The API by domain: each call is its domain file's (the doc comments are there); the link keeps
  // one surface for its callers (electron/services/client), and `tournaments` by name.

  // Session (session.ts)
  guest(): ReturnType<SessionRequests['guest']> {
    return this.session.guest();
  }

  login(username: string, password: string): ReturnType<SessionRequests['login']> {
    return this.session.login(username, password);
  }

  register(username: string, password: string, identity?: Identity): ReturnType<SessionRequests['register']> {
    return this.session.register(username, password, identity);
  }

  rename(username: string): ReturnType<SessionRequests['rename']> {
    return this.session.rename(username);
  }

  resume(token: string): ReturnType<SessionRequests['resume']> {
    return this.session.resume(token);
  }

  logout(): ReturnType<SessionRequests['logout']> {
    return this.session.logout();
  }

  balance(): ReturnType<SessionRequests['balance']> {
    return this.session.balance();
  }

  // Lobby (lobby.ts)
  lobby(): ReturnType<LobbyRequests['subscribe']> {
    return this.lobbyRequests.subscribe();
  }

  unsubscribeLobby(): ReturnType<LobbyRequests['unsubscribe']> {
    return this.lobbyRequests.unsubscribe();
  }

  // Tables, watching and actions (table-requests.ts)
  join(tableId: string, buyIn: number, options: { rulesVersion: string; waitForBigBlind?: boolean }): ReturnType<TableRequests['join']> {
    return this.tableRequests.join(tableId, buyIn, options);
  }

  leave(tableId: string): ReturnType<TableRequests['leave']> {
    return this.tableRequests.leave(tableId);
  }

  topUp(tableId: string, amount: number): ReturnType<TableRequests['topUp']> {
    return this.tableRequests.topUp(tableId, amount);
  }

  sitOut(tableId: string): ReturnType<TableRequests['sitOut']> {
    return this.tableRequests.sitOut(tableId);
  }

  sitIn(tableId: string, waitForBigBlind = false): ReturnType<TableRequests['sitIn']> {
    return this.tableRequests.sitIn(tableId, waitForBigBlind);
  }

  setWaitForBigBlind(tableId: string, waitForBigBlind: boolean): ReturnType<TableRequests['setWaitForBigBlind']> {
    return this.tableRequests.setWaitForBigBlind(tableId, waitForBigBlind);
  }

  snapshotOf(tableId: string): ReturnType<TableRequests['snapshotOf']> {
    return this.tableRequests.snapshotOf(tableId);
  }

  watch(tableId: string): ReturnType<TableRequests['watch']> {
    return this.tableRequests.watch(tableId);
  }

  unwatch(tableId: string): ReturnType<TableRequests['unwatch']> {
    return this.tableRequests.unwatch(tableId);
  }

  isWatching(tableId: string): ReturnType<TableRequests['isWatching']> {
    return this.tableRequests.isWatching(tableId);
  }

  act(tableId: string, move: Move, options: { actionId?: string; check?: boolean } = {}): ReturnType<TableRequests['act']> {
    return this.tableRequests.act(tableId, move, options);
  }

  pendingFor(tableId: string): ReturnType<TableRequests['pendingFor']> {
    return this.tableRequests.pendingFor(tableId);
  }

  pendingActions(): ReturnType<TableRequests['pendingActions']> {
    return this.tableRequests.pendingActions();
  }

  // History (history.ts)
  history(cursor: string | null = null, limit = HISTORY_PAGE_MAX): ReturnType<HistoryRequests['page']> {
    return this.historyRequests.page(cursor, limit);
  }
}
