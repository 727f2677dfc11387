/**
 * Bounded connections, attacked over real sockets on loopback (all of 127/8 is
 * loopback on Linux: an attacker's address is 127.0.0.3, a player's 127.0.0.2):
 *
 * - idle TCP sockets from one address, against the operator's own command line run with a 1,024
 *   descriptor limit: before the fix 989 of them shut everyone out;
 * - WebSockets that never say hello, and over the per-address and global caps: the close codes;
 * - a steady message flood: closed after 2,000 refused messages (before, never);
 * - guests minted from one address, and overall.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { OperatorConfig } from '../../operator/config/config';
import { CLOSE_ADDRESS_FULL, CLOSE_HELLO_TIMEOUT, CLOSE_OPERATOR_FULL, DEFAULT_CONNECTION_LIMITS } from '../../operator/server/gate';
import type { OperatorOptions, RunningOperator } from '../../operator/server/operator';
import { TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { testOperator } from './operator-harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../operator/main.ts', import.meta.url));

const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0097', idCoffre: 1, name: 'Gate' },
  tables: [{ id: 'p1', name: 'P1', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 } }],
};

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function health(port: number, localAddress = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/health', localAddress, rejectUnauthorized: false, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('health timed out')));
    req.on('error', reject);
  });
}

/** A WebSocket from `localAddress`; `closed` resolves with the close code (1006: cut without one). */
function openWs(port: number, localAddress: string): { ws: WebSocket; opened: Promise<boolean>; closed: Promise<number>; welcomed: Promise<boolean> } {
  const ws = new WebSocket(`wss://127.0.0.1:${port}`, { rejectUnauthorized: false, localAddress });
  ws.on('error', () => undefined);
  const opened = new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('close', () => resolve(false));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const welcomed = new Promise<boolean>((resolve) => {
    ws.on('message', (d) => {
      if ((JSON.parse(d.toString()) as { type: string }).type === 'welcome') resolve(true);
    });
    ws.once('close', () => resolve(false));
  });
  return { ws, opened, closed, welcomed };
}

/** `p`, or `null` after `ms` (a wait that fails in bounded time on the old code). */
function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms).unref())]);
}

function hello(ws: WebSocket): void {
  ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, client: '0.1.0' }));
}

const operator = (options: Partial<OperatorOptions> = {}): Promise<RunningOperator> => testOperator('0097', CONFIG.tables, options);

