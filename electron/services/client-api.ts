import type { AppInfo, Handlers } from '../../shared/api';
import type { ClientCore } from './client';
import type { SettingsStore } from './settings';
import { unsupportedUpdateService, updateHandlers, type UpdateControl } from './updater';

/** Pages the client may open in the system browser: help for problem gambling, and the regulator. */
export const EXTERNAL_ALLOW_LIST: readonly string[] = ['www.joueurs-info-service.fr', 'anj.fr', 'www.anj.fr'];

/** True only for `https:` URLs on an allow-listed host, with no credentials and the default port. */
export function isAllowedExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.port === '' && EXTERNAL_ALLOW_LIST.includes(url.hostname);
}

export interface ClientServices {
  info: AppInfo;
  settings: SettingsStore;
  core: ClientCore;
  /** The updater: electron-updater in Electron; absent (unsupported) under the browser host. */
  updates?: UpdateControl;
  /** Opens a URL in the system browser; given only allow-listed URLs. */
  openExternal: (url: string) => Promise<void>;
  /** Shows a table in its own window (Electron); absent: the page opens a tab itself. */
  popOut?: (tableId: string) => boolean;
}

/** The one implementation of the client API; Electron IPC and the browser host both dispatch here. */
export function createHandlers(s: ClientServices): Handlers {
  const core = s.core;
  return {
    appInfo: async () => s.info,
    getSettings: async () => s.settings.get(),
    updateSettings: async (patch) => {
      const before = JSON.stringify(s.settings.get().operator);
      const next = s.settings.update(patch);
      // Another operator: the link follows the settings at once (tables on the old one keep their
      // seats there until its grace period ends, as after a dropped connection).
      if (JSON.stringify(next.operator) !== before) void core.reconnect();
      return next;
    },
    openExternal: async ({ url }) => {
      if (!isAllowedExternalUrl(url)) return { opened: false };
      await s.openExternal(url);
      return { opened: true };
    },
    session: async () => core.session(),
    login: (a) => core.login(a),
    logout: () => core.logout(),
    rename: (a) => core.rename(a),
    reconnect: () => core.reconnect(),
    lobby: async () => core.lobby(),
    conditions: async () => core.playConditions(),
    join: (a) => core.join(a),
    leave: (a) => core.leave(a),
    topUp: (a) => core.topUp(a),
    sitOut: (a) => core.sitOut(a),
    act: (a) => core.act(a),
    tables: async () => core.tables(),
    tracker: async () => core.trackerView(),
    results: async (a) => core.results(a),
    popOut: async ({ tableId }) => ({ opened: s.popOut?.(tableId) ?? false }),
    historyPage: async (a) => core.historyPage(a),
    historyHand: async (a) => core.historyHand(a),
    historyRemoveOlder: async (a) => core.historyRemoveOlder(a),
    resultsSeries: async (a) => core.resultsSeries(a),
    resultsSessions: async (a) => core.resultsSessions(a),
    playerStats: async (a) => core.playerStats(a),
    // The stored tournaments and their results, read by the history's reader worker.
    tournamentHistory: (a) => core.reader.call('tournaments', a),
    tournamentResults: (a) => core.reader.call('tournamentResults', a),
    // History exchange jobs: import and export off the main thread, progress as `historyJob` events.
    historyExport: async (a) => core.historyExport(a),
    historyImportBegin: async () => core.historyImportBegin(),
    historyImportChunk: async (a) => core.historyImportChunk(a),
    historyImportStart: async (a) => core.historyImportStart(a),
    historyJobCancel: async (a) => core.historyJobCancel(a),
    historyJobs: async () => core.historyJobs(),
    // The cashier and the protection duties (client/cashier.ts).
    cashierDeposit: (a) => core.cashier.deposit(a),
    cashierWithdraw: (a) => core.cashier.withdraw(a),
    cashierMovements: (a) => core.cashier.movements(a),
    protectionGet: () => core.cashier.get(),
    protectionSetLimit: (a) => core.cashier.setLimit(a),
    protectionExclude: (a) => core.cashier.exclude(a),
    accountClose: () => core.cashier.close(),
    // Tournaments (client/tournaments.ts).
    tournaments: () => core.tournaments.list(),
    tournamentDetails: (a) => core.tournaments.details(a),
    tournamentRegister: (a) => core.tournaments.register(a),
    tournamentUnregister: (a) => core.tournaments.unregister(a),
    tournamentRebuy: (a) => core.tournaments.rebuy(a),
    tournamentAddOn: (a) => core.tournaments.addOn(a),
    watchTable: (a) => core.tournaments.watchTable(a),
    myTournaments: async () => core.tournaments.mine(),
    ...updateHandlers(s.updates ?? unsupportedUpdateService()),
  };
}
