import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request as httpRequest, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NsisUpdater, type UpdateDownloadedEvent } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import type { ElectronHttpExecutor as ElectronHttpExecutorClass } from 'electron-updater/out/electronHttpExecutor';
import { load as loadYaml } from 'js-yaml';
import type { UpdateState } from '../../../shared/api';
import { updateStateSchema } from '../../../shared/api';
import { validate } from '../../../shared/validate';
import {
  createElectronUpdater,
  type Every,
  unsupportedUpdateService,
  type UpdateControl,
  updateHandlers,
  type UpdaterEngine,
  UpdateService,
  wireUpdates,
} from './index';

// electron-updater's HTTP client for Electron is not exported from its entry point; it is loaded from its
// own file (CommonJS, no `exports` map), the one `autoUpdater` uses in the product.
const requireCjs = createRequire(import.meta.url);
const { ElectronHttpExecutor } = requireCjs('electron-updater/out/electronHttpExecutor') as { ElectronHttpExecutor: typeof ElectronHttpExecutorClass };

/**
 * The product's HTTP client with one change: its requests go through node:http instead of Electron's
 * `net` (which needs a running Electron). Everything above the socket is electron-updater's own code:
 * the download, the redirect rules, the progress stream and the sha512 DigestTransform that refuses a
 * file whose hash differs from latest.yml.
 */
