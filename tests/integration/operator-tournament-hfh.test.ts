/**
 * An operator killed in the middle of a hand-for-hand round (R-TOURN-RUN, T 8-16),
 * over real parts: the operator's tournament layer runs in a process of its own
 * (operator-hfh.child.ts) on a data folder with full durability and SIGKILLs itself at the moment
 * asked for: two players of the round busted at one table while another table still plays its hand
 * of the round. Everything in that run is seeded, so the moment comes every time. The operator is
 * then started on the folder (in this process, its clock by hand) and:
 * - the hand that was in play is void, every bet back: each player still in holds the chips of the
 *   last hand settled at their table, and all chips issued are on the stacks;
 * - the round's busts are ranked together by their stack at the start of the hand (the bigger stack
 *   the better place), paid as those places pay;
 * - the tournament plays on to its winner: every place once, prizes = pool, the books, the trace.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openOperatorDatabase } from '../../operator/schema';
import { startOperator } from '../../operator/server/operator';
import { ManualTimers } from '../../operator/tables/timers';
import { tournamentAudit } from '../../operator/tournaments/audit';
import { placesProblem } from '../../operator/tournaments/places';
import { tempDir } from '../support/operator/temp-dir';

const CHILD = fileURLToPath(new URL('./operator-hfh.child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLAYERS = 30;
/**
 * The seed whose run reaches the moment (found by running the child over seeds; the run is the same
 * every time). A change of the floor's rules changes the run: with a table closing as soon as one is
 * between hands (T 6-6), 21 no longer reached it; 8, 14, 37, 46 and 47 of the first 120 do.
 */
const SEED = 8;

interface Moment {
  busted: { accountId: number; stack: number }[];
  playing: string[];
  remaining: number;
  placesPaid: number;
}

function runChild(dataDir: string): Promise<{ moment: Moment | null; signal: NodeJS.Signals | null; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(SEED), '2'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the operator process did not reach the moment: ${err}`));
    }, 120_000);
    child.once('exit', (_code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      resolve({ moment: line ? ((JSON.parse(line) as { moment: Moment | null }).moment ?? null) : null, signal, err });
    });
  });
}

describe('an operator killed in the middle of a hand-for-hand round', () => {
  it('restarted: the hand in play void with its bets back, the round busts ranked together by their stacks at its start, played on to the end', async () => {
    const t = tempDir();
    try {
      const run = await runChild(t.dir);
      expect(run.err).not.toMatch(/tournament error/);
      expect(run.signal).toBe('SIGKILL');
      const moment = run.moment!;
      expect(moment).not.toBeNull();
      expect(moment.busted).toHaveLength(2);
      expect(moment.playing.length).toBeGreaterThan(0);

      // What the killed process left, read as a back office would: the stacks of the last settled hands.
      const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
      const saved = new Map(
        (db.prepare("SELECT key, data FROM tournament_machine_rows WHERE tournament_id = 'mtt-hfh' AND kind = 'e'").all() as { key: number; data: string }[]).map((r) => [
          r.key,
          JSON.parse(r.data) as { status: string; stack: number; bust: number | null; place: number | null },
        ]),
      );
      const round = (JSON.parse(db.prepare("SELECT state FROM tournament_machines WHERE id = 'mtt-hfh'").pluck().get() as string) as { round: { busts: { id: number; stack: number }[] } }).round;
      db.close();
      const alive = [...saved].filter(([, e]) => e.status === 'in');
      expect(alive).toHaveLength(moment.remaining);
      // The round's busts wait for its end, with the stacks they started the hand with (T 8-16): not placed yet.
      for (const b of moment.busted) {
        expect(saved.get(b.accountId)).toMatchObject({ bust: null, place: null });
        expect(round.busts).toContainEqual(expect.objectContaining({ id: b.accountId, stack: b.stack }));
      }
      // At the kill a hand was in play, its blinds and bets taken from the stacks: not in what was saved.
      expect(alive.reduce((s, [, e]) => s + e.stack, 0)).toBe(PLAYERS * 10_000);

      const timers = new ManualTimers(Date.UTC(2026, 0, 1, 6));
      const logs: string[] = [];
      const op = await startOperator({
        dataDir: t.dir,
        lobby: { config: { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Hand for hand' }, tables: [] }, tables: [] },
        timers,
        table: { betweenHandsMs: 1000, practiceDelayMs: [10, 50] },
        durability: 'normal',
        log: (l) => logs.push(l),
        tournaments: { specs: [], practiceFillMs: null },
      });
      try {
        expect(logs.join('\n')).toMatch(/resumed 1 tournaments: mtt-hfh \(running, \d+ players in\); hands in play were voided/);
        const tour = op.tournaments.get('mtt-hfh')!;
        expect(tour.state).toBe('running');
        // Every bet of the voided hand back: each player still in holds the last settled stack, all chips are on the stacks.
        for (const [id, e] of alive) expect(tour.entrant(id)!.stack).toBe(e.stack);
        expect(tour.chipsInPlay()).toBe(tour.chipsIssued());
        expect(tour.remaining).toBe(moment.remaining);
        // The round's busts, ranked together at once (T 8-16): the bigger stack at the start of the hand, the better place.
        const [big, small] = [...moment.busted].sort((x, y) => y.stack - x.stack).map((b) => tour.entrant(b.accountId)!);
        expect(big.place).toBe(moment.remaining + 1);
        expect(small.place).toBe(moment.remaining + 2);
        const prizes = tour.prizes();
        expect(big.prize).toBe(prizes[big.place! - 1] ?? 0);
        expect(small.prize).toBe(prizes[small.place! - 1] ?? 0);

        // Played on to the winner.
        for (let i = 0; i < 2_000_000 && tour.state === 'running'; i++) {
          if (timers.runDue(1) === 0) timers.advance(100);
          if (tour.state === 'running' && i % 50 === 0) expect(tour.chipsInPlay()).toBe(tour.chipsIssued());
        }
        expect(tour.state).toBe('finished');
        expect(logs.join('\n')).not.toMatch(/tournament error/);
        expect(placesProblem(tour.all().map((e) => e.place))).toBeNull();
        expect(tour.all().reduce((s, e) => s + e.prize!, 0)).toBe(PLAYERS * 1000);
        expect(op.wallet.audit().problems).toEqual([]);
        const books = tournamentAudit(op.db).play;
        expect(books.tournaments).toBe(0);
        expect(books.fees).toBe(PLAYERS * 100);
        op.outbox.flush();
        const recs = op.vault.byTech('mtt-hfh');
        expect(recs.filter((r) => r.kind === 'POBILAN')).toHaveLength(PLAYERS);
        expect(op.vault.verifyChain().ok).toBe(true);
      } finally {
        await op.close();
      }
    } finally {
      t.cleanup();
    }
  }, 240_000);
});
