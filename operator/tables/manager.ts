/**
 * The table manager: builds each configured cash table with its hooks (wallet and seats, vault,
 * players' history, decision times, the lobby), seats the practice players of practice tables, finds
 * a player's tables, and closes everything (every player cashed out, R-CASH).
 */
import type { Accounts } from '../accounts';
import type { Lobby } from '../lobby/lobby';
import { PracticeHost } from '../practice/host';
import type { PracticeOptions } from '../practice/strategy';
import type { TraceOutbox } from '../trace/outbox';
import type { TraceVault } from '../trace/vault';
import type { Wallet } from '../wallet';
import { cashTableHooks } from './cash';
import type { HandHistoryStore } from './history';
import type { SeatLedger } from './seats';
import { Table, type TableOptions } from './table';
import type { DecisionTimes } from './timings';
import type { Timers } from './timers';
import type { TableSpec } from './types';

export interface TableManagerDeps {
  accounts: Accounts;
  wallet: Wallet;
  /** Who holds the chips at each table (crash recovery, recovery.ts). */
  seats: SeatLedger;
  /** Where people's decision times go (R-NOBOT, fair-play report); null: not kept. */
  decisionTimes: DecisionTimes | null;
  vault: TraceVault;
  /** The operator's trace outbox (trace/outbox.ts; issue 12 item 5). */
  outbox?: TraceOutbox;
  history: HandHistoryStore | null;
  lobby: Lobby | null;
  timers: Timers;
  idOper: string;
  /** Options for every table (clock, pauses, grace). */
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper'>>;
  /** Practice tables deal only while a person sits in (default true; benchmarks turn it off). */
  practiceNeedsPeople?: boolean;
  practice?: PracticeOptions;
  error: (e: unknown) => void;
}

export class TableManager {
  private readonly tables = new Map<string, Table>();
  readonly practice: PracticeHost;

  constructor(private readonly deps: TableManagerDeps) {
    this.practice = new PracticeHost({ accounts: deps.accounts, wallet: deps.wallet, timers: deps.timers, brain: deps.practice });
  }

  add(spec: TableSpec, practicePlayers = 0): Table {
    if (this.tables.has(spec.tableId)) throw new Error(`table ${spec.tableId} exists already`);
    const d = this.deps;
    let table: Table | null = null;
    const times = d.decisionTimes;
    const hooks = cashTableHooks(spec, {
      wallet: d.wallet,
      seats: d.seats,
      vault: d.vault,
      outbox: d.outbox,
      history: d.history ? (accountId, tableId, handId, endedAt, record) => d.history!.add(accountId, tableId, handId, endedAt, record) : undefined,
      decided: times ? (player, decision) => times.record(spec.tableId, spec.money, player, decision) : undefined,
      error: d.error,
      changed: () => {
        if (!table) return;
        d.lobby?.changed(table);
        this.practice.schedule(table);
      },
    });
    hooks.afterHand = () => {
      if (table && practicePlayers > 0) this.practice.tend(table);
    };
    table = new Table(spec, hooks, {
      ...d.table,
      timers: d.timers,
      idOper: d.idOper,
      requireHuman: spec.practice ? (d.practiceNeedsPeople ?? true) : false,
    });
    this.tables.set(spec.tableId, table);
    d.lobby?.add(table);
    if (practicePlayers > 0) this.practice.manage(table, practicePlayers);
    return table;
  }

  get(tableId: string): Table | undefined {
    return this.tables.get(tableId);
  }

  all(): Table[] {
    return [...this.tables.values()];
  }

  /** Tables where this account holds a seat. */
  tablesOf(accountId: number): Table[] {
    return this.all().filter((t) => t.isSeated(accountId));
  }

  /** Closes every table: hands in progress cancelled, every player cashed out with a POBILAN. */
  close(): void {
    this.practice.stop();
    for (const t of this.tables.values()) {
      try {
        t.close();
      } catch (e) {
        this.deps.error(e);
      }
    }
  }
}
