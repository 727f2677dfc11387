/**
 * The trace never falls behind the money, over real processes: an operator process
 * plays hands while another process holds the trace vault's write lock. Before the fix every trace
 * write waited 5 s for the lock with the event loop held (every table frozen), then failed: the hands
 * settled without their POJEU, and `trace verify` still said the trace was intact.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/rules/engine/test-support';
import { runCli } from '../../operator/cli';
import { tablesOf, type OperatorConfig } from '../../operator/config/config';
import { openOperatorDatabase } from '../../operator/schema';
import { startOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { ManualTimers } from '../../operator/tables/timers';
import { Wallet } from '../../operator/wallet';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./operator-recovery.child.ts', import.meta.url));

const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0094', idCoffre: 1, name: 'Trace' },
  tables: [{ id: 'p1', name: 'P1', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 2 }],
};

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function verify(dir: string, ...more: string[]): Promise<{ code: number; out: string }> {
  return cli(dir, 'trace', 'verify', '--data', dir, ...more);
}

/** `operator <args>` with the test's lobby written in `dir`. */
async function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const config = join(dir, 'lobby.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  const lines: string[] = [];
  const withConfig = args.includes('--data') ? [...args, '--config', config] : args;
  const code = await runCli(withConfig, { out: (l) => lines.push(l), err: (l) => lines.push(l), stopSignal: () => Promise.resolve() });
  return { code, out: lines.join('\n') };
}

