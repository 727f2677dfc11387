/**
 * The operator process operator-tournament-hfh.test.ts kills in the middle of a hand-for-hand round: the
 * operator's tournament layer (its database with full durability, wallet,
 * trace vault and outbox, the tournament store and hub, the Tables) on the data folder given, playing
 * a multi-table tournament of scripted practice players. Everything that draws is seeded (seats, the
 * deal, the players' choices) and time is the operator's manual clock driven here, so the run is the
 * same every time. When a hand-for-hand round has `busts` players out at some tables while another
 * table is still playing its hand of the round, it prints that moment as one JSON line and SIGKILLs
 * itself: the kill lands exactly there, every write before it committed, the hands in play unsettled.
 * If the run ends without such a moment it prints `{ "moment": null }` and exits 0.
 *
 *   node --import tsx tests/integration/operator-hfh.child.ts <dataDir> <seed> <busts>
 */
import { join } from 'node:path';
import { Accounts } from '../../operator/accounts';
import { practiceAccount } from '../../operator/practice/host';
import { openOperatorDatabase } from '../../operator/schema';
import { ManualTimers } from '../../operator/tables/timers';
import { TournamentHub } from '../../operator/tournaments/hub';
import { TraceOutbox } from '../../operator/trace/outbox';
import { TraceVault } from '../../operator/trace/vault';
import { Wallet } from '../../operator/wallet';
import { seeded, Shover } from '../support/operator/shover';
import { tournamentSpec } from '../support/operator/tournament-spec';

const HFH_PLAYERS = 30;

const [dataDir, seedText, bustsText] = process.argv.slice(2);
if (!dataDir || !seedText || !bustsText) throw new Error('usage: operator-hfh.child.ts <dataDir> <seed> <busts>');
const seed = Number(seedText);
const db = openOperatorDatabase(join(dataDir, 'operator.sqlite'), { synchronous: 'FULL' });
const vault = TraceVault.open({ path: join(dataDir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'FULL' });
const timers = new ManualTimers(Date.UTC(2026, 0, 1));
const accounts = new Accounts(db, { clock: () => timers.now() });
const wallet = new Wallet(db, { clock: () => timers.now() });
const hub = new TournamentHub({
  accounts,
  wallet,
  db,
  outbox: new TraceOutbox(db, vault),
  timers,
  idOper: '0099',
  seed: seed,
  // The deal seeded too (a test only; the operator deals with crypto, R-DEAL).
  table: { betweenHandsMs: 1000, practiceDelayMs: [10, 50], random: seeded(seed * 13 + 5), dealRandom: seeded(seed * 31 + 7) },
  practiceFillMs: null,
  error: (e) => process.stderr.write(`tournament error: ${(e as Error)?.stack ?? String(e)}\n`),
});
// 3-seat tables: the bubble (5 paid of 30, 6 players left) is played over 2 or 3 tables.
hub.add(tournamentSpec({ id: 'mtt-hfh', name: 'Hand for hand', format: 'scheduled', seats: 3, maxEntrants: HFH_PLAYERS, minEntrants: 2, startAt: timers.now() + 1000 }));
const t = hub.get('mtt-hfh')!;
const rng = seeded(seed * 7919 + 1);
for (let n = 0; n < HFH_PLAYERS; n++) {
  const a = practiceAccount(accounts, 500 + n);
  wallet.grantPlay(a.id, 10_000, { idempotencyKey: `grant:hfh:${a.id}` });
  const r = t.register({ accountId: a.id, name: a.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' }, t.version, { brain: new Shover(rng, 0.8) });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
}
const busts = Number(bustsText);
// One timer a step, the clock moved 5 ms when none is due: two tables' hands never end in one step.
for (let i = 0; i < 20_000_000 && t.state !== 'finished'; i++) {
  if (timers.runDue(1) === 0) timers.advance(5);
  const round = t.round;
  const playing = t.liveTables().filter((x) => x.handInProgress);
  if (t.inHandForHand || round.tables > 0) {
    if (round.busted.length >= busts && new Set(round.busted.map((b) => b.stack)).size === round.busted.length && playing.length > 0) {
      const moment = { busted: round.busted, playing: playing.map((x) => x.tableId), remaining: t.remaining, placesPaid: t.prizes().filter((p) => p > 0).length };
      process.stdout.write(`${JSON.stringify({ moment })}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  }
}
process.stdout.write(`${JSON.stringify({ moment: null, state: t.state })}\n`);
