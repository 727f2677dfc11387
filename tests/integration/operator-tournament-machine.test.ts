/**
 * The tournament runner over real parts (CONVENTIONS "Pure core, effects at the edge"): the operator's
 * SQLite, wallet, trace outbox and vault, in a process of its own killed with SIGKILL after random
 * events, several times: started again on the same folder it goes on from its last committed event,
 * and ends with the same ledger, trace and places as a run never stopped.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placesProblem } from '../../operator/tournaments/places';
import { prng } from '../../shared/rules/engine/test-support';
import { DRIVEN_ID, openFolder } from '../support/operator/machine-driver';
import { tempDir } from '../support/operator/temp-dir';
import { entrantIds, entrantOf } from '../../shared/rules/tournament/machine/buckets';

const CHILD = fileURLToPath(new URL('./operator-tournament-machine.child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLAYERS = 24;
const SEED = 5;

function runChild(dir: string, killAfter: number): Promise<'done' | 'killed'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(PLAYERS), String(SEED), String(killAfter)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0 && out.includes('done')) resolve('done');
      else reject(new Error(`child exited ${code ?? signal}: ${err}`));
    });
  });
}

/** What a run left: the ledger (without times), the trace's records, each player's place and prize. */
function outcome(dir: string) {
  const f = openFolder(dir, 'NORMAL');
  try {
    const ledger = f.db.prepare('SELECT account_id, kind, reason, amount, table_id, idempotency_key FROM ledger ORDER BY id').all();
    const trace = f.vault.summaries();
    const s = f.store.load(DRIVEN_ID)!.state;
    const places = entrantIds(s).map((id) => [id, entrantOf(s, id)!.place, entrantOf(s, id)!.prize]);
    return { ledger, trace, places, phase: s.phase, fund: f.wallet.tableHeld(`tournament:${DRIVEN_ID}`)?.held };
  } finally {
    f.close();
  }
}

describe('the tournament runner with real SQLite', () => {
  it('SIGKILL after random events, several times: the same ledger, trace and places as a clean run', async () => {
    const clean = tempDir();
    const killed = tempDir();
    try {
      expect(await runChild(clean.dir, 0)).toBe('done');
      const rng = prng(11);
      let kills = 0;
      for (let guard = 0; guard < 200; guard++) {
        const r = await runChild(killed.dir, 5 + Math.floor(rng() * 60));
        if (r === 'done') break;
        kills++;
      }
      expect(kills).toBeGreaterThanOrEqual(3);
      const a = outcome(clean.dir);
      const b = outcome(killed.dir);
      expect(a.phase).toBe('finished');
      expect(a.fund).toBe(0);
      expect(placesProblem(a.places.map((p) => p[1]))).toBeNull();
      // The run is a real one: rebuys, bounties and prizes, each with its record.
      const kinds = new Set(a.trace.map((r) => r.kind));
      for (const k of ['POINSCRIT', 'POACHAT', 'POGAIN', 'POBILAN']) expect(kinds).toContain(k);
      expect(a.trace.filter((r) => r.kind === 'POBILAN')).toHaveLength(PLAYERS);
      expect(b).toEqual(a);
    } finally {
      clean.cleanup();
      killed.cleanup();
    }
  }, 240_000);
});
