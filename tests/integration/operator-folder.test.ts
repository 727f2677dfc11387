/**
 * One operator per data folder, and a recovery that survives being interrupted, over
 * real processes: the operator's own command line (`node --import tsx operator/main.ts`) and the
 * crash child of operator-recovery.test.ts, killed with SIGKILL.
 *
 * Before the fix a second operator on a folder in use ran crash recovery on the live tables of the
 * first (its players' stacks back in their wallets while they still sat; duplicate POBILAN), then
 * served on its own port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/rules/engine/test-support';
import { tablesOf, type OperatorConfig } from '../../operator/config/config';
import { openOperatorDatabase } from '../../operator/schema';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { TraceVault } from '../../operator/trace/vault';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../operator/main.ts', import.meta.url));
const CHILD = fileURLToPath(new URL('./operator-recovery.child.ts', import.meta.url));

const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0098', idCoffre: 1, name: 'Folder' },
  tables: [
    // One person and one practice player: a hand starts at once and waits for the person (600 s to act).
    { id: 'p1', name: 'P1', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 1, actionSeconds: 600 },
    { id: 'p2', name: 'P2', variant: 'O4JL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 2, actionSeconds: 600 },
  ],
};

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, out: () => out, err: () => err, exited };
}

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every file of the folder with a hash of its bytes. */
/**
 * Every file of the folder by its hash, but SQLite's `-shm` files: a WAL database's shared-memory index,
 * where the running first operator's every read leaves its mark (a CI run saw one change while the
 * second operator was refused). The data the second could harm is in the databases, their WAL, the keys
 * and the trace heads, all compared.
 */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith('-shm') || !statSync(join(dir, f)).isFile()) continue;
    out[f] = createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
  }
  return out;
}

