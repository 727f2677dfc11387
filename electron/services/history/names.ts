/**
 * The history's name dictionary (one dictionary instead of three lookups): player
 * names, table ids and hand-id prefixes are stored once each and referred to by small integers.
 * Both directions are cached; after a rolled-back transaction `forget()` drops the caches (they may
 * name rows that no longer exist).
 */
import type Database from 'better-sqlite3';
import { remember } from './model';

export type NameKind = 'player' | 'table' | 'prefix' | 'tournament';

const TABLES: Record<NameKind, { table: string; column: string }> = {
  player: { table: 'players', column: 'name' },
  table: { table: 'table_ids', column: 'name' },
  prefix: { table: 'hand_prefixes', column: 'prefix' },
  // Schema version 6: a tournament's row by the operator's id (a hand may come before its record, store.ts).
  tournament: { table: 'tournaments', column: 'tid' },
};

interface Kind {
  find: Database.Statement;
  add: Database.Statement | null;
  text: Database.Statement;
  ids: Map<string, number>;
  texts: Map<number, string>;
}

export class Names {
  private readonly kinds: Record<NameKind, Kind>;

  /** `readonly`: lookups only (the reader worker's connection). */
  constructor(db: Database.Database, readonly = false) {
    const kind = (k: NameKind): Kind => {
      const { table, column } = TABLES[k];
      return {
        find: db.prepare(`SELECT id FROM ${table} WHERE ${column} = ?`).pluck(),
        add: readonly ? null : db.prepare(`INSERT INTO ${table}(${column}) VALUES (?)`),
        text: db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).pluck(),
        ids: new Map(),
        texts: new Map(),
      };
    };
    this.kinds = { player: kind('player'), table: kind('table'), prefix: kind('prefix'), tournament: kind('tournament') };
  }

  /** The id of a name, or undefined when it was never stored. */
  find(kind: NameKind, name: string): number | undefined {
    const k = this.kinds[kind];
    let id = k.ids.get(name);
    if (id !== undefined) return id;
    id = k.find.get(name) as number | undefined;
    if (id !== undefined) remember(k.ids, name, id);
    return id;
  }

  /** The id of a name, stored now if new (inside the writer's transaction). */
  id(kind: NameKind, name: string): number {
    const found = this.find(kind, name);
    if (found !== undefined) return found;
    const k = this.kinds[kind];
    if (k.add === null) throw new Error('a read-only history cannot store names');
    const id = k.add.run(name).lastInsertRowid as number;
    remember(k.ids, name, id);
    return id;
  }

  /** The name of an id. */
  text(kind: NameKind, id: number): string | undefined {
    const k = this.kinds[kind];
    let name = k.texts.get(id);
    if (name !== undefined) return name;
    name = k.text.get(id) as string | undefined;
    if (name !== undefined) remember(k.texts, id, name);
    return name;
  }

  forget(): void {
    for (const k of Object.values(this.kinds)) {
      k.ids.clear();
      k.texts.clear();
    }
  }
}
