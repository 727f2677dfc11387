/**
 * The updater's share of the client API, and its pushes: the same for the Electron IPC adapter and the
 * browser host (DESIGN.md §3, one set of handlers), so main only plugs these in.
 */
import type { EventPayload, Handlers } from '../../../shared/api';
import type { UpdateControl } from './updater';

export type UpdateHandlers = Pick<Handlers, 'updateStatus' | 'checkForUpdates' | 'installUpdate'>;

/** The three update calls of the client API, answered by `updates`. */
export function updateHandlers(updates: UpdateControl): UpdateHandlers {
  return {
    updateStatus: async () => updates.status(),
    checkForUpdates: async () => updates.check(),
    installUpdate: async () => updates.install(),
  };
}

/**
 * Pushes every state change as the `update` event to all windows, then starts checking (now, and
 * periodically). Subscribing first means the renderer sees `checking` of the very first check.
 * Returns what undoes both.
 */
export function wireUpdates(updates: UpdateControl, push: (state: EventPayload<'update'>) => void): () => void {
  const unsubscribe = updates.onChange(push);
  updates.start();
  return () => {
    updates.stop();
    unsubscribe();
  };
}
