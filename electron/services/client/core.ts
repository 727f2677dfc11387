/**
 * The client's game side, in main (DESIGN.md §1-§3): one object that owns the operator link, the local
 * hand history and the win/loss tracker, and turns them into the client API's calls and pushed events.
 * Electron main and the browser host both build one and differ only in how the embedded operator is
 * started, where the session token is kept and how events reach the pages.
 *
 * - Operator: the embedded one (started here on launch, its first-run key pinned; its guest signs in
 *   by itself) or another one from the settings (URL and pins; login with a username and password).
 * - Tables: each followed table's model (electron/services/link/table.ts) is pushed to the pages as a
 *   `TableState`, gathered over one display frame (pace.ts); the pace of redraws is decided once, by
 *   the page (stores/tables.ts). "Pending" is read from the link's action outbox.
 * - Money (R-TRACKER): the tracker is updated by the link as hands end and chips move; its view (session,
 *   today) is pushed after every change. Balances are read again after anything that moves them.
 * - Secrets: the session token never leaves main (`TokenVault`: safeStorage in Electron, memory only
 *   under the browser host).
 */
import { join } from 'node:path';
import type { CallArgs, CallResult, LinkStatusView, Outcome, SessionInfo, TableState, TrackerView } from '../../../shared/api';
import type { TableInfo } from '../../../shared/protocol/messages';
import type { PlayConditions } from '../../../shared/protocol/conditions';
import type { EmbeddedOperatorProcess } from '../embedded/launcher';
import { HistoryJobs, runningJob, type HistoryJobView } from '../history/jobs';
import { developmentReader, HistoryReader } from '../history/reader';
import { HistoryStore } from '../history/store';
import { SYNC_FILE, syncHistory } from '../history/sync';
import { Tracker, type PeriodView } from '../history/tracker';
import { OperatorLink } from '../link/link';
import type { TableModel } from '../link/table';
import { ClientCashier } from './cashier';
import { ClientTournaments } from './tournaments';
import { tournamentRecords } from './tournament-records';
import type { ClientCoreOptions } from './options';
import { TablePace } from './pace';
import { OperatorSwitch, type SwitchTicket } from './switch';
import { notConnected, refusal, tableRefusal } from './outcome';

export { memoryVault, type ClientCoreOptions, type TokenVault } from './options';

const HISTORY_FILE = 'history.sqlite';

export class ClientCore {
  readonly history: HistoryStore;
  /** The history's reads off the main thread; `history` writes and keeps the tracker's totals. */
  readonly reader: HistoryReader;
  readonly tracker: Tracker;
  /** Bulk import and export off the main thread; main's writes go through its gate (history/jobs.ts). */
  readonly jobs: HistoryJobs;
  /** The cashier and protection calls (cashier.ts). */
  readonly cashier: ClientCashier;
  /** The tournament calls and the `tournament` event (tournaments.ts). */
  readonly tournaments: ClientTournaments;
  private readonly syncViews: (HistoryJobView & { startedAt: number })[] = [];
  private syncing: Promise<void> | null = null;
  private link: OperatorLink | null = null;
  private embedded: EmbeddedOperatorProcess | null = null;
  /** The embedded operator being started, so that quitting meanwhile waits for it and stops it. */
  private launching: Promise<EmbeddedOperatorProcess> | null = null;
  private relaunchTimer: ReturnType<typeof setTimeout> | null = null;
  private relaunchAttempt = 0;
  /**
   * The embedded operator's session the player has: `undefined` the guest's, a token an account's
   * (signed in or registered there), `null` none (signed out). Resumed when the operator is started again.
   */
  private embeddedToken: string | null | undefined = undefined;
  /** While the embedded operator is started again after it stopped: account calls wait for its link (switch.ts). */
  private relaunchTicket: SwitchTicket | null = null;
  private status: LinkStatusView = { state: 'starting', attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null };
  private readonly lobbyTables = new Map<string, TableInfo>();
  private conditions: PlayConditions | null = null;
  /** Per table: what the pages see besides the model and the outbox (the last hand, the last refusal). */
  private readonly extras = new Map<string, Pick<TableState, 'lastHand' | 'error' | 'cashedOut' | 'tournamentId'>>();
  private readonly pace: TablePace;
  private pushTracker = false;
  private pushSession = false;
  private pushLobby = false;
  private starting: Promise<void> | null = null;
  /** Operator switches under way: account calls wait for the new link (switch.ts). */
  private readonly switching = new OperatorSwitch();
  private closed = false;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private unsubscribers: (() => void)[] = [];

