import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, openDatabase, schemaVersion, type Migration } from '../shared/node/sqlite';
import { OPERATOR_MIGRATIONS, openOperatorDatabase } from './schema';
import { tempDir } from '../tests/support/operator/temp-dir';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

describe('openDatabase', () => {
  let t: ReturnType<typeof tempDir>;
  beforeEach(() => (t = tempDir()));
  afterEach(() => t.cleanup());

  it('creates the file in WAL mode and runs each migration once, in order', () => {
    const path = join(t.dir, 'sub', 'x.sqlite');
    const ran: number[] = [];
    const migrations: Migration[] = [
      (db) => (ran.push(1), db.exec('CREATE TABLE a (x INTEGER)')),
      (db) => (ran.push(2), db.exec('CREATE TABLE b (y INTEGER)')),
    ];
    const db = openDatabase(path, migrations, 'test');
    expect(schemaVersion(db)).toBe(2);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    const again = openDatabase(path, migrations, 'test');
    again.close();
    expect(ran).toEqual([1, 2]);
    // A later build adds a version: only the new migration runs.
    const later = openDatabase(path, [...migrations, (db) => (ran.push(3), db.exec('CREATE TABLE c (z INTEGER)'))], 'test');
    expect(schemaVersion(later)).toBe(3);
    later.close();
    expect(ran).toEqual([1, 2, 3]);
  });

  it('rolls a failing migration back entirely and leaves the version where it was', () => {
    const path = join(t.dir, 'x.sqlite');
    openDatabase(path, [(db) => db.exec('CREATE TABLE a (x INTEGER)')], 'test').close();
    const broken: Migration = (db) => {
      db.exec('CREATE TABLE b (y INTEGER)');
      throw new Error('migration bug');
    };
    expect(() => openDatabase(path, [(db) => db.exec('CREATE TABLE a (x INTEGER)'), broken], 'test')).toThrow('migration bug');
    const raw = new Database(path);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    raw.close();
  });

  it('refuses a database written by a newer build, naming the versions, without modifying it', () => {
    const path = join(t.dir, 'x.sqlite');
    const raw = new Database(path);
    raw.exec('CREATE TABLE future (x INTEGER)');
    raw.pragma('user_version = 7');
    raw.close();
    const before = readFileSync(path);
    let err: unknown;
    try {
      openDatabase(path, [(db) => db.exec('CREATE TABLE a (x INTEGER)')], 'operator');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DatabaseTooNewError);
    expect((err as Error).message).toMatch(/operator database .* schema version 7, but this build only knows versions up to 1/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('the operator schema migrates to its latest version', () => {
    const db = openOperatorDatabase(join(t.dir, 'op.sqlite'));
    expect(schemaVersion(db)).toBe(OPERATOR_MIGRATIONS.length);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual([
      'accounts',
      'cashier_payments',
      'decision_times',
      'ledger',
      'overlay_paid',
      'play_stretches',
      'protection_limits',
      'rake_collected',
      'self_exclusions',
      'sessions',
      'table_funds',
      'table_seats',
      'time_warnings',
      'tournament_entrants',
      'tournament_machine_positions',
      'tournament_machine_rows',
      'tournament_machines',
      'tournament_tables',
      'tournaments',
      'trace_outbox',
      'wallets',
    ]);
    db.close();
  });

  it('v12 moves a saved machine state\'s busted groups and prizes from its JSON to rows of their own', () => {
    const path = join(t.dir, 'op.sqlite');
    const v11 = openDatabase(path, OPERATOR_MIGRATIONS.slice(0, 11), 'operator');
    v11.prepare('INSERT INTO tournament_machines(id, phase, state, events, updated_at) VALUES (?, ?, ?, ?, ?)').run('m', 'running', JSON.stringify({ v: 1, busted: [[7], [3, 5]], prizes: [600, 400], players: 4 }), 9, 0);
    v11.prepare("INSERT INTO tournament_machine_rows(tournament_id, kind, key, data) VALUES ('m', 'e', 7, '{}')").run();
    v11.close();
    const db = openOperatorDatabase(path);
    expect(schemaVersion(db)).toBe(13);
    const rows = db.prepare('SELECT kind, key, data FROM tournament_machine_rows ORDER BY kind, key').all();
    expect(rows).toEqual([
      { kind: 'e', key: 7, data: '{}' },
      { kind: 'g', key: 0, data: '[7]' },
      { kind: 'g', key: 1, data: '[3,5]' },
      { kind: 'p', key: 0, data: '[600,400]' },
    ]);
    const state = JSON.parse(db.prepare<[], string>("SELECT state FROM tournament_machines WHERE id = 'm'").pluck().get()!) as Record<string, unknown>;
    expect(state).toEqual({ v: 1, busted: [], prizes: [], players: 4 });
    expect(() => db.prepare("INSERT INTO tournament_machine_rows(tournament_id, kind, key, data) VALUES ('m', 'x', 1, '{}')").run()).toThrow(/CHECK/);
    db.close();
  });
});
