/**
 * The local hand history (R-HISTORY): the SQLite store main writes, its reads off the main thread
 * (history/reader.ts), bulk import and export as jobs with their progress pushed as `historyJob`
 * events (history/jobs.ts), and the hands of this account fetched from the operator on each sign-in
 * (history/sync.ts), shown as jobs of their own.
 */
import { join } from 'node:path';
import type { CallArgs, CallResult, Handlers } from '../../../shared/api';
import type { TableInfo } from '../../../shared/protocol/messages';
import { HistoryJobs, runningJob, type HistoryJobView } from '../history/jobs';
import { developmentReader, HistoryReader } from '../history/reader';
import { HistoryStore } from '../history/store';
import { SYNC_FILE, syncHistory } from '../history/sync';
import type { OperatorLink } from '../link/link';
import type { ClientCoreOptions } from './options';
import { tournamentRecords } from './tournament-records';

export const HISTORY_FILE = 'history.sqlite';

export interface ClientHistoryOptions {
  core: ClientCoreOptions;
  now: () => number;
  log: (line: string) => void;
  /** The link now (null while none). */
  link: () => OperatorLink | null;
  /** Main is closing: a sync under way stops. */
  closed: () => boolean;
  /** Hands were stored (the tracker's totals moved): its view is pushed. */
  stored: () => void;
  /** The money a lobby table plays for, to store the operator's hands with it. */
  moneyOf: (tableId: string) => TableInfo['money'] | null;
}

type HistoryCalls = 'historyPage' | 'historyHand' | 'historyRemoveOlder' | 'historyExport' | 'historyImportBegin' | 'historyImportChunk' | 'historyImportStart' | 'historyJobCancel' | 'historyJobs' | 'tournamentHistory';

type JobView = HistoryJobView & { startedAt: number };

export class ClientHistory {
  readonly store: HistoryStore;
  /** The history's reads off the main thread; `store` writes and keeps the tracker's totals. */
  readonly reader: HistoryReader;
  /** Bulk import and export off the main thread; main's writes go through its gate (history/jobs.ts). */
  readonly jobs: HistoryJobs;
  private readonly syncViews: JobView[] = [];
  private syncing: Promise<void> | null = null;

  constructor(private readonly o: ClientHistoryOptions) {
    const { dataDir, historyWorker } = o.core;
    this.store = HistoryStore.open(join(dataDir, HISTORY_FILE), { now: o.now });
    this.reader = new HistoryReader(join(dataDir, HISTORY_FILE), historyWorker ?? developmentReader()); // the jobs' bundle dispatches on its data
    this.jobs = new HistoryJobs({
      store: this.store,
      dataDir,
      worker: historyWorker,
      now: o.now,
      emit: (v) => o.core.broadcast('historyJob', v),
      onStored: () => o.stored(),
      heroNames: () => this.heroNames(),
    });
  }

  /** The account's name and the player's own names on the sites (Settings, my names): one player. */
  private heroNames(): string[] {
    const account = this.o.link()?.account;
    return [...new Set([...(account ? [account.username] : []), ...this.o.core.settings().myNames])];
  }

  handlers(): Pick<Handlers, HistoryCalls> {
    return {
      historyPage: (a) => this.page(a),
      historyHand: (a) => this.hand(a),
      historyRemoveOlder: async (a) => this.removeOlder(a),
      historyExport: async (a) => this.exportHands(a),
      historyImportBegin: async () => this.importBegin(),
      historyImportChunk: async (a) => this.importChunk(a),
      historyImportStart: async (a) => this.importStart(a),
      historyJobCancel: async (a) => this.jobCancel(a),
      historyJobs: async () => this.jobList(),
      // The stored tournaments, read by the history's reader worker.
      tournamentHistory: (a) => this.reader.call('tournaments', a),
    };
  }

  /** Waits for a sync under way, then closes the jobs, the reader and the store. */
  async close(): Promise<void> {
    await this.syncing;
    await this.jobs.close();
    await this.reader.close();
    this.store.close();
  }

  async page(a: CallArgs<'historyPage'>): Promise<CallResult<'historyPage'>> {
    const r = await this.reader.call('page', a.filter, { sort: a.sort, dir: a.dir, limit: a.limit, cursor: a.cursor });
    return r.ok ? { ok: true, hands: r.hands, next: r.next } : { ok: false, reason: r.reason.slice(0, 2000), hands: [], next: null };
  }

