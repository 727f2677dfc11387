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

/**
 * The one implementation of the client API; Electron IPC and the browser host both dispatch here. The
 * app's own calls (its info, the settings, external links, pop-outs, updates) are answered here; the
 * rest by the core's services, each its part (client/core.ts).
 */
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
      if (JSON.stringify(next.operator) !== before) void core.session.reconnect();
      return next;
    },
    openExternal: async ({ url }) => {
      if (!isAllowedExternalUrl(url)) return { opened: false };
      await s.openExternal(url);
      return { opened: true };
    },
    popOut: async ({ tableId }) => ({ opened: s.popOut?.(tableId) ?? false }),
    ...core.handlers(),
    ...updateHandlers(s.updates ?? unsupportedUpdateService()),
  };
}
