/**
 * The table manager: builds each configured cash table with its hooks (wallet and seats, vault,
 * players' history, decision times, the lobby), has the practice players seated at practice tables,
 * finds a player's tables, and closes everything (every player cashed out, R-CASH).
 *
 * The practice players' host is given to it (`PracticeSeats`, implemented by practice/host.ts), so
 * the tables never import practice/ and practice/ imports tables/ only (the
 * manager → practice → table loop is gone).
 */
import type { Lobby } from '../lobby/lobby';
import type { TraceOutbox } from '../trace/outbox';
import type { TraceVault } from '../trace/vault';
import type { Wallet } from '../wallet';
import { cashTableHooks } from './cash';
import type { HandHistoryStore } from '../history/history';
import type { SeatLedger } from './seats';
import { Table, type TableOptions } from './table';
import type { DecisionTimes } from '../fairplay/timings';
import type { Timers } from './timers';
import type { TableSpec } from './types';

/** Who fills the seats of practice tables with the operator's practice players (practice/host.ts). */
export interface PracticeSeats {
  /** Keep `players` practice players at this table. */
  manage(table: Table, players: number): void;
  /** Between hands: top up, make room for people, fill seats again. */
  tend(table: Table): void;
  /** The table's seats changed: tend it soon. */
  schedule(table: Table): void;
  stop(): void;
}

export interface TableManagerDeps {
  wallet: Wallet;
  /** Who holds the chips at each table (crash recovery, recovery.ts). */
  seats: SeatLedger;
  /** Where people's decision times go (R-NOBOT, fair-play report); null: not kept. */
  decisionTimes: DecisionTimes | null;
  vault: TraceVault;
  /** The operator's trace outbox (trace/outbox.ts). */
  outbox?: TraceOutbox;
  history: HandHistoryStore | null;
  lobby: Lobby | null;
  timers: Timers;
  idOper: string;
  /** Options for every table (clock, pauses, grace). */
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper'>>;
  /** Practice tables deal only while a person sits in (default true; benchmarks turn it off). */
  practiceNeedsPeople?: boolean;
  practice: PracticeSeats;
  error: (e: unknown) => void;
  /** The operator's log (voided hands: docs/trace.md). */
  log?: (line: string) => void;
  /** Effective playing time at real-money tables (R-TIMELIMIT; protection/watch.ts). */
  playtime?: Parameters<typeof cashTableHooks>[1]['playtime'];
}

export class TableManager {
  private readonly tables = new Map<string, Table>();
  readonly practice: PracticeSeats;

  constructor(private readonly deps: TableManagerDeps) {
    this.practice = deps.practice;
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
      log: d.log,
      playtime: d.playtime,
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

  /** R-TIMELIMIT, R-EXCLUDE: the person leaves every real-money cash table, after the hand they are in. */
  standUp(accountId: number): void {
    for (const t of this.tables.values()) if (t.spec.money === 'real' && t.spec.mode === 'cash') t.standUpIfIdle(accountId);
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
