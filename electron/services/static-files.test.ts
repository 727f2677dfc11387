import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStaticFile } from './static-files';

const root = mkdtempSync(join(tmpdir(), 'cercle-static-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Cercle</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(root, '..', 'secret.txt'), 'secret');

describe('readStaticFile', () => {
  it('serves files of the built renderer with their type', async () => {
    const js = await readStaticFile(root, '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.contentType).toMatch(/javascript/);
    expect(js.body.toString()).toBe('console.log(1)');
  });
  it('falls back to index.html for app routes and the root', async () => {
    expect((await readStaticFile(root, '/')).body.toString()).toContain('<title>Cercle');
    expect((await readStaticFile(root, '/lobby')).body.toString()).toContain('<title>Cercle');
  });
  it('never serves a file outside the root', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..\\secret.txt', '/%00index.html', '/%E0%A4%A']) {
      expect((await readStaticFile(root, p)).status, p).toBe(404);
    }
  });
  it('refuses missing files and unknown types', async () => {
    expect((await readStaticFile(root, '/assets/none.js')).status).toBe(404);
    expect((await readStaticFile(root, '/assets/app.exe')).status).toBe(404);
  });
});