function health(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/health', rejectUnauthorized: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** Seats a paused player at `tableId` and waits until the hand there waits for them. */
async function seatWaiting(url: string, pin: string, tableId: string, localAddress: string): Promise<AutoPlayer> {
  const c = await TestClient.guest(url, pin, { localAddress });
  const p = new AutoPlayer(c, prng(7));
  p.paused = true;
  expect(await c.join(tableId, 1000)).toMatchObject({ type: 'table.joined' });
  await until(
    () => {
      const s = p.tables.get(tableId);
      return !!s?.hand && s.turn !== null && s.turn === s.seat;
    },
    30_000,
    () => `a hand at ${tableId} waiting for the person`,
  );
  return p;
}

describe('one operator per data folder', () => {
  it('a second operator on a folder in use refuses in one line naming the folder and the first process, writes nothing, and the first keeps serving', async () => {
    const t = tempDir();
    const procs: Proc[] = [];
    try {
      const config = join(t.dir, 'lobby.json');
      writeFileSync(config, JSON.stringify(CONFIG));
      const data = join(t.dir, 'data');
      const a = run([MAIN, '--port', '0', '--data', data, '--config', config]);
      procs.push(a);
      await until(() => /^pin /m.test(a.out()), 60_000, () => `the first operator to serve: ${a.err()}`);
      const [url, pinLine] = a.out().split('\n');
      const pin = pinLine.slice('pin '.length);
      const port = Number(new URL(url).port);
      const p1 = await seatWaiting(url, pin, 'p1', '127.0.0.1');
      const p2 = await seatWaiting(url, pin, 'p2', '127.0.0.2');
      // The practice players' moves land: the folder is read once it stays the same for half a second
      // (a fixed 500 ms was too short on a loaded machine).
      let before = fingerprint(data);
      for (const end = Date.now() + 20_000; Date.now() < end; ) {
        await new Promise((r) => setTimeout(r, 500));
        const now = fingerprint(data);
        if (JSON.stringify(now) === JSON.stringify(before)) break;
        before = now;
      }
      expect(Object.keys(before)).toEqual(expect.arrayContaining(['operator.sqlite', 'trace.sqlite']));

      // The second operator, on another port (0: any free one), same folder.
      const started = Date.now();
      const b = run([MAIN, '--port', '0', '--data', data, '--config', config]);
      procs.push(b);
      const ended = await Promise.race([b.exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
      const refusedMs = Date.now() - started;
      // Old code: B recovered the live tables and served (no exit), or died later on a port in use.
      expect(ended, `the second operator did not refuse: ${b.out()} ${b.err()}`).not.toBeNull();
      expect(ended!.code).toBe(1);
      expect(b.out()).toBe('');
      const lines = b.err().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(data);
      expect(lines[0]).toContain(`process ${a.child.pid}`);
      expect(lines[0]).toContain('the operator');
      // Nothing written: every file of the folder byte for byte as before.
      expect(fingerprint(data)).toEqual(before);
      console.log(`second operator refused in ${refusedMs} ms (process start included), folder unchanged`);

      // The first still serves: /health, and the hands go on when the players act.
      expect(await health(port)).toBe(200);
      for (const p of [p1, p2]) {
        const n = p.handsEnded;
        p.resume();
        await until(() => p.handsEnded > n, 30_000, () => 'a hand to end at the first operator');
      }
      const db = openOperatorDatabase(join(data, 'operator.sqlite'));
      try {
        // The chips are where the tables say: no stack credited back while its player sits.
        const held = db.prepare("SELECT count(*) AS n FROM ledger WHERE reason = 'cash-out'").get() as { n: number };
        expect(held.n).toBe(0);
      } finally {
        db.close();
      }
      for (const p of [p1, p2]) await p.client.close();
    } finally {
      for (const p of procs) p.child.kill('SIGKILL');
      t.cleanup();
    }
  });

  it('a recovery killed after each of its durable steps, restarted until it completes, ends in the state of one clean recovery', async () => {
    const t = tempDir();
    const procs: Proc[] = [];
    try {
      const data = join(t.dir, 'data');
      const first = run([CHILD, data, JSON.stringify(CONFIG)]);
      procs.push(first);
      await until(() => first.out().includes('\n'), 60_000, () => `the operator to serve: ${first.err()}`);
      const { url, pin } = JSON.parse(first.out().split('\n')[0]) as { url: string; pin: string };
      const players = [await seatWaiting(url, pin, 'p1', '127.0.0.1'), await seatWaiting(url, pin, 'p2', '127.0.0.2')];
      await new Promise((r) => setTimeout(r, 300));
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      for (const p of players) await p.client.close();

      const crashed = heldSeats(data);
      expect(crashed).toHaveLength(5);
      // Two copies of the crashed folder: one recovered in one go, one interrupted at every step.
      const clean = join(t.dir, 'clean');
      cpSync(data, clean, { recursive: true });
      const once = run([CHILD, clean, JSON.stringify(CONFIG)]);
      procs.push(once);
      await until(() => once.out().includes('\n'), 60_000, () => `the clean recovery: ${once.err()}`);
      once.child.kill('SIGKILL');
      await once.exited;

      let kills = 0;
      for (let i = 0; i < 40; i++) {
        const r = run([CHILD, data, JSON.stringify(CONFIG)], { CERCLE_TEST_KILL_AT_RECOVERY_STEP: '1' });
        procs.push(r);
        const ended = await Promise.race([r.exited, until(() => r.out().includes('\n'), 60_000, () => r.err()).then(() => null)]);
        if (ended === null) {
          r.child.kill('SIGKILL');
          await r.exited;
          break;
        }
        expect(ended.signal, r.err()).toBe('SIGKILL');
        kills++;
      }
      // 5 seatings (a person and a practice player at p1, a person and two at p2), all in a hand: the
      // cash-out, the POBILAN and the seat forgotten for each, one step per start (the hands void,
      // without a record).
      expect(kills).toBe(15);
      const after = state(data, crashed);
      expect(after).toEqual(state(clean, crashed));
      // One clean run: each seating cashed out once, closed by one POBILAN; the hands void.
      expect(after.ledger).toHaveLength(5);
      expect(after.seats).toEqual([]);
      for (const s of crashed) {
        expect(after.records.filter((r) => r.inscription === s.inscription && r.kind === 'POBILAN')).toHaveLength(1);
        expect(after.records.filter((r) => r.inscription === s.inscription && r.kind === 'POANNUL')).toHaveLength(0);
      }
      console.log(`recovery killed ${kills} times, then completed: same ledger, seats and trace as one clean run`);
    } finally {
      for (const p of procs) p.child.kill('SIGKILL');
      t.cleanup();
    }
    // 18 operator processes started one after another through tsx: about 40 s alone, past the default
    // 120 s on a loaded machine (seen beside two other runs).
  }, 360_000);
});

interface Held {
  inscription: string;
  hand_id: string | null;
}

/** The seatings a crash left at the tables. */
function heldSeats(dir: string): Held[] {
  const db = openOperatorDatabase(join(dir, 'operator.sqlite'));
  try {
    return db.prepare('SELECT inscription, hand_id FROM table_seats ORDER BY inscription').all() as Held[];
  } finally {
    db.close();
  }
}

/**
 * What recovery decided for the seatings a crash left, without times and row ids: their cash-out rows,
 * their seats if any are left, their trace records (the tables that open afterwards seat practice
 * players of their own, with random inscriptions: left out).
 */
function state(dir: string, crashed: Held[]): { ledger: unknown[]; seats: unknown[]; records: { kind: string; inscription: string | null; pool: string | null }[] } {
  const db = openOperatorDatabase(join(dir, 'operator.sqlite'));
  const { config } = tablesOf(CONFIG);
  const vault = TraceVault.open({ path: join(dir, 'trace.sqlite'), idOper: config.operator.idOper, idCoffre: config.operator.idCoffre });
  const ins = new Set(crashed.map((s) => s.inscription));
  const hands = new Set(crashed.map((s) => s.hand_id).filter((h) => h !== null));
  try {
    const ledger = (db.prepare('SELECT account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key FROM ledger ORDER BY id').all() as { idempotency_key: string }[])
      .filter((r) => ins.has(r.idempotency_key.replace(/^cash-out:/, '')));
    const seats = (db.prepare('SELECT inscription, stack, cashed_out FROM table_seats').all() as { inscription: string }[]).filter((r) => ins.has(r.inscription));
    const records: { kind: string; inscription: string | null; pool: string | null }[] = [];
    for (let i = 1; i <= vault.head().idEvt; i++) {
      const r = vault.get(i);
      if (r && ((r.inscription && ins.has(r.inscription)) || (r.pool && hands.has(r.pool)))) records.push({ kind: r.kind, inscription: r.inscription ?? null, pool: r.pool ?? null });
    }
    expect(vault.verifyChain().ok).toBe(true);
    return { ledger, seats, records };
  } finally {
    vault.close();
    db.close();
  }
}