  constructor(private readonly o: ClientCoreOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? ((line) => process.stderr.write(`[client] ${line}\n`));
    this.history = HistoryStore.open(join(o.dataDir, HISTORY_FILE), { now: this.now });
    this.reader = new HistoryReader(join(o.dataDir, HISTORY_FILE), o.historyWorker ?? developmentReader()); // the jobs' bundle dispatches on its data
    this.jobs = new HistoryJobs({
      store: this.history,
      dataDir: o.dataDir,
      worker: o.historyWorker,
      now: this.now,
      emit: (v) => this.o.broadcast('historyJob', v),
      onStored: () => this.schedule('tracker'),
      heroNames: () => (this.link?.account ? [this.link.account.username] : []),
    });
    // The tracker stores finished hands through the gate: held while an import writes (jobs.ts).
    this.tracker = new Tracker(this.jobs.gate.storeView(), { now: this.now });
    this.tracker.onChange(() => this.schedule('tracker'));
    this.pace = new TablePace({ flush: (ids) => this.flush(ids) });
    this.cashier = new ClientCashier({ link: () => this.link, broadcast: o.broadcast, balancesMoved: () => this.schedule('session-balance') });
    this.tournaments = new ClientTournaments({
      link: () => this.link,
      broadcast: o.broadcast,
      tracker: this.tracker,
      putTournament: tournamentRecords(this.history).putTournament,
      storedTournament: (id) => this.history.tournament(id),
      balancesMoved: () => this.schedule('session-balance'),
      now: this.now,
      log: this.log,
    });
  }

  /** Connects to the operator the settings name (starting the embedded one first). Never throws: problems show in `session`. */
  start(): Promise<void> {
    return (this.starting ??= this.connect().finally(() => (this.starting = null)));
  }

