/**
 * The client's updates (SPEC.md "Updates"; DESIGN.md §3): checks the feed, downloads in the background,
 * shows progress, installs on restart. Plain Node: the engine doing the work (electron-updater's
 * `autoUpdater` in Electron) is handed in, so this file never loads `electron` and its tests drive the
 * real electron-updater against a loopback feed (updater.test.ts).
 */
import type { UpdateState } from '../../../shared/api';

/** The parts of electron-updater's `UpdateInfo` / `UpdateDownloadedEvent` read here. */
export interface EngineUpdateInfo {
  version: string;
}

/** The parts of builder-util-runtime's `ProgressInfo` read here (its `percent` is a float, 0..100). */
export interface EngineProgress {
  percent: number;
  bytesPerSecond: number;
}

/**
 * The subset of electron-updater's `AppUpdater` this service uses, its events spelled as overloads so
 * that `AppUpdater` satisfies it as is (index.ts checks that at compile time) and a test can pass a fake.
 */
export interface UpdaterEngine {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(event: 'update-available', listener: (info: EngineUpdateInfo) => void): unknown;
  on(event: 'update-not-available', listener: (info: EngineUpdateInfo) => void): unknown;
  on(event: 'download-progress', listener: (progress: EngineProgress) => void): unknown;
  on(event: 'update-downloaded', listener: (event: EngineUpdateInfo) => void): unknown;
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown;
  /** Null when the engine is inactive (not an installed build): electron-updater's contract. */
  checkForUpdates(): Promise<{ downloadPromise?: Promise<unknown> | null } | null>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

/** What the client API and the window wiring need from the updater, in Electron or not. */
export interface UpdateControl {
  status(): UpdateState;
  /** Looks for an update now; never throws (a failure is the `error` state). */
  check(): Promise<UpdateState>;
  /** Quits and installs a downloaded update; refused (false) when none is downloaded. */
  install(): { accepted: boolean };
  onChange(listener: (state: UpdateState) => void): () => void;
  /** Checks now, then every `intervalMs` while the app runs. */
  start(): void;
  stop(): void;
}

/** Repeats `fn` every `ms`; returns what stops it. The seam tests use instead of real timers. */
export type Every = (ms: number, fn: () => void) => () => void;

export interface UpdateServiceOptions {
  engine: UpdaterEngine;
  /** Time between checks while the app runs; 0 checks only at start and on demand. */
  intervalMs?: number;
  every?: Every;
  log?: (line: string) => void;
}

/** Four hours: a release reaches players the same day without polling the feed often. */
export const DEFAULT_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

// The contract's bounds (shared/api/contract.ts updateStateSchema): a longer string would be refused
// at the boundary, so it is cut here instead.
const MAX_VERSION = 60;
const MAX_MESSAGE = 2000;

/** A timer that does not keep Node alive: a pending check must never delay quitting. */
const realEvery: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** A whole percentage, 0..100: the contract carries integers only, and a float may be NaN or overshoot. */
export function wholePercent(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, Math.floor(percent)));
}

/**
 * Whole bytes per second, or undefined when unknown: builder-util-runtime divides by the elapsed time,
 * which is 0 (so Infinity) when a small file arrives within one millisecond.
 */
export function wholeRate(bytesPerSecond: number): number | undefined {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) return undefined;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.floor(bytesPerSecond));
}

/**
 * A message a player (and a log) can read: electron-updater's messages carry stacks, raw feed text and
 * whole hashes after the first line; the first line says what failed.
 */
