/**
 * Bulk import and export of the hand history, run in worker threads (worker.ts) with progress and
 * cancel (DESIGN.md §3 "Long work (bulk import, export) runs off the main thread").
 *
 * One writer at a time (SQLite WAL): how writes are routed
 * -------------------------------------------------------
 * An import writes the whole file in one transaction of its own connection (all or nothing). While it
 * runs, the main connection must not write: its write would wait for the lock on the main thread (a
 * frozen UI, then SQLITE_BUSY). So every write of main goes through `WriteGate`:
 *  - no import running: straight to the store, as before;
 *  - an import running: the hand is held in memory (a hand already stored, or already held, is a
 *    duplicate: the check reads the store, which WAL allows meanwhile) and the caller is told it is
 *    stored, so the tracker counts it at once; held hands are written when the import ends (done,
 *    cancelled or failed). If the client stops before that, they are not lost for good: the operator
 *    still has them, and the sync on the next connection (sync.ts) stores them.
 *  - removing old hands is refused while an import runs (client/history.ts asks `gate.writing`).
 * Only one import runs at a time; exports only read (any number run beside an import or the tables).
 *
 * Files: an import's text comes from the page in chunks (the browser host takes frames of 64 KiB at
 * most) into `<dataDir>/imports/<uploadId>.part`, deleted when the job ends. An export is written to
 * `<dataDir>/exports/cercle-<date>-<jobId>.<xml|phhs|txt>`, shown to the player: in Electron it is a
 * file in their data folder (no save dialog: main's dialogs cannot be tested here); under the browser
 * host the page also gets a download link, `/download/<jobId>?key=<random>`, which the host serves
 * (electron/web/server.ts) only with that job's key: a capability sent only to authorised sockets.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HistoryFilter } from '../../../shared/api';
import { EXCHANGE_FILE_MAX_BYTES } from '../../../shared/protocol/limits';
import type { HandRecord } from '../../../shared/rules/record';
import type { AddResult, HandMeta, HistoryStore } from './store';
import { CANCEL, WRITING, type ExportFormat, type ImportFormat, type WorkerJob, type WorkerReport } from './worker';

/** `sync`: hands fetched from the operator (sync.ts, reported by client/history.ts the same way). */
export type JobKind = 'import' | 'export' | 'sync';
export type JobState = 'running' | 'done' | 'cancelled' | 'failed';

/** What the pages see of a job (the `historyJob` event). */
export interface HistoryJobView {
  jobId: string;
  kind: JobKind;
  state: JobState;
  done: number;
  total: number;
  /** What it is doing (read, parse, store, export) or why it failed. */
  message: string | null;
  /** A corrupt file: the line of the first problem. */
  line: number | null;
  /** Import: hands stored, already there, not the player's. */
  stored: number;
  duplicates: number;
  skipped: number;
  /** Import of a site's file: of the hands stored, the observed ones (without the player, in no result). */
  observed: number;
  /** Import of a site's file: hands refused (the first one's line in `line`). */
  refused: number;
  /** Export: the file written (when done), and the download link under the browser host. */
  file: string | null;
  download: string | null;
}

export type Outcome<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** How to start the worker: the built bundle (`history-worker.cjs`), or worker.ts through tsx (development, tests). */
export type WorkerEntry = { file: string } | { typescript: string };

export function developmentWorker(): WorkerEntry {
  return { typescript: join(dirname(fileURLToPath(import.meta.url)), 'worker.ts') };
}

