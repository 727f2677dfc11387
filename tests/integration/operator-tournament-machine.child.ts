/**
 * The runner's crash test's process (operator-tournament-machine.test.ts): runs the driven tournament
 * on a data folder, killing itself with SIGKILL after `killAfter` events (0: never); prints `done`
 * when the tournament is over.
 *
 *   node --import tsx tests/integration/operator-tournament-machine.child.ts <dataDir> <players> <seed> <killAfter>
 */
import { drive, openFolder, people } from '../support/operator/machine-driver';

const [dir, players, seed, killAfter] = process.argv.slice(2);
const f = openFolder(dir);
await people(f, Number(players));
const k = Number(killAfter);
const ended = drive(f, Number(players), Number(seed), k > 0 ? k : Infinity);
if (!ended) process.kill(process.pid, 'SIGKILL');
f.close();
process.stdout.write('done\n');
