/**
 * The Electron main process under test: the BUILT out/main/index.cjs, run in its own
 * Node process with `electron` replaced by fake-electron.ts (each faked behaviour cites the Electron 45
 * documentation it copies). As a player's session goes: the window opens on app://cercle/index.html, the
 * protocol serves the built renderer with its headers and nothing else, the page's API calls are answered
 * from the real embedded operator (started through the fake utilityProcess: a real child process) while
 * calls from anything else are refused, the page cannot navigate away, open windows or get permissions,
 * a table pops out only where the player sits, quitting cashes every stack back into the wallet, a second
 * launch focuses the first, and a data folder held by a browser host is left untouched.
 *
 * npm test builds before the unit tests (package.json "test"); a stale bundle is refused.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, type EventName } from '../../shared/api';
import { SECURITY_HEADERS } from '../../electron/services/content-policy';
import { EMBEDDED_ENV_NAMES } from '../../electron/services/embedded';
import { validate, type Schema } from '../../shared/validate';
import { tablesOf } from '../../operator/config/config';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { AppProcess, assertFreshBuild, type WindowState } from './app-process';
import { type FakeConfig, singletonDir } from './fake-electron';
import { rulesVersion, type PlayConditions } from '../../shared/protocol/conditions';
import type { TableInfo } from '../../shared/protocol/messages';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const SECRET = 'CERCLE_TEST_SECRET_TOKEN';

const cleanup: (() => void)[] = [];
function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  // Retries: an embedded operator whose app was killed stops by itself (its IPC channel closed) and may
  // still be writing its last files as the folder goes (Node's rm retries ENOTEMPTY when told to).
  cleanup.push(() => rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return d;
}
const apps: AppProcess[] = [];
function startApp(userData: string, config: Partial<FakeConfig> = {}, env: Record<string, string> = {}): AppProcess {
  cleanup.push(() => rmSync(singletonDir(userData), { recursive: true, force: true }));
  // A secret in main's environment: it must not reach the embedded operator's process (item 5).
  const a = new AppProcess({ userData, version: '0.1.0', isPackaged: false, ...config }, { [SECRET]: 'do-not-leak', ...env });
  apps.push(a);
  return a;
}

afterAll(async () => {
  for (const a of apps) a.kill();
  await Promise.all(apps.map((a) => a.exited));
  for (const c of cleanup.splice(0)) c();
});

beforeAll(() => assertFreshBuild());

type Lobby = TableInfo[];

describe('a player session in the desktop app (built main bundle, fake Electron)', () => {
  let userData: string;
  let app: AppProcess;
  let main: WindowState;
  let lobby: Lobby;

  beforeAll(async () => {
    userData = join(tempDir('cercle-main-'), 'userData');
    app = startApp(userData);
    main = await app.mainWindow();
  });

  it('opens one hardened window on app://cercle/index.html, once the page is ready to show', async () => {
    expect(main.url).toBe('app://cercle/index.html');
    expect(main.loads[0]).toEqual({ url: 'app://cercle/index.html', status: 200, contentType: 'text/html; charset=utf-8' });
    expect(main.options.show).toBe(false); // shown by ready-to-show, not before
    expect(main.shown).toBe(true);
    expect(main.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    const s = await app.state();
    expect(s.windows).toHaveLength(1);
    expect(s.sandboxed).toBe(true);
    expect(s.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
  });

  it('serves the built renderer with the CSP and hardening headers', async () => {
    const index = await app.request<{ status: number; headers: Record<string, string>; body: string }>('fetch', { url: 'app://cercle/index.html' });
    expect(index.status).toBe(200);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(index.headers[name.toLowerCase()]).toBe(value);
    expect(index.body).toBe(readFileSync(join(RENDERER, 'index.html'), 'utf8').slice(0, 4096));
    const script = /src="(?:\.\/|\/)?(assets\/[^"]+\.js)"/.exec(index.body)?.[1];
    expect(script).toBeTruthy();
    const js = await app.request<{ status: number; headers: Record<string, string>; length: number }>('fetch', { url: `app://cercle/${script}` });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.length).toBe(statSync(join(RENDERER, script!)).size);
    // A deep link (a route of the page) opens the app.
    const deep = await app.request<{ status: number; body: string }>('fetch', { url: 'app://cercle/table/practice-thnl' });
    expect(deep.status).toBe(200);
    expect(deep.body).toBe(index.body);
  });

  it.each([
    ['another host', 'app://other/index.html', 'GET'],
    ['a lookalike host', 'app://cercle.evil/index.html', 'GET'],
    ['a port', 'app://cercle:8080/index.html', 'GET'],
    ['POST', 'app://cercle/index.html', 'POST'],
    ['PUT', 'app://cercle/index.html', 'PUT'],
    ['dot segments', 'app://cercle/../../package.json', 'GET'],
    ['encoded dot segments', 'app://cercle/%2e%2e/%2e%2e/package.json', 'GET'],
    ['encoded slashes', 'app://cercle/..%2f..%2fpackage.json', 'GET'],
    ['encoded dots and slashes', 'app://cercle/%2e%2e%2f%2e%2e%2fpackage.json', 'GET'],
    ['the main bundle beside the renderer', 'app://cercle/..%2fmain%2findex.cjs', 'GET'],
    ['a backslash escape', 'app://cercle/..%5c..%5cpackage.json', 'GET'],
    ['a hidden file', 'app://cercle/.vite/manifest.json', 'GET'],
    ['a NUL byte', 'app://cercle/index.html%00.js', 'GET'],
  ])('answers 404 to %s (%s %s), reading nothing outside the renderer', async (_why, url, method) => {
    const r = await app.request<{ status: number; body: string }>('fetch', { url, method });
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('"name": "cercle"');
    expect(r.body).not.toContain('require(');
  });

  it("answers the app's own page: app info, then the lobby of 11 tables from the real embedded operator", async () => {
    const info = await app.value<{ host: string; dataDir: string; version: string }>(main.id, 'appInfo');
    expect(info).toMatchObject({ host: 'electron', dataDir: userData, version: '0.1.0' });
    lobby = await app.until(async () => {
      const l = await app.value<Lobby>(main.id, 'lobby');
      return l.length >= 11 ? l : null;
    }, 'the lobby');
    expect(new Set(lobby.map((t) => t.variant)).size).toBe(11);
    // electron-updater loaded and asked: not an installed build, so no feed is fetched.
    expect(await app.value(main.id, 'updateStatus')).toEqual({ state: 'unsupported', message: 'updates apply to installed builds only' });
    // The embedded operator runs in the fake utility process: a real child process.
    const fork = (await app.state()).forks[0];
    expect(fork.modulePath).toBe(join(ROOT, 'out/main/embedded-child.cjs'));
    expect(fork.pid).toBeGreaterThan(0);
  });

  it.each([
    ['a subframe of our window', { frame: 'sub' as const }],
    ['another origin in the top frame', { frame: { url: 'https://evil.example/' } }],
    ['a lookalike app host', { frame: { url: 'app://cercle.evil/index.html' } }],
    ['another app host', { frame: { url: 'app://other/index.html' } }],
    ['a file:// page', { frame: { url: 'file:///index.html' } }],
    ['about:blank', { frame: { url: 'about:blank' } }],
    ['a frame already gone', { frame: 'none' as const }],
    ['a web contents that is not one of our windows', { foreign: true }],
  ])('refuses a call from %s with FORBIDDEN, running nothing', async (_why, from) => {
    const r = await app.call(main.id, 'lobby', {}, from);
    expect(r).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'sender is not a Cercle window' } });
  });

  it('pushes only events the contract accepts', async () => {
    const sent = await app.request<{ channels: string[]; names: EventName[] }>('sent', { window: main.id });
    expect(sent.channels).toEqual(['cercle:event']);
    for (const name of ['session', 'lobby'] as EventName[]) {
      expect(sent.names).toContain(name);
      const last = await app.request<{ last: unknown }>('sent', { window: main.id, event: name });
      const v = validate(events[name] as Schema<unknown>, last.last, name);
      expect(v.ok, v.ok ? '' : v.error).toBe(true);
    }
  });

  it('keeps the page in the app: navigation and redirects away are refused, inside the app allowed', async () => {
    expect(await app.request('navigate', { window: main.id, url: 'https://example.com/' })).toEqual({ prevented: true });
    expect(await app.request('navigate', { window: main.id, url: 'app://other/index.html' })).toEqual({ prevented: true });
    expect(await app.request('navigate', { window: main.id, url: 'file:///etc/passwd' })).toEqual({ prevented: true });
    expect(await app.request('navigate', { window: main.id, url: 'app://cercle/index.html#/history' })).toEqual({ prevented: false });
    expect(await app.request('redirect', { window: main.id, url: 'https://example.com/' })).toEqual({ prevented: true });
    expect(await app.request('webview', { window: main.id })).toEqual({ prevented: true });
  });

  it('denies window.open; only allow-listed https help pages go to the system browser', async () => {
    for (const url of ['https://www.joueurs-info-service.fr/', 'https://anj.fr/', 'https://evil.example/', 'http://www.joueurs-info-service.fr/', 'app://cercle/index.html', 'https://user@anj.fr/']) {
      expect(await app.request('windowOpen', { window: main.id, url })).toEqual({ action: 'deny' });
    }
    const s = await app.state();
    expect(s.openedExternal).toEqual(['https://www.joueurs-info-service.fr/', 'https://anj.fr/']);
    expect(s.windows).toHaveLength(1);
  });

  it('denies every permission request and check', async () => {
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      expect(await app.request('permission', { window: main.id, permission })).toEqual({ request: false, check: false, device: false });
    }
  });

  it('gives the embedded operator a minimal environment, without the secrets of main (item 5)', async () => {
    const fork = (await app.state()).forks[0];
    const env = fork.options.env;
    // Left out, Electron would pass the whole process.env (utility-process#utilityprocessforkmodulepath-args-options).
    expect(env).toBeDefined();
    expect(Object.keys(env!).every((k) => EMBEDDED_ENV_NAMES.includes(k.toUpperCase()))).toBe(true);
    expect(JSON.stringify(env)).not.toContain('do-not-leak');
    // What the real child process actually has (Linux shows it).
    if (process.platform === 'linux') {
      const environ = readFileSync(`/proc/${fork.pid}/environ`, 'utf8');
      expect(environ).not.toContain(SECRET);
      expect(environ).not.toContain('do-not-leak');
    }
  });

  let startBalance = 0;
  let buyIn = 0;
  let tableId = '';
  let walletAfterQuit = 0;
  let again: AppProcess;

  it('pops out only a table the player sits at (item 5), one window per table', async () => {
    const seatedAt = lobby.find((t) => t.variant === 'THNL')!;
    const notSeated = lobby.find((t) => t.tableId !== seatedAt.tableId)!;
    tableId = seatedAt.tableId;
    buyIn = seatedAt.buyIn.min;
    expect(await app.value(main.id, 'popOut', { tableId })).toEqual({ opened: false });
    startBalance = (await app.value<{ balances: { play: number } }>(main.id, 'session')).balances.play;
    // The version of the rules as the join dialog shows them (R-INFO).
    const conditions = await app.value<PlayConditions>(main.id, 'conditions');
    expect(await app.value(main.id, 'join', { tableId, buyIn, waitForBigBlind: false, rulesVersion: rulesVersion(seatedAt, conditions.version) })).toEqual({ ok: true });
    await app.until(async () => (await app.value<{ tableId: string; status: string }[]>(main.id, 'tables')).some((t) => t.tableId === tableId && t.status === 'live'), 'seated');
    expect(await app.value(main.id, 'popOut', { tableId: notSeated.tableId })).toEqual({ opened: false });
    expect(await app.value(main.id, 'popOut', { tableId: 'no-such-table' })).toEqual({ opened: false });
    expect((await app.state()).windows).toHaveLength(1);

    expect(await app.value(main.id, 'popOut', { tableId })).toEqual({ opened: true });
    const popOut = await app.until(async () => (await app.state()).windows.find((w) => w.id !== main.id && w.shown), 'the pop-out shown');
    expect(popOut.url).toBe(`app://cercle/index.html#/table/${tableId}`);
    expect(popOut.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
    // The pop-out's page is one of ours: its calls are answered.
    expect((await app.call(popOut.id, 'tables')).ok).toBe(true);
    // Again: the same window is focused, none added.
    const focused = popOut.focusCount;
    expect(await app.value(main.id, 'popOut', { tableId })).toEqual({ opened: true });
    const after = await app.state();
    expect(after.windows).toHaveLength(2);
    expect(after.windows.find((w) => w.id === popOut.id)!.focusCount).toBe(focused + 1);
  });

  it('quits cleanly: the embedded operator stops and every stack is back in the wallet', async () => {
    const { pid } = (await app.state()).forks[0];
    await app.request('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(() => process.kill(pid!, 0)).toThrow(); // the operator's process is gone
    const db = new Database(join(userData, 'embedded-operator', 'operator.sqlite'), { readonly: true });
    try {
      // A clean stop cashed out every seat (a killed operator leaves them held until its next start).
      expect(db.prepare('SELECT COUNT(*) AS n FROM table_seats WHERE cashed_out IS NULL').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COALESCE(SUM(held), 0) AS held FROM table_funds').get()).toEqual({ held: 0 });
      // The player is the embedded guest (operator/embedded.ts keeps its account in embedded-guest.json).
      const guest = (JSON.parse(readFileSync(join(userData, 'embedded-operator', 'embedded-guest.json'), 'utf8')) as { accountId: number }).accountId;
      const moves = db.prepare("SELECT reason, amount FROM ledger WHERE account_id = ? AND table_id = ? AND reason IN ('buy-in', 'cash-out')").all(guest, tableId) as { reason: string; amount: number }[];
      expect(moves.filter((m) => m.reason === 'buy-in').map((m) => m.amount)).toEqual([buyIn]);
      const cashOut = moves.filter((m) => m.reason === 'cash-out');
      expect(cashOut).toHaveLength(1);
      const wallet = db.prepare("SELECT balance FROM wallets WHERE account_id = ? AND kind = 'play'").get(guest) as { balance: number };
      expect(wallet.balance).toBe(startBalance - buyIn + cashOut[0].amount);
      walletAfterQuit = wallet.balance;
    } finally {
      db.close();
    }
  });

  it('starts again on the same data: the wallet the player sees is the one the operator kept, no seat left', async () => {
    again = startApp(userData);
    const w = await again.mainWindow();
    const session = await again.until(async () => {
      const s = await again.value<{ balances: { play: number } | null }>(w.id, 'session');
      return s.balances ? s : null;
    }, 'the balance');
    expect(session.balances!.play).toBe(walletAfterQuit);
    expect(await again.value(w.id, 'tables')).toEqual([]);
  });

  it('a second launch on the same data focuses the first window and quits', async () => {
    const w = await again.mainWindow();
    await again.request('minimize', { window: w.id });
    const second = startApp(userData);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    const first = await again.until(async () => (await again.state()).windows.find((x) => x.id === w.id && x.restoreCount === 1), 'the first window restored');
    expect(first.minimized).toBe(false);
    expect(first.focusCount).toBeGreaterThan(w.focusCount);
    expect((await again.state()).windows).toHaveLength(1);
    await again.request('quit');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });
});

/** Another real process holding a data folder, as a browser host does (shared/node/folder-lock.ts). */
function holder(folder: string): Promise<ChildProcess> {
  const script = join(tempDir('cercle-holder-'), 'hold.ts');
  writeFileSync(
    script,
    `import { lockFolder } from ${JSON.stringify(join(ROOT, 'shared/node/folder-lock.ts'))};\n` +
      // Kept in a global: a lock nobody references is closed by the garbage collector, and the folder freed.
      `(globalThis as Record<string, unknown>).lock = lockFolder(${JSON.stringify(folder)}, 'the browser host');\nconsole.log('held');\nsetInterval(() => undefined, 1000);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.unshift(() => void child.kill('SIGKILL'));
  return new Promise((ok, fail) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('held') && ok(child));
    child.on('exit', (code) => fail(new Error(`holder exited ${code}`)));
  });
}

function listing(dir: string): Record<string, { size: number; mtimeMs: number }> {
  const out: Record<string, { size: number; mtimeMs: number }> = {};
  for (const name of readdirSync(dir)) {
    const st = statSync(join(dir, name));
    out[name] = { size: st.size, mtimeMs: st.mtimeMs };
  }
  return out;
}

describe('a data folder held by a browser host', () => {
  it('the desktop app says so in one line naming the folder and quits, touching no file', async () => {
    const userData = join(tempDir('cercle-held-'), 'userData');
    await holder(userData);
    const before = listing(userData);
    const app = startApp(userData);
    // Bounded: an app that does not quit (the folder not checked) fails here with its output, not by the test's timeout.
    const ended = await Promise.race([app.exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000).unref())]);
    expect(ended, `the app did not quit:\n${app.output.join('\n')}`).toEqual({ code: 0, signal: null });
    const shown = app.output.filter((l) => l.startsWith('[dialog.showErrorBox]'));
    expect(shown).toEqual([`[dialog.showErrorBox] Cercle: The data folder ${userData} is in use by the browser host ${shown[0]?.slice(shown[0].indexOf('(process'))}`]);
    expect(shown[0]).toMatch(/in use by the browser host \(process \d+ on .+\); stop it first, or choose another folder\.$/);
    expect(listing(userData)).toEqual(before);
    expect(existsSync(join(userData, 'settings.json'))).toBe(false);
    expect(existsSync(join(userData, 'embedded-operator'))).toBe(false);
  });
});

describe('pop-outs at the limit, on an operator of 25 tables', () => {
  let op: RunningOperator;
  let userData: string;
  afterAll(async () => op?.close());

  /** Points the app at the test operator and signs `username` up there. */
  async function signUp(app: AppProcess, window: number, username: string): Promise<void> {
    await app.value(window, 'updateSettings', { operator: { mode: 'custom', url: op.url, pins: [op.pin] } });
    // The link follows the settings in the background (the embedded operator stops first); a sign-up
    // made meanwhile waits for the new link and is made there, once (electron/services/client/switch.ts).
    expect(await app.value(window, 'login', { username, password: 'correct horse battery', register: true })).toEqual({ ok: true });
  }

  it('a player seated at 25 tables pops out 24 of them, and the 25th is refused', async () => {
    // A real operator on loopback: 25 play tables with no practice player (no hands: seats only).
    op = await startOperator({
      dataDir: tempDir('cercle-op-'),
      lobby: tablesOf(
        {
          version: 1,
          operator: { idOper: '0000', idCoffre: 1, name: 'Test operator' },
          tables: [{ id: 'cap', name: 'Cap', variant: 'THNL', money: 'play', seats: 6, count: 25, practicePlayers: 0, stakes: { smallBlind: 25, bigBlind: 50 }, buyIn: { min: 2000, max: 5000 } }],
        },
        'test',
      ),
      welcomePlayChips: 100_000,
      durability: 'normal',
      log: () => undefined,
    });
    userData = join(tempDir('cercle-cap-'), 'userData');
    const app = startApp(userData);
    const main = await app.mainWindow();
    await signUp(app, main.id, 'popper');
    const lobby = await app.until(async () => {
      const l = await app.value<Lobby>(main.id, 'lobby');
      return l.length === 25 ? l : null;
    }, 'the lobby of 25 tables');
    const conditions = await app.value<PlayConditions>(main.id, 'conditions');
    for (const t of lobby) expect(await app.value(main.id, 'join', { tableId: t.tableId, buyIn: t.buyIn.min, waitForBigBlind: false, rulesVersion: rulesVersion(t, conditions.version) })).toEqual({ ok: true });
    await app.until(async () => (await app.value<{ status: string }[]>(main.id, 'tables')).filter((t) => t.status === 'live').length === 25 || null, 'seated at 25 tables');
    for (const t of lobby.slice(0, 24)) expect(await app.value(main.id, 'popOut', { tableId: t.tableId })).toEqual({ opened: true });
    expect(await app.value(main.id, 'popOut', { tableId: lobby[24].tableId })).toEqual({ opened: false });
    const windows = await app.until(async () => {
      const w = (await app.state()).windows;
      return w.every((x) => x.loads.length > 0) ? w : null;
    }, 'every window loaded');
    expect(windows).toHaveLength(25);
    expect(windows.filter((w) => w.id !== main.id).map((w) => w.url).sort()).toEqual(lobby.slice(0, 24).map((t) => `app://cercle/index.html#/table/${t.tableId}`).sort());
    await app.request('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
  });

  it('the session token is kept encrypted by an OS store: the next start is still signed in', async () => {
    const file = readFileSync(join(userData, 'session.bin'));
    expect(file.subarray(0, 3).toString()).toBe('v10'); // what the fake safeStorage wrote, not the token
    const app = startApp(userData);
    const main = await app.mainWindow();
    const s = await app.until(async () => {
      const v = await app.value<{ account: { username: string } | null }>(main.id, 'session');
      return v.account ? v : null;
    }, 'the session resumed');
    expect(s.account).toEqual({ username: 'popper', guest: false });
    await app.request('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
  });

  // `basic_text` is a Linux backend (safe-storage#safestoragegetselectedstoragebackend-linux); the vault asks only there.
  it.runIf(process.platform === 'linux')('with the basic_text store (a hard-coded key) the token is never written', async () => {
    const plain = join(tempDir('cercle-plain-'), 'userData');
    const app = startApp(plain, { safeStorage: { available: true, backend: 'basic_text' } });
    const main = await app.mainWindow();
    await signUp(app, main.id, 'plainer');
    expect((await app.value<{ account: { username: string } | null }>(main.id, 'session')).account?.username).toBe('plainer');
    expect(existsSync(join(plain, 'session.bin'))).toBe(false);
    // Closing the last window quits the app on Linux and Windows (window-all-closed), through before-quit.
    await app.request('close', { window: main.id });
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(plain, 'session.bin'))).toBe(false);
  });
});

