/**
 * One Electron app under test: a Node child process that loads the BUILT main bundle
 * (out/main/index.cjs) with `electron` resolved to fake-electron.ts, then answers its parent's requests
 * (a renderer calling the client API, a user navigating, quitting...) over the IPC channel.
 *
 *   node --import tsx tests/electron-main/harness.ts        (CERCLE_FAKE_ELECTRON: the fake's config)
 *
 * Started by app-process.ts; one process per app, so quitting, a second instance and a held data folder
 * are real processes ending or meeting.
 */
import { createRequire } from 'node:module';
import Module from 'node:module';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as FakeElectron from './fake-electron';

const HERE = dirname(fileURLToPath(import.meta.url));
const requireCjs = createRequire(import.meta.url);
const FAKE = resolve(HERE, 'fake-electron.ts');
const BUNDLE = resolve(HERE, '../../out/main/index.cjs');

// `require('electron')` in the bundle (and in electron-updater) resolves to the fake: one module
// instance, shared with this file through the CommonJS cache.
const resolveFilename = (Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string })._resolveFilename = function (request: string, ...rest: unknown[]) {
  if (request === 'electron') return FAKE;
  return resolveFilename.call(this, request, ...rest);
};
const electron = requireCjs(FAKE) as typeof FakeElectron;
const { BrowserWindow, fake } = electron;

// electronjs.org/docs/latest/api/process#processtype-readonly: "browser - The main process".
// electronjs.org/docs/latest/api/process#processresourcespath-readonly: "A string representing the path to
// the resources directory." (electron-updater looks there for package-type and app-update.yml)
const resources = join(tmpdir(), 'cercle-fake-electron-resources');
mkdirSync(resources, { recursive: true });
Object.assign(process, { type: 'browser', resourcesPath: resources });

type Request = { id: number; op: string; args: Record<string, unknown> };

function windowOf(id: unknown): FakeElectron.BrowserWindow {
  const w = BrowserWindow.getAllWindows().find((x) => x.id === id);
  if (!w) throw new Error(`no window ${String(id)}`);
  return w;
}

function frameOf(w: FakeElectron.BrowserWindow, spec: unknown): FakeElectron.FakeFrame | null | undefined {
  if (spec === undefined || spec === 'top') return undefined;
  if (spec === 'none') return null;
  if (spec === 'sub') return { url: w.webContents.getURL(), parent: fake.topFrame(w) };
  if (typeof spec === 'object' && spec !== null && typeof (spec as { url?: unknown }).url === 'string') return { url: (spec as { url: string }).url, parent: null };
  throw new Error(`bad frame ${JSON.stringify(spec)}`);
}

async function answer(op: string, a: Record<string, unknown>): Promise<unknown> {
  switch (op) {
    case 'state':
      return {
        ready: electron.app.isReady(),
        sandboxed: fake.sandboxed,
        privileged: fake.privileged,
        windows: BrowserWindow.getAllWindows().map((w) => ({
          id: w.id,
          url: w.webContents.getURL(),
          shown: w.isShown(),
          minimized: w.isMinimized(),
          focusCount: w.focusCount,
          restoreCount: w.restoreCount,
          options: w.options,
          loads: w.webContents.loads,
        })),
        openedExternal: fake.openedExternal,
        errorBoxes: fake.errorBoxes,
        forks: fake.forks.map((f) => ({ modulePath: f.modulePath, options: f.options, pid: f.process.real.pid, exitCode: f.process.real.exitCode })),
      };
    case 'call':
      return fake.invoke(windowOf(a.window), 'cercle:call', [a.name, a.args ?? {}], { frame: frameOf(windowOf(a.window), a.frame), foreign: a.foreign === true });
    case 'fetch': {
      const res = await fake.fetch(String(a.url), { method: typeof a.method === 'string' ? a.method : 'GET' });
      const body = Buffer.from(await res.arrayBuffer());
      return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: body.toString('utf8', 0, Math.min(body.length, 4096)), length: body.length };
    }
    case 'navigate':
      return fake.navigate(windowOf(a.window), String(a.url));
    case 'redirect':
      return fake.redirect(windowOf(a.window), String(a.url));
    case 'windowOpen':
      return fake.windowOpen(windowOf(a.window), String(a.url));
    case 'webview':
      return fake.attachWebview(windowOf(a.window));
    case 'permission': {
      const w = windowOf(a.window);
      const p = String(a.permission);
      return { request: await fake.requestPermission(w, p), check: fake.checkPermission(w, p), device: fake.checkDevicePermission('hid') };
    }
    case 'sent': {
      const w = windowOf(a.window);
      const events = w.webContents.sent.filter((s) => s.channel === 'cercle:event');
      const names = events.map((s) => s.args[0] as string);
      const last = [...events].reverse().find((s) => s.args[0] === a.event);
      return { channels: [...new Set(w.webContents.sent.map((s) => s.channel))], names, last: last ? last.args[1] : null };
    }
    case 'minimize':
      windowOf(a.window).minimize();
      return true;
    case 'close':
      windowOf(a.window).close();
      return true;
    case 'quit':
      // After this answer: the app quits as a user's Quit does (before-quit first).
      setImmediate(() => electron.app.quit());
      return true;
    default:
      throw new Error(`unknown op ${op}`);
  }
}

process.on('message', (raw) => {
  const r = raw as Request;
  void answer(r.op, r.args ?? {}).then(
    (value) => process.send?.({ id: r.id, ok: true, value }),
    (e: unknown) => process.send?.({ id: r.id, ok: false, error: String((e as Error)?.stack ?? e) }),
  );
});
// The parent (the test) gone: so is this app.
process.on('disconnect', () => fake.exit(1));

// Electron runs the app's main script, then becomes ready.
requireCjs(BUNDLE);
setImmediate(() => fake.ready());
