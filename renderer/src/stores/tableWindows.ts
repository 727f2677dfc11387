import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../useApi';
import { useTablesStore } from './tables';

/**
 * Where the tables are shown besides their tiles: popped out in their own window or tab, and the
 * panels beside the tiles (the lobby, the replayer of the last hand).
 */
export const useTableWindowsStore = defineStore('tableWindows', () => {
  const api = useApi();
  const tables = useTablesStore();
  /** Tables shown in their own window or tab: their tile gives way to a placeholder. */
  const poppedOut = ref<Set<string>>(new Set());
  /** The hand shown in the replayer beside the tables ("Dernière main" keeps them in sight). */
  const replaying = ref<string | null>(null);
  /** The lobby beside the tiles while the player sits somewhere. */
  const lobbyOpen = ref(false);

  tables.react({
    // A popped-out table moved by its tournament stays popped out as the new table (its window follows `current`).
    moved: (from, to) => {
      if (poppedOut.value.has(from)) poppedOut.value = new Set([...[...poppedOut.value].filter((id) => id !== from), to]);
    },
    // A tile closed is that table's only: after a move its window follows the new table (popped out as
    // `to`), so the old table's tile closing (a broken table gone) does not bring the new one back.
    closed: (tableId) => {
      if (!poppedOut.value.has(tableId)) return;
      const next = new Set(poppedOut.value);
      next.delete(tableId);
      poppedOut.value = next;
    },
  });

  /**
   * Its own window in Electron; a new tab under the browser host (the tab shares this tab's host token).
   * The tile gives way only when the table did open somewhere: Electron refuses a table the player does
   * not sit at and a 25th window, and its page may not open windows itself
   * (window.open then returns null), nor may a browser's pop-up blocker. Closing it brings the table
   * back into the tiles at once: the window says so on the `cercle-tables` channel
   * as it closes, and a browser tab that could not is seen closed by a check every half second.
   */
  async function popOut(tableId: string): Promise<boolean> {
    let opened = (await api.popOut({ tableId }).catch(() => ({ opened: false }))).opened;
    if (!opened) {
      const w = window.open(`#/table/${encodeURIComponent(tableId)}`, `cercle-table-${tableId}`);
      if (w !== null) {
        opened = true;
        const check = setInterval(() => {
          if (!w.closed) return;
          clearInterval(check);
          bringBack(tableId);
        }, 500);
      }
    }
    // The tournament may have moved the player while main was asked (T 6-8): the window follows to the
    // table the tile now shows, so that tile is the one that gives way.
    if (opened) poppedOut.value = new Set([...poppedOut.value, tables.current(tableId)]);
    return opened;
  }

  if (typeof BroadcastChannel !== 'undefined') {
    new BroadcastChannel('cercle-tables').onmessage = (e: MessageEvent<{ closed?: unknown }>) => {
      if (typeof e.data?.closed === 'string') bringBack(e.data.closed);
    };
  }

  function bringBack(tableId: string): void {
    const next = new Set(poppedOut.value);
    // A window closed after following a move says the old table: the tile of the table it came to returns.
    next.delete(tableId);
    next.delete(tables.current(tableId));
    poppedOut.value = next;
  }

  return { poppedOut, replaying, lobbyOpen, popOut, bringBack };
});
