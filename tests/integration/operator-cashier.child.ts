/**
 * The operator that operator-cashier.test.ts kills while a payment is pending: a process of its own
 * (`node --import tsx`), full durability, the test payment provider with its `late` card confirmed
 * CERCLE_TEST_LATE_MS after the payment was asked, pending payments asked about every 100 ms. Prints
 * one JSON line `{ "url", "pin" }` when it serves, then runs until killed.
 *
 *   node --import tsx tests/integration/operator-cashier.child.ts <dataDir> <lobby config JSON>
 */
import { tablesOf } from '../../operator/config/config';
import { startOperator } from '../../operator/server/operator';

const [dataDir, config] = process.argv.slice(2);
if (!dataDir || !config) throw new Error('usage: operator-cashier.child.ts <dataDir> <lobby config JSON>');
const op = await startOperator({
  dataDir,
  lobby: tablesOf(JSON.parse(config)),
  accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
  testCardLateMs: Number(process.env.CERCLE_TEST_LATE_MS ?? '60000'),
  reconcileMs: 100,
  durability: 'full',
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify({ url: op.url, pin: op.pin })}\n`);
