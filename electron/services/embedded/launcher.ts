/**
 * Starts the embedded operator (DESIGN.md §3 "The embedded default") as a child process, learns where
 * it listens, pins it, and stops it with the client.
 *
 * Why a child process: the operator runs its tables, clocks and SQLite writes on its own event loop, so
 * a busy table never delays the client's frames (DESIGN.md §5: 24 tables, no frame over 16.7 ms), and
 * a fault on either side cannot take the other down. It is the same `startEmbeddedOperator` the tests
 * run in-process.
 *
 * What runs: `execPath [...execArgv] entry`, where `entry` is child.ts's code and `module` the file
 * exporting `startEmbeddedOperator`. Development and tests: `node --import tsx` on the TypeScript files
 * (`developmentLaunch`). A packaged client runs built files instead: its own binary with
 * `ELECTRON_RUN_AS_NODE=1` as `execPath` (so native modules such as better-sqlite3 are the ones built
 * for Electron's ABI), no execArgv, and the bundled child and operator as `entry` and `module`. The
 * launcher makes no assumption on which: it takes the command as data.
 *
 * How it reports: over the IPC channel (`fork`-style), not stdout: the guest's session token is a
 * secret, and a closing IPC channel is also how the child learns that the client is gone (it then
 * stops by itself). stdout and stderr are passed to `log`, line by line.
 *
 * Pinning: on the first run the operator generates its certificate (in `<dataDir>/embedded-operator`)
 * and the launcher keeps its public-key pin in the client's data folder (`embedded-operator.pin.json`).
 * Later starts pin the kept key, not what the child says: a changed key (the operator's identity files
 * replaced) is refused with `EmbeddedPinChangedError` until the player accepts the new one.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { int, obj, oneOf, str, validate } from '../../../shared/validate';
import { writeFileAtomic } from '../../../shared/node/atomic-file';
import { isPin } from '../../../shared/node/pins';

export const EMBEDDED_OPERATOR_DIR = 'embedded-operator';
export const EMBEDDED_PIN_FILE = 'embedded-operator.pin.json';

/**
 * Table and tournament timing the embedded operator is started with (tests, benchmarks and demos:
 * practice players that act fast, a faster tournament clock); the operator's defaults otherwise.
 */
export interface EmbeddedTiming {
  practiceDelayMs?: [number, number];
  betweenHandsMs?: number;
  tablesPerVariant?: number;
  tournamentsFile?: string;
  tournamentClockRate?: number;
}

