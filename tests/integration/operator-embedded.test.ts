/**
 * The embedded operator the desktop client starts (DESIGN.md §3), the per-connection rate limit, and
 * the command line (trace verify and export), over real TLS on loopback.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../operator/cli';
import { tablesOf } from '../../operator/config/config';
import { startEmbeddedOperator } from '../../operator/embedded';
import { startOperator } from '../../operator/server/operator';
import { TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { VARIANT_CODES } from '../../shared/rules/variants';

describe('the embedded operator', () => {
  it('runs practice tables of every variant on loopback with a guest holding play money, kept across restarts', async () => {
    const t = tempDir();
    try {
      const op = await startEmbeddedOperator({ dataDir: t.dir, log: () => undefined });
      expect(op.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
      expect(op.pin).toMatch(/^sha256\/[A-Za-z0-9+/]{43}=$/);
      const c = await TestClient.connect(op.url, op.pin);
      await c.hello();
      const authed = await c.request({ type: 'resume', token: op.guest.token, tables: [] });
      expect(authed).toMatchObject({ type: 'authed', account: { guest: true, username: op.guest.username }, balances: { play: 1_000_000, real: 0 } });
      const lobby = await c.request({ type: 'lobby.subscribe' });
      if (lobby.type !== 'lobby') throw new Error(lobby.type);
      expect(lobby.tables.map((x) => x.variant).sort()).toEqual([...VARIANT_CODES].sort());
      expect(lobby.tables.every((x) => x.money === 'play' && x.practice)).toBe(true);
      const table = lobby.tables.find((x) => x.variant === 'THNL')!;
      const joined = await c.join(table.tableId, table.buyIn.min);
      expect(joined.type).toBe('table.joined');
      const snap = await c.waitFor((m) => m.type === 'table.snapshot', 10_000, true);
      if (snap.type !== 'table.snapshot') throw new Error('snapshot');
      const others = snap.table.seats.filter((s) => s !== null && s.name !== op.guest.username);
      expect(others.length).toBeGreaterThan(0);
      // Practice players are labelled as such in every view (R-NOBOT: no hidden robots).
      expect(others.every((s) => s!.practice && s!.name.startsWith('practice-'))).toBe(true);
      // They play: a hand starts as soon as the person sits (the snapshot may already show it).
      if (snap.table.hand === null) await c.waitFor((m) => m.type === 'table.event' && m.event.type === 'handStart', 15_000, true);
      await c.close();
      await op.close();

      const again = await startEmbeddedOperator({ dataDir: t.dir, log: () => undefined });
      expect(again.pin).toBe(op.pin);
      expect(again.guest.token).toBe(op.guest.token);
      // The chips bought in came back when the operator closed (R-CASH).
      expect(again.operator.wallet.balance(again.guest.accountId, 'play')).toBe(1_000_000);
      expect(again.operator.wallet.audit().problems).toEqual([]);
      await again.close();
      expect(JSON.parse(readFileSync(join(t.dir, 'embedded-guest.json'), 'utf8')).token).toBe(op.guest.token);
    } finally {
      t.cleanup();
    }
  });
});

describe('limits and the command line', () => {
  it('a client over its message rate gets RATE_LIMITED, and one that keeps flooding is cut off; trace verify and export work on the data folder', async () => {
    const t = tempDir();
    try {
      const lobby = tablesOf({
        version: 1,
        operator: { idOper: '0042', idCoffre: 3, name: 'T' },
        tables: [{ id: 'p', name: 'P', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 2 }],
      });
      const op = await startOperator({ dataDir: t.dir, lobby, rateLimit: { perSecond: 1, burst: 10, abuse: 40 }, log: () => undefined });
      const c = await TestClient.connect(op.url, op.pin);
      await c.hello(); // 1 token
      for (let i = 0; i < 29; i++) c.send({ type: 'ping', t: i });
      await c.waitFor(() => c.received.length >= 30);
      const pongs = c.received.filter((m) => m.type === 'pong').length;
      const limited = c.received.filter((m) => m.type === 'error' && m.code === 'RATE_LIMITED').length;
      expect(pongs).toBeGreaterThanOrEqual(9);
      expect(pongs).toBeLessThanOrEqual(11);
      expect(pongs + limited).toBe(29);
      // Requests refused over the rate are answered with their rid, each once (a client's action waiting
      // for its answer waited for ever when the refusal carried none).
      const r = await TestClient.connect(op.url, op.pin);
      await r.hello();
      const rids = Array.from({ length: 20 }, (_, i) => 100 + i);
      for (const rid of rids) r.send({ type: 'balance', rid });
      await r.waitFor(() => r.received.filter((m) => m.type === 'error').length >= rids.length);
      const answers = r.received.filter((m) => m.type === 'error');
      expect(answers.map((m) => ('rid' in m ? m.rid : null)).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(rids);
      expect(answers.filter((m) => m.type === 'error' && m.code === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(8);
      await r.close();
      const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
      for (let i = 0; i < 60; i++) c.send({ type: 'ping', t: i });
      expect(await closed).toBe(1008);
      // Other connections are not affected.
      const d = await TestClient.guest(op.url, op.pin);
      expect(await d.request({ type: 'balance' })).toMatchObject({ type: 'balance' });
      await d.join('p', 400);
      await d.close();
      await op.close();

      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stopSignal: () => Promise.resolve() };
      const config = join(t.dir, 'lobby.json');
      await import('node:fs').then((fs) => fs.writeFileSync(config, JSON.stringify(lobby.config)));
      expect(await runCli(['trace', 'verify', '--data', t.dir, '--config', config], io)).toBe(0);
      expect(out.join('\n')).toMatch(/trace chain intact: \d+ records/);
      const file = join(t.dir, 'export.xml');
      expect(await runCli(['trace', 'export', '--data', t.dir, '--config', config, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z', '--out', file], io)).toBe(0);
      const xml = readFileSync(file, 'utf8');
      expect(xml).toContain('<Coffre IDOper="0042" IDCoffre="3"');
      expect(xml).toContain('<POINSCRIT');
      expect(xml).toContain('<POBILAN');
      expect(await runCli(['report', '--data', t.dir, '--config', config, '--play', 'yes', '--min-hands', '1'], io)).toBe(0);
      expect(out.join('\n')).toMatch(/fair-play report: \d+ hands/);
      expect(await runCli(['trace', 'export', '--data', t.dir, '--config', config, '--from', 'yesterday'], io)).toBe(2);
      expect(await runCli(['--port', 'x', '--data', t.dir], io)).toBe(2);
      expect(await runCli(['--data', t.dir, '--config', join(t.dir, 'nope.json')], io)).toBe(2);
      expect(err.join('\n')).toMatch(/cannot read the configuration/);
    } finally {
      t.cleanup();
    }
  });
});
