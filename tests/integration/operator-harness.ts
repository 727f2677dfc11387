/**
 * In-process operators for the attack tests (real TLS sockets on loopback, real SQLite files
 * in a temporary folder): each started operator is closed and its folder removed after the test.
 */
import { afterEach } from 'vitest';
import { tablesOf, type TableEntry } from '../../operator/config/config';
import { startOperator, type OperatorOptions, type RunningOperator } from '../../operator/server/operator';
import { tempDir } from '../support/operator/temp-dir';

/** One play-money Hold'em table, `p1`. */
export const PLAY_TABLE: TableEntry = { id: 'p1', name: 'P1', variant: 'THNL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 } };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** Starts an operator with `tables` (fast scrypt: many logins in a test), closed after the test. */
export async function testOperator(idOper: string, tables: TableEntry[], options: Partial<OperatorOptions> = {}): Promise<RunningOperator> {
  const t = tempDir();
  const op = await startOperator({
    dataDir: t.dir,
    lobby: tablesOf({ version: 1, operator: { idOper, idCoffre: 1, name: `Test ${idOper}` }, tables }),
    accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
    log: () => undefined,
    ...options,
  });
  cleanup.push(async () => {
    await op.close();
    t.cleanup();
  });
  return op;
}
