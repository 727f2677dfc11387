/**
 * Practice players at play-money practice tables (DESIGN.md §3 "The embedded default"): the operator's
 * own accounts, named `practice-NN` (a prefix no person may register, accounts.ts), labelled
 * `practice: true` in every view, never seated at a real-money table (the table refuses it).
 *
 * They play with play chips like anybody: granted to their wallets, bought in and cashed out through
 * the ledger, so every chip they win or lose is accounted for. The host keeps each practice table at
 * its target of practice players while leaving a seat free for a person, tops up a practice player
 * who runs short, and makes room (one practice player leaves) when people fill the table.
 */
import type { Accounts } from '../accounts';
import type { Table } from '../tables/table';
import type { Timers } from '../tables/timers';
import type { TablePlayer } from '../tables/types';
import type { Wallet } from '../wallet';
import { PracticeBrain, type PracticeOptions } from './strategy';

/** Play chips a practice account is granted whenever its wallet runs low. */
const PRACTICE_GRANT = 1_000_000_000;

/**
 * The practice account number `n` (`practice-01`, …), created on first use through
 * `Accounts.createPracticeAccount`: no password, play money only, under the reserved `practice` prefix
 * so no person can hold one of these names.
 */
export function practiceAccount(accounts: Accounts, n: number): { id: number; name: string } {
  const r = accounts.createPracticeAccount(`practice-${String(n).padStart(2, '0')}`);
  if (!r.ok) throw new Error(`practice account ${n}: ${r.code}: ${r.message}`);
  return { id: r.account.id, name: r.account.username };
}

export interface PracticeHostOptions {
  accounts: Accounts;
  wallet: Wallet;
  timers: Timers;
  brain?: PracticeOptions;
}

export class PracticeHost {
  private readonly pool: TablePlayer[] = [];
  private readonly targets = new Map<Table, number>();
  private readonly tending = new Set<Table>();
  private readonly busy = new Set<Table>();
  private grants = 0;
  private stopped = false;

  constructor(private readonly o: PracticeHostOptions) {}

  private player(n: number): TablePlayer {
    while (this.pool.length <= n) {
      const a = practiceAccount(this.o.accounts, this.pool.length + 1);
      this.pool.push({ accountId: a.id, name: a.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' });
    }
    return this.pool[n];
  }

  private fund(p: TablePlayer, need: number): void {
    if (this.o.wallet.balance(p.accountId, 'play') >= need) return;
    const r = this.o.wallet.grantPlay(p.accountId, PRACTICE_GRANT, { idempotencyKey: `grant:practice:${p.accountId}:${Date.now()}:${++this.grants}` });
    if (!r.ok) throw new Error(`practice grant refused: ${r.code}`);
  }

  /** Keeps `target` practice players at `table` (fewer when people need the seats). */
  manage(table: Table, target: number): void {
    if (table.spec.money !== 'play' || !table.spec.practice) throw new Error(`${table.tableId} is not a play-money practice table`);
    this.targets.set(table, target);
    this.tend(table);
  }

  /** Called between hands and when seats change; deferred so it never runs inside the table's own work. */
  schedule(table: Table): void {
    if (this.stopped || !this.targets.has(table) || this.tending.has(table)) return;
    this.tending.add(table);
    this.o.timers.set(() => {
      this.tending.delete(table);
      this.tend(table);
    }, 0);
  }

  /** No more seating or topping up (the operator is closing). */
  stop(): void {
    this.stopped = true;
  }

  tend(table: Table): void {
    const target = this.targets.get(table);
    if (this.stopped || target === undefined || this.busy.has(table)) return;
    // A join can start a hand that ends at once (practice players decide without delay) and call back here.
    this.busy.add(table);
    try {
      this.tendNow(table, target);
    } finally {
      this.busy.delete(table);
    }
  }

  private tendNow(table: Table, target: number): void {
    const seated = table.players();
    const practice = seated.filter((p) => p.practice);
    const people = seated.length - practice.length;
    // Leave one seat free for a person who wants to sit.
    const want = Math.max(0, Math.min(target, table.spec.seats - people - 1));
    const { min, max } = table.spec.buyIn;
    const buyIn = Math.min(max, Math.max(min, Math.round((min + max) / 2)));
    if (practice.length > want && people > 0) {
      const leaving = practice[practice.length - 1];
      table.leave(leaving.accountId);
    }
    for (const p of practice) {
      // A practice player short of chips buys back in to the usual stack.
      if (p.stack < min / 2 && !table.handInProgress) {
        const player = this.pool.find((x) => x.accountId === p.accountId);
        if (!player) continue;
        this.fund(player, buyIn);
        const add = buyIn - p.stack;
        if (add > 0) table.topUp(p.accountId, add);
        if (p.sittingOut) table.sitIn(p.accountId, false);
      }
    }
    let n = 0;
    for (let count = practice.length; count < want; n++) {
      const player = this.player(n);
      if (table.isSeated(player.accountId)) continue;
      this.fund(player, buyIn);
      const r = table.join(player, buyIn, { waitForBigBlind: false, brain: new PracticeBrain(this.o.brain) });
      if (!r.ok) break;
      count++;
    }
  }
}
