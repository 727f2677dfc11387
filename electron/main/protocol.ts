import { protocol } from 'electron';
import { readStaticFile } from '../services/static-files';
import { SECURITY_HEADERS } from '../services/content-policy';
import { APP_SCHEME, appUrlPath } from './app-url';

export { APP_ORIGIN, APP_SCHEME } from './app-url';

/** Must run before `app.ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/**
 * Serves the built renderer folder under `app://cercle/`, with the CSP and hardening headers. Another
 * host, credentials or a port (app-url.ts), or a method other than GET: 404, nothing read.
 */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const path = appUrlPath(request.url);
    if (path === null || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const file = await readStaticFile(rendererDir, path);
    return new Response(new Uint8Array(file.body), {
      status: file.status,
      headers: { 'Content-Type': file.contentType, ...SECURITY_HEADERS },
    });
  });
}
