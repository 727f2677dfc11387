/**
 * The operator link's socket (link.ts split into connection, requests, the action
 * outbox and the table streams): one WSS connection pinned by public key (pinning.ts), its heartbeat,
 * and frames in and out. Every frame received is validated with `parseServerMessage` (the wire is a
 * trust boundary, DESIGN.md §3); a bad one is reported and dropped. Reconnection is the link's.
 */
import WebSocket, { type RawData } from 'ws';
import type { ClientMessage, ServerMessage } from '../../../shared/protocol/messages';
import { parseServerMessage, utf8Length } from '../../../shared/protocol/parse';
import { MAX_CLIENT_FRAME_BYTES, MAX_SERVER_FRAME_BYTES } from '../../../shared/protocol/version';
import { PinError, pinnedConnector } from './pinning';

export interface ConnectionOptions {
  url: string;
  pins: readonly string[];
  connectTimeoutMs: number;
  /** Ping after this long without a frame. */
  heartbeatIntervalMs: number;
  /** Drop the connection after this long without a frame (null: from the operator's heartbeat). */
  heartbeatTimeoutMs: number | null;
}

export interface ConnectionHooks {
  /** The socket is open: say hello. */
  opened(): void;
  /** A valid frame. */
  message(m: ServerMessage): void;
  badFrame(message: string): void;
  /** The pin was refused: nothing was written to that peer. */
  pinRefused(e: Error): void;
  /** The socket is gone (after `opened` or not). */
  closed(code: number): void;
  log(line: string): void;
}

export class Connection {
  private ws: WebSocket | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  /** From the operator's `welcome`. */
  serverHeartbeatMs = 15_000;
  maxClientFrameBytes = MAX_CLIENT_FRAME_BYTES;

  constructor(
    private readonly o: ConnectionOptions,
    private readonly h: ConnectionHooks,
  ) {}

  /** A socket exists (opening or open). */
  get active(): boolean {
    return this.ws !== null;
  }

  /** Opens the socket; returns why it could not even be made (a bad URL…), else null. */
  open(): string | null {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.o.url, {
        // The pinned connection (pinning.ts): nothing is written to a peer whose key is not pinned.
        createConnection: pinnedConnector({
          pins: this.o.pins,
          timeoutMs: this.o.connectTimeoutMs,
          onRefused: (e) => this.h.pinRefused(e),
        }) as unknown as NonNullable<WebSocket.ClientOptions['createConnection']>,
        maxPayload: MAX_SERVER_FRAME_BYTES,
        perMessageDeflate: false,
        handshakeTimeout: this.o.connectTimeoutMs,
        followRedirects: false,
      });
    } catch (e) {
      this.h.log(`cannot open ${this.o.url}: ${(e as Error).message}`);
      return (e as Error).message;
    }
    this.ws = ws;
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.heard();
      this.startHeartbeat(ws);
      this.h.opened();
    });
    ws.on('message', (data, isBinary) => {
      if (this.ws !== ws) return;
      this.heard();
      this.onFrame(data, isBinary);
    });
    ws.on('ping', () => this.ws === ws && this.heard());
    ws.on('pong', () => this.ws === ws && this.heard());
    ws.on('error', (e) => {
      if (this.ws === ws && !(e instanceof PinError)) this.h.log(`connection to ${this.o.url}: ${e.message}`);
    });
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      if (reason.length > 0) this.h.log(`connection closed: ${code} ${reason.toString()}`);
      this.h.closed(code);
    });
    return null;
  }

  private heard(): void {
    this.lastHeard = Date.now();
  }

  /** Pings a quiet line; a line silent for too long is dead: dropped (then the link reconnects). */
  private startHeartbeat(ws: WebSocket): void {
    this.stopHeartbeat();
    const interval = this.o.heartbeatIntervalMs;
    this.heartbeatTimer = setInterval(() => {
      if (this.ws !== ws) return;
      const timeout = this.o.heartbeatTimeoutMs ?? Math.max(3 * interval, 2 * this.serverHeartbeatMs + 5_000);
      const quiet = Date.now() - this.lastHeard;
      if (quiet >= timeout) {
        this.h.log(`no sign of life from the operator for ${quiet} ms: reconnecting`);
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

  /** Sends one frame; false when the socket is not open or the frame is over the operator's limit. */
  send(m: ClientMessage): boolean {
    const ws = this.ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) return false;
    const text = JSON.stringify(m);
    if (utf8Length(text, this.maxClientFrameBytes) > this.maxClientFrameBytes) {
      this.h.log(`not sending a ${m.type} of more than ${this.maxClientFrameBytes} bytes`);
      return false;
    }
    ws.send(text);
    return true;
  }

  /** Closes with a code and reason (the close event follows). */
  drop(code: number, reason: string): void {
    this.ws?.close(code, reason);
  }

  /** Closes for good; resolves once closed (terminated after 2 s). False when there was no socket. */
  async close(): Promise<boolean> {
    const ws = this.ws;
    if (ws === null) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => ws.terminate(), 2_000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1000, 'client closing');
    });
    return true;
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.h.badFrame('a binary frame');
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
    const parsed = parseServerMessage(text);
    if (!parsed.ok) return this.h.badFrame(`${parsed.code}: ${parsed.message}: ${text.slice(0, 200)}`);
    this.h.message(parsed.message);
  }
}