  private async connect(): Promise<void> {
    const op = this.o.settings().operator;
    this.setStatus({ state: 'starting', attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null });
    let url: string;
    let pins: string[];
    let token: string | null;
    try {
      if (op.mode === 'embedded') {
        if (!this.embedded) {
          const launching = (this.launching = this.o.launchEmbedded());
          this.embedded = await launching.finally(() => (this.launching = null));
        }
        const launched = this.embedded;
        // Quit while it was starting: close() waits for this launch and stops it (R-CASH), so none is left behind.
        if (this.closed) return;
        void launched.exited.then(({ code, signal }) => {
          if (this.closed || this.embedded !== launched) return;
          const why = `the embedded operator stopped (${signal ?? `code ${code}`})`;
          this.log(why);
          this.embedded = null;
          // Say so at once and start it again by ourselves.
          this.relaunchLater(why);
        });
        ({ url, pins } = this.embedded);
        // The session the player had with it: the guest's (this launch's token), an account's, or
        // none (signed out). A relaunch after a crash resumes that one, not the guest's by default.
        token = this.embeddedToken === undefined ? this.embedded.guest.token : this.embeddedToken;
      } else {
        if (!op.url || op.pins.length === 0) throw new Error('the operator URL and at least one pin are needed (Settings)');
        ({ url, pins } = op);
        token = this.o.vault.load();
      }
    } catch (e) {
      const why = op.mode === 'embedded' ? 'embedded-failed' : 'settings';
      this.setStatus({ state: 'offline', attempt: 0, retryInMs: null, why, reason: (e as Error).message.slice(0, 2000), minVersion: null });
      return;
    }
    if (this.closed) return;
    const link = new OperatorLink({
      url,
      pins,
      clientVersion: this.o.version,
      token,
      heartbeat: this.o.link?.heartbeat,
      backoff: this.o.link?.backoff,
      now: this.now,
      log: this.log,
    });
    this.link = link;
    this.unsubscribers = [
      // The tracker is fed by the core, not the transport: each table model gets it
      // as it is made, before any frame reaches it.
      // A tournament table's hands carry the level at their start.
      link.on('model', (model) => model.feed(this.tracker, (id) => this.tournaments.levelOf(id))),
      this.cashier.attach(link),
      this.tournaments.attach(link),
      link.on('state', (s) => this.setStatus({ ...s })),
      link.on('authed', () => {
        this.relaunchAttempt = 0;
        this.schedule('session');
        void this.refreshLobby().then(() => this.syncHistory(link, url));
      }),
      link.on('session', ({ token: t }) => {
        if (op.mode === 'custom') this.o.vault.save(t);
        // Embedded: kept in memory only (tokens stay in main); the guest's is named by `undefined`,
        // as each launch gives the guest a token of its own.
        else this.embeddedToken = t !== null && t === this.embedded?.guest.token ? undefined : t;
      }),
      link.on('signed-out', () => {
        if (op.mode === 'custom') this.o.vault.save(null);
        this.schedule('session');
      }),
      link.on('lobby', (tables) => {
        this.lobbyTables.clear();
        for (const t of tables) this.lobbyTables.set(t.tableId, t);
        this.schedule('lobby');
      }),
      link.on('conditions', (c) => {
        this.conditions = c;
      }),
      link.on('lobby.table', (t) => {
        this.lobbyTables.set(t.tableId, t);
        this.schedule('lobby');
      }),
      link.on('table', ({ tableId, model, change }) => this.tableChanged(tableId, model, change)),
    ];
    const connected = link.connect();
    // The new link exists and is connecting: account calls held by a switch go to it now (they wait
    // there until it is connected, or are refused with why when it goes offline).
    this.switching.linkMade();
    try {
      await connected;
    } catch (e) {
      this.log(`connect: ${(e as Error).message}`);
    }
  }

  /** The link for an account call (login, register, logout): during an operator switch, the new one (switch.ts). */
  private async accountLink(): Promise<OperatorLink | null> {
    await this.switching.settled();
    return this.link;
  }

  /** Closes the link and the embedded operator (its tables cash out, R-CASH) and the history. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pace.close();
    await this.disconnect();
    await this.syncing;
    await this.jobs.close();
    await this.reader.close();
    this.history.close();
  }

  /**
   * The embedded operator is gone: the status says so with the time of the next try, then it is started again
   * and the link rebuilt; tries back off to 10 s apart.
   */
  private relaunchLater(reason: string): void {
    if (this.closed || this.relaunchTimer !== null) return;
    // Until the operator started again has its link, an account call waits for that link, as during a
    // switch (switch.ts), instead of being refused OFFLINE while the player sees "reconnecting". One
    // ticket across the tries; it ends with the new link (connect: linkMade), or when the relaunch
    // is given up (the settings changed, a reconnect, quit: disconnect).
    if (this.relaunchTicket === null || this.relaunchTicket.ended) this.relaunchTicket = this.switching.begin();
    this.switching.arm(this.relaunchTicket);
    for (const u of this.unsubscribers.splice(0)) u();
    const link = this.link;
    this.link = null;
    void link?.close();
    const delay = Math.min(10_000, 500 * 2 ** this.relaunchAttempt);
    this.relaunchAttempt++;
    this.setStatus({ state: 'reconnecting', attempt: this.relaunchAttempt, retryInMs: delay, why: 'embedded-stopped', reason: reason.slice(0, 2000), minVersion: null });
    this.relaunchTimer = setTimeout(() => {
      this.relaunchTimer = null;
      if (this.closed) return;
      void this.start().then(() => {
        if (this.status.state === 'offline' && this.o.settings().operator.mode === 'embedded') this.relaunchLater(this.status.reason ?? reason);
        else this.endRelaunch();
      });
    }, delay);
    this.relaunchTimer.unref?.();
  }

