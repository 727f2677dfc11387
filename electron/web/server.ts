/**
 * The browser host (DESIGN.md §2): serves the built renderer over loopback HTTP and carries the client
 * API over a WebSocket on the same origin, for machines where Electron cannot run and for end-to-end
 * tests in Chromium. Bound to 127.0.0.1 only; the socket needs the random token of this run and an
 * Origin equal to the host's own, so another local page or process cannot drive the client.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { dispatchCall, type EventName, type EventPayload, type Handlers } from '../../shared/api';
import { SECURITY_HEADERS } from '../services/content-policy';
import { readStaticFile } from '../services/static-files';

/** Largest client message accepted on the API socket; calls are small. */
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface BrowserHostOptions {
  rendererDir: string;
  handlers: Handlers;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /**
   * An exported history file for `/download/<jobId>?key=<key>` (electron/services/history/jobs.ts):
   * null unless the key is that job's (a random capability sent only to authorised sockets).
   */
  download?: (jobId: string, key: string) => { path: string; name: string; size: number } | null;
}

export interface BrowserHost {
  /** The URL to open, carrying the token for this run: `http://127.0.0.1:<port>/?token=...`. */
  url: string;
  origin: string;
  port: number;
  token: string;
  broadcast<K extends EventName>(name: K, payload: EventPayload<K>): void;
  close(): Promise<void>;
}

export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  let origin = '';

  const http: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const dl = /^\/download\/([A-Za-z0-9_-]{1,40})\?key=([A-Za-z0-9_-]{1,64})$/.exec(req.url ?? '');
    if (dl || (req.url ?? '').startsWith('/download/')) {
      const file = dl && opts.download ? opts.download(dl[1], dl[2]) : null;
      if (file === null) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...SECURITY_HEADERS }).end('not found');
        return;
      }
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(file.size),
        'Content-Disposition': `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"`,
        'Cache-Control': 'no-store',
        ...SECURITY_HEADERS,
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file.path).on('error', () => res.destroy()).pipe(res);
      return;
    }
    void readStaticFile(opts.rendererDir, req.url ?? '/').then((file) => {
      res.writeHead(file.status, { 'Content-Type': file.contentType, 'Cache-Control': 'no-store', ...SECURITY_HEADERS });
      res.end(req.method === 'HEAD' ? undefined : file.body);
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  http.on('upgrade', (req, socket, head) => {
    if (!isAuthorised(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  function isAuthorised(req: IncomingMessage): boolean {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== '/api') return false;
    if (req.headers.origin !== origin) return false;
    const given = Buffer.from(url.searchParams.get('token') ?? '');
    return given.length === tokenBytes.length && timingSafeEqual(given, tokenBytes);
  }

  wss.on('connection', (ws) => {
    // A protocol error (oversized or malformed frame) closes that socket only; without this listener
    // the 'error' event would bring the whole host down.
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      void answer(ws, data.toString(), isBinary);
    });
  });

  async function answer(ws: WebSocket, text: string, isBinary: boolean): Promise<void> {
    let msg: unknown;
    try {
      msg = isBinary ? undefined : JSON.parse(text);
    } catch {
      msg = undefined;
    }
    const id = typeof msg === 'object' && msg !== null ? (msg as { id?: unknown }).id : undefined;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      send(ws, { id: null, ok: false, error: { code: 'BAD_REQUEST', message: 'expected {"id": integer, "call": name, "args": object}' } });
      return;
    }
    const { call, args } = msg as { call?: unknown; args?: unknown };
    const reply = await dispatchCall(opts.handlers, call, args);
    send(ws, { id, ...reply });
  }

  function send(ws: WebSocket, value: unknown): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(value));
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    broadcast(name, payload) {
      const frame = JSON.stringify({ event: name, payload });
      for (const ws of wss.clients) if (ws.readyState === WebSocket.OPEN) ws.send(frame);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
