/**
 * The preload: builds `window.cercle` from the client API contract. It exposes named functions only,
 * never `ipcRenderer` itself (Electron's checklist item 20), and passes on only the contract's event
 * names. Payloads pushed by main are not validated again here: main is trusted, and its data was
 * validated where it entered (the wire, renderer→main calls, files; DESIGN.md §3).
 * Runs sandboxed: its only import at run time is `electron`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { type ApiReply, CALL_NAMES, type EventName, isEventName } from '../../shared/api';

const CALL_CHANNEL = 'cercle:call';
const EVENT_CHANNEL = 'cercle:event';

type Listener = (payload: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();

ipcRenderer.on(EVENT_CHANNEL, (_event, name: unknown, payload: unknown) => {
  if (!isEventName(name)) return;
  for (const l of listeners.get(name) ?? []) l(payload);
});

const api: Record<string, unknown> = {
  on(name: unknown, listener: unknown): () => void {
    if (!isEventName(name) || typeof listener !== 'function') throw new TypeError('cercle.on: unknown event or listener');
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => set.delete(l);
  },
};
for (const name of CALL_NAMES) {
  api[name] = async (args: unknown) => {
    const reply = (await ipcRenderer.invoke(CALL_CHANNEL, name, args ?? {})) as ApiReply<unknown>;
    if (reply.ok) return reply.value;
    throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
  };
}

contextBridge.exposeInMainWorld('cercle', api);
