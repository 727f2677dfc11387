/**
 * The lobby (R-INFO, R-RULES): every table with its variant, stakes, table rules, buy-in range and
 * seats taken. Subscribers get the whole list once, then one `lobby.table` frame for each table whose
 * seat count changes.
 */
import type { TableInfo } from '../../shared/protocol/messages';

export interface LobbySource {
  info(): TableInfo;
}

export class Lobby {
  private readonly tables: LobbySource[] = [];
  private readonly subscribers = new Set<(frame: string) => void>();

  add(table: LobbySource): void {
    this.tables.push(table);
  }

  list(): TableInfo[] {
    return this.tables.map((t) => t.info());
  }

  /** `sink` receives `lobby.table` frames from now on; returns the unsubscribe function. */
  subscribe(sink: (frame: string) => void): () => void {
    this.subscribers.add(sink);
    return () => this.subscribers.delete(sink);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** A table's seats changed. */
  changed(table: LobbySource): void {
    if (this.subscribers.size === 0) return;
    const frame = JSON.stringify({ type: 'lobby.table', table: table.info() });
    for (const s of this.subscribers) s(frame);
  }
}
