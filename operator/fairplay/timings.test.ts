import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handOf } from '../../shared/protocol/hand';
import type { Move, TableEvent } from '../../shared/protocol/messages';
import { legalActions } from '../../shared/rules/engine';
import { prng } from '../../shared/rules/engine/test-support';
import { makeTableRules } from '../../shared/rules/tableRules';
import { Accounts } from '../accounts';
import { runCli } from '../cli';
import { openOperatorDatabase } from '../schema';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { cashTableHooks } from '../tables/cash';
import { fairPlayReport, formatFairPlayReport, regularDeciders } from './fairplay';
import { SeatLedger } from '../tables/seats';
import { Table } from '../tables/table';
import { ManualTimers } from '../tables/timers';
import { DecisionTimes } from './timings';
import type { TablePlayer, TableSpec } from '../tables/types';

const spec: TableSpec = {
  tableId: 'timed',
  name: 'Timed',
  money: 'play',
  practice: false,
  seats: 6,
  buyIn: { min: 2000, max: 10_000 },
  mode: 'cash',
  rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }, { actionSeconds: 30, timeBankSeconds: 0 }),
};

describe('decision times for the fair-play report (R-NOBOT: near-constant action times)', () => {
  it('times each decision from the turn announced, and the report lists a fast constant-time client, not a person whose times vary', async () => {
    const t = tempDir();
    try {
      const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
      const vault = TraceVault.open({ path: join(t.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
      const timers = new ManualTimers(); // the table's clock: decisions are timed by it
      const wallet = new Wallet(db);
      const accounts = new Accounts(db);
      const times = new DecisionTimes(db);
      const errors: unknown[] = [];
      const hooks = cashTableHooks(spec, {
        wallet,
        seats: new SeatLedger(db),
        vault,
        decided: (player, d) => times.record(spec.tableId, spec.money, player, d),
        error: (e) => errors.push(e),
      });
      const table = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 1000 });
      const person = (ip: string): TablePlayer => {
        const g = accounts.createGuest({ ip });
        if (!g.ok) throw new Error(g.message);
        wallet.grantPlay(g.account.id, 1_000_000, { idempotencyKey: `g-${g.account.id}` });
        return { accountId: g.account.id, name: g.account.username, practice: false, ip, sessionId: g.session.sessionId };
      };
      const bot = person('203.0.113.1');
      const human = person('203.0.113.2');
      const rng = prng(7);
      // The scripted client answers 700 to 720 ms after its turn; the person takes 1 to 20 s, mostly short.
      const delays = new Map<number, () => number>([
        [bot.accountId, () => 700 + Math.floor(rng() * 21)],
        [human.accountId, () => Math.round(1000 * Math.exp(rng() * Math.log(20)))],
      ]);
      const decided = new Map<number, number[]>([
        [bot.accountId, []],
        [human.accountId, []],
      ]);
      let ids = 0;
      const playerFor = (p: TablePlayer) => (frame: string) => {
        const m = JSON.parse(frame) as { type: string; event?: TableEvent };
        const e = m.event;
        if (m.type !== 'table.event' || e?.type !== 'turn' || e.turn.seat !== table.seatOf(p.accountId) || e.turn.actionMs === 0) return;
        const delay = delays.get(p.accountId)!();
        timers.set(() => {
          const view = table.snapshot(p.accountId).table.hand;
          const hand = view ? handOf(view) : null;
          if (!hand) return;
          const legal = legalActions(hand);
          if (legal.seat !== table.seatOf(p.accountId)) return;
          const move: Move = legal.next === 'show' ? { type: 'show' } : legal.check ? { type: 'check' } : legal.call !== null ? { type: 'call' } : { type: 'fold' };
          if (table.act(p.accountId, `a${ids++}`, move).ok && legal.next !== 'show') decided.get(p.accountId)!.push(delay);
        }, delay);
      };
      for (const p of [bot, human]) {
        table.join(p, 10_000, { waitForBigBlind: false });
        table.attach(p.accountId, playerFor(p));
      }
      timers.runDue();
      for (let i = 0; i < 20_000 && Math.min(...[...decided.values()].map((d) => d.length)) < 80; i++) timers.advance(500);
      table.close();
      expect(errors).toEqual([]);

      // Stored per account, as the table's clock measured them (show/muck are left out of the statistics).
      const stats = times.stats({ includePlayMoney: true });
      const of = (p: TablePlayer) => stats.find((s) => s.accountId === p.accountId)!;
      expect(of(bot).decisions).toBe(decided.get(bot.accountId)!.length);
      expect(of(human).decisions).toBe(decided.get(human.accountId)!.length);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(of(bot).meanMs).toBeCloseTo(mean(decided.get(bot.accountId)!), 6);
      expect(of(human).meanMs).toBeCloseTo(mean(decided.get(human.accountId)!), 6);
      expect(of(bot).sdMs / of(bot).meanMs).toBeLessThan(0.02);
      expect(of(human).sdMs / of(human).meanMs).toBeGreaterThan(0.5);
      // Real money only by default: these were play chips.
      expect(times.stats()).toEqual([]);

      // The report: the constant-time client is listed, the person is not.
      const report = fairPlayReport([], { includePlayMoney: true, decisionTimes: stats });
      expect(report.regularDeciders!.map((d) => d.accountId)).toEqual([bot.accountId]);
      expect(regularDeciders(stats, { minDecisions: 1000, maxCv: 0.2 })).toEqual([]); // too few decisions to judge
      const text = formatFairPlayReport(report).join('\n');
      expect(text).toContain(`${bot.accountId} (${bot.name}): ${of(bot).decisions} decisions, mean 71`);
      expect(text).not.toContain(`${human.accountId} (${human.name})`);
      vault.close();
      db.close();

      // The same from the command line, on the data folder.
      const out: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), stopSignal: () => Promise.resolve() };
      const config = join(t.dir, 'lobby.json');
      writeFileSync(config, JSON.stringify({ version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'T' }, tables: [{ id: 'x', name: 'X', variant: 'THNL', money: 'play', stakes: { smallBlind: 1, bigBlind: 2 }, seats: 6, buyIn: { min: 40, max: 200 } }] }));
      expect(await runCli(['report', '--data', t.dir, '--config', config, '--play', 'yes'], io)).toBe(0);
      expect(out.join('\n')).toContain('accounts with near-constant decision times, 50+ decisions, CV <= 0.20 (review for robot play, R-NOBOT):');
      expect(out.join('\n')).toContain(`  ${bot.accountId} (${bot.name}): `);
      expect(out.join('\n')).not.toContain(`${human.accountId} (${human.name})`);
      out.length = 0;
      expect(await runCli(['report', '--data', t.dir, '--config', config], io)).toBe(0); // real money only
      expect(out.join('\n')).toContain('no account with near-constant decision times');
      expect(await runCli(['report', '--data', t.dir, '--config', config, '--max-cv', 'lots'], io)).toBe(2);
    } finally {
      t.cleanup();
    }
  });
});
