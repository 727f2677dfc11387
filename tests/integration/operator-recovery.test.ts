/**
 * Crash recovery over real parts (R-CASH: players keep their winnings; money is never lost): an
 * operator runs in a process of its own (operator-recovery.child.ts) on a data folder, real clients
 * play at a raked real-money table and at a practice table over pinned TLS, and the process is killed
 * with SIGKILL mid-hand: no `close()`, no cash-out, nothing flushed but what each commit wrote. An
 * operator started again on the same folder returns every stack to its owner before serving, voids
 * the hands in play (no record: docs/trace.md) and closes each seating (POBILAN,
 * flagged supervision).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import { prng } from '../../shared/rules/engine/test-support';
import { runCli } from '../../operator/cli';
import { tablesOf, type OperatorConfig } from '../../operator/config/config';
import { Protection } from '../../operator/protection/service';
import { openOperatorDatabase } from '../../operator/schema';
import { startOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { startOperatorProcess } from './operator-process';
import { tempDir } from '../support/operator/temp-dir';
import { Wallet } from '../../operator/wallet';

const CHILD = fileURLToPath(new URL('./operator-recovery.child.ts', import.meta.url));

const CONFIG: OperatorConfig = {
  version: 1,
  operator: { idOper: '0099', idCoffre: 1, name: 'Crash' },
  tables: [
    {
      id: 'cash',
      name: 'Cash',
      variant: 'THNL',
      money: 'real',
      stakes: { smallBlind: 5, bigBlind: 10 },
      seats: 6,
      buyIn: { min: 400, max: 2000 },
      rake: { basisPoints: 500, cap: 30, noFlopNoDrop: true },
      actionSeconds: 600, // a paused player holds the hand in play until the kill
    },
    { id: 'practice', name: 'Practice', variant: 'O4JL', money: 'play', stakes: { smallBlind: 10, bigBlind: 20 }, seats: 6, buyIn: { min: 400, max: 2000 }, practicePlayers: 2, actionSeconds: 600 },
  ],
};

/** Starts the operator process; resolves when it serves. */
function startChild(dataDir: string): ReturnType<typeof startOperatorProcess> {
  return startOperatorProcess(CHILD, dataDir, CONFIG);
}