  /** The relaunch's part in the switch is over: held account calls go on (to the new link, or refused with why). */
  private endRelaunch(): void {
    if (this.relaunchTicket !== null) this.switching.end(this.relaunchTicket);
    this.relaunchTicket = null;
  }

  private async disconnect(): Promise<void> {
    if (this.relaunchTimer !== null) clearTimeout(this.relaunchTimer);
    this.relaunchTimer = null;
    this.endRelaunch();
    for (const u of this.unsubscribers.splice(0)) u();
    const link = this.link;
    this.link = null;
    await link?.close();
    // A launch under way is waited for: a quit during the start leaves no operator running behind us.
    const embedded = this.embedded ?? (await this.launching?.catch(() => null)) ?? null;
    this.embedded = null;
    await embedded?.stop();
  }

  // -------------------------------------------------------------------------------------------
  // What the pages see

  session(): SessionInfo {
    const op = this.o.settings().operator;
    const link = this.link;
    return {
      link: this.status,
      operator: { mode: op.mode, url: op.mode === 'embedded' ? (this.embedded?.url ?? '') : op.url },
      account: link?.account ? { username: link.account.username, guest: link.account.guest } : null,
      balances: link?.balances ? { ...link.balances } : null,
    };
  }

  lobby(): TableInfo[] {
    return [...this.lobbyTables.values()];
  }

  /** The operator's conditions of play, as served with its lobby (R-RULES); null before the lobby came. */
  playConditions(): PlayConditions | null {
    return this.conditions;
  }

  tables(): TableState[] {
    const list: TableState[] = [];
    for (const m of this.link?.tables() ?? []) list.push(this.tableState(m.tableId, m));
    return list;
  }

  trackerView(): TrackerView {
    const s = this.tracker.session();
    const today = this.tracker.today();
    return {
      session: {
        since: s.since,
        real: s.real,
        play: s.play,
        groups: s.groups,
      },
      today: today.ok ? { from: today.from, to: today.to, real: today.real, play: today.play, groups: today.groups } : null,
    };
  }

  results(a: CallArgs<'results'>): CallResult<'results'> {
    const r: PeriodView = this.tracker.period(a.from, a.to, a.groupBy);
    if (!r.ok) return { ok: false, reason: r.reason.slice(0, 2000) };
    return { ok: true, from: r.from, to: r.to, real: r.real, play: r.play, groups: r.groups };
  }

  // -------------------------------------------------------------------------------------------
  // The local history (R-HISTORY) and results (R-RESULTS)

  async historyPage(a: CallArgs<'historyPage'>): Promise<CallResult<'historyPage'>> {
    const r = await this.reader.call('page', a.filter, { sort: a.sort, dir: a.dir, limit: a.limit, cursor: a.cursor });
    return r.ok ? { ok: true, hands: r.hands, next: r.next } : { ok: false, reason: r.reason.slice(0, 2000), hands: [], next: null };
  }

  async historyHand(a: CallArgs<'historyHand'>): Promise<CallResult<'historyHand'>> {
    const r = await this.reader.call('hand', a.handId);
    return r.ok ? { ok: true, summary: r.summary, record: r.record } : { ok: false, reason: r.reason.slice(0, 2000) };
  }

  historyRemoveOlder(a: CallArgs<'historyRemoveOlder'>): CallResult<'historyRemoveOlder'> {
    if (this.jobs.gate.writing) return { ok: false, reason: 'an import is running: remove hands when it has ended' };
    const r = this.history.removeOlderThan(a.before);
    if (r.ok) this.schedule('tracker');
    if (r.ok) void this.reader.call('forget').catch(() => undefined); // names only the removed hands used
    return r.ok ? { ok: true, removed: r.removed } : { ok: false, reason: r.reason.slice(0, 2000) };
  }

  // -------------------------------------------------------------------------------------------
  // History exchange jobs and the operator sync (history/jobs.ts, history/sync.ts)

