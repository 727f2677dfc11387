import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { type ApiReply, dispatchCall, type EventName, type EventPayload, type Handlers } from '../../shared/api';

export const CALL_CHANNEL = 'cercle:call';
export const EVENT_CHANNEL = 'cercle:event';

/**
 * The Electron adapter of the client API. Checklist 17: every message's sender must be the main frame
 * of one of our windows showing our own origin; anything else is refused and nothing runs.
 */
export function serveIpc(handlers: Handlers, isTrustedOrigin: (url: string) => boolean): void {
  ipcMain.handle(CALL_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, args: unknown): Promise<ApiReply<unknown>> => {
    if (!isTrustedSender(event, isTrustedOrigin)) {
      return { ok: false, error: { code: 'FORBIDDEN', message: 'sender is not a Cercle window' } };
    }
    return dispatchCall(handlers, name, args);
  });
}

function isTrustedSender(event: IpcMainInvokeEvent, isTrustedOrigin: (url: string) => boolean): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false; // only top-level frames
  if (!BrowserWindow.fromWebContents(event.sender)) return false;
  return isTrustedOrigin(frame.url);
}

/** Pushes an event to every window. */
export function broadcast<K extends EventName>(name: K, payload: EventPayload<K>): void {
  for (const w of BrowserWindow.getAllWindows()) {
    if (!w.isDestroyed()) w.webContents.send(EVENT_CHANNEL, name, payload);
  }
}