export function errorMessage(e: unknown): string {
  const raw = e instanceof Error ? e.message : typeof e === 'string' ? e : String(e);
  // A first line that opens a JSON dump ("…checksum: {") ends before the dump.
  const first = raw.split('\n', 1)[0].trim().replace(/:?\s*[[{]$/, '');
  return (first === '' ? 'update failed' : first).slice(0, MAX_MESSAGE);
}

function versionOf(info: unknown): string | undefined {
  const v = (info as { version?: unknown } | null)?.version;
  return typeof v === 'string' && v !== '' ? v.slice(0, MAX_VERSION) : undefined;
}

function same(a: UpdateState, b: UpdateState): boolean {
  return a.state === b.state && a.version === b.version && a.percent === b.percent && a.bytesPerSecond === b.bytesPerSecond && a.message === b.message;
}

/** The updater's state for the UI, driven by the engine's events. */
export class UpdateService implements UpdateControl {
  private readonly engine: UpdaterEngine;
  private readonly intervalMs: number;
  private readonly every: Every;
  private readonly log: (line: string) => void;
  private state: UpdateState = { state: 'idle' };
  private readonly listeners = new Set<(state: UpdateState) => void>();
  private inflight: Promise<UpdateState> | null = null;
  private stopTimer: (() => void) | null = null;
  /** Counts failures reported by the engine, so a check knows whether its rejection was already told. */
  private failures = 0;

  constructor(options: UpdateServiceOptions) {
    this.engine = options.engine;
    this.intervalMs = options.intervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.every = options.every ?? realEvery;
    this.log = options.log ?? (() => undefined);
    // Download as soon as one is found, and install it when the player next quits ("install on restart").
    this.engine.autoDownload = true;
    this.engine.autoInstallOnAppQuit = true;

    const e = this.engine;
    e.on('checking-for-update', () => this.set({ state: 'checking' }));
    e.on('update-available', (info) => this.set({ state: 'available', version: versionOf(info) }));
    e.on('update-not-available', () => this.set({ state: 'none' }));
    e.on('download-progress', (p) =>
      this.set({ state: 'downloading', version: this.state.version, percent: wholePercent(p.percent), bytesPerSecond: wholeRate(p.bytesPerSecond) }),
    );
    e.on('update-downloaded', (event) => this.set({ state: 'downloaded', version: versionOf(event) ?? this.state.version, percent: 100 }));
    // electron-updater reports every failure here (feed, parse, download, checksum), also when it rejects.
    e.on('error', (error) => {
      this.failures += 1;
      this.fail(error);
    });
  }

  status(): UpdateState {
    return { ...this.state };
  }

  onChange(listener: (state: UpdateState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  check(): Promise<UpdateState> {
    const s = this.state.state;
    // One is already on its way (or waiting for the restart): another check would only repeat it.
    if (s === 'available' || s === 'downloading' || s === 'downloaded') return Promise.resolve(this.status());
    this.inflight ??= this.runCheck().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  install(): { accepted: boolean } {
    if (this.state.state !== 'downloaded') return { accepted: false };
    try {
      // Silent, then start the new version: the player asked to restart now, so no installer pages
      // (the same silent install electron-updater runs on a normal quit).
      this.engine.quitAndInstall(true, true);
      return { accepted: true };
    } catch (e) {
      this.fail(e);
      return { accepted: false };
    }
  }

  start(): void {
    if (this.stopTimer) return;
    void this.check();
    if (this.intervalMs > 0) this.stopTimer = this.every(this.intervalMs, () => void this.check());
  }

  stop(): void {
    this.stopTimer?.();
    this.stopTimer = null;
  }

  private async runCheck(): Promise<UpdateState> {
    const failuresBefore = this.failures;
    try {
      const result = await this.engine.checkForUpdates();
      if (result === null) {
        // electron-updater skips unpackaged runs (development) and installs it cannot replace.
        this.set({ state: 'unsupported', message: 'updates apply to installed builds only' });
        // It will not change while this process runs: stop asking.
        this.stop();
      } else {
        // The download goes on after the check. Its failure already arrives as an 'error' event; without
        // this handler it would also be an unhandled rejection.
        result.downloadPromise?.catch(() => undefined);
      }
    } catch (e) {
      // Normally the 'error' event told it already; an engine that only rejects still ends in `error`.
      if (this.failures === failuresBefore) this.fail(e);
    }
    return this.status();
  }

  private fail(e: unknown): void {
    const message = errorMessage(e);
    this.log(`update: ${message}`);
    this.set({ state: 'error', version: this.state.version, message });
  }

  private set(next: UpdateState): void {
    // Absent fields are left out, not `undefined`: the contract's optional fields are "absent or valid".
    const clean = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as UpdateState;
    if (same(clean, this.state)) return;
    this.state = clean;
    for (const l of this.listeners) {
      try {
        l(this.status());
      } catch (e) {
        this.log(`update: a listener failed: ${errorMessage(e)}`);
      }
    }
  }
}

/** The browser host's updater: there is no installed build to replace, so it never checks. */
export function unsupportedUpdateService(): UpdateControl {
  const state: UpdateState = { state: 'unsupported' };
  return {
    status: () => ({ ...state }),
    check: async () => ({ ...state }),
    install: () => ({ accepted: false }),
    onChange: () => () => undefined,
    start: () => undefined,
    stop: () => undefined,
  };
}
