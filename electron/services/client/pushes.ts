/**
 * What main pushes to the pages besides the cashier's and the tournaments' events, and when (DESIGN.md
 * §5): each followed table's state gathered over one display frame (pace.ts), and the session, the
 * lobby and the tracker's view at the end of the turn in which they changed. The services say what
 * changed (`schedule`, `markTable`); each gives what its topic pushes (`provide`, `provideTables`).
 */
import { TablePace } from './pace';

export type PushTopic = 'session' | 'lobby' | 'tracker';

export class ClientPushes {
  private readonly pace = new TablePace({ flush: (ids) => this.flush(ids) });
  private readonly due = new Set<PushTopic>();
  private readonly topics = new Map<PushTopic, () => void>();
  private tables: (tableIds: Iterable<string>) => void = () => undefined;
  private closed = false;

  /** The push of a topic (the pages get the topic's view once per turn, however often it changed). */
  provide(topic: PushTopic, push: () => void): void {
    this.topics.set(topic, push);
  }

  /** The push of the tables changed within the frame. */
  provideTables(push: (tableIds: Iterable<string>) => void): void {
    this.tables = push;
  }

  /** The topic changed: pushed at the end of this turn, with the tables changed. */
  schedule(topic: PushTopic): void {
    this.due.add(topic);
    this.pace.schedule();
  }

  /** Something moved that the pages will want soon (a balance read again): the tables changed go now. */
  soon(): void {
    this.pace.schedule();
  }

  /** The table changed: pushed with the others changed within this frame. */
  markTable(tableId: string): void {
    this.pace.mark(tableId);
  }

  /** A gone table: its last state was pushed on the spot, nothing more is. */
  forgetTable(tableId: string): void {
    this.pace.forget(tableId);
  }

  close(): void {
    this.closed = true;
    this.pace.close();
  }

  private flush(tableIds: Iterable<string>): void {
    if (this.closed) return;
    this.tables(tableIds);
    // The order the pages have always had them in: the tables, then the session, the lobby, the tracker.
    for (const topic of ['session', 'lobby', 'tracker'] as const) if (this.due.has(topic)) this.topics.get(topic)?.();
    this.due.clear();
  }
}
