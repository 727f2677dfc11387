/**
 * The operator that operator-recovery.test.ts kills: a process of its own (`node --import tsx`), on the
 * data folder and lobby given as arguments, with full durability (every commit on disk, as in
 * production). It prints one JSON line `{ "url", "pin" }` when it serves, then runs until killed; it
 * never closes its tables.
 *
 *   node --import tsx tests/integration/operator-recovery.child.ts <dataDir> <lobby config JSON>
 *
 * With CERCLE_TEST_KILL_AT_RECOVERY_STEP=n in its environment it kills itself (SIGKILL) right after
 * the n-th durable step of crash recovery (operator-folder.test.ts: an interrupted recovery).
 */
import { tablesOf } from '../../operator/config/config';
import { startOperator } from '../../operator/server/operator';

const [dataDir, config] = process.argv.slice(2);
if (!dataDir || !config) throw new Error('usage: operator-recovery.child.ts <dataDir> <lobby config JSON>');
const killAt = Number(process.env.CERCLE_TEST_KILL_AT_RECOVERY_STEP ?? '0');
let steps = 0;
const op = await startOperator({
  recoveryStep: () => {
    if (killAt > 0 && ++steps === killAt) process.kill(process.pid, 'SIGKILL');
  },
  dataDir,
  lobby: tablesOf(JSON.parse(config)),
  table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
  accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
  rateLimit: { perSecond: 100_000, burst: 100_000, abuse: 1_000_000 },
  trustProxy: true,
  durability: 'full',
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify({ url: op.url, pin: op.pin })}\n`);
