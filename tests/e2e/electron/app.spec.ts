import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, expect, type Page, test } from '@playwright/test';
import { CALL_NAMES } from '../../../shared/api';
import { artifactPath } from '../host';

// The real desktop app. Needs the Electron binary: runs in .github/workflows/ci.yml (Windows, macOS,
// and Linux under xvfb), not in .ci/run where the binary cannot be downloaded.
let app: ElectronApplication;
let page: Page;

test.beforeAll(async () => {
  const userData = mkdtempSync(join(tmpdir(), 'cercle-electron-'));
  app = await electron.launch({ args: ['.', `--user-data-dir=${userData}`], env: { ...process.env, NODE_ENV: 'production' } });
  page = await app.firstWindow();
});
test.afterAll(async () => {
  await app?.close();
});

test('starts to the lobby from app://, in French', async () => {
  await expect(page.getByTestId('lobby')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Salon');
  expect(page.url()).toMatch(/^app:\/\/cercle\//);
  // The embedded operator (a utility process) starts with the app; its guest signs in by itself and
  // the lobby lists a practice table of every game, with no setup.
  await expect(page.getByTestId('status-link')).toHaveText('Connecté', { timeout: 30_000 });
  await expect(page.locator('[data-testid^="lobby-row-"]')).toHaveCount(11);
  await page.screenshot({ path: artifactPath('electron-lobby.png') });
});

test('the window runs sandboxed with context isolation and no Node integration', async () => {
  // app.enableSandbox() sandboxes every renderer and marks the command line with --enable-sandbox.
  expect(await app.evaluate(({ app: a }) => a.commandLine.hasSwitch('enable-sandbox'))).toBe(true);
  // From the page: no Node globals, no ipcRenderer, only the named functions of the client API.
  const seen = await page.evaluate(() => {
    const g = globalThis as unknown as { require?: unknown; process?: unknown; cercle: object };
    return { require: typeof g.require, process: typeof g.process, api: Object.keys(g.cercle).sort() };
  });
  expect(seen).toEqual({ require: 'undefined', process: 'undefined', api: [...CALL_NAMES, 'on'].sort() });
});

test('navigation away from the app and new windows are blocked', async () => {
  const before = page.url();
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe(before);
  await page.evaluate(() => (globalThis as unknown as { open: (u: string) => unknown }).open('https://example.com/'));
  await page.waitForTimeout(500);
  expect(app.windows()).toHaveLength(1);
});

test('switching language goes through IPC and is kept in the data folder', async () => {
  await page.getByTestId('language-switch').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');
});
