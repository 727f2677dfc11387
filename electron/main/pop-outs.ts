/**
 * Tables in their own windows (SPEC "tables tiled or popped out"): a pop-out opens only
 * for a table the player is seated at, one window per table, and at most {@link MAX_POP_OUTS} at once
 * (DESIGN.md §5: 24 tables is the most the client is built and measured for). The page asks through the
 * client API, so a renderer (or anything able to call it) cannot open windows at will.
 *
 * No `electron` import: main hands in how a window is made, so the rule is tested as is.
 */

/** DESIGN.md §5: up to 24 tables at once. */
export const MAX_POP_OUTS = 24;

/** The part of a BrowserWindow this needs. */
export interface PopOutWindow {
  isDestroyed(): boolean;
  focus(): void;
  on(event: 'closed', listener: () => void): unknown;
}

export interface PopOutOptions<W extends PopOutWindow> {
  /** The player is seated at this table now (ClientCore's followed tables). */
  isSeated(tableId: string): boolean;
  /** Makes the window showing the table's route. */
  open(tableId: string): W;
  max?: number;
}

/** The `popOut` of the client API's services: true when the table's window is open (new or focused). */
export function popOuts<W extends PopOutWindow>(o: PopOutOptions<W>): (tableId: string) => boolean {
  const max = o.max ?? MAX_POP_OUTS;
  const open = new Map<string, W>();
  return (tableId) => {
    if (!o.isSeated(tableId)) return false;
    const shown = open.get(tableId);
    if (shown && !shown.isDestroyed()) {
      shown.focus();
      return true;
    }
    for (const [id, w] of open) if (w.isDestroyed()) open.delete(id);
    if (open.size >= max) return false;
    const w = o.open(tableId);
    open.set(tableId, w);
    w.on('closed', () => {
      if (open.get(tableId) === w) open.delete(tableId);
    });
    return true;
  };
}
