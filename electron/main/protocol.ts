import { protocol } from 'electron';
import { readStaticFile } from '../services/static-files';
import { SECURITY_HEADERS } from '../services/content-policy';

/** The renderer is served from `app://cercle/`, never `file://` (Electron's checklist item 18). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://cercle`;

/** Must run before `app.ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Serves the built renderer folder under `app://cercle/`, with the CSP and hardening headers. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'cercle' || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const file = await readStaticFile(rendererDir, url.pathname);
    return new Response(new Uint8Array(file.body), {
      status: file.status,
      headers: { 'Content-Type': file.contentType, ...SECURITY_HEADERS },
    });
  });
}
