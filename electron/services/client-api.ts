import type { AppInfo, Handlers } from '../../shared/api';
import type { SettingsStore } from './settings';

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
  /** Opens a URL in the system browser; given only allow-listed URLs. */
  openExternal: (url: string) => Promise<void>;
}

/** The one implementation of the client API; Electron IPC and the browser host both dispatch here. */
export function createHandlers(s: ClientServices): Handlers {
  return {
    appInfo: async () => s.info,
    getSettings: async () => s.settings.get(),
    updateSettings: async (patch) => s.settings.update(patch),
    openExternal: async ({ url }) => {
      if (!isAllowedExternalUrl(url)) return { opened: false };
      await s.openExternal(url);
      return { opened: true };
    },
  };
}
