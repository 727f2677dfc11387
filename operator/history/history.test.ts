import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandRecord } from '../../shared/rules/record';
import { openDatabase } from '../../shared/node/sqlite';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { HandHistoryStore, HISTORY_MIGRATIONS } from './history';

const DAY = 86_400_000;
const record = (id: string) => ({ handId: id }) as unknown as HandRecord;

describe('players\' hand histories (R-HISTORY)', () => {
  it('serves the last 366 days newest first, in pages, a hand once', () => {
    const t = tempDir();
    const now = Date.UTC(2026, 5, 1);
    const store = new HandHistoryStore(join(t.dir, 'h.sqlite'), { clock: () => now, synchronous: 'NORMAL' });
    try {
      for (let i = 0; i < 25; i++) store.add(7, 't1', `h${i}`, now - i * 1000, record(`h${i}`));
      store.add(7, 't1', 'h0', now, record('again')); // written once
      store.add(7, 't1', 'old', now - 367 * DAY, record('old'));
      store.add(8, 't1', 'other', now, record('other'));
      const p1 = store.page(7, null, 10);
      if (!p1.ok) throw new Error('page');
      expect(p1.hands.map((h) => h.handId)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9']);
      expect(p1.hands[0].record.handId).toBe('h0');
      const p2 = store.page(7, p1.next, 10);
      const p3 = p2.ok ? store.page(7, p2.next, 10) : p2;
      expect(p3.ok && p3.hands.map((h) => h.handId)).toEqual(['h20', 'h21', 'h22', 'h23', 'h24']);
      expect(p3.ok && p3.next).toBeNull();
      expect(store.page(7, 'garbage', 10)).toEqual({ ok: false, code: 'BAD_CURSOR' });
    } finally {
      store.close();
      t.cleanup();
    }
  });

  it('a tournament hand names its tournament and the level it was dealt at; a cash hand, and a hand stored before v2, none', () => {
    const t = tempDir();
    const now = Date.UTC(2026, 5, 1);
    const path = join(t.dir, 'h.sqlite');
    // A file of the first version, with a hand in it: the migration keeps it, with no tournament.
    const v1 = openDatabase(path, HISTORY_MIGRATIONS.slice(0, 1), 'hand history', { synchronous: 'NORMAL' });
    v1.prepare('INSERT INTO hands(account_id, hand_id, table_id, ended_at, record) VALUES (?, ?, ?, ?, ?)').run(7, 'before', 'c1', now - 3000, JSON.stringify(record('before')));
    v1.close();
    const store = new HandHistoryStore(path, { clock: () => now, synchronous: 'NORMAL' });
    try {
      store.add(7, 'mtt-1-t2', 'th', now - 1000, record('th'), { tournamentId: 'mtt-1', level: 4 });
      store.add(7, 'c1', 'ch', now - 2000, record('ch'));
      const p = store.page(7, null, 10);
      if (!p.ok) throw new Error('page');
      expect(p.hands.map((h) => [h.handId, h.tournament])).toEqual([
        ['th', { tournamentId: 'mtt-1', level: 4 }],
        ['ch', null],
        ['before', null],
      ]);
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
