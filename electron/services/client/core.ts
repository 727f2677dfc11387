/**
 * The client's game side, in main (DESIGN.md §1-§3): the services that own the operator session, the
 * lobby and tables, the local hand history, the results, the cashier and the tournaments, built and
 * wired together here; each implements its part of the client API's handlers (client-api.ts). Electron
 * main and the browser host both build one and differ only in how the embedded operator is started,
 * where the session token is kept and how events reach the pages.
 */
import type { Handlers } from '../../../shared/api';
import { Tracker } from '../history/tracker';
import type { OperatorLink } from '../link/link';
import { ClientCashier } from './cashier';
import { ClientHistory } from './history';
import type { ClientCoreOptions } from './options';
import { ClientPushes } from './pushes';
import { ClientResults } from './results';
import { ClientSession } from './session';
import { ClientTables } from './tables';
import { tournamentRecords } from './tournament-records';
import { ClientTournaments } from './tournaments';

export { memoryVault, type ClientCoreOptions, type TokenVault } from './options';

/** The calls the core's services answer (the app's own, such as settings and updates, are client-api.ts's). */
export type ServiceHandlers = Omit<Handlers, 'appInfo' | 'getSettings' | 'updateSettings' | 'openExternal' | 'popOut' | 'updateStatus' | 'checkForUpdates' | 'installUpdate'>;

export class ClientCore {
  /** The operator, the link to it, the account and balances (session.ts). */
  readonly session: ClientSession;
  /** The lobby and the followed tables (tables.ts). */
  readonly tables: ClientTables;
  /** The local hand history, its jobs and the operator sync (history.ts). */
  readonly history: ClientHistory;
  /** The tracker and the results' reads (results.ts). */
  readonly results: ClientResults;
  /** The cashier and protection calls (cashier.ts). */
  readonly cashier: ClientCashier;
  /** The tournament calls and the `tournament` event (tournaments.ts). */
  readonly tournaments: ClientTournaments;
  private readonly pushes = new ClientPushes();
  private closing: Promise<void> | null = null;

  constructor(o: ClientCoreOptions) {
    const now = o.now ?? Date.now;
    const log = o.log ?? ((line: string) => process.stderr.write(`[client] ${line}\n`));
    const link = (): OperatorLink | null => this.session.link;
    const balancesMoved = (): void => this.session.balancesMoved();
    const pushes = this.pushes;
    this.history = new ClientHistory({ core: o, now, log, link, closed: () => this.session.closed, stored: () => pushes.schedule('tracker'), moneyOf: (id) => this.tables.moneyOf(id) });
    // The tracker stores finished hands through the gate: held while an import writes (history/jobs.ts).
    const tracker = new Tracker(this.history.jobs.gate.storeView(), { now });
    this.tables = new ClientTables({ link, broadcast: o.broadcast, pushes, balancesMoved, now });
    this.cashier = new ClientCashier({ link, broadcast: o.broadcast, balancesMoved });
    const store = this.history.store;
    this.tournaments = new ClientTournaments({ link, broadcast: o.broadcast, tracker, putTournament: tournamentRecords(store).putTournament, storedTournament: (id) => store.tournament(id), balancesMoved, now, log });
    this.results = new ClientResults({ tracker, reader: this.history.reader, broadcast: o.broadcast, pushes, levelOf: (id) => this.tournaments.levelOf(id) });
    this.session = new ClientSession({
      core: o,
      pushes,
      now,
      log,
      // The tracker's feed first: each table model gets it before any frame reaches it.
      attach: (l) => [this.results.attach(l), this.cashier.attach(l), this.tournaments.attach(l), this.tables.attach(l)],
      authed: (l, url) => void this.tables.refreshLobby(l).then(() => this.history.sync(l, url)),
      syncHistory: (l, url) => this.history.sync(l, url),
      reconnecting: () => this.tables.clearLobby(),
    });
  }

  /** Connects to the operator the settings name (session.ts). Never throws: problems show in the session. */
  start(): Promise<void> {
    return this.session.start();
  }

  /** Closes the link and the embedded operator (its tables cash out, R-CASH), then the history. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.pushes.close();
      await this.session.close();
      await this.history.close();
    })());
  }

  /** Every call the services answer, each service its part. */
  handlers(): ServiceHandlers {
    return {
      ...this.session.handlers(),
      ...this.tables.handlers(),
      ...this.history.handlers(),
      ...this.results.handlers(),
      ...this.cashier.handlers(),
      ...this.tournaments.handlers(),
    };
  }
}
