/**
 * The operator that operator-tournament-crash.test.ts kills: a process of its own (`node --import
 * tsx`) on the data folder given, full durability, time 20 times faster, offering one play-money
 * multi-table tournament that starts at the given time (ms since the epoch) with practice players it
 * registers itself on its first run. It prints one JSON line `{ "url", "pin" }` when it serves, then
 * runs until killed; it never closes.
 *
 *   node --import tsx tests/integration/operator-tournament.child.ts <dataDir> <startAt> <players>
 */
import { practiceAccount } from '../../operator/practice/host';
import { PracticeBrain } from '../../operator/practice/strategy';
import { startOperator } from '../../operator/server/operator';
import { scaledTimers } from '../../operator/tables/timers';
import { tournamentSpec } from '../support/operator/tournament-spec';

const [dataDir, startAt, players] = process.argv.slice(2);
if (!dataDir || !startAt || !players) throw new Error('usage: operator-tournament.child.ts <dataDir> <startAt> <players>');
const op = await startOperator({
  dataDir,
  lobby: { config: { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Crash' }, tables: [] }, tables: [] },
  timers: scaledTimers(20),
  table: { betweenHandsMs: 1000, practiceDelayMs: [40, 200] },
  durability: 'full',
  log: (line) => process.stderr.write(`${line}\n`),
  tournaments: {
    practiceFillMs: null,
    specs: [tournamentSpec({ id: 'mtt-kill', name: 'Kill', format: 'scheduled', maxEntrants: 100, minEntrants: 2, startAt: Number(startAt) })],
  },
});
const t = op.tournaments.get('mtt-kill')!;
if (t.state === 'registering' && t.entries === 0) {
  for (let n = 0; n < Number(players); n++) {
    const a = practiceAccount(op.accounts, 200 + n);
    const p = { accountId: a.id, name: a.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
    op.wallet.grantPlay(a.id, 10_000, { idempotencyKey: `grant:kill:${a.id}` });
    const r = t.register(p, t.version, { brain: new PracticeBrain({ samples: 2 }) });
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  }
}
process.stdout.write(`${JSON.stringify({ url: op.url, pin: op.pin })}\n`);

// What the test reads when the tournament does not end in time (a stall met once in CI, under load):
// on SIGUSR2, the tournament's state and each live table's players, stacks and whether a hand is in play.
process.on('SIGUSR2', () => {
  const tables = t.liveTables().map((x) => ({ tableId: x.tableId, hand: x.handInProgress, players: x.players().map((p) => ({ seat: p.seat, stack: p.stack, out: p.sittingOut })) }));
  process.stderr.write(`state: ${JSON.stringify({ state: t.state, tables })}\n`);
});
