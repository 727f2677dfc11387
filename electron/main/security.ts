import { app, type Session, shell, type WebContents } from 'electron';
import { isAllowedExternalUrl } from '../services/client-api';

/**
 * Electron's security checklist, applied to every web contents the app creates
 * (https://www.electronjs.org/docs/latest/tutorial/security): no navigation away from the app, no new
 * windows from page script, no <webview>, every permission denied.
 */
export function hardenApp(isAppUrl: (url: string) => boolean): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, isAppUrl));
}

function hardenContents(contents: WebContents, isAppUrl: (url: string) => boolean): void {
  // Checklist 13: navigation only inside the app.
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  // Checklist 14: page script never opens windows; allow-listed help pages go to the system browser.
  // Table pop-outs are opened by main through the client API, not by window.open.
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // Checklist 12: no <webview>.
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Checklist 5: deny every permission request and check (camera, notifications, geolocation...). */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