describe('bounded connections', () => {
  it('one address opening idle sockets by the thousand cannot shut out /health, a signed-in player or a newcomer of an operator limited to 1,024 descriptors', async () => {
    // The test process holds the attacker's sockets: keep under its own descriptor limit.
    const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()) || 1024;
    const flood = Math.min(1500, limit - 300);
    expect(flood).toBeGreaterThan(DEFAULT_CONNECTION_LIMITS.global); // enough to exhaust the operator's 1,024
    const t = tempDir();
    let child: ChildProcess | undefined;
    const sockets: Socket[] = [];
    try {
      const config = join(t.dir, 'lobby.json');
      writeFileSync(config, JSON.stringify(CONFIG));
      // The operator's command line with its defaults, run under a 1,024 descriptor limit.
      child = spawn('sh', ['-c', `ulimit -n 1024 && exec "${process.execPath}" --import tsx "${MAIN}" --port 0 --data "${join(t.dir, 'data')}" --config "${config}"`], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      await until(() => /^pin /m.test(out), 60_000, () => `the operator to serve: ${err}`);
      const [url, pinLine] = out.split('\n');
      const pin = pinLine.slice('pin '.length);
      const port = Number(new URL(url).port);

      const player = await TestClient.guest(url, pin, { localAddress: '127.0.0.2' });

      // The attack: idle TCP sockets from 127.0.0.3, nothing sent.
      let open = 0;
      let connected = 0;
      const started = Date.now();
      for (let i = 0; i < flood; i++) {
        const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.3' });
        s.on('error', () => undefined);
        s.once('connect', () => {
          connected++;
          open++;
          s.once('close', () => open--);
        });
        sockets.push(s);
        if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20));
      }
      await until(() => sockets.every((s) => s.destroyed || !s.connecting), 30_000, () => `${connected} of ${flood} sockets connected`);
      // Held by the operator: at most its per-address cap and the few kept to be answered. Before the fix: every one.
      await until(
        () => open <= DEFAULT_CONNECTION_LIMITS.perAddress + DEFAULT_CONNECTION_LIMITS.answerSlack,
        3_000,
        () => `${open} idle sockets from one address still held (cap ${DEFAULT_CONNECTION_LIMITS.perAddress})`,
      );
      const held = open;

      // Meanwhile everyone else is served.
      expect(await health(port, '127.0.0.1')).toBe(200);
      expect(await player.request({ type: 'balance' })).toMatchObject({ type: 'balance' });
      const newcomer = await TestClient.guest(url, pin, { localAddress: '127.0.0.4' });
      expect(await newcomer.request({ type: 'lobby.subscribe' })).toMatchObject({ type: 'lobby' });

      // The hello deadline frees the rest.
      await until(() => open === 0, DEFAULT_CONNECTION_LIMITS.helloTimeoutMs + 5_000, () => `${open} idle sockets past the hello deadline`);
      const freedMs = Date.now() - started;
      expect(await player.request({ type: 'balance' })).toMatchObject({ type: 'balance' });
      console.log(`${flood} idle sockets from one address: ${connected} connected, ${held} held after the flood, all closed ${freedMs} ms after its start; /health, the player and a newcomer served`);
      await player.close();
      await newcomer.close();
    } finally {
      for (const s of sockets) s.destroy();
      child?.kill('SIGKILL');
      t.cleanup();
    }
  });

  it('closes a WebSocket that never says hello (4002), and answers over the caps with 4003 (address) and 4004 (operator)', async () => {
    const quick = await operator({ connectionLimits: { helloTimeoutMs: 1_000 } });
    // Silent after the upgrade.
    const silent = openWs(quick.port, '127.0.0.9');
    expect(await silent.opened).toBe(true);
    expect(await within(silent.closed, 10_000)).toBe(CLOSE_HELLO_TIMEOUT);

    // The caps, with a deadline no TLS handshake on a loaded machine can miss.
    const op = await operator({ connectionLimits: { helloTimeoutMs: 60_000, perAddress: 50, global: 200, answerSlack: 4 } });

    // 50 from one address say hello and stay; the next ones are told why they are refused.
    const mine = Array.from({ length: 50 }, () => openWs(op.port, '127.0.0.5'));
    expect(await Promise.all(mine.map((m) => m.opened))).toEqual(new Array(50).fill(true));
    for (const m of mine) hello(m.ws);
    expect(await Promise.all(mine.map((m) => m.welcomed))).toEqual(new Array(50).fill(true));
    const extra = Array.from({ length: 4 }, () => openWs(op.port, '127.0.0.5'));
    expect(await within(Promise.all(extra.map((m) => m.closed)), 10_000)).toEqual(new Array(4).fill(CLOSE_ADDRESS_FULL));

    // 300 from 10 other addresses (30 each, under the per-address cap): 150 more fit under 200 in all.
    const many: ReturnType<typeof openWs>[] = [];
    for (let a = 0; a < 10; a++) for (let i = 0; i < 30; i++) many.push(openWs(op.port, `127.0.1.${a + 1}`));
    const opened = await Promise.all(many.map((m) => m.opened));
    const admitted = many.filter((_, i) => opened[i]);
    for (const m of admitted) if (m.ws.readyState === WebSocket.OPEN) hello(m.ws);
    const welcomed = await Promise.all(many.map((m) => m.welcomed));
    const stillOpen = many.filter((_, i) => welcomed[i]);
    expect(stillOpen.length).toBe(150);
    const codes = await Promise.all(many.filter((m) => !stillOpen.includes(m)).map((m) => m.closed));
    // Refused in all: some answered 4004 (at most the slack at a time), the rest cut at accept.
    expect(codes.filter((c) => c === CLOSE_OPERATOR_FULL).length).toBeGreaterThan(0);
    expect(codes.every((c) => c === CLOSE_OPERATOR_FULL || c === 1006)).toBe(true);
    // The operator is full: /health, one more connection, is still answered (the refused ones have gone).
    expect(await health(op.port, '127.0.0.1')).toBe(200);
    console.log(`caps 50/200: 300 sockets from 10 addresses, ${stillOpen.length} admitted, ${codes.filter((c) => c === CLOSE_OPERATOR_FULL).length} told 4004, ${codes.filter((c) => c === 1006).length} cut at accept`);
    for (const m of [...mine, ...stillOpen]) m.ws.terminate();
  });

  it('closes a connection that keeps flooding after 2,000 refused messages, even as tokens trickle back', async () => {
    const op = await operator();
    const c = await TestClient.connect(op.url, op.pin);
    await c.hello();
    let closedWith: number | null = null;
    c.ws.once('close', (code) => (closedWith = code));
    let sent = 0;
    // 60 pings every 10 ms: one token comes back every 25 ms at 40/s, which used to reset the count.
    for (let round = 0; round < 400 && closedWith === null; round++) {
      for (let i = 0; i < 60 && c.ws.readyState === WebSocket.OPEN; i++, sent++) c.send({ type: 'ping', t: sent });
      await new Promise((r) => setTimeout(r, 10));
    }
    await until(() => closedWith !== null, 5_000, () => `the flooder closed after ${sent} messages`);
    expect(closedWith).toBe(1008);
    console.log(`a steady flood closed (1008) after ${sent} messages sent`);
  });

  it('rations new accounts per address and overall', async () => {
    const op = await operator({ signupLimit: { perAddress: { burst: 5, perHour: 1 }, global: { burst: 12, perHour: 1 } } });
    async function guests(localAddress: string, n: number): Promise<string[]> {
      const c = await TestClient.connect(op.url, op.pin, { localAddress });
      await c.hello();
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = await c.request({ type: 'guest' });
        out.push(r.type === 'authed' ? 'ok' : r.type === 'error' ? r.code : r.type);
        if (r.type === 'authed') await c.request({ type: 'logout' });
      }
      await c.close();
      return out;
    }
    // One connection minting guests (before: 400 on one connection, 100,000 play chips each).
    expect(await guests('127.0.0.21', 7)).toEqual([...new Array(5).fill('ok'), 'RATE_LIMITED', 'RATE_LIMITED']);
    // Another address still gets in, until the overall allowance is spent.
    expect(await guests('127.0.0.22', 5)).toEqual(new Array(5).fill('ok'));
    expect(await guests('127.0.0.23', 5)).toEqual(['ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
    const c = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.24' });
    await c.hello();
    const r = await c.request({ type: 'register', username: 'latecomer', password: 'long enough pass' });
    expect(r).toMatchObject({ type: 'error', code: 'RATE_LIMITED' });
    expect((r as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(0);
    await c.close();
  });
});