  historyExport(a: CallArgs<'historyExport'>): CallResult<'historyExport'> {
    const r = this.jobs.exportHands(a.filter, a.format, a.handId);
    return r.ok ? { ok: true, jobId: r.jobId, file: r.file } : { ok: false, reason: r.reason };
  }

  historyImportBegin(): CallResult<'historyImportBegin'> {
    const r = this.jobs.uploadBegin();
    return r.ok ? { ok: true, uploadId: r.uploadId, chunkChars: r.chunkChars } : { ok: false, reason: r.reason };
  }

  historyImportChunk(a: CallArgs<'historyImportChunk'>): CallResult<'historyImportChunk'> {
    const r = this.jobs.uploadChunk(a.uploadId, a.index, a.text);
    return r.ok ? { ok: true, received: r.received } : { ok: false, reason: r.reason };
  }

  historyImportStart(a: CallArgs<'historyImportStart'>): CallResult<'historyImportStart'> {
    const r = this.jobs.importUpload(a.uploadId, a.format);
    return r.ok ? { ok: true, jobId: r.jobId } : { ok: false, reason: r.reason };
  }

  historyJobCancel(a: CallArgs<'historyJobCancel'>): CallResult<'historyJobCancel'> {
    const r = this.jobs.cancel(a.jobId);
    return r.ok ? { ok: true } : { ok: false, reason: r.reason };
  }

  historyJobs(): CallResult<'historyJobs'> {
    return [...this.jobs.list(), ...this.syncViews].sort((x, y) => y.startedAt - x.startedAt).slice(0, 100).map(({ startedAt: _, ...v }) => v);
  }

  /** Hands of this account missing here, from the operator's history (R-HISTORY; history/sync.ts). One at a time. */
  syncHistory(link: OperatorLink, operator: string): Promise<void> {
    if (this.syncing) return this.syncing;
    const account = link.account;
    if (this.closed || this.link !== link || !account) return Promise.resolve();
    const view: HistoryJobView & { startedAt: number } = { ...runningJob(`sync-${this.now().toString(36)}`, 'sync'), startedAt: this.now() };
    this.syncViews.unshift(view);
    this.syncViews.length = Math.min(this.syncViews.length, 10);
    const publish = (): void => {
      const { startedAt: _, ...v } = view;
      this.o.broadcast('historyJob', v);
    };
    publish();
    this.syncing = syncHistory({
      source: link,
      username: account.username,
      guest: account.guest,
      operator,
      add: (meta, record) => this.jobs.gate.addHand(meta, record),
      moneyOf: (tableId) => this.lobbyTables.get(tableId)?.money ?? null,
      marksFile: join(this.o.dataDir, SYNC_FILE),
      stopped: () => this.closed || this.link !== link,
      tournaments: { source: link.tournaments, put: tournamentRecords(this.history).syncTournament },
    })
      .then((r) => {
        Object.assign(view, { state: r.ok ? 'done' : 'failed', done: r.fetched, total: r.fetched, stored: r.stored, duplicates: r.duplicates, skipped: r.skipped, message: r.reason?.slice(0, 2000) ?? null });
        if (r.stored > 0) this.schedule('tracker');
        if (r.stored > 0) this.log(`history: ${r.stored} hand(s) fetched from the operator`);
      })
      .catch((e: unknown) => {
        Object.assign(view, { state: 'failed', message: (e instanceof Error ? e.message : String(e)).slice(0, 2000) });
      })
      .finally(() => {
        this.syncing = null;
        if (!this.closed) publish();
      });
    return this.syncing;
  }

  resultsSeries(a: CallArgs<'resultsSeries'>): Promise<CallResult<'resultsSeries'>> {
    return this.reader.call('series', a.filter, a.maxPoints);
  }

  resultsSessions(a: CallArgs<'resultsSessions'>): Promise<CallResult<'resultsSessions'>> {
    return this.reader.call('sessions', a.filter, a.gapMinutes);
  }

  playerStats(a: CallArgs<'playerStats'>): Promise<CallResult<'playerStats'>> {
    return this.reader.call('stats', a.filter);
  }

