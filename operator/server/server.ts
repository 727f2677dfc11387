/**
 * The wire's transport: HTTPS with the operator's TLS identity (tls.ts), a health endpoint
 * (`GET /health`, JSON), and WebSocket upgrades on `/` (the `ws` package) handed to a Connection each.
 * Heartbeats: the server pings every `heartbeatMs`; a client that has not answered the previous ping
 * is dropped (its seats wait out the grace period). Frames above 64 KiB are cut by `ws` itself
 * (close code 1009); smaller ones above the protocol's cap are answered `FRAME_TOO_LARGE`.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { TlsIdentity } from '../tls';
import { Connection, type ServerContext } from './connection';

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
  const wss = new WebSocketServer({ server, path: '/', maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    if (ctx.closing) {
      ws.close(1001, 'shutting down');
      return;
    }
    const c = new Connection(ctx, ws, clientAddress(req, o.trustProxy));
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