class LoopbackExecutor extends ElectronHttpExecutor {
  override createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ReturnType<ElectronHttpExecutorClass['createRequest']> {
    return httpRequest(options, callback) as unknown as ReturnType<ElectronHttpExecutorClass['createRequest']>;
  }
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** A latest.yml as electron-builder writes it for an NSIS installer. */
function latestYml(version: string, fileName: string, size: number, hash: string): string {
  return [
    `version: ${version}`,
    'files:',
    `  - url: ${fileName}`,
    `    sha512: ${hash}`,
    `    size: ${size}`,
    `path: ${fileName}`,
    `sha512: ${hash}`,
    `releaseDate: '2026-11-01T12:00:00.000Z'`,
    '',
  ].join('\n');
}

interface Feed {
  yml: string;
  fileName: string;
  /** The bytes served as the installer (a tampered feed serves other bytes than latest.yml describes). */
  payload: Buffer;
  /** Sends the payload in two halves this far apart, so a progress event falls between them. */
  pauseMs: number;
}

/** An update server on loopback: the channel file under every platform's name, and the installer. */
async function startFeedServer(): Promise<{ url: string; requests: string[]; feed: (f: Feed) => void; close: () => Promise<void> }> {
  let feed: Feed | null = null;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    // latest.yml on Windows, latest-mac.yml, latest-linux.yml (-arm64…): the name depends on the platform
    // running the test, as it does for the product.
    if (feed && /^\/releases\/latest(-[a-z0-9-]+)?\.yml$/.test(path)) {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.end(feed.yml);
    } else if (feed && path === `/releases/${feed.fileName}`) {
      const bytes = feed.payload;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
      const half = Math.floor(bytes.length / 2);
      res.write(bytes.subarray(0, half));
      setTimeout(() => res.end(bytes.subarray(half)), feed.pauseMs);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/releases`,
    requests,
    feed: (f) => (feed = f),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/**
 * electron-updater's NSIS updater (the product's `autoUpdater` on Windows; the download and checksum
 * path is shared by every platform's updater) over a fake app: an installed 0.1.0 whose app-update.yml
 * is the publish entry of electron-builder.yml pointed at the loopback server.
 */
async function realUpdater(currentVersion = '0.1.0') {
  const server = await startFeedServer();
  cleanups.push(server.close);
  const dir = mkdtempSync(join(tmpdir(), 'cercle-updater-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  const builderConfig = loadYaml(readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8')) as { publish: Record<string, unknown>[] };
  const publish = builderConfig.publish[0];
  expect(publish.provider).toBe('generic');
  const updateConfig = { ...publish, url: server.url, updaterCacheDirName: 'cercle-updater' };
  writeFileSync(join(dir, 'app-update.yml'), Object.entries(updateConfig).map(([k, v]) => `${k}: ${String(v)}`).join('\n'));

  const quitHandlers: ((exitCode: number) => void)[] = [];
  const app: AppAdapter = {
    version: currentVersion,
    name: 'Cercle',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: join(dir, 'user-data'),
    baseCachePath: join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: (handler) => void quitHandlers.push(handler),
  };
  const engine = new NsisUpdater(null, app);
  // electron-updater leaves the HTTP client unset when given an app adapter (its own tests do the same).
  Object.assign(engine, { httpExecutor: new LoopbackExecutor() });
  const logs: string[] = [];
  const record = (m: unknown) => void logs.push(String(m));
  const updates = createElectronUpdater(engine, { intervalMs: 0, logger: { info: record, warn: record, error: record } });
  const states: UpdateState[] = [];
  updates.onChange((s) => states.push(s));
  const downloaded: UpdateDownloadedEvent[] = [];
  engine.on('update-downloaded', (e) => void downloaded.push(e));
  const pendingDir = join(dir, 'cache', 'cercle-updater', 'pending');
  return { server, engine, updates, states, downloaded, quitHandlers, logs, pendingDir };
}

/** Resolves with the first state (pushed from now on, or current) that `done` accepts. */
function reach(updates: UpdateControl, done: (s: UpdateState) => boolean, what: string): Promise<UpdateState> {
  if (done(updates.status())) return Promise.resolve(updates.status());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never reached ${what}; last: ${JSON.stringify(updates.status())}`)), 20_000);
    const off = updates.onChange((s) => {
      if (!done(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

function expectValid(s: UpdateState): void {
  const checked = validate(updateStateSchema, s, 'update');
  expect(checked.ok, checked.ok ? '' : checked.error).toBe(true);
}

describe('UpdateService against a loopback feed, with electron-updater doing the work', () => {
  const installer = 'Cercle-Setup-0.2.0-x64.exe';

  it('downloads a newer version, verifies its sha512, and arms install on restart', async () => {
    const u = await realUpdater();
    // An odd size: the progress between the halves is a fraction, which the service must floor.
    const bytes = Buffer.alloc(300_007, 7);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + 11) % 251;
    u.server.feed({ yml: latestYml('0.2.0', installer, bytes.length, sha512(bytes)), fileName: installer, payload: bytes, pauseMs: 1100 });

    const afterCheck = await u.updates.check();
    expect(['available', 'downloading', 'downloaded']).toContain(afterCheck.state);
    expect(afterCheck.version).toBe('0.2.0');

    const done = await reach(u.updates, (s) => s.state === 'downloaded' || s.state === 'error', 'downloaded');
    expect(done).toEqual({ state: 'downloaded', version: '0.2.0', percent: 100 });

    expect(u.states.map((s) => s.state)).toEqual(expect.arrayContaining(['checking', 'available', 'downloading', 'downloaded']));
    const progress = u.states.filter((s) => s.state === 'downloading');
    for (const s of progress) {
      expectValid(s);
      expect(Number.isInteger(s.percent)).toBe(true);
    }
    // One report between the halves (a whole number short of 100), then the last one at 100.
    expect(progress.some((s) => (s.percent ?? 100) < 100 && (s.percent ?? 0) >= 50)).toBe(true);
    expect(progress.at(-1)?.percent).toBe(100);
    for (const s of u.states) expectValid(s);

    // The file kept is the one latest.yml describes, byte for byte.
    expect(u.downloaded).toHaveLength(1);
    const file = u.downloaded[0].downloadedFile;
    expect(file).toBe(join(u.pendingDir, installer));
    expect(sha512(readFileSync(file))).toBe(sha512(bytes));
    // Install on restart: electron-updater installs on the app's next quit.
    expect(u.quitHandlers).toHaveLength(1);
    expect(u.server.requests.filter((p) => p === `/releases/${installer}`)).toHaveLength(1);

    // Nothing more to do until the restart: a new check does not fetch it again.
    expect((await u.updates.check()).state).toBe('downloaded');
    expect(u.server.requests.filter((p) => p === `/releases/${installer}`)).toHaveLength(1);
  });

  it('refuses a download whose bytes do not match the sha512 of latest.yml, and keeps nothing', async () => {
    const u = await realUpdater();
    const genuine = Buffer.alloc(64 * 1024, 1);
    const tampered = Buffer.from(genuine);
    tampered[tampered.length - 1] ^= 0xff; // same size, one byte changed
    u.server.feed({ yml: latestYml('0.2.0', installer, genuine.length, sha512(genuine)), fileName: installer, payload: tampered, pauseMs: 0 });

    await u.updates.check();
    const end = await reach(u.updates, (s) => s.state === 'downloaded' || s.state === 'error', 'the end of the download');
    expect(end.state).toBe('error');
    expect(end.version).toBe('0.2.0');
    expect(end.message).toMatch(/^sha512 checksum mismatch/);
    expect(end.message).not.toContain('\n');
    expectValid(end);

    expect(u.server.requests).toContain(`/releases/${installer}`);
    expect(u.states.some((s) => s.state === 'downloaded')).toBe(false);
    expect(u.downloaded).toHaveLength(0);
    expect(u.quitHandlers).toHaveLength(0); // nothing will be installed on quit
    const left = existsSync(u.pendingDir) ? readdirSync(u.pendingDir) : [];
    expect(left).toEqual([]);
    expect(u.updates.install()).toEqual({ accepted: false });
  });

  it('says none when the feed has no newer version (same or older)', async () => {
    for (const version of ['0.1.0', '0.0.9']) {
      const u = await realUpdater('0.1.0');
      const bytes = Buffer.from('not to be fetched');
      u.server.feed({ yml: latestYml(version, installer, bytes.length, sha512(bytes)), fileName: installer, payload: bytes, pauseMs: 0 });
      expect(await u.updates.check()).toEqual({ state: 'none' });
      expect(u.states.map((s) => s.state)).toEqual(['checking', 'none']);
      expect(u.server.requests).not.toContain(`/releases/${installer}`);
    }
  });

  it('turns a malformed latest.yml into the error state with a one-line reason, never a throw', async () => {
    const bytes = Buffer.from('installer');
    const cases: [string, RegExp][] = [
      // Not YAML at all.
      ['version: 0.2.0\nfiles: [\n  - url: x.exe\n', /^Cannot parse update info from latest[a-z0-9-]*\.yml .*YAMLException/],
      // YAML, but no version.
      [`files:\n  - url: ${installer}\n    sha512: ${sha512(bytes)}\n    size: 9\n`, /does not have a valid semver version/],
      // A version, but no checksum to verify the file against: nothing is downloaded.
      [`version: 0.2.0\nfiles:\n  - url: ${installer}\n    size: 9\npath: ${installer}\n`, /doesn't contain nor sha256 neither sha512 checksum$/],
    ];
    for (const [yml, reason] of cases) {
      const u = await realUpdater();
      u.server.feed({ yml, fileName: installer, payload: bytes, pauseMs: 0 });
      const after = await u.updates.check();
      const end = after.state === 'error' ? after : await reach(u.updates, (s) => s.state === 'error', 'error');
      expect(end.state).toBe('error');
      expect(end.message).toMatch(reason);
      expect(end.message).not.toContain('\n');
      expectValid(end);
      expect(u.server.requests).not.toContain(`/releases/${installer}`);
      expect(u.downloaded).toHaveLength(0);
    }
  });
});

/** A stand-in engine: the events electron-updater emits, and what the service calls. */
class FakeEngine extends EventEmitter implements UpdaterEngine {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  next: () => Promise<{ downloadPromise?: Promise<unknown> | null } | null> = async () => ({});
  checkForUpdates() {
    this.checks += 1;
    return this.next();
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

function fakeTimers(): { every: Every; ticks: (() => void)[]; stopped: number } {
  const t = { ticks: [] as (() => void)[], stopped: 0, every: ((_ms, fn) => {
    t.ticks.push(fn);
    return () => void (t.stopped += 1);
  }) as Every };
  return t;
}

describe('UpdateService state', () => {
  it('downloads automatically and installs on quit', () => {
    const engine = new FakeEngine();
    new UpdateService({ engine, intervalMs: 0 });
    expect(engine.autoDownload).toBe(true);
    expect(engine.autoInstallOnAppQuit).toBe(true);
  });

  it('reports whole percentages within 0..100 and a whole speed, or none when it is not finite', () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    engine.emit('update-available', { version: '1.2.3' });
    const seen = (percent: number, bytesPerSecond: number) => {
      engine.emit('download-progress', { percent, bytesPerSecond, total: 10, transferred: 1, delta: 1 });
      const s = updates.status();
      expectValid(s);
      return [s.percent, s.bytesPerSecond];
    };
    expect(seen(33.9, 1234.7)).toEqual([33, 1234]);
    expect(seen(99.99, 5)).toEqual([99, 5]);
    expect(seen(100.4, 0)).toEqual([100, 0]);
    expect(seen(-2, -1)).toEqual([0, undefined]);
    expect(seen(Number.NaN, Number.POSITIVE_INFINITY)).toEqual([0, undefined]);
    expect(updates.status()).toEqual({ state: 'downloading', version: '1.2.3', percent: 0 });
    engine.emit('update-downloaded', { version: '1.2.3', downloadedFile: '/x' });
    expect(updates.status()).toEqual({ state: 'downloaded', version: '1.2.3', percent: 100 });
  });

  it('turns failures into the error state instead of throwing', async () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    engine.next = async () => {
      engine.emit('checking-for-update');
      const e = new Error('net::ERR_NAME_NOT_RESOLVED\n    at stack line');
      engine.emit('error', e, e.stack);
      throw e;
    };
    expect(await updates.check()).toEqual({ state: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' });
    // An engine that rejects without the event still ends in error, with its reason.
    engine.next = async () => Promise.reject(new Error('offline'));
    expect(await updates.check()).toEqual({ state: 'error', message: 'offline' });
    engine.next = async () => Promise.reject('x'.repeat(5000));
    const long = await updates.check();
    expect(long.message).toHaveLength(2000);
    expectValid(long);
  });

  it('swallows the rejection of the background download (already reported as an error event)', async () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    let fail!: (e: Error) => void;
    const downloadPromise = new Promise((_resolve, reject) => (fail = reject));
    engine.next = async () => {
      engine.emit('update-available', { version: '2.0.0' });
      return { downloadPromise };
    };
    expect(await updates.check()).toEqual({ state: 'available', version: '2.0.0' });
    const e = new Error('sha512 checksum mismatch, expected a, got b');
    engine.emit('error', e);
    fail(e);
    await new Promise((r) => setTimeout(r, 10));
    expect(updates.status()).toEqual({ state: 'error', version: '2.0.0', message: e.message });
  });

  it('installs only a downloaded update: silently, then starts the new version', () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    expect(updates.install()).toEqual({ accepted: false });
    engine.emit('update-available', { version: '2.0.0' });
    expect(updates.install()).toEqual({ accepted: false });
    engine.emit('update-downloaded', { version: '2.0.0' });
    expect(updates.install()).toEqual({ accepted: true });
    expect(engine.installs).toEqual([[true, true]]);
  });

  it('is unsupported where electron-updater is inactive (a development run), and stops asking', async () => {
    const engine = new FakeEngine();
    const timers = fakeTimers();
    const updates = new UpdateService({ engine, intervalMs: 1000, every: timers.every });
    engine.next = async () => null;
    updates.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(updates.status().state).toBe('unsupported');
    expect(timers.stopped).toBe(1);
  });

  it('checks at start and on every period, not while one is downloaded, and stops', async () => {
    const engine = new FakeEngine();
    const timers = fakeTimers();
    const updates = new UpdateService({ engine, intervalMs: 1000, every: timers.every });
    engine.next = async () => {
      engine.emit('checking-for-update');
      engine.emit('update-not-available', { version: '0.1.0' });
      return {};
    };
    updates.start();
    updates.start(); // once only
    expect(timers.ticks).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(engine.checks).toBe(1);
    timers.ticks[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(engine.checks).toBe(2);
    engine.emit('update-downloaded', { version: '0.2.0' });
    timers.ticks[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(engine.checks).toBe(2);
    updates.stop();
    expect(timers.stopped).toBe(1);
  });

  it('shares one check between concurrent callers', async () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    let release!: () => void;
    engine.next = () => new Promise((r) => (release = () => r({})));
    const a = updates.check();
    const b = updates.check();
    release();
    await Promise.all([a, b]);
    expect(engine.checks).toBe(1);
  });

  it('tells listeners each change once, with copies, until they unsubscribe', () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    const seen: UpdateState[] = [];
    const off = updates.onChange((s) => {
      seen.push(s);
      s.state = 'idle'; // a listener cannot change the service's state
    });
    engine.emit('checking-for-update');
    engine.emit('checking-for-update');
    expect(seen).toHaveLength(1);
    expect(updates.status().state).toBe('checking');
    off();
    engine.emit('update-not-available', { version: '0.1.0' });
    expect(seen).toHaveLength(1);
  });
});

describe('the updater in the client API', () => {
  it('answers the three update calls and pushes every change', async () => {
    const engine = new FakeEngine();
    const updates = new UpdateService({ engine, intervalMs: 0 });
    const pushed: UpdateState[] = [];
    engine.next = async () => {
      engine.emit('checking-for-update');
      engine.emit('update-not-available', { version: '0.1.0' });
      return {};
    };
    const unwire = wireUpdates(updates, (s) => pushed.push(s));
    await new Promise((r) => setTimeout(r, 0));
    expect(pushed.map((s) => s.state)).toEqual(['checking', 'none']);
    const h = updateHandlers(updates);
    expect(await h.updateStatus({})).toEqual({ state: 'none' });
    expect(await h.checkForUpdates({})).toEqual({ state: 'none' });
    expect(await h.installUpdate({})).toEqual({ accepted: false });
    unwire();
    engine.emit('checking-for-update');
    expect(pushed).toHaveLength(4); // the second check's two changes; none after unwiring
  });

  it('is unsupported under the browser host', async () => {
    const h = updateHandlers(unsupportedUpdateService());
    expect(await h.updateStatus({})).toEqual({ state: 'unsupported' });
    expect(await h.checkForUpdates({})).toEqual({ state: 'unsupported' });
    expect(await h.installUpdate({})).toEqual({ accepted: false });
  });
});