function startWorker(entry: WorkerEntry, job: WorkerJob): Worker {
  if ('file' in entry) return new Worker(entry.file, { workerData: job });
  const code = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(pathToFileURL(entry.typescript).href)}); })`;
  return new Worker(code, { eval: true, workerData: job });
}

const EXTENSIONS: Record<ExportFormat, string> = { pojeu: 'xml', phh: 'phhs', pokerstars: 'txt', 'pokerstars-summary': 'summaries.txt' };
/** Largest file the page may send (text): the exchange's bound (docs/exchange.md). */
export const UPLOAD_MAX_BYTES = EXCHANGE_FILE_MAX_BYTES;
/** Characters per upload chunk: ≤ 60 KB as JSON even when every character needs 6 bytes. */
export const UPLOAD_CHUNK_CHARS = 10_000;

/** A job just started, nothing counted yet (the first `historyJob` event). */
export function runningJob(jobId: string, kind: HistoryJobView['kind']): HistoryJobView {
  return { jobId, kind, state: 'running', done: 0, total: 0, message: null, line: null, stored: 0, duplicates: 0, skipped: 0, observed: 0, refused: 0, file: null, download: null };
}

/** Main's writes while an import holds the file (see the top of this file). */
export class WriteGate {
  private held: { meta: HandMeta; record: HandRecord }[] = [];
  private readonly heldIds = new Set<string>();
  private imports = 0;

  constructor(
    private readonly store: HistoryStore,
    private readonly onFlushed: (stored: number) => void = () => undefined,
  ) {}

  /** An import is writing: main must not. */
  get writing(): boolean {
    return this.imports > 0;
  }

  get heldCount(): number {
    return this.held.length;
  }

  addHand(meta: HandMeta, record: HandRecord): AddResult {
    if (!this.writing) return this.store.addHand(meta, record);
    const id = record.handId;
    if (id === null) return { stored: false, duplicate: false, reason: 'a hand needs its id to be stored once (R-HISTORY)' };
    if (this.heldIds.has(id) || this.store.holds(meta, record)) return { stored: false, duplicate: true };
    if (!record.seats.some((s) => s.seat === meta.heroSeat)) return { stored: false, duplicate: false, reason: `seat ${meta.heroSeat} is not a seat of this hand` };
    this.held.push({ meta, record });
    this.heldIds.add(id);
    return { stored: true, duplicate: false };
  }

  /** The store as the tracker sees it: the same, but its `addHand` goes through the gate. */
  storeView(): HistoryStore {
    const store = this.store;
    const add = (meta: HandMeta, record: HandRecord): AddResult => this.addHand(meta, record);
    return new Proxy(store, {
      get(target, key) {
        if (key === 'addHand') return add;
        const v = Reflect.get(target, key, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  begin(): void {
    this.imports++;
  }

  end(): void {
    this.imports = Math.max(0, this.imports - 1);
    if (this.writing || this.held.length === 0) return;
    const list = this.held;
    this.held = [];
    this.heldIds.clear();
    const r = this.store.addHands(list);
    this.onFlushed(r.stored);
  }
}

interface Job {
  view: HistoryJobView;
  worker: Worker | null;
  control: Int32Array;
  key: string;
  /** An upload's file, removed at the end. */
  input: string | null;
  out: string | null;
  startedAt: number;
  ended: Promise<void>;
}

interface Upload {
  file: string;
  next: number;
  bytes: number;
}

export interface HistoryJobsOptions {
  store: HistoryStore;
  dataDir: string;
  worker?: WorkerEntry;
  /** Every change of a job (throttled for progress). */
  emit: (view: HistoryJobView) => void;
  /** The import stored hands (the tracker and pages read again). */
  onStored?: () => void;
  /** The player's names (the account's), to find the hero of an imported file. */
  heroNames?: () => string[];
  now?: () => number;
  /** Least ms between two progress events of a job. */
  progressMs?: number;
}

export class HistoryJobs {
  readonly gate: WriteGate;
  private readonly jobs = new Map<string, Job>();
  private readonly uploads = new Map<string, Upload>();
  private readonly now: () => number;
  private readonly entry: WorkerEntry;
  private closed = false;

  constructor(private readonly o: HistoryJobsOptions) {
    this.now = o.now ?? Date.now;
    this.entry = o.worker ?? developmentWorker();
    this.gate = new WriteGate(o.store, (n) => n > 0 && o.onStored?.());
  }

  // -------------------------------------------------------------------------------------------
  // Import: upload in chunks, then start

  uploadBegin(): Outcome<{ uploadId: string; chunkChars: number }> {
    if (this.closed) return { ok: false, reason: 'closing' };
    const uploadId = randomBytes(9).toString('base64url');
    const dir = join(this.o.dataDir, 'imports');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${uploadId}.part`);
    appendFileSync(file, '');
    this.uploads.set(uploadId, { file, next: 0, bytes: 0 });
    return { ok: true, uploadId, chunkChars: UPLOAD_CHUNK_CHARS };
  }

  uploadChunk(uploadId: string, index: number, text: string): Outcome<{ received: number }> {
    const u = this.uploads.get(uploadId);
    if (u === undefined) return { ok: false, reason: 'no such upload' };
    if (index !== u.next) return { ok: false, reason: `chunk ${u.next} expected, got ${index}` };
    const bytes = Buffer.byteLength(text, 'utf8');
    if (u.bytes + bytes > UPLOAD_MAX_BYTES) {
      this.uploadDrop(uploadId);
      return { ok: false, reason: `a file of at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MiB can be imported: split it (docs/exchange.md)` };
    }
    appendFileSync(u.file, text, 'utf8');
    u.next++;
    u.bytes += bytes;
    return { ok: true, received: u.bytes };
  }

  uploadDrop(uploadId: string): void {
    const u = this.uploads.get(uploadId);
    this.uploads.delete(uploadId);
    if (u) rmSync(u.file, { force: true });
  }

  /** Imports an uploaded file (its format recognised, or the one given). One import at a time. */
  importUpload(uploadId: string, format: ImportFormat): Outcome<{ jobId: string }> {
    const u = this.uploads.get(uploadId);
    if (u === undefined) return { ok: false, reason: 'no such upload' };
    this.uploads.delete(uploadId);
    return this.importFile(u.file, format, true);
  }

  /** Imports a file (`owned`: removed at the end). */
  importFile(input: string, format: ImportFormat, owned = false): Outcome<{ jobId: string }> {
    if (this.closed) return { ok: false, reason: 'closing' };
    if ([...this.jobs.values()].some((j) => j.view.kind === 'import' && j.view.state === 'running')) {
      if (owned) rmSync(input, { force: true });
      return { ok: false, reason: 'an import is already running' };
    }
    const control = new Int32Array(new SharedArrayBuffer(8));
    const jobId = this.start('import', control, owned ? input : null, null, {
      cercleHistoryJob: true,
      kind: 'import',
      history: this.o.store.file,
      input,
      format,
      heroNames: this.o.heroNames?.() ?? [],
      now: this.now(),
      control: control.buffer,
    });
    return { ok: true, jobId };
  }

  // -------------------------------------------------------------------------------------------
  // Export

  /**
   * Exports the hands of `filter`, or the one hand `handId` (its file holds that hand alone); with
   * `pokerstars-summary`, the summaries of the tournaments that ended in the filter's period.
   */
  exportHands(filter: HistoryFilter, format: ExportFormat, handId?: string): Outcome<{ jobId: string; file: string }> {
    if (this.closed) return { ok: false, reason: 'closing' };
    if ([...this.jobs.values()].filter((j) => j.view.kind === 'export' && j.view.state === 'running').length >= 2) {
      return { ok: false, reason: 'two exports are already running' };
    }
    const dir = join(this.o.dataDir, 'exports');
    mkdirSync(dir, { recursive: true });
    const control = new Int32Array(new SharedArrayBuffer(8));
    const id = randomBytes(6).toString('base64url');
    const date = new Date(this.now()).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    const out = join(dir, `cercle-${date}-${id}.${EXTENSIONS[format]}`);
    const jobId = this.start('export', control, null, out, {
      cercleHistoryJob: true,
      kind: 'export',
      history: this.o.store.file,
      out,
      format,
      filter,
      ...(handId !== undefined ? { handId } : {}),
      heroNames: this.o.heroNames?.() ?? [],
      control: control.buffer,
    }, id);
    return { ok: true, jobId, file: out };
  }

  // -------------------------------------------------------------------------------------------

  private start(kind: JobKind, control: Int32Array, input: string | null, out: string | null, data: WorkerJob, id?: string): string {
    const jobId = id ?? randomBytes(6).toString('base64url');
    const view = runningJob(jobId, kind);
    if (kind === 'import') this.gate.begin();
    const worker = startWorker(this.entry, data);
    let finished!: () => void;
    const job: Job = { view, worker, control, key: randomBytes(18).toString('base64url'), input, out, startedAt: this.now(), ended: new Promise<void>((r) => (finished = r)) };
    this.jobs.set(jobId, job);
    let lastEmit = 0;
    const emit = (force: boolean): void => {
      const t = this.now();
      if (!force && t - lastEmit < (this.o.progressMs ?? 100)) return;
      lastEmit = t;
      this.o.emit({ ...view });
    };
    const end = (state: Exclude<JobState, 'running'>, message: string | null = view.message): void => {
      if (view.state !== 'running') return;
      view.state = state;
      view.message = message;
      job.worker = null;
      if (kind === 'import') {
        this.gate.end();
        if (state === 'done' && view.stored > 0) this.o.onStored?.();
      }
      if (input !== null) rmSync(input, { force: true });
      if (state === 'done' && out !== null) {
        view.file = out;
        view.download = `/download/${jobId}?key=${job.key}`;
      } else if (out !== null) rmSync(out, { force: true });
      emit(true);
      finished();
    };
    worker.on('message', (r: WorkerReport) => {
      if (r.type === 'progress') {
        view.done = r.done;
        view.total = r.total;
        const first = view.message !== r.phase;
        view.message = r.phase;
        emit(first);
      } else if (r.type === 'done') {
        Object.assign(view, { done: r.done, total: r.total, stored: r.stored, duplicates: r.duplicates, skipped: r.skipped, observed: r.observed ?? 0, refused: r.refused ?? 0, line: r.line ?? null });
        // A site's file: the hands refused, counted by kind, the first named (site-import.ts).
        end('done', r.message?.slice(0, 2000) ?? null);
      } else if (r.type === 'cancelled') {
        view.done = r.done;
        end('cancelled', null);
      } else {
        view.line = r.line;
        end('failed', r.message.slice(0, 2000));
      }
    });
    worker.on('error', (e) => end('failed', e.message.slice(0, 2000)));
    worker.on('exit', (code) => end(Atomics.load(control, CANCEL) !== 0 ? 'cancelled' : 'failed', `the worker stopped (${code})`));
    emit(true);
    return jobId;
  }

  /** Stops a running job: nothing of an import is kept, an export's partial file is removed. */
  cancel(jobId: string): Outcome<object> {
    const job = this.jobs.get(jobId);
    if (job === undefined) return { ok: false, reason: 'no such job' };
    if (job.view.state !== 'running' || job.worker === null) return { ok: false, reason: `the job is ${job.view.state}` };
    Atomics.store(job.control, CANCEL, 1);
    // Not writing yet (an import still parsing, or any export): stop the thread at once.
    if (job.view.kind === 'export' || Atomics.compareExchange(job.control, WRITING, 0, -1) === 0) void job.worker.terminate();
    return { ok: true };
  }

  view(jobId: string): HistoryJobView | null {
    const j = this.jobs.get(jobId);
    return j ? { ...j.view } : null;
  }

  /** Every job of this run with its start time, newest first. */
  list(): (HistoryJobView & { startedAt: number })[] {
    return [...this.jobs.values()].reverse().map((j) => ({ ...j.view, startedAt: j.startedAt }));
  }

  /** Resolves when the job has ended (tests). */
  ended(jobId: string): Promise<void> {
    return this.jobs.get(jobId)?.ended ?? Promise.resolve();
  }

  /** The exported file for a download link, when the key is that job's. */
  download(jobId: string, key: string): { path: string; name: string; size: number } | null {
    const job = this.jobs.get(jobId);
    if (!job || job.view.state !== 'done' || job.out === null) return null;
    const a = Buffer.from(key);
    const b = Buffer.from(job.key);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    try {
      return { path: job.out, name: basename(job.out), size: statSync(job.out).size };
    } catch {
      return null;
    }
  }

  /** Cancels what runs and waits for it (an import's transaction rolls back); drops uploads. */
  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.jobs.values()].filter((j) => j.view.state === 'running');
    for (const j of running) this.cancel(j.view.jobId);
    await Promise.all(running.map((j) => j.ended));
    for (const id of [...this.uploads.keys()]) this.uploadDrop(id);
  }
}
