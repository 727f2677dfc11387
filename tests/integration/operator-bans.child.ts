/**
 * The operator that operator-bans.test.ts replaces the ban file under (R-BANNED): a process of its own
 * (`node --import tsx`), two real-money cash tables and a real-money sit & go, the network-free test
 * payment provider, short pauses between hands. Prints one JSON line `{ "url", "pin" }` when it serves,
 * then runs until killed.
 *
 *   node --import tsx tests/integration/operator-bans.child.ts <dataDir> <lobby config JSON>
 */
import { tablesOf } from '../../operator/config/config';
import { startOperator } from '../../operator/server/operator';
import { tournamentSpec } from '../support/operator/tournament-spec';

const [dataDir, config] = process.argv.slice(2);
if (!dataDir || !config) throw new Error('usage: operator-bans.child.ts <dataDir> <lobby config JSON>');
const op = await startOperator({
  dataDir,
  lobby: tablesOf(JSON.parse(config)),
  accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
  table: { betweenHandsMs: 100 },
  // A real-money sit & go that does not start in the test (6 seats): a registration waiting for it.
  tournaments: { specs: [tournamentSpec({ id: 'sng-real', name: 'SNG real', money: 'real' })], practiceFillMs: null },
  durability: 'normal',
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify({ url: op.url, pin: op.pin })}\n`);
