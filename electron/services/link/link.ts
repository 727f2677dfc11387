/**
 * The operator link (DESIGN.md §3 "The wire", docs/protocol.md): the client's one connection to an
 * operator, in the main process. Plain Node: `ws` over TLS pinned by public key (pinning.ts).
 *
 *   connecting ──welcome (+ resume)──▶ connected ──drop──▶ reconnecting ──backoff──▶ … ──▶ connected
 *        │                                 │                    │
 *        └── pin refused, session replaced, close() ──▶ offline  └── UPDATE_REQUIRED ──▶ update-required
 *
 * - Every frame received is validated with `parseServerMessage`; a bad frame is logged and dropped.
 * - Heartbeat: `ws` answers the operator's pings; the link pings when the line has been quiet and
 *   drops a connection that shows no sign of life (then reconnects).
 * - Reconnection: exponential backoff with jitter (backoff.ts). Once the socket is back: `hello`, then
 *   `resume` with the session token and the last `seq` of every followed table; the operator replays
 *   the missed frames or sends snapshots; a `ping` after the resume marks the end of that replay (the
 *   operator answers requests in order), and only then is the link `connected` again.
 * - Requests carry a `rid` and resolve with the answer or a refusal value (never throw). Requests made
 *   while the link is down wait for it; those in flight when it drops are answered `DISCONNECTED`
 *   (they may have been applied: the caller looks again), except actions.
 * - Actions (`act`) carry an action id, kept until answered. After a reconnection an unanswered action
 *   is sent again, with the same id, only where that cannot act on another decision (TableModel
 *   `mayResend`); the operator applies a repeated id once and answers it `replayed`.
 * - Tables: one TableModel per seat (table.ts) follows the stream with the rules engine, asks for a
 *   snapshot on a gap, and hands each finished hand to the tracker once.
 */