describe('the trace never falls behind the money', () => {
  it('hands go on while another process holds the vault locked, and each settled hand has its POJEU once it is free', async () => {
    const t = tempDir();
    let child: ChildProcess | undefined;
    let locker: Database.Database | undefined;
    try {
      child = spawn(process.execPath, ['--import', 'tsx', CHILD, t.dir, JSON.stringify(CONFIG)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      await until(() => out.includes('\n'), 60_000, () => `the operator to serve: ${err}`);
      const { url, pin } = JSON.parse(out.split('\n')[0]) as { url: string; pin: string };

      const c = await TestClient.guest(url, pin);
      const p = new AutoPlayer(c, prng(11));
      p.rebuy = 2000;
      const ended: string[] = [];
      p.onEvent = (_tableId, e) => {
        if (e.type === 'handEnd' && e.record.handId) ended.push(e.record.handId);
      };
      expect(await c.join('p1', 2000)).toMatchObject({ type: 'table.joined' });
      await until(() => ended.length >= 3, 30_000, () => `${ended.length} hands`);

      // Another process takes the vault's write lock and keeps it.
      locker = new Database(join(t.dir, 'trace.sqlite'));
      locker.exec('BEGIN IMMEDIATE');
      const during = ended.length;
      const lockedAt = Date.now();
      let worstPingMs = 0;
      let pings = 0;
      while (Date.now() - lockedAt < 6_000) {
        const sent = Date.now();
        await c.request({ type: 'ping', t: pings++ } as never, 10_000).catch(() => undefined);
        worstPingMs = Math.max(worstPingMs, Date.now() - sent);
        await new Promise((r) => setTimeout(r, 50));
      }
      const settledWhileLocked = ended.length - during;
      console.log(`vault locked 6 s by another process: ${settledWhileLocked} hands settled meanwhile, worst ping ${worstPingMs} ms over ${pings} pings`);
      // The hands played on (before the fix: one write at a time, each holding every table for 5 s).
      expect(settledWhileLocked).toBeGreaterThan(0);
      locker.exec('ROLLBACK');
      locker.close();
      locker = undefined;

      // Once the vault is free, every settled hand's POJEU reaches it, in order, with a whole chain.
      const read = new Database(join(t.dir, 'trace.sqlite'), { readonly: true });
      try {
        const hasPojeu = read.prepare<[string], { n: number }>("SELECT count(*) AS n FROM records WHERE kind = 'POJEU' AND pool = ?");
        const snapshot = [...ended];
        await until(() => snapshot.every((id) => hasPojeu.get(id)!.n === 1), 15_000, () => `${snapshot.filter((id) => hasPojeu.get(id)!.n !== 1).length} of ${snapshot.length} hands without a POJEU`);
      } finally {
        read.close();
      }
      await c.close();
      child.kill('SIGKILL');
      child = undefined;
      const v = await verify(t.dir);
      expect(v.out).toMatch(/trace chain intact/);
      expect(v.out).toMatch(/ledger cross-check: \d+ movements and hands, each with its record/);
      expect(v.code).toBe(0);
    } finally {
      locker?.close();
      child?.kill('SIGKILL');
      t.cleanup();
    }
  });

  it('trace verify finds a movement of the ledger that has no record', async () => {
    const t = tempDir();
    try {
      const op = await startOperator({ dataDir: t.dir, lobby: tablesOf(CONFIG), log: () => undefined });
      const c = await TestClient.guest(op.url, op.pin);
      expect(await c.join('p1', 1000)).toMatchObject({ type: 'table.joined' });
      await c.close();
      await op.close();
      expect((await verify(t.dir)).code).toBe(0);

      // A buy-in written without its POINSCRIT (what a lost trace write used to leave).
      const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
      const account = (db.prepare('SELECT id FROM accounts WHERE guest = 1 AND username LIKE ? LIMIT 1').get('guest-%') as { id: number }).id;
      expect(new Wallet(db).buyIn(account, 'p1', 500, { idempotencyKey: 'buy-in:p1.lost.00000000' })).toMatchObject({ ok: true });
      db.close();
      const v = await verify(t.dir);
      expect(v.out).toMatch(/trace chain intact/);
      expect(v.out).toContain('buy-in p1.lost.00000000 has no POINSCRIT');
      expect(v.code).toBe(1);
    } finally {
      t.cleanup();
    }
  });

  it('publishes its head every hour and on shutdown; an export verifies alone; a tampered export and a chain rewritten whole are caught', async () => {
    const t = tempDir();
    try {
      const logs: string[] = [];
      const timers = new ManualTimers(Date.UTC(2026, 5, 1, 12));
      const op = await startOperator({ dataDir: t.dir, lobby: tablesOf(CONFIG), timers, log: (l) => logs.push(l) });
      const heads = () => logs.filter((l) => l.startsWith('trace head: '));
      // At the start (the practice players already seated: nothing has run on the table clock since).
      const started = op.vault.head();
      expect(heads()).toEqual([`trace head: hash ${started.hash}, ${started.idEvt} records, at 2026-06-01T12:00:00.000Z`]);
      const c = await TestClient.guest(op.url, op.pin);
      expect(await c.join('p1', 1000)).toMatchObject({ type: 'table.joined' });
      await c.close();
      timers.advance(3_600_000);
      const hourly = op.vault.head();
      expect(heads()[1]).toBe(`trace head: hash ${hourly.hash}, ${hourly.idEvt} records, at 2026-06-01T13:00:00.000Z`);
      await op.close();
      const last = heads().at(-1)!;
      const published = /hash ([0-9a-f]{64})/.exec(last)![1];
      expect(heads()).toHaveLength(3);

      expect(await verify(t.dir, '--head', published)).toMatchObject({ code: 0, out: expect.stringContaining(`the published head ${published} is in it`) });
      expect(await verify(t.dir, '--head', 'nope')).toMatchObject({ code: 2 });
      const file = join(t.dir, 'export.xml');
      expect(await cli(t.dir, 'trace', 'export', '--data', t.dir, '--from', '2000-01-01T00:00:00Z', '--to', '2100-01-01T00:00:00Z', '--out', file)).toMatchObject({ code: 0 });
      // The export alone: no --data, no vault.
      const alone = await cli(t.dir, 'trace', 'verify', '--file', file, '--head', published);
      expect(alone.out).toMatch(/^export intact: \d+ records/);
      expect(alone.code).toBe(0);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace('<Format>CG</Format>', '<Format>T</Format>'));
      expect(await cli(t.dir, 'trace', 'verify', '--file', file)).toMatchObject({ code: 1, out: expect.stringContaining('content does not match its hash') });

      // The whole chain rewritten by someone who can write the vault: intact alone, caught against the head.
      const db = new Database(join(t.dir, 'trace.sqlite'));
      db.exec('DROP TRIGGER records_no_update');
      const rows = db.prepare('SELECT * FROM records ORDER BY id_evt').all() as { id_evt: number; kind: string; date_evt: number; tech: string; inscription: string | null; pool: string | null; xml: string }[];
      let prev = '0'.repeat(64);
      for (const r of rows) {
        const xml = r.xml.replace('<Format>CG</Format>', '<Format>T</Format>');
        const hash = createHash('sha256').update(JSON.stringify([prev, r.id_evt, r.kind, r.date_evt, r.tech, r.inscription, r.pool, xml])).digest('hex');
        db.prepare('UPDATE records SET xml = ?, prev_hash = ?, hash = ? WHERE id_evt = ?').run(xml, prev, hash, r.id_evt);
        prev = hash;
      }
      db.close();
      // The heads the operator signed in the folder catch it by default (trace/seal.ts), the published one too.
      expect(await verify(t.dir)).toMatchObject({ code: 1, out: expect.stringContaining('differs from the head signed at') });
      expect(await verify(t.dir, '--head', published)).toMatchObject({ code: 1, out: expect.stringContaining('is not in the chain') });
    } finally {
      t.cleanup();
    }
  });
});
