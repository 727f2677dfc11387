import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ClientCore, memoryVault } from '../services/client';
import { createHandlers } from '../services/client-api';
import { SettingsStore } from '../services/settings';
import { type BrowserHost, startBrowserHost } from './server';

let host: BrowserHost;
let opened: string[];

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'cercle-host-r-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cercle</title>');
  opened = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'cercle-host-d-'));
  const settings = new SettingsStore(dataDir);
  // The core is never started here: these tests are about the transport, not the operator.
  const core = new ClientCore({
    dataDir,
    version: '0.1.0',
    settings: () => settings.get(),
    launchEmbedded: () => Promise.reject(new Error('not in this test')),
    vault: memoryVault(),
    broadcast: () => undefined,
  });
  const handlers = createHandlers({
    info: { name: 'Cercle', version: '0.1.0', host: 'browser', platform: 'linux', dataDir: '/tmp' },
    settings,
    core,
    openExternal: async (url) => void opened.push(url),
  });
  host = await startBrowserHost({ rendererDir, handlers });
});
afterAll(() => host.close());

function connect(opts: { token?: string; origin?: string; path?: string } = {}): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${host.port}${opts.path ?? '/api'}?token=${encodeURIComponent(opts.token ?? host.token)}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin: opts.origin ?? host.origin });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
}

describe('browser host', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  });

  it('refuses the API socket without the right token or from another origin', async () => {
    await expect(connect({ token: 'wrong' })).rejects.toThrow('HTTP 403');
    await expect(connect({ token: '' })).rejects.toThrow('HTTP 403');
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect({ origin: 'http://localhost:1' })).rejects.toThrow('HTTP 403');
    await expect(connect({ path: '/other' })).rejects.toThrow('HTTP 403');
  });

  it('answers calls and pushes events to an authorised page', async () => {
    const ws = await connect();
    ws.send(JSON.stringify({ id: 1, call: 'updateSettings', args: { language: 'en' } }));
    expect(await nextMessage(ws)).toMatchObject({ id: 1, ok: true, value: { language: 'en' } });
    const event = nextMessage(ws);
    host.broadcast('lobby', []);
    expect(await event).toEqual({ event: 'lobby', payload: [] });
    ws.close();
  });

  it('answers malformed messages with errors and keeps serving', async () => {
    const ws = await connect();
    const bad = ['not json', '[]', '{"call":"appInfo"}', '{"id":"x","call":"appInfo","args":{}}', '{"id":2,"call":"nope","args":{}}', '{"id":3,"call":"updateSettings","args":{"language":"xx"}}'];
    const replies = [];
    for (const b of bad) {
      ws.send(b);
      replies.push(await nextMessage(ws));
    }
    expect(replies.map((r) => r.ok)).toEqual(bad.map(() => false));
    expect(replies[4]).toMatchObject({ id: 2, error: { code: 'UNKNOWN_CALL' } });
    expect(replies[5]).toMatchObject({ id: 3, error: { code: 'BAD_REQUEST' } });
    ws.send(JSON.stringify({ id: 4, call: 'appInfo', args: {} }));
    expect(await nextMessage(ws)).toMatchObject({ id: 4, ok: true, value: { name: 'Cercle' } });
    ws.close();
  });

  it('closes a socket that sends an oversized message, and others are unaffected', async () => {
    const ws = await connect();
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('x'.repeat(100 * 1024));
    expect(await closed).toBe(1009);
    const other = await connect();
    other.send(JSON.stringify({ id: 5, call: 'getSettings', args: {} }));
    expect(await nextMessage(other)).toMatchObject({ id: 5, ok: true });
    other.close();
  });

  it('opens only allow-listed external pages', async () => {
    const ws = await connect();
    ws.send(JSON.stringify({ id: 6, call: 'openExternal', args: { url: 'https://evil.example/' } }));
    expect(await nextMessage(ws)).toMatchObject({ id: 6, ok: true, value: { opened: false } });
    ws.send(JSON.stringify({ id: 7, call: 'openExternal', args: { url: 'https://www.joueurs-info-service.fr/' } }));
    expect(await nextMessage(ws)).toMatchObject({ id: 7, ok: true, value: { opened: true } });
    expect(opened).toEqual(['https://www.joueurs-info-service.fr/']);
    ws.close();
  });

  it('serves the renderer with the security headers', async () => {
    const res = await fetch(`${host.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${host.origin}/`, { method: 'POST' })).status).toBe(405);
  });
});
