/**
 * Players' hand histories on the operator (R-HISTORY, D art. 8 II 5°): each finished hand, as that
 * player may see it (`recordOf(viewFor(final, seat))`: their own cards, and others' only if shown),
 * kept at least 366 days and served newest first, a page at a time. Its own SQLite file: it is a
 * service to players, not the regulatory vault (trace/vault.ts) and not money (schema.ts).
 */
import type { HandTournament, HistoryHand } from '../../shared/protocol/messages';
import { HISTORY_DAYS } from '../../shared/protocol/version';
import type { HandRecord } from '../../shared/rules/record';
import { openDatabase, type Db, type Migration, type OpenDatabaseOptions } from '../../shared/node/sqlite';
import { DAY_MS } from '../../shared/rules/time';


const v1: Migration = (db) => {
  db.exec(`
    CREATE TABLE hands (
      id         INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL,
      hand_id    TEXT NOT NULL,
      table_id   TEXT NOT NULL,
      ended_at   INTEGER NOT NULL,
      record     TEXT NOT NULL,
      UNIQUE (account_id, hand_id)
    );
    CREATE INDEX hands_by_account ON hands(account_id, ended_at DESC, id DESC);
  `);
};

/**
 * v2: a tournament hand names its tournament and the level (0-based) it was dealt
 * at; null for cash hands (and the hands stored before).
 */
const v2: Migration = (db) => {
  db.exec(`
    ALTER TABLE hands ADD COLUMN tournament_id TEXT;
    ALTER TABLE hands ADD COLUMN level INTEGER;
  `);
};

export const HISTORY_MIGRATIONS: readonly Migration[] = [v1, v2];

interface Row {
  id: number;
  hand_id: string;
  table_id: string;
  ended_at: number;
  record: string;
  tournament_id: string | null;
  level: number | null;
}

export class HandHistoryStore {
  private readonly db: Db;
  private readonly q;

  constructor(path: string, options: OpenDatabaseOptions & { clock?: () => number } = {}) {
    this.db = openDatabase(path, HISTORY_MIGRATIONS, 'hand history', options);
    this.clock = options.clock ?? Date.now;
    this.q = {
      add: this.db.prepare(
        'INSERT INTO hands(account_id, hand_id, table_id, ended_at, record, tournament_id, level) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(account_id, hand_id) DO NOTHING',
      ),
      page: this.db.prepare<[number, number, number, number, number, number], Row>(
        `SELECT id, hand_id, table_id, ended_at, record, tournament_id, level FROM hands
         WHERE account_id = ? AND ended_at >= ? AND (ended_at < ? OR (ended_at = ? AND id < ?))
         ORDER BY ended_at DESC, id DESC LIMIT ?`,
      ),
      purge: this.db.prepare('DELETE FROM hands WHERE ended_at < ?'),
    };
    // Older than the year (and a margin) is not owed to anyone any more.
    this.q.purge.run(this.clock() - (HISTORY_DAYS + 30) * DAY_MS);
  }

  private readonly clock: () => number;

  /**
   * Stores one player's view of a hand; written once per hand (a repeat is ignored). `tournament`: the
   * tournament's id and the level the hand was dealt at; absent for a cash hand.
   */
  add(accountId: number, tableId: string, handId: string, endedAt: number, record: HandRecord, tournament: HandTournament | null = null): void {
    this.q.add.run(accountId, handId, tableId, endedAt, JSON.stringify(record), tournament?.tournamentId ?? null, tournament?.level ?? null);
  }

  /**
   * A page of the player's hands of the last 366 days, newest first. `cursor` is the `next` of the
   * previous page (null for the first); `BAD_CURSOR` when it is not one.
   */
  page(accountId: number, cursor: string | null, limit: number): { ok: true; hands: HistoryHand[]; next: string | null } | { ok: false; code: 'BAD_CURSOR' } {
    let endedBefore = Number.MAX_SAFE_INTEGER;
    let idBefore = Number.MAX_SAFE_INTEGER;
    if (cursor !== null) {
      const m = /^(\d{1,16})\.(\d{1,16})$/.exec(cursor);
      if (!m) return { ok: false, code: 'BAD_CURSOR' };
      endedBefore = Number(m[1]);
      idBefore = Number(m[2]);
    }
    const since = this.clock() - HISTORY_DAYS * DAY_MS;
    const rows = this.q.page.all(accountId, since, endedBefore, endedBefore, idBefore, limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const hands = shown.map((r) => ({
      handId: r.hand_id,
      tableId: r.table_id,
      endedAt: r.ended_at,
      record: JSON.parse(r.record) as HandRecord,
      tournament: r.tournament_id === null ? null : { tournamentId: r.tournament_id, level: r.level ?? 0 },
    }));
    const last = shown[shown.length - 1];
    return { ok: true, hands, next: more && last ? `${last.ended_at}.${last.id}` : null };
  }

  close(): void {
    this.db.close();
  }
}
