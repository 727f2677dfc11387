/**
 * The history's reads off the main thread (DESIGN.md §3 and §5 "reads off Electron's
 * main thread"): one long-lived worker thread with its own read-only connection to the history file
 * (WAL: it reads while main's writer commits a hand at a time), answering typed requests. Main's store
 * keeps the writing (one transaction per hand) and the tracker's totals; pages, hands, the graph, the
 * sessions and the statistics are asked here and answered by the worker (reader-worker.ts).
 *
 * The worker starts at the first read; if it dies, the requests in flight fail with its error and the
 * next read starts a new one. `answered` (optional shared memory) counts the answers sent, so a test
 * can block main and see a read completed meanwhile.
 */
import { Worker } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CallArgs, CallResult, HistoryFilter } from '../../../shared/api';
import type { GetHandResult, PageRequest, PageResult } from './model';

/** The reads the worker answers: arguments and results, one line each. */
export interface ReadApi {
  page: { args: [filter: HistoryFilter, req: PageRequest]; result: PageResult };
  hand: { args: [handId: string]; result: GetHandResult };
  series: { args: [filter: HistoryFilter, maxPoints: number]; result: CallResult<'resultsSeries'> };
  sessions: { args: [filter: HistoryFilter, gapMinutes: number]; result: CallResult<'resultsSessions'> };
  stats: { args: [filter: HistoryFilter]; result: CallResult<'playerStats'> };
  /** The stored tournaments and their results. */
  tournaments: { args: [a: CallArgs<'tournamentHistory'>]; result: CallResult<'tournamentHistory'> };
  tournamentResults: { args: [a: CallArgs<'tournamentResults'>]; result: CallResult<'tournamentResults'> };
  /** Drops cached names (after main removed old hands and the names only they used). */
  forget: { args: []; result: null };
}
export type ReadCall = keyof ReadApi;

export type ReadRequest = { [K in ReadCall]: { id: number; call: K; args: ReadApi[K]['args'] } }[ReadCall];
export type ReadResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** What the worker is started with (workerData). */
export interface ReaderData {
  cercleHistoryReader: true;
  file: string;
  planThreshold?: number;
  /** Int32Array [answers sent], for tests. */
  answered?: SharedArrayBuffer;
}

/** How to start the worker: a built bundle that dispatches on `cercleHistoryReader` (history-worker.cjs), or a TypeScript entry through tsx. */
export type ReaderEntry = { file: string } | { typescript: string };

/** reader-entry.ts through tsx (tests, development); the app passes its built history-worker.cjs. */
export function developmentReader(): ReaderEntry {
  return { typescript: join(dirname(fileURLToPath(import.meta.url)), 'reader-entry.ts') };
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class HistoryReader {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly entry: ReaderEntry,
    private readonly options: { planThreshold?: number; answered?: SharedArrayBuffer } = {},
  ) {}

  /** Asks the worker; resolves with its answer, rejects with the error the read threw. */
  call<K extends ReadCall>(call: K, ...args: ReadApi[K]['args']): Promise<ReadApi[K]['result']> {
    if (this.closed) return Promise.reject(new Error('the history is closed'));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<ReadApi[K]['result']>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, call, args });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    this.failAll(new Error('the history is closed'));
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const data: ReaderData = { cercleHistoryReader: true, file: this.file, planThreshold: this.options.planThreshold, answered: this.options.answered };
    let w: Worker;
    if ('file' in this.entry) w = new Worker(this.entry.file, { workerData: data });
    else {
      const code = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(pathToFileURL(this.entry.typescript).href)}); })`;
      w = new Worker(code, { eval: true, workerData: data });
    }
    w.on('message', (m: ReadResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.message));
    });
    const gone = (e: Error): void => {
      if (this.worker === w) this.worker = null;
      this.failAll(e);
    };
    w.on('error', gone);
    w.on('exit', (code) => gone(new Error(`the history reader stopped (exit ${code})`)));
    // Idle between reads: the worker must not keep the process alive.
    w.unref();
    this.worker = w;
    return w;
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
