/**
 * The test's side of an app under test: starts harness.ts in its own Node process (the built main
 * bundle over the fake Electron) and sends it what a renderer or a user would do.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeConfig } from './fake-electron';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const HARNESS = resolve(HERE, 'harness.ts');
export const BUNDLE = join(ROOT, 'out/main/index.cjs');

/**
 * The main-process tests run the BUILT bundle (npm test builds before the unit tests: package.json
 * "test"). A bundle older than its sources would test yesterday's code: refuse it, saying how to build.
 */
export function assertFreshBuild(): void {
  const built = [BUNDLE, join(ROOT, 'out/renderer/index.html')];
  for (const f of built) if (!existsSync(f)) throw new Error(`${f} is missing: run \`npx electron-vite build\` first`);
  const builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs));
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) t = Math.max(t, newest(p));
      else if (/\.(ts|vue|json|html|css)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
    }
    return t;
  };
  const sources = Math.max(...['electron/main', 'electron/services', 'shared', 'operator', 'renderer'].map((d) => newest(join(ROOT, d))));
  if (sources > builtAt) throw new Error('out/ is older than the sources: run `npx electron-vite build` first (npm test does)');
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
export type ApiReply = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export interface WindowState {
  id: number;
  url: string;
  shown: boolean;
  minimized: boolean;
  focusCount: number;
  restoreCount: number;
  options: Record<string, unknown> & { webPreferences?: Record<string, unknown> };
  loads: { url: string; status: number; contentType: string | null }[];
}
export interface AppState {
  ready: boolean;
  sandboxed: boolean;
  privileged: { scheme: string; privileges?: Record<string, boolean> }[];
  windows: WindowState[];
  openedExternal: string[];
  errorBoxes: { title: string; content: string }[];
  forks: { modulePath: string; options: { env?: Record<string, string>; stdio?: unknown; serviceName?: string }; pid: number | undefined; exitCode: number | null }[];
}

export class AppProcess {
  readonly child: ChildProcess;
  readonly output: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextId = 1;
  private waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  readonly userData: string;

  constructor(config: FakeConfig, env: Record<string, string> = {}) {
    this.userData = config.userData;
    this.child = fork(HARNESS, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      // ELECTRON_RENDERER_URL (the development server) only when the test gives it.
      env: { ...process.env, ELECTRON_RENDERER_URL: undefined, ...env, CERCLE_FAKE_ELECTRON: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    for (const s of [this.child.stdout, this.child.stderr]) s?.on('data', (d: Buffer) => this.output.push(...d.toString('utf8').split('\n').filter(Boolean)));
    this.exited = new Promise((done) =>
      this.child.once('exit', (code, signal) => {
        for (const w of this.waiting.values()) w.reject(new Error(`the app exited (${signal ?? code}) before answering`));
        this.waiting.clear();
        done({ code, signal });
      }),
    );
    this.child.on('message', (raw) => {
      const r = raw as Reply;
      const w = this.waiting.get(r.id);
      if (!w) return;
      this.waiting.delete(r.id);
      if (r.ok) w.resolve(r.value);
      else w.reject(new Error(r.error));
    });
  }

  request<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (!this.child.connected) return reject(new Error(`the app has exited; output:\n${this.output.slice(-40).join('\n')}`));
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op, args }, (e) => {
        if (!e) return;
        this.waiting.delete(id);
        reject(e);
      });
    });
  }

  state(): Promise<AppState> {
    return this.request<AppState>('state');
  }

  /** A client API call from a page of window `window` (its top frame unless `from` says otherwise). */
  call(window: number, name: string, args: unknown = {}, from: { frame?: 'top' | 'sub' | 'none' | { url: string }; foreign?: boolean } = {}): Promise<ApiReply> {
    return this.request<ApiReply>('call', { window, name, args, ...from });
  }

  /** The value of a call answered; throws with the refusal otherwise. */
  async value<T>(window: number, name: string, args: unknown = {}): Promise<T> {
    const r = await this.call(window, name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  }

  /** Polls `probe` until it returns a value (bounded: the deadline is a failure, not a measurement). */
  async until<T>(probe: () => Promise<T | null | undefined | false>, why: string, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${why}; app output:\n${this.output.slice(-40).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The main window once its page has loaded (the app started). */
  async mainWindow(): Promise<WindowState> {
    return this.until(async () => (await this.state()).windows.find((w) => w.loads.length > 0 && w.shown), 'the main window shown');
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