  private tableState(tableId: string, model: TableModel | undefined): TableState {
    const extra = this.extras.get(tableId);
    return {
      tableId,
      status: model?.status ?? 'gone',
      view: model?.view ?? null,
      seq: model?.seq ?? null,
      lastHand: extra?.lastHand ?? null,
      // The one owner of "pending" is the link's outbox.
      pending: (model && this.link?.pendingFor(tableId)) ?? null,
      error: extra?.error ?? null,
      cashedOut: extra?.cashedOut ?? null,
      tournamentId: model?.tournamentId ?? extra?.tournamentId ?? null,
      watching: this.link?.isWatching(tableId) ?? false,
    };
  }

  private extra(tableId: string): Pick<TableState, 'lastHand' | 'error' | 'cashedOut' | 'tournamentId'> {
    let e = this.extras.get(tableId);
    if (!e) this.extras.set(tableId, (e = { lastHand: null, error: null, cashedOut: null, tournamentId: null }));
    return e;
  }

  private tableChanged(tableId: string, model: TableModel, change: Parameters<Parameters<TableModel['onChange']>[0]>[0]): void {
    if (change.type === 'event') {
      const ev = change.event;
      if (ev.type === 'handEnd' && ev.record.handId) {
        this.extra(tableId).lastHand = { handId: ev.record.handId, endedAt: this.now(), record: ev.record };
      } else if (ev.type === 'handStart') {
        this.extra(tableId).error = null;
      }
      if (ev.type === 'handEnd' || ev.type === 'you') this.schedule('session-balance');
    } else if (change.type === 'gone') {
      const e = this.extra(tableId);
      e.cashedOut = change.cashedOut;
      e.tournamentId = model.tournamentId; // a tournament's table ends without a cash-out
      // A gone table is shown once more (the cash-out), then forgotten. Its last view goes with it:
      // the changes marked since the last push (the hand's end, the cards shown, the pot won) are
      // forgotten below, so a tournament tile kept after a bust showed the hand stopped at our
      // all-in, the opponent's cards hidden and no board (seen in the finish flow's screenshot).
      const state = { ...this.tableState(tableId, model), status: 'gone' as const, pending: null };
      this.o.broadcast('table', state);
      this.extras.delete(tableId);
      this.pace.forget(tableId);
      this.schedule('session-balance');
      return;
    }
    this.pace.mark(tableId);
  }

  /** The table changed (pushed with the others changed within this frame). */
  private markTable(tableId: string): void {
    this.pace.mark(tableId);
  }

  private schedule(what: 'tracker' | 'session' | 'lobby' | 'session-balance'): void {
    if (what === 'tracker') this.pushTracker = true;
    else if (what === 'lobby') this.pushLobby = true;
    else if (what === 'session') this.pushSession = true;
    else void this.refreshBalance();
    this.pace.schedule();
  }

  private flush(tableIds: Iterable<string>): void {
    if (this.closed) return;
    const link = this.link;
    for (const id of tableIds) {
      const model = link?.table(id);
      if (model) this.o.broadcast('table', this.tableState(id, model));
    }
    if (this.pushSession) this.o.broadcast('session', this.session());
    if (this.pushLobby) this.o.broadcast('lobby', this.lobby());
    if (this.pushTracker) this.o.broadcast('tracker', this.trackerView());
    this.pushSession = this.pushLobby = this.pushTracker = false;
  }

  private setStatus(s: LinkStatusView): void {
    this.status = { state: s.state, attempt: s.attempt, retryInMs: s.retryInMs, why: s.why, reason: s.reason?.slice(0, 2000) ?? null, minVersion: s.minVersion };
    this.schedule('session');
  }

  private balanceInFlight = false;
  private balanceAgain = false;

  /** Balances move on the operator side (buy-in, cash-out): read them again, one request at a time. */
  private async refreshBalance(): Promise<void> {
    const link = this.link;
    if (!link || link.state !== 'connected') return;
    if (this.balanceInFlight) {
      this.balanceAgain = true;
      return;
    }
    this.balanceInFlight = true;
    try {
      do {
        this.balanceAgain = false;
        const r = await link.balance();
        if (r.ok) {
          link.balances = r.balances;
          this.schedule('session');
        }
      } while (this.balanceAgain && this.link === link);
    } finally {
      this.balanceInFlight = false;
    }
  }

