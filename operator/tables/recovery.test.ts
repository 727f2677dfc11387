import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handOf } from '../../shared/protocol/hand';
import type { Move } from '../../shared/protocol/messages';
import { legalActions } from '../../shared/rules/engine';
import { makeTableRules } from '../../shared/rules/tableRules';
import { Accounts } from '../accounts';
import { openOperatorDatabase } from '../schema';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { TraceVault } from '../trace/vault';
import { Wallet } from '../wallet';
import { cashTableHooks } from './cash';
import { recoverTables, type RecoveryVault } from './recovery';
import { SeatLedger } from './seats';
import { Table } from './table';
import { ManualTimers } from './timers';
import type { TablePlayer, TableSpec } from './types';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function spec(tableId: string): TableSpec {
  return {
    tableId,
    name: tableId,
    money: 'play',
    practice: false,
    seats: 6,
    buyIn: { min: 2000, max: 10_000 },
    mode: 'cash',
    rules: makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 }, { rake: { basisPoints: 500, cap: 100, noFlopNoDrop: false } }),
  };
}

function toAct(t: Table, people: TablePlayer[]): TablePlayer {
  const seat = legalActions(handOf(t.snapshot(people[0].accountId).table.hand!)).seat;
  return people.find((p) => t.seatOf(p.accountId) === seat)!;
}

function passive(t: Table, p: TablePlayer): Move {
  const legal = legalActions(handOf(t.snapshot(p.accountId).table.hand!));
  if (legal.next === 'show') return { type: 'show' };
  return legal.check ? { type: 'check' } : legal.call !== null ? { type: 'call' } : { type: 'fold' };
}

/** Plays hands at `t` (everyone checks or calls) until `hands` are done; the next hand is not started. */
function play(t: Table, timers: ManualTimers, people: TablePlayer[], hands: number): void {
  let n = 0;
  while (t.handsPlayed < hands) {
    if (!t.handInProgress) timers.runDue();
    const p = toAct(t, people);
    t.act(p.accountId, `${t.tableId}-${n++}`, passive(t, p));
  }
}

