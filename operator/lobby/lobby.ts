/**
 * The lobby (R-INFO, R-RULES): every table with its variant, stakes, table rules, buy-in range and
 * seats taken. Subscribers get the whole list once, then one `lobby.table` frame for each table whose
 * seat count changes; with the list, the operator's conditions of play (R-RULES, D art. 8 II 2°), written
 * from the settings its tables run with (tables/conditions.ts).
 */
import { rulesVersion, type PlayConditions } from '../../shared/protocol/conditions';
import type { TableInfo } from '../../shared/protocol/messages';
import { playConditions } from '../tables/conditions';

export interface LobbySource {
  info(): TableInfo;
}

export class Lobby {
  private readonly tables: LobbySource[] = [];
  private readonly subscribers = new Set<(frame: string) => void>();

  /** `conditions`: the conditions of play of the tables (default: the tables' default settings). */
  constructor(readonly conditions: PlayConditions = playConditions()) {}

  /**
   * The version of `table`'s rules as the lobby shows them now (R-INFO): a join must
   * carry it, else the player confirmed rules that are no longer the table's.
   */
  rulesVersionOf(table: LobbySource): string {
    return rulesVersion(table.info(), this.conditions.version);
  }

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
