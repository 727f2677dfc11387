// The browser host's download route for exported histories (electron/services/history/jobs.ts): the
// file only with the job's key; anything else under /download/ is a 404 with no file named.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../shared/api';
import { type BrowserHost, startBrowserHost } from './server';

let host: BrowserHost;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-download-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Cercle</title>');
  const file = join(dir, 'cercle-20261122-000000-abc.xml');
  writeFileSync(file, '<?xml version="1.0" encoding="UTF-8"?>\n<Evenements>\n</Evenements>\n');
  host = await startBrowserHost({
    rendererDir: dir,
    handlers: {} as Handlers,
    download: (jobId, key) => (jobId === 'abc' && key === 'right-key' ? { path: file, name: 'cercle-20261122-000000-abc.xml', size: statSync(file).size } : null),
  });
});
afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/download/<jobId>?key=…', () => {
  it('serves the exported file as an attachment with the right key', async () => {
    const r = await fetch(`${host.origin}/download/abc?key=right-key`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="cercle-20261122-000000-abc.xml"');
    expect(r.headers.get('content-security-policy')).toBeTruthy();
    expect(await r.text()).toContain('<Evenements>');
  });

  it('answers 404 without the key, with another key or another job', async () => {
    for (const path of ['/download/abc', '/download/abc?key=wrong-key', '/download/abd?key=right-key', '/download/abc?key=right-key&x=1']) {
      const r = await fetch(`${host.origin}${path}`);
      expect(r.status, path).toBe(404);
      expect(await r.text()).not.toContain('Evenements');
    }
  });
});
