/**
 * How the renderer reaches main: `window.cercle` from the Electron preload, or, under the browser host,
 * the same contract over the host's loopback WebSocket (DESIGN.md §3). The rest of the renderer only
 * sees `CercleApi` and never knows which one it got.
 */
import { CALL_NAMES, type CercleApi, type EventName, isEventName } from '../../shared/api';

const TOKEN_KEY = 'cercle.hostToken';

/**
 * The page's own link to main. In Electron main is always there; under the browser
 * host the host process may stop: the status bar then says so with the time of the next try, calls
 * fail at once with code HOST_DOWN (what cannot be sent says so), and when the host is back the page
 * reads everything again (`onHostBack`).
 */
export interface HostLinkState {
  up: boolean;
  /** When the next try starts (ms since the epoch), while down. */
  retryAt: number | null;
  attempt: number;
}
let hostState: HostLinkState = { up: true, retryAt: null, attempt: 0 };
const hostListeners = new Set<(s: HostLinkState) => void>();
const backListeners = new Set<() => void>();

export function onHostLink(listener: (s: HostLinkState) => void): () => void {
  hostListeners.add(listener);
  listener(hostState);
  return () => hostListeners.delete(listener);
}

/** Called after the page reconnected to a host that had gone: events were missed, read again. */
export function onHostBack(listener: () => void): () => void {
  backListeners.add(listener);
  return () => backListeners.delete(listener);
}

function setHostState(s: HostLinkState): void {
  hostState = s;
  for (const l of hostListeners) l(s);
}

/** The error of a call made while the host is down. */
export class HostDown extends Error {
  readonly code = 'HOST_DOWN';
}

export async function connectApi(): Promise<CercleApi> {
  if (window.cercle) return window.cercle;
  return connectBrowserHost();
}

/** Thrown when the page was opened without the browser host's token. */
export class HostTokenMissing extends Error {}

async function connectBrowserHost(): Promise<CercleApi> {
  // The host prints `/?token=...`; keep it for this tab (and tabs it opens) and drop it from the address bar.
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) throw new HostTokenMissing('no browser host token');

  const socketUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let nextId = 1;
  let socket = await open(socketUrl);

  function attach(ws: WebSocket): void {
    ws.onmessage = (m) => {
      let msg: { id?: number | null; event?: unknown; payload?: unknown; ok?: boolean; value?: unknown; error?: { code?: string; message?: string } };
      try {
        msg = JSON.parse(String(m.data));
      } catch {
        return;
      }
      if (typeof msg.id === 'number') {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.value);
        else p.reject(Object.assign(new Error(msg.error?.message ?? 'error'), { code: msg.error?.code }));
      } else if (isEventName(msg.event)) {
        // Not validated again: the host is main, trusted; what it pushes was validated where it entered
        // (the wire, calls, files: DESIGN.md §3), as under Electron's preload.
        for (const l of listeners.get(msg.event) ?? []) l(msg.payload);
      }
    };
    ws.onclose = () => {
      for (const p of pending.values()) p.reject(new HostDown('connection to the Cercle host closed'));
      pending.clear();
      void reconnect();
    };
  }

  async function reconnect(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const delay = Math.min(5000, 250 * 2 ** attempt);
      setHostState({ up: false, retryAt: Date.now() + delay, attempt: attempt + 1 });
      await new Promise((r) => setTimeout(r, delay));
      try {
        socket = await open(socketUrl);
        attach(socket);
        setHostState({ up: true, retryAt: null, attempt: 0 });
        for (const l of backListeners) l();
        return;
      } catch {
        // the host may be restarting (same address: electron/web/address.ts): keep trying with backoff
      }
    }
  }

  attach(socket);
  const api: Record<string, unknown> = {
    on(name: EventName, listener: (p: unknown) => void) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  for (const name of CALL_NAMES) {
    api[name] = (args: unknown) =>
      new Promise((resolve, reject) => {
        if (socket.readyState !== WebSocket.OPEN) {
          reject(new HostDown('not connected to the Cercle host'));
          return;
        }
        const id = nextId++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, call: name, args: args ?? {} }));
      });
  }
  return api as CercleApi;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error('cannot reach the Cercle host'));
  });
}