export interface EmbeddedLaunchOptions {
  /** The client's data folder: the operator's data go in `<dataDir>/embedded-operator`, the kept pin beside it. */
  dataDir: string;
  /** The child's entry file: child.ts (with tsx) or its built bundle. */
  entry: string;
  /** The file exporting `startEmbeddedOperator`: operator/embedded.ts (with tsx) or its built bundle. */
  module: string;
  /** The program: `node` (process.execPath by default), or the client's binary with ELECTRON_RUN_AS_NODE=1. */
  execPath?: string;
  /** Before the entry: `['--import', 'tsx']` in development; none for built files. */
  execArgv?: string[];
  /** Added to the child's environment (which holds only {@link EMBEDDED_ENV_NAMES} of the client's). */
  env?: Record<string, string>;
  /**
   * How the process is started: a Node child process with an IPC channel by default; Electron's main
   * passes a utility process instead (DESIGN.md §3; the runAsNode fuse stays off).
   */
  spawnChild?: (entry: string, env: Record<string, string>) => ChildHandle;
  /** 0 (default): a free port on 127.0.0.1. */
  port?: number;
  /** Table timing (tests and benchmarks: practice players that act fast); the operator's defaults otherwise. */
  timing?: EmbeddedTiming;
  /** Accept an operator key different from the kept one (the player confirmed), and keep it. */
  acceptNewPin?: boolean;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface EmbeddedOperatorProcess {
  /** `wss://127.0.0.1:<port>`. */
  url: string;
  /** The pins to give the link: the kept one. */
  pins: string[];
  /** The guest account of the embedded operator (resume its session with this token). */
  guest: { token: string; username: string; accountId: number };
  /** The pin was kept on this start (first run, or a new key accepted). */
  firstRun: boolean;
  pid: number;
  /** Stops the operator (hands cancelled, every player cashed out) and waits for the process to end. */
  stop(): Promise<void>;
  /** Resolves when the process has ended (asked to or not). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The started process as the launcher uses it: a Node child process or an Electron utility process. */
export interface ChildHandle {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  /** Still running and reachable over its message channel. */
  alive(): boolean;
  send(message: Record<string, unknown>): void;
  onMessage(listener: (message: unknown) => void): () => void;
  onError(listener: (e: Error) => void): void;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * What the embedded operator's process inherits of the client's environment: only
 * what Node and SQLite read to run there, never the whole `process.env` (a token, a proxy password or a
 * CI secret in the player's environment has no business in the operator). The operator itself reads no
 * variable; Node and SQLite place temporary files with TMPDIR (TMP/TEMP on Windows), local time follows
 * TZ, and on Windows a process without SystemRoot cannot load Winsock or the crypto provider.
 * PATH is not passed: the operator starts no program.
 */
export const EMBEDDED_ENV_NAMES: readonly string[] = ['TMPDIR', 'TMP', 'TEMP', 'TZ', 'SYSTEMROOT', 'WINDIR'];

/** The child's environment: the allowed names from `parent` (case-insensitively, as Windows does), then `extra`. */
export function embeddedChildEnv(parent: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && EMBEDDED_ENV_NAMES.includes(name.toUpperCase())) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A Node child process with an IPC channel (`fork`-style). */
export function nodeChild(execPath: string, args: string[], env: Record<string, string>): ChildHandle {
  const child = spawn(execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: embeddedChildEnv(process.env, env), windowsHide: true });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return {
    pid: child.pid,
    stdout: child.stdout,
    stderr: child.stderr,
    alive: () => child.exitCode === null && child.signalCode === null && child.connected,
    send: (m) => void (child.connected && child.send(m)),
    onMessage: (l) => {
      child.on('message', l);
      return () => void child.off('message', l);
    },
    onError: (l) => void child.once('error', l),
    kill: (signal) => void child.kill(signal),
    exited,
  };
}

/** The operator presented a key other than the one kept on first run. */
export class EmbeddedPinChangedError extends Error {
  constructor(
    readonly kept: string,
    readonly presented: string,
  ) {
    super(
      `The embedded operator's key changed (kept ${kept}, now ${presented}): its identity files in the data folder were replaced. ` +
        'The client refuses it until you accept the new key.',
    );
    this.name = 'EmbeddedPinChangedError';
  }
}

const readySchema = obj({
  type: oneOf('ready'),
  url: str({ min: 1, max: 100, pattern: /^wss:\/\/127\.0\.0\.1:\d{1,5}$/ }),
  pin: str({ min: 1, max: 100 }),
  guest: obj({ token: str({ min: 1, max: 128 }), username: str({ min: 1, max: 64 }), accountId: int({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
});

const keptSchema = obj({ pin: str({ min: 1, max: 100 }), since: str({ max: 40 }) });

/** The TypeScript files run through tsx, from the repository root (development, tests, the browser host from source). */
export function developmentLaunch(repositoryRoot: string): Pick<EmbeddedLaunchOptions, 'entry' | 'module' | 'execArgv'> {
  return {
    entry: resolve(repositoryRoot, 'electron/services/embedded/child.ts'),
    module: resolve(repositoryRoot, 'operator/embedded.ts'),
    execArgv: ['--import', 'tsx'],
  };
}

/** The built files next to the main bundle (`out/main`): the browser host and the packaged app. */
export function builtLaunch(mainDir: string): Pick<EmbeddedLaunchOptions, 'entry' | 'module' | 'execArgv'> {
  return { entry: resolve(mainDir, 'embedded-child.cjs'), module: resolve(mainDir, 'embedded-operator.cjs'), execArgv: [] };
}

/** The pin kept on the first run, or null. */
export function keptPin(dataDir: string): string | null {
  const file = join(dataDir, EMBEDDED_PIN_FILE);
  if (!existsSync(file)) return null;
  try {
    const v = validate(keptSchema, JSON.parse(readFileSync(file, 'utf8')));
    return v.ok && isPin(v.value.pin) ? v.value.pin : null;
  } catch {
    return null;
  }
}

function keepPin(dataDir: string, pin: string): void {
  // Whole or not at all (shared/node/atomic-file.ts).
  writeFileAtomic(join(dataDir, EMBEDDED_PIN_FILE), `${JSON.stringify({ pin, since: new Date().toISOString() })}\n`, { mode: 0o600 });
}

export async function launchEmbeddedOperator(o: EmbeddedLaunchOptions): Promise<EmbeddedOperatorProcess> {
  const log = o.log ?? ((line: string) => process.stderr.write(`[embedded operator] ${line}\n`));
  const dataDir = resolve(o.dataDir);
  const operatorDir = join(dataDir, EMBEDDED_OPERATOR_DIR);
  mkdirSync(operatorDir, { recursive: true, mode: 0o700 });

  const child = o.spawnChild
    ? o.spawnChild(resolve(o.entry), o.env ?? {})
    : nodeChild(o.execPath ?? process.execPath, [...(o.execArgv ?? []), resolve(o.entry)], o.env ?? {});
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => log(line));
  }
  const exited = child.exited;
  // A client that exits without stopping it: the child sees its IPC channel close and stops too; this
  // covers a child that does not (it is sent SIGTERM as the client exits).
  const onClientExit = (): void => void child.kill('SIGTERM');
  process.once('exit', onClientExit);
  void exited.then(() => process.off('exit', onClientExit));

  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopped ??= stopChild(child, exited, o.stopTimeoutMs ?? 10_000));

  let ready: { url: string; pin: string; guest: EmbeddedOperatorProcess['guest'] };
  try {
    ready = await waitForReady(child, exited, o.startTimeoutMs ?? 30_000, { module: resolve(o.module), dataDir: operatorDir, port: o.port ?? 0, ...(o.timing ? { timing: o.timing } : {}) });
  } catch (e) {
    await stop();
    throw e;
  }

  if (!isPin(ready.pin)) {
    await stop();
    throw new Error(`the embedded operator reported a malformed pin: ${String(ready.pin).slice(0, 100)}`);
  }
  const kept = keptPin(dataDir);
  let firstRun = false;
  if (kept === null || (kept !== ready.pin && o.acceptNewPin === true)) {
    keepPin(dataDir, ready.pin); // trust on first use: this process made the key moments ago, in our own data folder
    firstRun = true;
  } else if (kept !== ready.pin) {
    await stop();
    throw new EmbeddedPinChangedError(kept, ready.pin);
  }
  return {
    url: ready.url,
    pins: [keptPin(dataDir) ?? ready.pin],
    guest: ready.guest,
    firstRun,
    pid: child.pid ?? 0,
    stop,
    exited,
  };
}

function waitForReady(
  child: ChildHandle,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  timeoutMs: number,
  start: { module: string; dataDir: string; port: number; timing?: EmbeddedLaunchOptions['timing'] },
): Promise<{ url: string; pin: string; guest: EmbeddedOperatorProcess['guest'] }> {
  return new Promise((resolveReady, reject) => {
    let done = false;
    const finish = (e: Error | null, v?: { url: string; pin: string; guest: EmbeddedOperatorProcess['guest'] }): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      off();
      if (e) reject(e);
      else resolveReady(v!);
    };
    const timer = setTimeout(() => finish(new Error(`the embedded operator did not start within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (raw: unknown): void => {
      const type = (raw as { type?: unknown } | null)?.type;
      if (type === 'failed') {
        const message = (raw as { message?: unknown }).message;
        return finish(new Error(`the embedded operator failed to start: ${typeof message === 'string' ? message.slice(0, 2000) : 'no reason given'}`));
      }
      if (type !== 'ready') return;
      const v = validate(readySchema, raw, 'ready');
      if (!v.ok) return finish(new Error(`the embedded operator's ready message is not valid: ${v.error}`));
      finish(null, { url: v.value.url, pin: v.value.pin, guest: v.value.guest });
    };
    const off = child.onMessage(onMessage);
    child.onError((e) => finish(new Error(`the embedded operator could not be started: ${e.message}`)));
    void exited.then(({ code, signal }) => finish(new Error(`the embedded operator exited before it was ready (${signal ?? `code ${code}`})`)));
    child.send({ type: 'start', ...start });
  });
}

/** Asks the child to stop, then SIGTERM, then SIGKILL: each after `timeoutMs` without an exit. */
async function stopChild(child: ChildHandle, exited: Promise<unknown>, timeoutMs: number): Promise<void> {
  let ended = false;
  void exited.then(() => (ended = true));
  await Promise.resolve();
  if (ended) return;
  const within = (ms: number): Promise<boolean> =>
    Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  if (child.alive()) child.send({ type: 'stop' });
  if (await within(timeoutMs)) return;
  child.kill('SIGTERM');
  if (await within(2_000)) return;
  child.kill('SIGKILL');
  await exited;
}