  private async refreshLobby(): Promise<void> {
    const link = this.link;
    if (!link) return;
    const r = await link.lobby();
    if (!r.ok) return;
    this.conditions = r.conditions;
    this.lobbyTables.clear();
    for (const t of r.tables) this.lobbyTables.set(t.tableId, t);
    this.schedule('lobby');
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  async login(a: CallArgs<'login'>): Promise<Outcome> {
    const link = await this.accountLink();
    if (!link) return notConnected();
    const r = a.register ? await link.register(a.username, a.password, a.identity) : await link.login(a.username, a.password);
    if (!r.ok) return refusal(r);
    this.schedule('session');
    return { ok: true };
  }

  /** A nickname instead of "guest-…"; the operator checks it and refuses it while seated. */
  async rename(a: CallArgs<'rename'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    // R-HISTORY: the operator's hands name us by the old name and history/sync.ts finds our seat by
    // name, so every hand played under it is fetched before the name changes (no seat, no new hands
    // meanwhile: the operator refuses a rename while seated).
    if (link.account) await this.syncHistory(link, this.session().operator.url);
    const r = await link.rename(a.username);
    if (!r.ok) return refusal(r);
    this.schedule('session');
    return { ok: true };
  }

  async logout(): Promise<Outcome> {
    const link = await this.accountLink();
    if (!link) return notConnected();
    const r = await link.logout();
    this.o.vault.save(null);
    this.schedule('session');
    return r.ok ? { ok: true } : refusal(r);
  }

  /** Reconnects now with the current settings (a changed operator, or after giving up). */
  async reconnect(): Promise<Outcome> {
    // Synchronously, before anything awaits: a login made right after the settings changed waits for the new link.
    const ticket = this.switching.begin();
    try {
      await this.starting;
      await this.disconnect();
      this.lobbyTables.clear();
      this.schedule('lobby');
      this.switching.arm(ticket);
      await this.start();
    } finally {
      this.switching.end(ticket); // no new link (offline, closed): the held calls say so
    }
    return this.status.state === 'offline' ? { ok: false, code: 'OFFLINE', message: this.status.reason ?? 'offline' } : { ok: true };
  }

  async join(a: CallArgs<'join'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    const r = await link.join(a.tableId, a.buyIn, { waitForBigBlind: a.waitForBigBlind, rulesVersion: a.rulesVersion });
    void this.refreshBalance();
    if (!r.ok) return refusal(r);
    this.markTable(a.tableId);
    return { ok: true };
  }

  async leave(a: CallArgs<'leave'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    const r = await link.leave(a.tableId);
    void this.refreshBalance();
    if (!r.ok) return refusal(r);
    return r.cashedOut === null ? { ok: true } : { ok: true, cashedOut: r.cashedOut };
  }

  async topUp(a: CallArgs<'topUp'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    const r = await link.topUp(a.tableId, a.amount);
    void this.refreshBalance();
    return r.ok ? { ok: true } : refusal(r);
  }

  async sitOut(a: CallArgs<'sitOut'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    const r = a.out ? await link.sitOut(a.tableId) : await link.sitIn(a.tableId, a.waitForBigBlind);
    return r.ok ? { ok: true } : refusal(r);
  }

  /** Sends a decision once by its id; the pages see it as pending until the operator answers. */
  async act(a: CallArgs<'act'>): Promise<Outcome> {
    const link = this.link;
    if (!link) return notConnected();
    const e = this.extra(a.tableId);
    e.error = null;
    const answer = link.act(a.tableId, a.move, { actionId: a.actionId });
    this.markTable(a.tableId); // shows it pending: the outbox holds it now
    const r = await answer;
    if (!r.ok) e.error = tableRefusal(r); // every detail, to the screen
    this.markTable(a.tableId);
    return r.ok ? { ok: true } : refusal(r);
  }
}
