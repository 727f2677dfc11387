/**
 * When a table is pushed to the pages. Changes of a table are gathered over one
 * display frame (FRAME_MS) and pushed together: nothing faster can be drawn, and a table whose
 * practice players act every few ms would otherwise cost the page a message per action. That is
 * coalescing without urgency rules; the one throttle of table pushes — what is drawn when, by focus,
 * tile size and frame budget — is the page's (renderer/src/stores/tables.ts; DESIGN.md §5).
 */
export const FRAME_MS = 16;

export class TablePace {
  private readonly dirty = new Set<string>();
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly o: { flush: (tableIds: Iterable<string>) => void }) {}

  /** The table changed: pushed with the others changed within this frame. */
  mark(tableId: string): void {
    this.dirty.add(tableId);
    if (this.timer === null && !this.scheduled) this.timer = setTimeout(() => this.run(), FRAME_MS);
  }

  /** Something else waits (session, lobby, tracker): pushed at the end of this turn, with the tables changed. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  private run(): void {
    this.scheduled = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.o.flush(ids);
  }

  /** Forgets a table (gone). */
  forget(tableId: string): void {
    this.dirty.delete(tableId);
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