describe('crash recovery of the money at tables (R-CASH)', () => {
  it('returns every stack held at tables left without closing, the hand in play voided without a record and a POBILAN each flagged supervision; crashing again at any step pays nothing twice', () => {
    const d = tempDir();
    dirs.push(d);
    const dbPath = join(d.dir, 'operator.sqlite');
    const vaultPath = join(d.dir, 'trace.sqlite');

    // The operator that will crash.
    const db = openOperatorDatabase(dbPath, { synchronous: 'NORMAL' });
    const vault = TraceVault.open({ path: vaultPath, idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
    const wallet = new Wallet(db);
    const seats = new SeatLedger(db);
    const accounts = new Accounts(db);
    // Each table its own clock, so that starting a's hand does not start b's.
    const timersA = new ManualTimers();
    const timersB = new ManualTimers();
    const errors: unknown[] = [];
    const person = (ip: string): TablePlayer => {
      const g = accounts.createGuest({ ip });
      if (!g.ok) throw new Error(g.message);
      wallet.grantPlay(g.account.id, 50_000, { idempotencyKey: `g-${g.account.id}` });
      return { accountId: g.account.id, name: g.account.username, practice: false, ip, sessionId: g.session.sessionId };
    };
    const hooksA = cashTableHooks(spec('a'), { wallet, seats, vault, error: (e) => errors.push(e) });
    const hooksB = cashTableHooks(spec('b'), { wallet, seats, vault, error: (e) => errors.push(e) });
    // At table b, the vault fails once when a leaving player's POBILAN is written (their money is back).
    const left = hooksB.trace.left;
    let failLeave = 1;
    hooksB.trace.left = (p, i, m, o) => {
      if (failLeave-- > 0) throw new Error('vault write failed');
      left(p, i, m, o);
    };
    const a = new Table(spec('a'), hooksA, { timers: timersA, idOper: '0099', betweenHandsMs: 0 });
    const b = new Table(spec('b'), hooksB, { timers: timersB, idOper: '0099', betweenHandsMs: 0 });
    const atA = ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map(person);
    const atB = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map(person);
    for (const p of atA) a.join(p, 6000, { waitForBigBlind: false });
    for (const p of atB) b.join(p, 4000, { waitForBigBlind: false });
    play(a, timersA, atA, 4);
    play(b, timersB, atB, 4);

    // b: one player leaves between hands (the POBILAN write fails); b is between hands at the crash.
    const leaver = atB[0];
    const leaverStack = b.players().find((p) => p.accountId === leaver.accountId)!.stack;
    expect(b.leave(leaver.accountId)).toEqual({ ok: true, cashedOut: leaverStack });
    const leaverWallet = wallet.balance(leaver.accountId, 'play');
    // a: a hand is in play at the crash, with a raise and a call in it.
    const stacks = new Map([...a.players(), ...b.players()].map((p) => [p.accountId, p.stack]));
    const wallets = new Map([...atA, ...atB].map((p) => [p.accountId, wallet.balance(p.accountId, 'play')]));
    timersA.runDue();
    expect(a.handInProgress).toBe(true);
    expect(b.handInProgress).toBe(false); // its next hand waits for a timer that will never fire
    const handA = handOf(a.snapshot(atA[0].accountId).table.hand!);
    const poolA = handA.handId!;
    const raiser = toAct(a, atA);
    a.act(raiser.accountId, 'raise', { type: 'bet', to: legalActions(handOf(a.snapshot(raiser.accountId).table.hand!)).bet!.min });
    const caller = toAct(a, atA);
    a.act(caller.accountId, 'call', { type: 'call' });
    const inHand = atA.filter((p) => !['empty', 'out'].includes(handA.seats[a.seatOf(p.accountId)!].status));
    expect(errors.map((e) => (e as Error).message)).toEqual(['vault write failed']);
    expect(wallet.tableHeld('a')!.held + wallet.tableHeld('b')!.held).toBeGreaterThan(0);
    // The crash: the tables are abandoned mid-hand, never closed; the files stay as they are.
    db.close();
    vault.close();

    // The next start, on the same files, crashing at every step of its recovery until one run completes.
    const db2 = openOperatorDatabase(dbPath, { synchronous: 'NORMAL' });
    const vault2 = TraceVault.open({ path: vaultPath, idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
    try {
      const wallet2 = new Wallet(db2);
      const seats2 = new SeatLedger(db2);
      let budget = 0;
      const step = () => {
        if (budget-- <= 0) throw new Error('crash');
      };
      const crashingVault: RecoveryVault = {
        append: (data, date) => (step(), vault2.append(data, date)),
        byPool: (pool) => vault2.byPool(pool),
        byInscription: (i) => vault2.byInscription(i),
      };
      const transaction = seats2.transaction.bind(seats2);
      seats2.transaction = <T,>(fn: () => T): T => (step(), transaction(fn));
      const forget = seats2.forget.bind(seats2);
      seats2.forget = (i: string) => (step(), forget(i));
      let runs = 0;
      for (;;) {
        budget = 1; // each run does one more step, then crashes
        runs++;
        try {
          recoverTables({ wallet: wallet2, seats: seats2, vault: crashingVault });
          break;
        } catch (e) {
          expect((e as Error).message).toBe('crash');
        }
      }
      expect(runs).toBeGreaterThan(10);

      // Every chip is back with its owner: the stack each had when the hand in play began, or between hands.
      for (const p of [...atA, ...atB.slice(1)]) {
        expect(wallet2.balance(p.accountId, 'play')).toBe(wallets.get(p.accountId)! + stacks.get(p.accountId)!);
      }
      expect(wallet2.balance(leaver.accountId, 'play')).toBe(leaverWallet); // paid once, when they left
      expect(wallet2.tableHeld('a')!.held).toBe(0);
      expect(wallet2.tableHeld('b')!.held).toBe(0);
      expect(wallet2.audit().problems).toEqual([]);
      expect(seats2.all()).toEqual([]);
      expect(vault2.verifyChain().ok).toBe(true);
      const total = [...atA, ...atB].reduce((x, p) => x + wallet2.balance(p.accountId, 'play'), 0);
      expect(total + wallet2.rakeCollected('play')).toBe(6 * 50_000); // to the chip

      // The hand in play is void: no POJEU, and no POANNUL, which would cancel the whole inscription
      // "et tous les évènements qui lui sont liés" (A 1.3.6.c.6).
      expect(inHand.length).toBeGreaterThanOrEqual(2);
      expect(vault2.byPool(poolA)).toEqual([]);
      expect(vault2.byTech('a').filter((r) => r.kind === 'POANNUL')).toEqual([]);
      // Every seating has its POINSCRIT and exactly one POBILAN; the recovered ones carry the stack back.
      for (const tech of ['a', 'b']) {
        const records = vault2.byTech(tech);
        const inscriptions = new Set(records.filter((r) => r.kind === 'POINSCRIT').map((r) => r.inscription));
        expect(inscriptions.size).toBe(3);
        for (const i of inscriptions) {
          const kinds = vault2.byInscription(i!).map((r) => r.kind);
          expect(kinds.filter((k) => k === 'POBILAN')).toEqual(['POBILAN']);
          expect(kinds).not.toContain('POANNUL');
        }
        // Each POBILAN recovery wrote is the operator's, without the player: `supervision` (A 1.3.6.c).
        for (const r of records.filter((x) => x.kind === 'POBILAN')) expect(r.xml.split('\n')[0]).toBe('<POBILAN supervision="true" test="true">');
      }
      const bilan = (p: TablePlayer, tech: string) => {
        const r = vault2.byTech(tech).find((x) => x.kind === 'POBILAN' && x.xml.includes(`<IDJoueur>${p.accountId}</IDJoueur>`))!;
        const v = (tag: string) => Number(new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(r.xml)![1]);
        return { avant: v('SoldeAvant'), mouvement: v('SoldeMouvement'), apres: v('SoldeApres') };
      };
      expect(bilan(atA[1], 'a')).toEqual({ avant: wallets.get(atA[1].accountId), mouvement: stacks.get(atA[1].accountId), apres: wallet2.balance(atA[1].accountId, 'play') });
      // The leaver's lost POBILAN is written from the ledger row of their cash-out.
      expect(bilan(leaver, 'b')).toEqual({ avant: leaverWallet - leaverStack, mouvement: leaverStack, apres: leaverWallet });

      // A later start finds nothing left to do.
      const head = vault2.head();
      expect(recoverTables({ wallet: wallet2, seats: seats2, vault: vault2 })).toMatchObject({ seats: 0, cancelledHands: [], unaccounted: [] });
      expect(vault2.head()).toEqual(head);
    } finally {
      vault2.close();
      db2.close();
    }
  });
});
