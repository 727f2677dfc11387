// protocol (electronjs.org/docs/latest/api/protocol)
import { app } from './app';

type ProtocolHandler = (request: Request) => Response | Promise<Response>;
export interface Privileged {
  scheme: string;
  privileges?: { standard?: boolean; secure?: boolean; supportFetchAPI?: boolean; codeCache?: boolean; bypassCSP?: boolean; corsEnabled?: boolean; stream?: boolean; allowServiceWorkers?: boolean };
}

export const privileged: Privileged[] = [];
const handlers = new Map<string, ProtocolHandler>();

export const protocol = {
  // electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes: "Note: This
  // method can only be used before the ready event of the app module gets emitted and can be called only once."
  registerSchemesAsPrivileged(schemes: Privileged[]): void {
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged can only be used before the ready event');
    if (privileged.length > 0) throw new Error('protocol.registerSchemesAsPrivileged can be called only once');
    privileged.push(...schemes.map((s) => structuredClone(s)));
  },
  // electronjs.org/docs/latest/api/protocol#protocolhandlescheme-handler: "Register a protocol handler for
  // scheme. Requests made to URLs with this scheme will delegate to this handler to determine what
  // response should be sent. Either a Response or a Promise<Response> can be returned."
  // electronjs.org/docs/latest/api/protocol (Methods): "All methods unless specified can only be used after
  // the ready event of the app module gets emitted." fake: before ready throws.
  handle(scheme: string, handler: ProtocolHandler): void {
    if (!app.isReady()) throw new Error('protocol.handle can only be used after the ready event');
    if (handlers.has(scheme)) throw new Error(`protocol.handle: ${scheme} is already handled`);
    handlers.set(scheme, handler);
  },
  isProtocolHandled(scheme: string): boolean {
    return handlers.has(scheme);
  },
};

/**
 * Chromium's parsing of a URL of a scheme registered `standard: true`
 * (electronjs.org/docs/latest/api/protocol#protocolregisterschemesasprivilegedcustomschemes: "A standard
 * scheme adheres to what RFC 3986 calls generic URI syntax. For example http and https are standard
 * schemes, while file is not."): parsed as http is (lower-case host, dot segments resolved), unlike
 * Node's URL for an unknown scheme. fake: what the handler receives and what a frame's URL is.
 */
export function canonical(url: string): string {
  const u = new URL(url);
  const scheme = u.protocol.slice(0, -1);
  if (!privileged.some((p) => p.scheme === scheme && p.privileges?.standard)) return u.href;
  const asHttp = new URL(`http:${url.slice(u.protocol.length)}`);
  return `${scheme}:${asHttp.href.slice('http:'.length)}`;
}

export async function fetchThroughProtocol(url: string, init?: RequestInit): Promise<Response> {
  const href = canonical(url);
  const scheme = new URL(href).protocol.slice(0, -1);
  const handler = handlers.get(scheme);
  if (handler) return handler(new Request(href, init));
  // fake: an http page (the development server) is fetched for real; the tests serve it on loopback only.
  if (scheme === 'http' && ['127.0.0.1', 'localhost'].includes(new URL(href).hostname)) return fetch(href, init);
  throw new Error(`net::ERR_UNKNOWN_URL_SCHEME ${href}`);
}
