/**
 * What is an URL of the app: the one place that reads the scheme, host and path of an
 * `app://cercle/...` URL, for the IPC sender check, the navigation guards and the protocol handler.
 *
 * Why not `new URL(url).origin`: main runs Node's WHATWG URL, whose origin of a non-special scheme such
 * as `app:` is the opaque `"null"` (url.spec.whatwg.org/#concept-url-origin), so a comparison with
 * `app://cercle` refused every call from our own window. Chromium treats `app` as a standard scheme
 * (registered privileged with `standard: true`), so the URLs Electron hands main (a frame's URL, a
 * navigation target, a protocol request) are canonical: lower-case host, no `..` left in the path. Here
 * they are compared field by field (protocol, host with no port, no credentials), and anything else is
 * refused: an upper-case host never comes from Chromium, so refusing it only fails closed.
 *
 * Pure: no `electron` import, unit-tested on the exact URLs the app produces (app-url.test.ts).
 */

/** The renderer is served from `app://cercle/`, never `file://` (Electron's checklist item 18). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'cercle';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page every window loads; a pop-out adds its route as the fragment. */
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Same protocol and host (port included), no user or password in `u`. */
function sameSite(u: URL, protocol: string, host: string): boolean {
  return u.protocol === protocol && u.host === host && u.username === '' && u.password === '';
}

/**
 * The path of an `app://cercle/...` URL (`/index.html`, `/assets/x.js`), or null when the URL is not
 * ours: another scheme or host, a port, credentials, or no host at all (`app:/x`, `app:///x`).
 * The path is the parsed one: dot segments (`..`, `%2e%2e`) are already resolved by the URL parser,
 * and what is still encoded is the static file reader's to refuse (static-files.ts).
 */
export function appUrlPath(url: string): string | null {
  const u = parse(url);
  if (!u || !sameSite(u, `${APP_SCHEME}:`, APP_HOST)) return null;
  return u.pathname === '' ? '/' : u.pathname;
}

/** True for a page of the app itself. */
export function isAppUrl(url: string): boolean {
  return appUrlPath(url) !== null;
}

/**
 * The check of "one of our pages": `app://cercle/...`, plus, in development only (the caller passes it
 * only when `!app.isPackaged`), pages of the Vite dev server, compared on protocol and host too.
 */
export function appUrlCheck(devServerUrl?: string): (url: string) => boolean {
  const dev = devServerUrl ? parse(devServerUrl) : null;
  if (!dev) return isAppUrl;
  return (url) => {
    if (isAppUrl(url)) return true;
    const u = parse(url);
    return u !== null && sameSite(u, dev.protocol, dev.host);
  };
}

/** The URL of a page of the app on a route of the renderer's hash router (`#/table/<id>`). */
export function appPageUrl(startUrl: string, route = ''): string {
  return route ? `${startUrl}#${route}` : startUrl;
}
