/**
 * What a ClientCore is built from (core.ts): where the session token is kept, and the options the
 * desktop app and the browser host pass; its services (session.ts, history.ts) read them.
 */
import type { EventName, EventPayload, Settings } from '../../../shared/api';
import type { EmbeddedOperatorProcess } from '../embedded/launcher';
import type { WorkerEntry } from '../history/jobs';

/** Where the session token of a custom operator is kept: only in main (DESIGN.md §3). */
export interface TokenVault {
  load(): string | null;
  save(token: string | null): void;
}

/** A vault that forgets on exit: used when the OS store would keep the token in plain text. */
export function memoryVault(): TokenVault {
  let token: string | null = null;
  return { load: () => token, save: (t) => void (token = t) };
}

export interface ClientCoreOptions {
  dataDir: string;
  version: string;
  settings: () => Settings;
  /** Starts the embedded operator (a utility process in Electron, a child process under the browser host). */
  launchEmbedded: () => Promise<EmbeddedOperatorProcess>;
  vault: TokenVault;
  /** Pushes an event to every page. */
  broadcast: <K extends EventName>(event: K, payload: EventPayload<K>) => void;
  now?: () => number;
  log?: (line: string) => void;
  /** The history jobs' worker: the built `history-worker.cjs`; by default worker.ts through tsx (development, tests). */
  historyWorker?: WorkerEntry;
  /** Link tuning (tests shorten the heartbeat and backoff). */
  link?: { heartbeat?: { intervalMs?: number; timeoutMs?: number }; backoff?: { baseMs?: number; maxMs?: number } };
}
