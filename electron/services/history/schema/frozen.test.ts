/**
 * A migration is frozen. Each version's file imports no live code (only the type of a
 * migration), so changing the codec, the statistics or the writer cannot change what an old version does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { HISTORY_MIGRATIONS } from '.';
import { UNDO_V6, UNDO_V7, UNDO_V8, UNDO_V9 } from './undo';

const here = dirname(fileURLToPath(import.meta.url));

const schemaOf = (db: Database.Database): string[][] => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").raw().all() as string[][];
/** A memory database migrated to `version`. */
function at(version: number): Database.Database {
  const db = new Database(':memory:');
  for (const m of HISTORY_MIGRATIONS.slice(0, version)) m(db);
  return db;
}
/** The names (tables, indexes) the later schema has and the earlier not. */
const addedNames = (before: string[][], after: string[][]): string[] => after.filter((r) => !before.some((b) => b[1] === r[1])).map((r) => r[1]);

describe('the history schema migrations', () => {
  it('one file per version, each importing only the Migration type', () => {
    const files = readdirSync(here).filter((f) => /^v\d+\.ts$/.test(f));
    expect(files.length).toBe(HISTORY_MIGRATIONS.length);
    for (const f of files) {
      const imports = [...readFileSync(join(here, f), 'utf8').matchAll(/^import .*$/gm)].map((m) => m[0]);
      expect(imports, f).toEqual(["import type { Migration } from '../../../../shared/node/sqlite';"]);
    }
  });
});

describe('schema version 6 (tournaments)', () => {
  it('adds the tournaments table, the hands’ tournament and level and their partial index, and nothing else; UNDO_V6 (the tests’ version 5 file) takes exactly that away', () => {
    const v5 = at(5);
    const v6 = at(6);
    const before = schemaOf(v5);
    expect(addedNames(before, schemaOf(v6)).sort()).toEqual(['hands_by_tournament', 'tournaments', 'tournaments_by_end', 'tournaments_by_registered']);
    expect(v6.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all('hands').slice(-2)).toEqual(['tournament', 'level']);
    v6.exec(UNDO_V6);
    expect(schemaOf(v6)).toEqual(before);
    v5.close();
    v6.close();
  });
});

describe('schema version 7 (tournament money when it moves, refunded registrations)', () => {
  it('adds the tournaments’ refunded_at, the tournament_money table and its two indexes, and nothing else (additive); UNDO_V7 takes exactly that away', () => {
    const v6 = at(6);
    const v7 = at(7);
    const before = schemaOf(v6);
    expect(addedNames(before, schemaOf(v7)).sort()).toEqual(['tournament_money', 'tournament_money_by_time', 'tournament_money_by_tournament']);
    const columns = (db: Database.Database): string[] => db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all('tournaments') as string[];
    expect(columns(v7)).toEqual([...columns(v6), 'refunded_at']);
    v7.exec(UNDO_V7);
    expect(schemaOf(v7)).toEqual(before);
    v6.close();
    v7.close();
  });
});

describe('schema version 8 (a tied finish kept)', () => {
  it('adds the tournaments’ tied column, and nothing else; a version 7 record reads NULL (not told); UNDO_V8 takes it away', () => {
    const v7 = at(7);
    v7.prepare("INSERT INTO tournaments(tid, name, variant, money, format, kinds, buy_in, fee, entries, registered_at, place, prize, bounties, rebuys, add_ons, re_entries, spent) VALUES ('t', 'T', 0, 0, 0, '', 100, 10, 4, 1, 2, 0, 0, 0, 0, 0, 110)").run();
    const before = schemaOf(v7);
    HISTORY_MIGRATIONS[7](v7);
    expect(addedNames(before, schemaOf(v7))).toEqual([]);
    const columns = v7.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all('tournaments') as string[];
    expect(columns.at(-1)).toBe('tied');
    expect(v7.prepare("SELECT place, tied FROM tournaments WHERE tid = 't'").get()).toEqual({ place: 2, tied: null });
    v7.exec(UNDO_V8);
    expect(schemaOf(v7)).toEqual(before);
    v7.close();
  });
});

describe('schema version 9 (moneys apart, observed hands)', () => {
  it('adds the observed hands’ partial index, and nothing else (the money and observed bits live in hands.flags); UNDO_V9 takes it away', () => {
    const v8 = at(8);
    const before = schemaOf(v8);
    HISTORY_MIGRATIONS[8](v8);
    expect(addedNames(before, schemaOf(v8))).toEqual(['hands_observed']);
    const columns = (db: Database.Database): string[] => db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all('hands') as string[];
    expect(columns(v8)).toEqual(columns(at(8)));
    v8.exec(UNDO_V9);
    expect(schemaOf(v8)).toEqual(before);
    v8.close();
  });
});