import { randomBytes } from 'node:crypto';
import WebSocket, { type RawData } from 'ws';
import type { ErrorCode } from '../../../shared/protocol/codes';
import type { ClientMessage, HistoryHand, Move, ServerMessage, ServerMessageOf, TableInfo } from '../../../shared/protocol/messages';
import type { PlayConditions } from '../../../shared/protocol/conditions';
import type { RefusalDetails as ProtectionDetails } from '../../../shared/protocol/cashier';
import { parseServerMessage, utf8Length } from '../../../shared/protocol/parse';
import { HISTORY_PAGE_MAX, isVersion, MAX_CLIENT_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { isPin, PinError, pinnedConnector } from './pinning';
import { TableModel, type ActionContext, type HandSink, type TableChange } from './table';

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'update-required';

export interface LinkStatus {
  state: LinkState;
  /** Attempts since the link was last connected (0 while connected). */
  attempt: number;
  /** reconnecting: the wait before the next attempt. */
  retryInMs: number | null;
  /** Why the link is offline or dropped: for the player and the logs. */
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
  /** A cashier or protection refusal's details (issue 18: the limit, what is used, when room frees up). */
  details?: ProtectionDetails;
  /** Refused on this machine, before anything was sent (the rules engine, SPEC.md §1). */
  local?: boolean;
}

export type Reply<T> = ({ ok: true } & T) | Refused;

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
  /** The operator's conditions of play, served with the lobby (R-RULES; issue 15 item 8). */
  conditions: PlayConditions;
  'lobby.table': TableInfo;
  table: { tableId: string; model: TableModel; change: TableChange };
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
  /** Where finished hands and chips go (the win/loss tracker); none: not tracked. */
  tracker?: HandSink | null;
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

interface PendingRequest {
  rid: number;
  body: Request;
  resolve: (m: ServerMessage | Refused) => void;
  timer: NodeJS.Timeout | null;
}

interface PendingAction {
  actionId: string;
  tableId: string;
  move: Move;
  context: ActionContext | null;
  /** The rid of the frame in flight; null when not in flight (not sent yet, or the link dropped). */
  rid: number | null;
  sentBefore: boolean;
  resolve: (r: ActResult) => void;
  promise: Promise<ActResult>;
}

type Listener<K extends keyof LinkEvents> = (payload: LinkEvents[K]) => void;

const RID_MAX = 2 ** 31 - 1;

export class OperatorLink {
  private readonly url: string;
  private readonly pins: readonly string[];
  private readonly backoff: BackoffOptions;
  private readonly heartbeatIntervalMs: number;
  private readonly heartbeatTimeoutMs: number | null;
  private readonly connectTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: (line: string) => void;
  private readonly listeners = new Map<keyof LinkEvents, Set<(p: never) => void>>();

  private current: LinkStatus = { state: 'offline', attempt: 0, retryInMs: null, reason: null, minVersion: null };
  private ws: WebSocket | null = null;
  private isReady = false;
  private closed = false;
  private everConnected = false;
  /** Why the current connection must not be retried (pin refused, session replaced). */
  private fatal: string | null = null;
  private updateRequired: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  private serverHeartbeatMs = 15_000;
  private maxClientFrameBytes = MAX_CLIENT_FRAME_BYTES;
  private connectWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  private rid = 0;
  private readonly waiting: PendingRequest[] = [];
  private readonly inflight = new Map<number, PendingRequest>();
  private readonly actions = new Map<string, PendingAction>();
  private readonly actionByRid = new Map<number, string>();
  /** Per session of this client: action ids never repeat across runs (docs/protocol.md "Action ids"). */
  private readonly actionPrefix = randomBytes(6).toString('base64url');
  private actionCount = 0;
  private pingCount = 0;
  private readonly pings = new Map<number, (rtt: number | null) => void>();
  /** The internal resume in progress: its rid; then the ping that marks the end of the replay. */
  private resumeRid: number | null = null;
  private resyncMarker: number | null = null;
  private readonly resumeTokens = new Map<number, string>();
  private lobbyWanted = false;
  private readonly snapshotAsked = new Set<string>();

  private readonly models = new Map<string, TableModel>();
  private readonly tracker: HandSink | null;
  private readonly maxAttempts: number;
  private readonly backfillPages: number;

  token: string | null;
  account: ServerMessageOf<'authed'>['account'] | null = null;
  balances: ServerMessageOf<'authed'>['balances'] | null = null;
  /** Frames dropped because they failed validation. */
  badFrames = 0;

  constructor(readonly options: OperatorLinkOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'wss:') throw new TypeError(`the operator link is TLS only (wss://), not ${url.protocol}`);
    if (options.pins.length === 0 || !options.pins.every(isPin)) throw new TypeError('the operator link needs at least one pin, each sha256/<base64>');
    if (!isVersion(options.clientVersion)) throw new TypeError(`not a client version: ${options.clientVersion}`);
    this.url = url.href;
    this.pins = [...options.pins];
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.heartbeatIntervalMs = options.heartbeat?.intervalMs ?? 5_000;
    this.heartbeatTimeoutMs = options.heartbeat?.timeoutMs ?? null;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.maxAttempts = options.maxAttempts ?? Infinity;
    this.backfillPages = options.backfillPages ?? 10;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? ((line) => process.stderr.write(`[link] ${line}\n`));
    this.tracker = options.tracker ?? null;
    this.token = options.token ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Events and state

  on<K extends keyof LinkEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (p: never) => void);
    return () => set.delete(listener as (p: never) => void);
  }

  private emit<K extends keyof LinkEvents>(event: K, payload: LinkEvents[K]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        (l as Listener<K>)(payload);
      } catch (e) {
        this.log(`a ${event} listener failed: ${(e as Error)?.stack ?? String(e)}`);
      }
    }
  }

  get status(): LinkStatus {
    return { ...this.current };
  }

  get state(): LinkState {
    return this.current.state;
  }

  private setState(state: LinkState, extra: Partial<Omit<LinkStatus, 'state'>> = {}): void {
    const next: LinkStatus = { state, attempt: extra.attempt ?? 0, retryInMs: extra.retryInMs ?? null, reason: extra.reason ?? null, minVersion: extra.minVersion ?? null };
    const c = this.current;
    if (c.state === next.state && c.attempt === next.attempt && c.retryInMs === next.retryInMs && c.reason === next.reason && c.minVersion === next.minVersion) return;
    this.current = next;
    this.emit('state', { ...next });
  }

  /** The table models of this session, by table id. */
  tables(): TableModel[] {
    return [...this.models.values()];
  }

  table(tableId: string): TableModel | undefined {
    return this.models.get(tableId);
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
    if (this.ws === null && this.retryTimer === null) {
      this.fatal = null;
      this.open(0);
    }
    return p;
  }

  private open(attempt: number): void {
    this.retryTimer = null;
    this.setState(this.everConnected || attempt > 0 ? 'reconnecting' : 'connecting', { attempt });
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url, {
        // The pinned connection (pinning.ts): nothing is written to a peer whose key is not pinned.
        createConnection: pinnedConnector({
          pins: this.pins,
          timeoutMs: this.connectTimeoutMs,
          onRefused: (e) => {
            this.fatal = e.message;
            this.emit('problem', { kind: 'pin', message: e.message });
          },
        }) as unknown as NonNullable<WebSocket.ClientOptions['createConnection']>,
        maxPayload: MAX_SERVER_FRAME_BYTES,
        perMessageDeflate: false,
        handshakeTimeout: this.connectTimeoutMs,
        followRedirects: false,
      });
    } catch (e) {
      this.log(`cannot open ${this.url}: ${(e as Error).message}`);
      this.fatal = (e as Error).message;
      this.afterDrop(1006);
      return;
    }
    this.ws = ws;
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.heard();
      this.startHeartbeat(ws);
      this.sendFrame({ type: 'hello', protocol: PROTOCOL_VERSION, client: this.options.clientVersion });
    });
    ws.on('message', (data, isBinary) => {
      if (this.ws !== ws) return;
      this.heard();
      this.onFrame(data, isBinary);
    });
    ws.on('ping', () => this.ws === ws && this.heard());
    ws.on('pong', () => this.ws === ws && this.heard());
    ws.on('error', (e) => {
      if (this.ws === ws && !(e instanceof PinError)) this.log(`connection to ${this.url}: ${e.message}`);
    });
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (reason.length > 0) this.log(`connection closed: ${code} ${reason.toString()}`);
      this.afterDrop(code);
    });
  }

  private heard(): void {
    this.lastHeard = Date.now();
  }

  /** Pings a quiet line; a line silent for too long is dead: dropped, then reconnected. */
  private startHeartbeat(ws: WebSocket): void {
    this.stopHeartbeat();
    const interval = this.heartbeatIntervalMs;
    this.heartbeatTimer = setInterval(() => {
      if (this.ws !== ws) return;
      const timeout = this.heartbeatTimeoutMs ?? Math.max(3 * interval, 2 * this.serverHeartbeatMs + 5_000);
      const quiet = Date.now() - this.lastHeard;
      if (quiet >= timeout) {
        this.log(`no sign of life from the operator for ${quiet} ms: reconnecting`);
        ws.terminate();
      } else if (quiet >= interval) {
        try {
          ws.ping();
        } catch {
          // The socket is closing; its close event follows.
        }
      }
    }, Math.max(10, Math.min(interval, 1_000)));
    this.heartbeatTimer.unref?.();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  /** The connection is gone: settle what was in flight, then retry or stop. */
  private afterDrop(code: number): void {
    this.stopHeartbeat();
    const wasReady = this.isReady;
    this.isReady = false;
    this.resumeRid = null;
    this.resyncMarker = null;
    this.snapshotAsked.clear();
    for (const p of this.inflight.values()) this.settle(p, { ok: false, code: 'DISCONNECTED', message: 'the connection dropped before the answer' });
    this.inflight.clear();
    this.resumeTokens.clear();
    this.actionByRid.clear();
    for (const a of this.actions.values()) a.rid = null; // kept: sent again after the resume if still right
    for (const [, done] of this.pings) done(null);
    this.pings.clear();
    // A model waiting for missed hands or a snapshot gets a snapshot in the resume.
    for (const m of this.models.values()) if (m.status === 'live' && !this.followable(m)) m.resync('the connection dropped while catching up');

    if (this.closed) {
      this.setState('offline', { reason: 'closed' });
      this.failAll('OFFLINE', 'the link is closed');
      return;
    }
    if (this.updateRequired !== null || code === 4000) {
      this.setState('update-required', { minVersion: this.updateRequired, reason: 'this operator needs a newer Cercle' });
      this.failAll('OFFLINE', 'an update is required');
      return;
    }
    if (code === 4001) this.fatal ??= 'this account connected again elsewhere';
    if (this.fatal !== null) {
      this.setState('offline', { reason: this.fatal });
      this.failAll('OFFLINE', this.fatal);
      return;
    }
    const attempt = wasReady ? 1 : this.current.attempt + 1;
    if (attempt > this.maxAttempts) {
      this.setState('offline', { reason: `no connection after ${this.maxAttempts} attempts`, attempt: attempt - 1 });
      this.failAll('OFFLINE', 'the operator cannot be reached');
      return;
    }
    const delay = backoffDelay(attempt, this.backoff, this.random);
    this.setState('reconnecting', { attempt, retryInMs: delay, reason: wasReady ? 'connection lost' : 'no connection' });
    this.retryTimer = setTimeout(() => this.open(attempt), delay);
  }

  /** A model whose stream can be resumed from its seq (else it is sent a snapshot). */
  private followable(m: TableModel): boolean {
    return m.status === 'live' && m.seq !== null && !m.isHeld;
  }

  private failAll(code: LinkCode, message: string): void {
    for (const p of this.waiting.splice(0)) this.settle(p, { ok: false, code, message });
    for (const a of [...this.actions.values()]) this.finishAction(a, { ok: false, actionId: a.actionId, code, message });
    const waiters = this.connectWaiters.splice(0);
    for (const w of waiters) w.reject(new Error(message));
  }

  /** Closes the link for good: requests in flight are answered OFFLINE. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const ws = this.ws;
    if (ws === null) {
      this.afterDrop(1000);
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => ws.terminate(), 2_000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1000, 'client closing');
    });
  }

  // -------------------------------------------------------------------------------------------
  // Frames

  private sendFrame(m: ClientMessage): boolean {
    const ws = this.ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) return false;
    const text = JSON.stringify(m);
    if (utf8Length(text, this.maxClientFrameBytes) > this.maxClientFrameBytes) {
      this.log(`not sending a ${m.type} of more than ${this.maxClientFrameBytes} bytes`);
      return false;
    }
    ws.send(text);
    return true;
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.badFrame('a binary frame');
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
    const parsed = parseServerMessage(text);
    if (!parsed.ok) return this.badFrame(`${parsed.code}: ${parsed.message}: ${text.slice(0, 200)}`);
    try {
      this.handle(parsed.message);
    } catch (e) {
      // A fault of ours must not take the connection down: logged, the frame dropped.
      this.log(`handling ${parsed.message.type} failed: ${(e as Error)?.stack ?? String(e)}`);
      this.emit('problem', { kind: 'internal', message: `handling ${parsed.message.type} failed: ${(e as Error)?.message ?? String(e)}` });
    }
    this.emit('message', parsed.message);
  }

  private badFrame(message: string): void {
    this.badFrames++;
    this.log(`dropped a frame from the operator: ${message}`);
    this.emit('problem', { kind: 'bad-frame', message });
  }

  private handle(m: ServerMessage): void {
    switch (m.type) {
      case 'welcome':
        this.serverHeartbeatMs = m.heartbeatMs;
        this.maxClientFrameBytes = Math.min(m.maxFrameBytes, MAX_CLIENT_FRAME_BYTES);
        if (this.token !== null) this.resumeSession(this.token);
        else this.ready();
        return;
      case 'pong': {
        if (m.t === this.resyncMarker) {
          this.resyncMarker = null;
          this.ready();
          return;
        }
        const done = this.pings.get(m.t);
        this.pings.delete(m.t);
        done?.(Date.now());
        return;
      }
      case 'error':
        if (m.rid === null) return this.operatorError(m);
        if (m.rid === this.resumeRid) return this.resumeRefused(m);
        if (this.actionByRid.has(m.rid)) {
          const a = this.actions.get(this.actionByRid.get(m.rid)!);
          this.actionByRid.delete(m.rid);
          if (a) this.finishAction(a, { ...refusal(m), actionId: a.actionId });
          return;
        }
        break;
      case 'authed':
        this.authed(m);
        if (m.rid === this.resumeRid) {
          // The missed frames follow the answer; the operator answers this ping after them.
          this.resumeRid = null;
          this.resyncMarker = 1_000_000_000 + ++this.pingCount;
          this.sendFrame({ type: 'ping', t: this.resyncMarker });
          return;
        }
        break;
      case 'account':
        // issue 13: the nickname chosen after sign-in names us from now on (seats, the hero's hands).
        if (this.account?.id === m.account.id) this.account = m.account;
        break;
      case 'lobby':
        this.emit('conditions', m.conditions);
        this.emit('lobby', m.tables);
        break;
      case 'lobby.table':
        this.emit('lobby.table', m.table);
        return;
      case 'table.joined': {
        const model = this.newModel(m.tableId);
        model.joined(m.stack);
        break;
      }
      case 'table.left': {
        const model = this.models.get(m.tableId);
        this.models.delete(m.tableId);
        model?.gone(m.cashedOut);
        if (m.rid === null) return;
        break;
      }
      case 'table.snapshot':
        this.snapshot(m);
        if (m.rid === null) return;
        break;
      case 'table.event': {
        const model = this.models.get(m.tableId);
        if (!model) this.log(`an event of table ${m.tableId}, where we hold no seat: ignored`);
        else model.receive(m.seq, m.event);
        return;
      }
      case 'table.actionResult':
        return this.actionResult(m);
    }
    if ('rid' in m && m.rid !== null) this.answer(m.rid, m);
  }

  private operatorError(m: ServerMessageOf<'error'>): void {
    this.log(`operator: ${m.code} ${m.message}`);
    if (m.code === 'UPDATE_REQUIRED') this.updateRequired = m.minVersion ?? 'a newer version';
    else if (m.code === 'SESSION_REPLACED') this.fatal = 'this account connected again elsewhere';
    this.emit('problem', { kind: 'operator-error', message: `${m.code}: ${m.message}` });
  }

  // -------------------------------------------------------------------------------------------
  // Sessions

  private resumeSession(token: string): void {
    const rid = this.nextRid();
    this.resumeRid = rid;
    const tables = [...this.models.values()].filter((m) => this.followable(m)).map((m) => ({ tableId: m.tableId, lastSeq: m.seq! }));
    this.sendFrame({ type: 'resume', rid, token, tables });
  }

  private resumeRefused(m: ServerMessageOf<'error'>): void {
    this.resumeRid = null;
    if (m.code === 'INVALID_SESSION' || m.code === 'SESSION_EXPIRED') {
      this.log(`the session ended (${m.code}): log in again`);
      this.token = null;
      this.account = null;
      this.emit('session', { token: null });
      this.emit('signed-out', { code: m.code });
      for (const model of [...this.models.values()]) {
        this.models.delete(model.tableId);
        model.gone(null);
      }
      this.ready();
      return;
    }
    // Busy or stopping: try again later.
    this.log(`resume refused: ${m.code} ${m.message}`);
    this.ws?.close(1000, 'resume refused');
  }

  private authed(m: ServerMessageOf<'authed'>): void {
    this.account = m.account;
    this.balances = m.balances;
    const given = this.resumeTokens.get(m.rid);
    this.resumeTokens.delete(m.rid);
    const token = m.token ?? given ?? this.token;
    if (token !== this.token) {
      this.token = token;
      this.emit('session', { token });
    }
    // Seats held: each gets its missed frames or a snapshot. A table we followed that is not among
    // them was left while we were away (the grace period ran out: the stack went back to the wallet).
    const seated = new Set(m.seated);
    for (const model of [...this.models.values()]) if (!seated.has(model.tableId)) void this.lose(model);
    for (const id of seated) if (!this.models.has(id)) this.newModel(id);
    this.emit('authed', m);
  }

  /** Everything is in step: send what waited. */
  private ready(): void {
    if (this.ws === null) return;
    this.isReady = true;
    this.everConnected = true;
    this.setState('connected');
    for (const a of [...this.actions.values()]) if (a.rid === null) this.resendOrDrop(a);
    for (const p of this.waiting.splice(0)) this.transmit(p);
    for (const m of this.models.values()) if (m.status === 'syncing') this.requestSnapshot(m.tableId);
    if (this.lobbyWanted) void this.request({ type: 'lobby.subscribe' });
    for (const w of this.connectWaiters.splice(0)) w.resolve();
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  private nextRid(): number {
    this.rid = this.rid >= RID_MAX ? 1 : this.rid + 1;
    return this.rid;
  }

  /** Sends a request (now, or once connected) and resolves with the answer or a refusal. */
  request(body: Request, timeoutMs = this.requestTimeoutMs): Promise<ServerMessage | Refused> {
    if (this.closed || this.current.state === 'offline' || this.current.state === 'update-required') {
      return Promise.resolve({ ok: false, code: 'OFFLINE', message: this.current.reason ?? 'the link is not connected' });
    }
    return new Promise((resolve) => {
      const p: PendingRequest = { rid: 0, body, resolve, timer: null };
      p.timer = setTimeout(() => {
        const i = this.waiting.indexOf(p);
        if (i >= 0) this.waiting.splice(i, 1);
        this.inflight.delete(p.rid);
        this.settle(p, { ok: false, code: 'TIMEOUT', message: `no answer to ${body.type} within ${timeoutMs} ms` });
      }, timeoutMs);
      if (this.isReady) this.transmit(p);
      else this.waiting.push(p);
    });
  }

  private transmit(p: PendingRequest): void {
    p.rid = this.nextRid();
    if (p.body.type === 'resume') this.resumeTokens.set(p.rid, p.body.token);
    this.inflight.set(p.rid, p);
    if (!this.sendFrame({ ...p.body, rid: p.rid } as ClientMessage)) {
      this.inflight.delete(p.rid);
      this.settle(p, { ok: false, code: 'DISCONNECTED', message: 'the request could not be sent' });
    }
  }

  private answer(rid: number, m: ServerMessage): void {
    const p = this.inflight.get(rid);
    if (!p) return;
    this.inflight.delete(rid);
    this.settle(p, m.type === 'error' ? refusal(m) : m);
  }

  private settle(p: PendingRequest, r: ServerMessage | Refused): void {
    if (p.timer !== null) clearTimeout(p.timer);
    p.timer = null;
    p.resolve(r);
  }

  private async ask<K extends ServerMessage['type']>(body: Request): Promise<Reply<ServerMessageOf<K>>> {
    const r = await this.request(body);
    if ('ok' in r && r.ok === false && !('type' in r)) return r;
    return { ...(r as ServerMessageOf<K>), ok: true } as Reply<ServerMessageOf<K>>;
  }

  /** A new guest account (play money only). */
  guest(): Promise<Reply<ServerMessageOf<'authed'>>> {
    return this.ask<'authed'>({ type: 'guest' });
  }

  login(username: string, password: string): Promise<Reply<ServerMessageOf<'authed'>>> {
    return this.ask<'authed'>({ type: 'login', username, password });
  }

  /** `identity`: a real-money account (issue 18, R-AGE, R-BANNED); without it, play money only. */
  register(username: string, password: string, identity?: { lastName: string; firstNames: string; birthDate: string }): Promise<Reply<ServerMessageOf<'authed'>>> {
    return this.ask<'authed'>(identity ? { type: 'register', username, password, identity } : { type: 'register', username, password });
  }

  /** A new nickname (issue 13); refused while seated anywhere (`NAME_WHILE_SEATED`). */
  rename(username: string): Promise<Reply<ServerMessageOf<'account'>>> {
    return this.ask<'account'>({ type: 'account.rename', username });
  }

  /** Resumes a kept session (the token is kept for the automatic resumes that follow). */
  resume(token: string): Promise<Reply<ServerMessageOf<'authed'>>> {
    const tables = [...this.models.values()].filter((m) => this.followable(m)).map((m) => ({ tableId: m.tableId, lastSeq: m.seq! }));
    return this.ask<'authed'>({ type: 'resume', token, tables });
  }

  async logout(): Promise<Reply<ServerMessageOf<'ok'>>> {
    const r = await this.ask<'ok'>({ type: 'logout' });
    if (r.ok) {
      this.token = null;
      this.account = null;
      this.emit('session', { token: null });
    }
    return r;
  }

  balance(): Promise<Reply<ServerMessageOf<'balance'>>> {
    return this.ask<'balance'>({ type: 'balance' });
  }

  /** Every table (R-INFO); then `lobby.table` events, also after reconnections. */
  lobby(): Promise<Reply<ServerMessageOf<'lobby'>>> {
    this.lobbyWanted = true;
    return this.ask<'lobby'>({ type: 'lobby.subscribe' });
  }

  unsubscribeLobby(): Promise<Reply<ServerMessageOf<'ok'>>> {
    this.lobbyWanted = false;
    return this.ask<'ok'>({ type: 'lobby.unsubscribe' });
  }

  /**
   * Sits down with `buyIn` chips (the operator picks the seat, R-RANDSEAT); the table's model follows.
   * `rulesVersion`: the version of the rules the player was shown and confirmed (R-INFO; shared/protocol/conditions.ts).
   */
  join(tableId: string, buyIn: number, options: { rulesVersion: string; waitForBigBlind?: boolean }): Promise<Reply<ServerMessageOf<'table.joined'>>> {
    return this.ask<'table.joined'>({ type: 'table.join', tableId, buyIn, waitForBigBlind: options.waitForBigBlind ?? false, rulesVersion: options.rulesVersion });
  }

  /** Leaves: `cashedOut` now, or null when a hand is in progress (`table.left` follows when it ends). */
  async leave(tableId: string): Promise<Reply<{ cashedOut: number | null }>> {
    const r = await this.request({ type: 'table.leave', tableId });
    if ('ok' in r && r.ok === false) return r as Refused;
    return { ok: true, cashedOut: (r as ServerMessage).type === 'table.left' ? (r as ServerMessageOf<'table.left'>).cashedOut : null };
  }

  topUp(tableId: string, amount: number): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'table.topUp', tableId, amount });
  }

  sitOut(tableId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'table.sitOut', tableId });
  }

  sitIn(tableId: string, waitForBigBlind = false): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'table.sitIn', tableId, waitForBigBlind });
  }

  setWaitForBigBlind(tableId: string, waitForBigBlind: boolean): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'table.waitForBigBlind', tableId, waitForBigBlind });
  }

  /** A fresh snapshot (the model takes it too). */
  snapshotOf(tableId: string): Promise<Reply<ServerMessageOf<'table.snapshot'>>> {
    return this.ask<'table.snapshot'>({ type: 'table.snapshot', tableId });
  }

  /** A page of the player's hands of the past year from the operator, newest first (R-HISTORY). */
  history(cursor: string | null = null, limit = HISTORY_PAGE_MAX): Promise<Reply<ServerMessageOf<'history'>>> {
    return this.ask<'history'>({ type: 'history', cursor, limit });
  }

  /** Round trip to the operator in ms, or null when the link dropped meanwhile. */
  ping(): Promise<number | null> {
    if (!this.isReady) return Promise.resolve(null);
    const t = ++this.pingCount;
    const sent = Date.now();
    return new Promise((resolve) => {
      this.pings.set(t, (at) => resolve(at === null ? null : at - sent));
      if (!this.sendFrame({ type: 'ping', t })) {
        this.pings.delete(t);
        resolve(null);
      }
    });
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  /**
   * Sends our move at a table. Checked first with the rules engine on the table's model (an illegal
   * move is refused here, with the rule, SPEC.md §1) unless `check: false`. The action id (given, or
   * made unique for this client) is kept until answered, across reconnections.
   */
  act(tableId: string, move: Move, options: { actionId?: string; check?: boolean } = {}): Promise<ActResult> {
    const actionId = options.actionId ?? `${this.actionPrefix}-${++this.actionCount}`;
    if (this.closed || this.current.state === 'offline' || this.current.state === 'update-required') {
      return Promise.resolve({ ok: false, actionId, code: 'OFFLINE', message: this.current.reason ?? 'the link is not connected', local: true });
    }
    const model = this.models.get(tableId);
    if (options.check !== false && model) {
      const refused = model.check(move);
      if (refused) return Promise.resolve({ ok: false, actionId, local: true, ...refused });
    }
    const existing = this.actions.get(actionId);
    if (existing) {
      // One id, one decision: the same move waits for the same answer; another move is refused.
      if (existing.tableId === tableId && JSON.stringify(existing.move) === JSON.stringify(move)) return existing.promise;
      return Promise.resolve({ ok: false, actionId, code: 'ACTION_ID_REUSED', message: `action id ${actionId} is in use for another move`, local: true });
    }
    let resolve!: (r: ActResult) => void;
    const promise = new Promise<ActResult>((r) => (resolve = r));
    const a: PendingAction = { actionId, tableId, move, context: model?.actionContext() ?? null, rid: null, sentBefore: false, resolve, promise };
    this.actions.set(actionId, a);
    if (this.isReady) this.transmitAction(a);
    return promise;
  }

  private transmitAction(a: PendingAction): void {
    const rid = this.nextRid();
    a.rid = rid;
    this.actionByRid.set(rid, a.actionId);
    if (this.sendFrame({ type: 'table.action', rid, tableId: a.tableId, actionId: a.actionId, move: a.move })) a.sentBefore = true;
    else {
      a.rid = null;
      this.actionByRid.delete(rid);
    }
  }

  /** After a reconnection: the action goes (again) only where it still is the decision it was. */
  private resendOrDrop(a: PendingAction): void {
    const model = this.models.get(a.tableId);
    const context = a.context;
    const safe = model !== undefined && context !== null && (a.sentBefore ? model.mayResend(context) : model.mayResend({ ...context, heroPlayerActions: Infinity }));
    if (safe || (model === undefined && context === null)) {
      this.transmitAction(a);
      return;
    }
    this.finishAction(a, {
      ok: false,
      actionId: a.actionId,
      code: 'STALE',
      message: 'the hand moved on while the connection was down; the action was not sent again',
      local: true,
    });
  }

  private actionResult(m: ServerMessageOf<'table.actionResult'>): void {
    this.actionByRid.delete(m.rid);
    const a = this.actions.get(m.actionId);
    if (!a || a.tableId !== m.tableId) return; // an answer already given (a repeat of an answered id)
    if (m.ok) this.finishAction(a, { ok: true, actionId: m.actionId, replayed: m.replayed });
    else this.finishAction(a, { ...refusal({ ...m, code: m.code ?? 'INTERNAL', message: m.message ?? '' }), actionId: m.actionId, replayed: m.replayed });
  }

  private finishAction(a: PendingAction, r: ActResult): void {
    if (this.actions.get(a.actionId) !== a) return;
    this.actions.delete(a.actionId);
    if (a.rid !== null) this.actionByRid.delete(a.rid);
    a.resolve(r);
  }

  /** Actions sent and not yet answered (ids), for diagnostics and tests. */
  pendingActions(): string[] {
    return [...this.actions.keys()];
  }

  // -------------------------------------------------------------------------------------------
  // Tables

  private newModel(tableId: string): TableModel {
    this.models.get(tableId)?.gone(null);
    const model = new TableModel(tableId, {
      sink: this.tracker,
      now: this.now,
      requestSnapshot: (id) => this.requestSnapshot(id),
      log: this.log,
    });
    model.onChange((change) => this.emit('table', { tableId, model, change }));
    this.models.set(tableId, model);
    return model;
  }

  private snapshot(m: ServerMessageOf<'table.snapshot'>): void {
    this.snapshotAsked.delete(m.tableId);
    const model = this.models.get(m.tableId) ?? this.newModel(m.tableId);
    const { missedHands } = model.applySnapshot(m.seq, m.table);
    if (missedHands) void this.catchUp(model);
  }

  private requestSnapshot(tableId: string): void {
    // Not connected: the resume sends a snapshot of every table not followable.
    if (!this.isReady || this.snapshotAsked.has(tableId)) return;
    this.snapshotAsked.add(tableId);
    void this.request({ type: 'table.snapshot', tableId }).then((r) => {
      this.snapshotAsked.delete(tableId);
      const model = this.models.get(tableId);
      if (!model || !('ok' in r) || r.ok !== false) return;
      if (r.code === 'NOT_SEATED' || r.code === 'UNKNOWN_TABLE') void this.lose(model);
    });
  }

  /** Hands that ended while the stream was lost, from the operator's history, then the stream goes on. */
  private async catchUp(model: TableModel): Promise<void> {
    const fetched = await this.missedHands(model);
    if (this.models.get(model.tableId) !== model || model.status !== 'live') return;
    if (!fetched.ok && (fetched.code === 'DISCONNECTED' || fetched.code === 'TIMEOUT' || fetched.code === 'OFFLINE')) {
      model.resync('the missed hands could not be fetched');
      return;
    }
    model.backfill(fetched.hands, this.account?.username ?? null);
    model.release();
  }

  /** Pages of the operator's history until a hand of this table already handed over (all older ones were). */
  private async missedHands(model: TableModel): Promise<{ ok: boolean; code?: string; hands: HistoryHand[] }> {
    const hands: HistoryHand[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < this.backfillPages; page++) {
      const r = await this.history(cursor, HISTORY_PAGE_MAX);
      if (!r.ok) return { ok: false, code: r.code, hands };
      hands.push(...r.hands);
      if (r.next === null || r.hands.some((h) => h.tableId === model.tableId && model.hasEnded(h.handId))) break;
      cursor = r.next;
    }
    return { ok: true, hands };
  }

  /** The seat is gone (released while we were away): the hands it played meanwhile, then the cash-out. */
  private async lose(model: TableModel): Promise<void> {
    if (model.status === 'gone') return;
    if (model.tracking) {
      model.hold();
      const fetched = await this.missedHands(model);
      model.backfill(fetched.hands, this.account?.username ?? null);
    }
    if (this.models.get(model.tableId) === model) this.models.delete(model.tableId);
    model.gone(null);
  }
}

function refusal(m: {
  code: ErrorCode;
  message: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
  retryAfterMs?: number;
  minVersion?: string;
  tableId?: string;
  details?: ProtectionDetails;
}): Refused {
  const r: Refused = { ok: false, code: m.code, message: m.message };
  for (const k of ['rule', 'min', 'max', 'call', 'retryAfterMs', 'minVersion', 'tableId', 'details'] as const) {
    if (m[k] !== undefined) (r as unknown as Record<string, unknown>)[k] = m[k];
  }
  return r;
}
