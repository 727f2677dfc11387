/**
 * The embedded operator's process (DESIGN.md §3 "The embedded default"): a small entry the client
 * starts as a child process (launcher.ts), which starts the operator and reports where it listens.
 *
 * It talks to its parent only over the IPC channel, never stdout (which may be logged): the guest's
 * session token is a secret. Messages:
 *
 *   parent → child   { type: 'start', module, dataDir, port }   { type: 'stop' }
 *   child → parent   { type: 'ready', url, pin, guest: { token, username, accountId } }
 *                    { type: 'failed', message }                 { type: 'stopped' }
 *
 * `module` names the file that exports `startEmbeddedOperator` (operator/embedded.ts run through tsx
 * in development; the built operator bundle in a packaged client). It is given by the parent, because
 * client services may not import the operator (DESIGN.md §2 fences): the two meet only here, at run time.
 *
 * The operator stops cleanly (hands cancelled, every player cashed out, files closed: R-CASH) on
 * `stop`, on SIGTERM/SIGINT, and when the parent goes away (the IPC channel closes), so a crashed
 * client never leaves an operator running.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EmbeddedTiming } from './launcher';

interface EmbeddedRunning {
  url: string;
  pin: string;
  guest: { token: string; username: string; accountId: number };
  close(): Promise<void>;
}

interface EmbeddedModule {
  startEmbeddedOperator(options: { dataDir: string; port?: number; log?: (line: string) => void; timing?: Timing }): Promise<EmbeddedRunning>;
}

/** Checked by the operator (operator/embedded.ts `timingOf`). */
type Timing = EmbeddedTiming;
type ParentMessage = { type: 'start'; module: string; dataDir: string; port: number; timing?: Timing } | { type: 'stop' };

const log = (line: string): void => void process.stderr.write(`${line}\n`);

let running: Promise<EmbeddedRunning | null> | null = null;
let stopping = false;

/** Electron's utility process talks over `process.parentPort`; a Node child over its IPC channel. */
interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort ?? null;

function tell(message: Record<string, unknown>): void {
  if (parentPort) parentPort.postMessage(message);
  else if (process.connected) process.send!(message);
}

async function start(m: Extract<ParentMessage, { type: 'start' }>): Promise<EmbeddedRunning | null> {
  try {
    if (!isAbsolute(m.module) || !isAbsolute(m.dataDir)) throw new Error('module and dataDir must be absolute paths');
    const loaded = (await import(pathToFileURL(m.module).href)) as Partial<EmbeddedModule> & { default?: Partial<EmbeddedModule> };
    const startEmbeddedOperator = loaded.startEmbeddedOperator ?? loaded.default?.startEmbeddedOperator;
    if (typeof startEmbeddedOperator !== 'function') throw new Error(`${m.module} does not export startEmbeddedOperator`);
    const op = await startEmbeddedOperator({ dataDir: m.dataDir, port: m.port, log, timing: m.timing });
    if (stopping) {
      await op.close();
      return null;
    }
    tell({ type: 'ready', url: op.url, pin: op.pin, guest: { token: op.guest.token, username: op.guest.username, accountId: op.guest.accountId } });
    return op;
  } catch (e) {
    log(`embedded operator: ${(e as Error)?.stack ?? String(e)}`);
    tell({ type: 'failed', message: (e as Error)?.message ?? String(e) });
    process.exitCode = 1;
    void stop();
    return null;
  }
}

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    const op = await running;
    await op?.close();
  } catch (e) {
    log(`embedded operator: closing failed: ${(e as Error)?.stack ?? String(e)}`);
    process.exitCode = 1;
  }
  tell({ type: 'stopped' });
  if (!parentPort && process.connected) process.disconnect();
  // Whatever still holds the loop (a timer of a closed table) does not keep the process.
  setTimeout(() => process.exit(), 200).unref();
}

if (parentPort === null && typeof process.send !== 'function') {
  log('the embedded operator is started by the Cercle client, with an IPC channel');
  process.exit(2);
}

function onParentMessage(raw: unknown): void {
  const m = raw as ParentMessage;
  if (m?.type === 'start' && running === null && !stopping) running = start(m);
  else if (m?.type === 'stop') void stop();
}
if (parentPort) {
  // A utility process ends with its parent (Electron kills it when the app quits).
  parentPort.on('message', (e) => onParentMessage(e.data));
} else {
  process.on('message', onParentMessage);
  process.on('disconnect', () => void stop());
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
