import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Accounts } from '../accounts';
import { registerPlayer } from '../../tests/support/operator/temp-dir';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../shared/node/sqlite';
import { openOperatorDatabase } from '../schema';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { TraceOutbox } from './outbox';
import { hashJoueur, TraceRecordError, type PobilanData, type PoinscritData } from './records';
import { TraceVault } from './vault';

const player = { idJoueur: '42', hashJoueur: hashJoueur('42:alice'), ipJoueur: '203.0.113.9', idSession: 'sess-1', inscription: 't1.a.1', tech: 't1' };
const inscrit: PoinscritData = { ...player, kind: 'POINSCRIT', description: 'Cash game', format: 'CG', solde: { avant: 10_000, mouvement: 2_000, apres: 8_000 } };
const bilan: PobilanData = { ...player, kind: 'POBILAN', solde: { avant: 8_000, mouvement: 2_150, apres: 10_150 } };

describe('the trace outbox', () => {
  let t: ReturnType<typeof tempDir>;
  let db: Db;
  let vault: TraceVault;
  let now: number;
  beforeEach(() => {
    t = tempDir();
    db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
    vault = TraceVault.open({ path: join(t.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1 });
    now = Date.parse('2026-01-02T03:04:05.600Z');
  });
  afterEach(() => {
    vault.close();
    db.close();
    t.cleanup();
  });

  it('drains on a machine so slow that every slice is used up, even when the caller never yields', () => {
    // Every clock reading 20 ms after the last: a slice of 10 ms is always over.
    let fake = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (fake += 20));
    try {
      const box = new TraceOutbox(db, vault, undefined, () => now);
      // A table loop on manual timers: one transaction after another, no turn of the event loop between.
      for (let k = 0; k < 5; k++) {
        db.transaction(() => box.put({ ...inscrit, inscription: `t1.a.${k}` }))();
        box.flushSoon();
      }
      expect(vault.head().idEvt).toBe(5);
      expect(box.pending()).toBe(0);
      box.close();
    } finally {
      clock.mockRestore();
    }
  });

  it('refuses a record that breaks the format inside the transaction, which is then undone', () => {
    const box = new TraceOutbox(db, vault, undefined, () => now);
    expect(() => db.transaction(() => box.put({ ...bilan, ipJoueur: 'not an address' }))()).toThrow(TraceRecordError);
    expect(box.pending()).toBe(0);
  });

  it('waits without blocking while another connection holds the vault, then moves the records in order, dated at their events', () => {
    vault.setBusyTimeout(0);
    const box = new TraceOutbox(db, vault, undefined, () => now);
    const locker = new Database(join(t.dir, 'trace.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    box.put(inscrit);
    now += 61_000;
    box.put(bilan);
    expect(box.flush()).toBe(false); // busy: returned at once
    expect(box.pending()).toBe(2);
    locker.exec('ROLLBACK');
    locker.close();
    expect(box.flush()).toBe(true);
    expect(box.pending()).toBe(0);
    expect([vault.get(1)!.kind, vault.get(2)!.kind]).toEqual(['POINSCRIT', 'POBILAN']);
    expect(vault.get(1)!.xml).toContain('<DateEvt>2026-01-02T03:04:05</DateEvt>');
    expect(vault.get(2)!.xml).toContain('<DateEvt>2026-01-02T03:05:06</DateEvt>');
    expect(vault.get(2)!.xml).toContain('<IDEvt>0000000002</IDEvt>');
    expect(vault.verifyChain().ok).toBe(true);
  });

  it('a record of an earlier event carries the time of that event, in the vault and its chain', () => {
    // A tournament entry busted at 03:04:05 and closed when its place is known, 2 minutes later
    // (A 1.3.6.b: DateEvt is the game event's time, not the writing's).
    const box = new TraceOutbox(db, vault, undefined, () => now);
    const bust = now;
    now += 120_000;
    box.put(inscrit);
    box.put(bilan, bust);
    expect(box.flush()).toBe(true);
    expect(vault.get(1)!.xml).toContain('<DateEvt>2026-01-02T03:06:05</DateEvt>');
    expect(vault.get(2)!.xml).toContain('<DateEvt>2026-01-02T03:04:05</DateEvt>');
    expect(vault.get(2)!.dateEvt.getTime()).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(vault.verifyChain().ok).toBe(true);
    box.close();
  });

  it('never writes a record twice when the process died between its append and its removal', () => {
    const box = new TraceOutbox(db, vault, undefined, () => now);
    box.put(inscrit);
    box.put(bilan);
    // What a crash right after the first append leaves: the row marked as tried at head 0, the record in the vault.
    const first = db.prepare<[], { id: number; xml: string }>('SELECT id, xml FROM trace_outbox ORDER BY id LIMIT 1').get()!;
    db.prepare('UPDATE trace_outbox SET tried_at_head = 0 WHERE id = ?').run(first.id);
    vault.append(inscrit, new Date(now), first.xml);
    // The next start.
    expect(new TraceOutbox(db, vault).flush()).toBe(true);
    expect(vault.head().idEvt).toBe(2);
    expect([vault.get(1)!.kind, vault.get(2)!.kind]).toEqual(['POINSCRIT', 'POBILAN']);
  });

  it('HashJoueur is the SHA-1 of the identity hash the operator holds for the account, not of its id or name (A 1.3.6.c)', async () => {
    const accounts = new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 } });
    const alice = await registerPlayer(accounts, 'alice', { lastName: 'Martin', firstNames: 'Alice', birthDate: '1990-01-01' });
    const guest = await registerPlayer(accounts, 'bob');
    const identity = (db.prepare('SELECT identity_hash FROM accounts WHERE id = ?').get(alice) as { identity_hash: string }).identity_hash;
    expect(identity).toMatch(/^[0-9a-f]{64}$/);
    const box = new TraceOutbox(db, vault, undefined, () => now);
    db.transaction(() => {
      box.put({ ...inscrit, idJoueur: String(alice), hashJoueur: hashJoueur(`${alice}:alice`) });
      box.put({ ...inscrit, idJoueur: String(guest), inscription: 't1.g.1', hashJoueur: hashJoueur(`${guest}:bob`) });
    })();
    box.flush();
    const hashOf = (idEvt: number) => /<HashJoueur>([0-9A-F]{40})<\/HashJoueur>/.exec(vault.get(idEvt)!.xml)![1];
    expect(hashOf(1)).toBe(createHash('sha1').update(identity).digest('hex').toUpperCase());
    // No identity (a guest, a practice player: play money only): a fixed stand-in per account, never a person's.
    expect(hashOf(2)).toBe(hashJoueur(`sans-identite:${guest}`));
  });
});