describe('the development server URL (ELECTRON_RENDERER_URL), trusted only when not packaged', () => {
  let server: Server;
  let devUrl: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dev</title>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    devUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('in development the window shows the dev server, whose page is answered (on its protocol, host and port)', async () => {
    const app = startApp(join(tempDir('cercle-dev-'), 'userData'), { isPackaged: false }, { ELECTRON_RENDERER_URL: devUrl });
    const main = await app.mainWindow();
    expect(main.url).toBe(devUrl);
    expect((await app.call(main.id, 'appInfo')).ok).toBe(true);
    const otherPort = devUrl.replace(/:(\d+)\/$/, (_m, p: string) => `:${Number(p) + 1}/`);
    expect(await app.call(main.id, 'appInfo', {}, { frame: { url: otherPort } })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await app.request('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
  });

  it('a packaged app ignores it: the window shows app://cercle and a page of that server is refused', async () => {
    const app = startApp(join(tempDir('cercle-packaged-'), 'userData'), { isPackaged: true }, { ELECTRON_RENDERER_URL: devUrl });
    const main = await app.mainWindow();
    expect(main.url).toBe('app://cercle/index.html');
    expect(await app.call(main.id, 'appInfo', {}, { frame: { url: devUrl } })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await app.request('navigate', { window: main.id, url: devUrl })).toEqual({ prevented: true });
    await app.request('quit');
    expect(await app.exited).toEqual({ code: 0, signal: null });
  });
});
