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
  // Listen in main for the navigation attempt itself: the app's guard (registered first, at
  // web-contents-created) has already refused it when this listener runs, so once the event has come
  // and the page still answers from app://, the navigation did not happen. No waiting on a clock.
  await app.evaluate(({ BrowserWindow }) => {
    const g = globalThis as unknown as { attempted?: Promise<{ url: string; prevented: boolean }> };
    g.attempted = new Promise((ok) => {
      BrowserWindow.getAllWindows()[0].webContents.once('will-navigate', (event, url) => ok({ url, prevented: event.defaultPrevented }));
    });
  });
  await page.evaluate(() => {
    (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.com/';
  });
  const attempted = await app.evaluate(() => (globalThis as unknown as { attempted: Promise<{ url: string; prevented: boolean }> }).attempted);
  expect(attempted).toEqual({ url: 'https://example.com/', prevented: true });
  expect(await page.evaluate(() => (globalThis as unknown as { location: { href: string } }).location.href)).toBe(before);
  // window.open returns null when the window-open handler denies it (no window is created).
  const opened = await page.evaluate(() => (globalThis as unknown as { open: (u: string) => unknown }).open('https://example.com/') === null);
  expect(opened).toBe(true);
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});

test('switching language goes through IPC and is kept in the data folder', async () => {
  await page.getByTestId('language-switch').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby');
});
