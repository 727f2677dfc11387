/**
 * A tournament survives its operator killed, over real parts: the operator runs in
 * a process of its own (operator-tournament.child.ts) on a data folder with full durability, plays a
 * multi-table tournament of practice players, and is killed with SIGKILL at random moments while it
 * runs, several times, each time started again on the same folder. The tournament resumes from its
 * last completed hand each time and ends with every player ranked once, the prizes equal to the pool,
 * the fund empty, the books and the trace whole.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openOperatorDatabase } from '../../operator/schema';
import { startOperator } from '../../operator/server/operator';
import { tempDir } from '../support/operator/temp-dir';
import { tournamentAudit } from '../../operator/tournaments/audit';
import { placesProblem } from '../../operator/tournaments/places';

const CHILD = fileURLToPath(new URL('./operator-tournament.child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLAYERS = 18;

function startChild(dataDir: string, startAt: number): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(startAt), String(PLAYERS)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the operator process did not start: ${err}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, log: () => err });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the operator process exited (${code ?? signal}): ${err}`));
    });
  });
}

/** The tournament's row, read as a back office would (another connection to the same file). */
function progress(dir: string): { state: string; out: number } {
  const db = openOperatorDatabase(join(dir, 'operator.sqlite'));
  try {
    const row = db.prepare("SELECT phase FROM tournament_machines WHERE id = 'mtt-kill'").get() as { phase: string } | undefined;
    const rows = db.prepare("SELECT data FROM tournament_machine_rows WHERE tournament_id = 'mtt-kill' AND kind = 'e'").pluck().all() as string[];
    return { state: row?.phase ?? 'none', out: rows.filter((d) => (JSON.parse(d) as { status: string }).status === 'out').length };
  } finally {
    db.close();
  }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a tournament survives SIGKILL', () => {
  it('killed at random moments while it runs, three times, it resumes each time and ends whole', async () => {
    const t = tempDir();
    let child: ChildProcess | undefined;
    let childLog = (): string => '';
    const logs: string[] = [];
    try {
      const startAt = Date.now() + 300;
      let kills = 0;
      for (let round = 0; round < 3; round++) {
        const running = await startChild(t.dir, startAt);
        child = running.child;
        childLog = running.log;
        // A random moment while it runs (the clock is 20 times faster: a few seconds of play).
        await sleep(300 + Math.floor(Math.random() * 1200));
        const p = progress(t.dir);
        logs.push(running.log());
        if (p.state !== 'running') break;
        await kill(child);
        child = undefined;
        kills++;
      }
      expect(kills).toBeGreaterThan(0);
      // Started again: it resumes and plays to its end.
      const last = child ? { child, log: childLog } : await startChild(t.dir, startAt);
      child = last.child;
      const end = Date.now() + 120_000;
      while (progress(t.dir).state !== 'finished') {
        if (Date.now() > end) {
          // The child's own account of where it stands (its SIGUSR2 handler), for a stall met once in CI.
          child.kill('SIGUSR2');
          await sleep(500);
          throw new Error(`not finished: ${JSON.stringify(progress(t.dir))}: ${last.log().slice(-3000)}`);
        }
        await sleep(100);
      }
      logs.push(last.log());
      await kill(child);
      child = undefined;
      // Each start after a kill said it resumed the tournament.
      expect(logs.join('\n').match(/resumed 1 tournaments: mtt-kill \(running/g)?.length ?? 0).toBeGreaterThanOrEqual(kills);
      expect(logs.join('\n')).not.toMatch(/tournament error/);

      // The books and the trace, by an operator started on the folder (its start moves the outbox to the vault).
      const op = await startOperator({ dataDir: t.dir, lobby: { config: { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Crash' }, tables: [] }, tables: [] }, log: () => undefined, durability: 'normal' });
      try {
        expect(op.tournaments.get('mtt-kill')).toBeUndefined(); // finished: not resumed
        expect(op.wallet.audit().problems).toEqual([]);
        const books = tournamentAudit(op.db).play;
        expect(books.tournaments).toBe(0);
        expect(books.fees).toBe(PLAYERS * 100);
        const rows = (op.db.prepare("SELECT data FROM tournament_machine_rows WHERE tournament_id = 'mtt-kill' AND kind = 'e'").pluck().all() as string[]).map((d) => JSON.parse(d) as { place: number; prize: number });
        expect(rows).toHaveLength(PLAYERS);
        expect({ sum: rows.reduce((a, r) => a + r.prize, 0), rows: rows.map((r) => `${r.place}:${r.prize}`).sort().join(" ") }).toMatchObject({ sum: PLAYERS * 1000 });
        // Every place from 1 to N, tied players holding the first of the places they share (R-ELIM).
        expect(placesProblem(rows.map((r) => r.place))).toBeNull();
        const recs = op.vault.byTech('mtt-kill');
        expect(recs.filter((r) => r.kind === 'POINSCRIT')).toHaveLength(PLAYERS);
        expect(recs.filter((r) => r.kind === 'POBILAN')).toHaveLength(PLAYERS);
        expect(op.vault.verifyChain().ok).toBe(true);
      } finally {
        await op.close();
      }
    } finally {
      if (child) await kill(child).catch(() => undefined);
      t.cleanup();
    }
  }, 240_000);
});
