/**
 * The wire's transport: HTTPS with the operator's TLS identity (tls.ts), a health endpoint
 * (`GET /health`, JSON), and WebSocket upgrades on `/` (the `ws` package) handed to a Connection each.
 * Heartbeats: the server pings every `heartbeatMs`; a client that has not answered the previous ping
 * is dropped (its seats wait out the grace period). Frames above 64 KiB are cut by `ws` itself
 * (close code 1009); smaller ones above the protocol's cap are answered `FRAME_TOO_LARGE`.
 * Open connections are bounded per address and in all, and must say `hello` in time (gate.ts).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { TlsIdentity } from '../tls';
import { Connection } from './connection';
import type { ServerContext } from './context';
import { CLOSE_ADDRESS_FULL, CLOSE_HELLO_TIMEOUT, CLOSE_OPERATOR_FULL, ConnectionGate, type Admission, type ConnectionLimits } from './gate';

/** Hard ceiling of a frame `ws` accepts before closing the socket; the protocol's own cap is lower. */
export const WS_MAX_PAYLOAD = 64 * 1024;

export interface WireServer {
  server: Server;
  wss: WebSocketServer;
  port: number;
  close(): Promise<void>;
}

export interface WireOptions {
  host: string;
  port: number;
  /** Take the client's address from X-Forwarded-For (behind a trusted proxy on loopback). */
  trustProxy: boolean;
  limits: ConnectionLimits;
}

/** A TCP connection from accept to close: what the gate decided, and its hello deadline. */
interface Accepted {
  readonly raw: Socket;
  readonly key: string | null;
  readonly verdict: Admission;
  ws: WebSocket | null;
  helloed: boolean;
  timer: NodeJS.Timeout;
}

function clientAddress(req: { socket: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> }, trustProxy: boolean): string {
  const direct = req.socket.remoteAddress ?? '0.0.0.0';
  if (!trustProxy) return direct;
  const h = req.headers['x-forwarded-for'];
  const value = Array.isArray(h) ? h[h.length - 1] : h;
  if (!value) return direct;
  const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
  return parts[parts.length - 1] ?? direct;
}

export async function startWireServer(ctx: ServerContext, tls: TlsIdentity, o: WireOptions): Promise<WireServer> {
  const started = Date.now();
  const server = createServer({ cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2' }, (req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      const body = JSON.stringify({
        status: ctx.closing ? 'closing' : 'ok',
        protocol: PROTOCOL_VERSION,
        server: ctx.serverVersion,
        tables: ctx.manager.all().length,
        connections: ctx.connections.size,
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
      });
      res.writeHead(ctx.closing ? 503 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  });
  // Connections counted from TCP accept, each with its hello deadline (gate.ts).
  const gate = new ConnectionGate(o.limits);
  const accepted = new Map<string, Accepted>();
  const socketKey = (s: { remoteAddress?: string; remotePort?: number }) => `${s.remoteAddress}|${s.remotePort}`;
  server.on('connection', (raw: Socket) => {
    const key = o.trustProxy ? null : ConnectionGate.key(raw.remoteAddress);
    const verdict = gate.admit(key);
    if (verdict === 'drop') {
      raw.destroy();
      return;
    }
    const id = socketKey(raw);
    const entry: Accepted = {
      raw,
      key,
      verdict,
      ws: null,
      helloed: false,
      timer: setTimeout(() => {
        if (entry.helloed) return;
        if (entry.ws) {
          entry.ws.close(CLOSE_HELLO_TIMEOUT, 'no hello in time');
          setTimeout(() => raw.destroy(), 1000).unref();
        } else raw.destroy();
      }, o.limits.helloTimeoutMs),
    };
    entry.timer.unref();
    accepted.set(id, entry);
    raw.once('close', () => {
      clearTimeout(entry.timer);
      gate.release(key, verdict);
      if (accepted.get(id) === entry) accepted.delete(id);
    });
  });
  const wss = new WebSocketServer({ server, path: '/', maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    if (ctx.closing) {
      ws.close(1001, 'shutting down');
      return;
    }
    const entry = accepted.get(socketKey(req.socket));
    const ip = clientAddress(req, o.trustProxy);
    let verdict = entry?.verdict ?? 'ok';
    // Behind a proxy the address is known only now: its cap is taken here, released with the socket.
    const forwarded = o.trustProxy ? ConnectionGate.key(ip) : null;
    if (forwarded !== null && verdict === 'ok') {
      const v = gate.admit(forwarded, false);
      if (v === 'ok') ws.once('close', () => gate.release(forwarded, v, false));
      else {
        if (v !== 'drop') gate.release(forwarded, v, false);
        verdict = v === 'drop' ? 'address' : v;
      }
    }
    if (verdict !== 'ok') {
      ws.close(verdict === 'address' ? CLOSE_ADDRESS_FULL : CLOSE_OPERATOR_FULL, verdict === 'address' ? 'too many connections from this address' : 'the operator is full');
      setTimeout(() => ws.terminate(), 1000).unref();
      return;
    }
    if (entry) entry.ws = ws;
    const c = new Connection(ctx, ws, ip, () => {
      if (!entry) return;
      entry.helloed = true;
      clearTimeout(entry.timer);
    });
    ctx.connections.add(c);
    ws.on('message', (data, isBinary) => c.onFrame(data, isBinary));
    ws.on('pong', () => {
      c.alive = true;
    });
    ws.on('close', () => c.onClose());
    ws.on('error', (e) => ctx.log(`socket ${c.ip}: ${e.message}`));
  });
  const beat = setInterval(() => {
    for (const c of ctx.connections) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, ctx.heartbeatMs);
  beat.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    wss,
    port,
    async close() {
      clearInterval(beat);
      for (const c of ctx.connections) {
        c.sendRaw(JSON.stringify({ type: 'error', rid: null, code: 'SHUTTING_DOWN', message: 'the operator is shutting down' }));
        c.ws.close(1001, 'shutting down');
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const c of ctx.connections) c.ws.terminate();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
