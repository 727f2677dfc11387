/**
 * The operator that operator-recovery.test.ts kills: a process of its own (`node --import tsx`), on the
 * data folder and lobby given as arguments, with full durability (every commit on disk, as in
 * production). It prints one JSON line `{ "url", "pin" }` when it serves, then runs until killed; it
 * never closes its tables.
 *
 *   node --import tsx tests/integration/operator-recovery.child.ts <dataDir> <lobby config JSON>
 */
import { tablesOf } from '../../operator/config/config';
import { startOperator } from '../../operator/server/operator';

const [dataDir, config] = process.argv.slice(2);
if (!dataDir || !config) throw new Error('usage: operator-recovery.child.ts <dataDir> <lobby config JSON>');
const op = await startOperator({
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