async function until(cond: () => boolean, ms: number, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('an operator killed mid-hand (R-CASH)', () => {
  it('returns every cent held at its tables on the next start, before serving: the hands in play voided without a record, a POBILAN flagged supervision for each seating, books and chain intact', async () => {
    const t = tempDir();
    let child: ChildProcess | undefined;
    try {
      const running = await startChild(t.dir);
      child = running.child;
      const { url, pin } = running;
      // The test's own connection to the operator's database, as a back office would: deposits, balances.
      const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
      const books = new Wallet(db);
      const limits = new Protection(db);

      const names = ['amelie', 'basile', 'celine'];
      const cash: { p: AutoPlayer; id: number }[] = [];
      for (let i = 0; i < names.length; i++) {
        const c = await TestClient.connect(url, pin, { forwardedFor: `203.0.113.${i + 1}` });
        await c.hello();
        const r = await c.request({ type: 'register', username: names[i], password: `${names[i]}-password` });
        if (r.type !== 'authed') throw new Error(JSON.stringify(r));
        expect(books.deposit(r.account.id, 100_000, { idempotencyKey: `dep-${names[i]}` })).toMatchObject({ ok: true }); // 1,000.00 €
        // R-LIMITS, R-TIMELIMIT: no stake before the player sets both limits.
        limits.setLimit(r.account.id, 'stake', 1_000_000);
        limits.setLimit(r.account.id, 'time', 24 * 3_600_000);
        const p = new AutoPlayer(c, prng(500 + i));
        p.rebuy = 2000;
        expect(await c.join('cash', 2000)).toMatchObject({ type: 'table.joined' });
        cash.push({ p, id: r.account.id });
      }
      const gc = await TestClient.connect(url, pin, { forwardedFor: '198.51.100.7' });
      await gc.hello();
      const ga = (await gc.request({ type: 'guest' })) as Extract<ServerMessage, { type: 'authed' }>;
      const guest = new AutoPlayer(gc, prng(99));
      guest.rebuy = 2000; // never out of chips, so always dealt in
      expect(await gc.join('practice', 2000)).toMatchObject({ type: 'table.joined' });

      // Play some hands, then everyone stops acting: each table stays in a hand, waiting for a person.
      await until(() => cash[0].p.handsEnded >= 40 && guest.handsEnded >= 10, 60_000, () => `${cash[0].p.handsEnded} and ${guest.handsEnded} hands`);
      for (const x of [...cash.map((c) => c.p), guest]) x.paused = true;
      const waiting = (x: AutoPlayer, tableId: string, mine: boolean) => {
        const s = x.tables.get(tableId);
        return !!s?.hand && s.turn !== null && (!mine || s.turn === s.seat);
      };
      const state = (x: AutoPlayer, tableId: string) => {
        const s = x.tables.get(tableId);
        return JSON.stringify({ seat: s?.seat, turn: s?.turn, phase: s?.hand?.phase ?? null, stacks: s?.hand?.stacksBefore });
      };
      await until(
        () => waiting(cash[0].p, 'cash', false) && waiting(guest, 'practice', true),
        30_000,
        () => `a hand waiting for a person at each table: cash ${state(cash[0].p, 'cash')}, practice ${state(guest, 'practice')}`,
      );
      await new Promise((r) => setTimeout(r, 300)); // anything in flight (a rebuy between hands) lands first
      const before = new Map(cash.map((c) => [c.id, books.balance(c.id, 'real')]));
      const guestBefore = books.balance(ga.account.id, 'play');
      const handOf = (x: AutoPlayer, tableId: string) => x.tables.get(tableId)!.hand!;
      const cashHand = handOf(cash[0].p, 'cash');
      const practiceHand = handOf(guest, 'practice');
      const held = books.tableHeld('cash')!.held;
      expect(held).toBeGreaterThan(0);
      db.close();

      // The crash.
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      child = undefined;
      for (const x of [...cash.map((c) => c.p), guest]) await x.client.close();

      // The next start, on the same folder.
      const op = await startOperator({ dataDir: t.dir, lobby: tablesOf(CONFIG), table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] }, accounts: { scrypt: { N: 1024, r: 8, p: 1 } }, log: () => undefined });
      try {
        // Before serving: 3 people at the cash table, the guest and 2 practice players at the practice table.
        expect(op.recovered.seats).toBe(6);
        expect(op.recovered.cancelledHands.sort()).toEqual([cashHand.handId, practiceHand.handId].sort());
        expect(op.recovered.unaccounted).toEqual([]);
        expect(op.recovered.returned.real).toBe(held);

        // Every cent: the players' wallets and the rake hold exactly what was deposited.
        const audit = op.wallet.audit();
        expect(audit.problems).toEqual([]);
        expect(op.wallet.tableHeld('cash')!.held).toBe(0);
        const wallets = cash.reduce((x, c) => x + op.wallet.balance(c.id, 'real'), 0);
        expect(wallets + op.wallet.rakeCollected('real')).toBe(300_000);
        expect(op.wallet.rakeCollected('real')).toBeGreaterThan(0);
        // Each player in the hand gets back the stack they had when it began (their stakes too).
        let inHand = 0;
        for (const c of cash) {
          const seat = c.p.tables.get('cash')!.seat!;
          if (['in', 'allin', 'folded'].includes(cashHand.seats[seat].status)) {
            expect(op.wallet.balance(c.id, 'real')).toBe(before.get(c.id)! + cashHand.stacksBefore[seat]);
            inHand++;
          }
        }
        expect(inHand).toBeGreaterThanOrEqual(2);
        const guestSeat = guest.tables.get('practice')!.seat!;
        expect(op.wallet.balance(ga.account.id, 'play')).toBe(guestBefore + practiceHand.stacksBefore[guestSeat]);

        // The trace: chain intact; the hands in play void, with no record (neither a POJEU nor a
        // POANNUL: A 1.3.6.c.6, docs/trace.md); every seating closed with one POBILAN, the operator's.
        expect(op.vault.verifyChain().ok).toBe(true);
        // Recovery wrote before anything else: its first POBILAN follows every record of the crashed operator.
        const boundary = Math.min(...op.vault.byTech('cash').filter((r) => r.kind === 'POBILAN').map((r) => r.idEvt));
        for (const [tableId, hand] of [['cash', cashHand], ['practice', practiceHand]] as const) {
          expect(op.vault.byPool(hand.handId!)).toEqual([]);
          expect(op.vault.byTech(tableId).filter((r) => r.kind === 'POANNUL')).toEqual([]);
          const seatings = op.vault.byTech(tableId).filter((r) => r.kind === 'POINSCRIT' && r.idEvt < boundary);
          expect(seatings.length).toBeGreaterThanOrEqual(3);
          for (const r of seatings) {
            const bilans = op.vault.byInscription(r.inscription!).filter((x) => x.kind === 'POBILAN');
            expect(bilans.length, r.inscription!).toBe(1);
            expect(bilans[0].xml.split('\n')[0]).toMatch(/^<POBILAN supervision="true"/);
          }
        }

        // A player who comes back finds no seat and their money in the wallet.
        const back = await TestClient.connect(op.url, op.pin);
        await back.hello();
        const again = await back.request({ type: 'login', username: 'amelie', password: 'amelie-password' });
        expect(again).toMatchObject({ type: 'authed', seated: [], balances: { real: op.wallet.balance(cash[0].id, 'real') } });
        await back.close();
      } finally {
        await op.close();
      }
      // Closed properly this time: a further start has nothing to recover; the command line agrees.
      const third = await startOperator({ dataDir: t.dir, lobby: tablesOf(CONFIG), log: () => undefined });
      expect(third.recovered.seats).toBe(0);
      await third.close();
      const lines: string[] = [];
      const config = join(t.dir, 'lobby.json');
      writeFileSync(config, JSON.stringify(CONFIG));
      expect(await runCli(['trace', 'verify', '--data', t.dir, '--config', config], { out: (l) => lines.push(l), err: (l) => lines.push(l), stopSignal: () => Promise.resolve() })).toBe(0);
      expect(lines.join('\n')).toMatch(/trace chain intact/);
    } finally {
      child?.kill('SIGKILL');
      t.cleanup();
    }
  });
});