  async hand(a: CallArgs<'historyHand'>): Promise<CallResult<'historyHand'>> {
    const r = await this.reader.call('hand', a.handId);
    return r.ok ? { ok: true, summary: r.summary, record: r.record } : { ok: false, reason: r.reason.slice(0, 2000) };
  }

  removeOlder(a: CallArgs<'historyRemoveOlder'>): CallResult<'historyRemoveOlder'> {
    if (this.jobs.gate.writing) return { ok: false, reason: 'an import is running: remove hands when it has ended' };
    const r = this.store.removeOlderThan(a.before);
    if (!r.ok) return { ok: false, reason: r.reason.slice(0, 2000) };
    this.o.stored();
    void this.reader.call('forget').catch(() => undefined); // names only the removed hands used
    return { ok: true, removed: r.removed };
  }

  // -------------------------------------------------------------------------------------------
  // Exchange jobs (history/jobs.ts)

  exportHands(a: CallArgs<'historyExport'>): CallResult<'historyExport'> {
    const r = this.jobs.exportHands(a.filter, a.format, a.handId);
    return r.ok ? { ok: true, jobId: r.jobId, file: r.file } : { ok: false, reason: r.reason };
  }

  importBegin(): CallResult<'historyImportBegin'> {
    const r = this.jobs.uploadBegin();
    return r.ok ? { ok: true, uploadId: r.uploadId, chunkChars: r.chunkChars } : { ok: false, reason: r.reason };
  }

  importChunk(a: CallArgs<'historyImportChunk'>): CallResult<'historyImportChunk'> {
    const r = this.jobs.uploadChunk(a.uploadId, a.index, a.text);
    return r.ok ? { ok: true, received: r.received } : { ok: false, reason: r.reason };
  }

  importStart(a: CallArgs<'historyImportStart'>): CallResult<'historyImportStart'> {
    // Observed hands where one of the player's names (Settings, my names) sits become theirs first.
    if (this.store.claimObserved(this.heroNames()) > 0) this.o.stored();
    const r = this.jobs.importUpload(a.uploadId, a.format);
    return r.ok ? { ok: true, jobId: r.jobId } : { ok: false, reason: r.reason };
  }

  jobCancel(a: CallArgs<'historyJobCancel'>): CallResult<'historyJobCancel'> {
    const r = this.jobs.cancel(a.jobId);
    return r.ok ? { ok: true } : { ok: false, reason: r.reason };
  }

  /** The import and export jobs and the syncs, newest first. */
  jobList(): CallResult<'historyJobs'> {
    return [...this.jobs.list(), ...this.syncViews].sort((x, y) => y.startedAt - x.startedAt).slice(0, 100).map(({ startedAt: _, ...v }) => v);
  }

  // -------------------------------------------------------------------------------------------
  // The operator sync (history/sync.ts)

  /** Hands of this account missing here, from the operator's history (R-HISTORY). One at a time. */
  sync(link: OperatorLink, operator: string): Promise<void> {
    if (this.syncing) return this.syncing;
    const account = link.account;
    if (this.o.closed() || this.o.link() !== link || !account) return Promise.resolve();
    const view: JobView = { ...runningJob(`sync-${this.o.now().toString(36)}`, 'sync'), startedAt: this.o.now() };
    this.syncViews.unshift(view);
    this.syncViews.length = Math.min(this.syncViews.length, 10);
    const publish = (): void => {
      const { startedAt: _, ...v } = view;
      this.o.core.broadcast('historyJob', v);
    };
    publish();
    this.syncing = syncHistory({
      source: link,
      username: account.username,
      guest: account.guest,
      operator,
      add: (meta, record) => this.jobs.gate.addHand(meta, record),
      moneyOf: this.o.moneyOf,
      marksFile: join(this.o.core.dataDir, SYNC_FILE),
      stopped: () => this.o.closed() || this.o.link() !== link,
      tournaments: { source: link.tournaments, put: tournamentRecords(this.store).syncTournament },
    })
      .then((r) => {
        Object.assign(view, { state: r.ok ? 'done' : 'failed', done: r.fetched, total: r.fetched, stored: r.stored, duplicates: r.duplicates, skipped: r.skipped, message: r.reason?.slice(0, 2000) ?? null });
        if (r.stored > 0) this.o.stored();
        if (r.stored > 0) this.o.log(`history: ${r.stored} hand(s) fetched from the operator`);
      })
      .catch((e: unknown) => {
        Object.assign(view, { state: 'failed', message: (e instanceof Error ? e.message : String(e)).slice(0, 2000) });
      })
      .finally(() => {
        this.syncing = null;
        if (!this.o.closed()) publish();
      });
    return this.syncing;
  }
}
