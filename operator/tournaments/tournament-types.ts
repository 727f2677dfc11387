/**
 * A tournament's types: what it needs from the operator, what it tells its players, an
 * entrant and how the store keeps one. Split out of tournament.ts (no file over 600 lines).
 */
import type { HandTournament } from '../../shared/protocol/messages';
import type { HandRecord } from '../../shared/rules/record';
import type { Brain, TablePlayer, TableRefusal } from '../tables/types';
import type { Table, TableOptions } from '../tables/table';
import type { RandomInt } from '../tables/deck';
import type { Timers } from '../tables/timers';
import type { Db } from '../../shared/node/sqlite';
import type { TraceOutbox } from '../trace/outbox';
import type { Wallet } from '../wallet';
import type { TournamentStore } from './store';
import type { Tournament } from './tournament';

export interface TournamentDeps {
  wallet: Wallet;
  /** The operator database: a money movement and its trace record commit together. */
  db: Db;
  outbox: TraceOutbox;
  timers: Timers;
  /**
   * Tests and demos only (the browser host's `--tournament-clock`): the tournament's clock (levels,
   * breaks, late registration, the rebuy period and the add-on) runs this many times faster than
   * `timers`; the tables' action clocks and pauses do not. Absent: 1, the operator's real clock.
   */
  clockRate?: number;
  idOper: string;
  /** Seats and tables drawn (R-RANDSEAT): the CSPRNG, or a seeded one in tests. */
  random?: RandomInt;
  table?: Partial<Omit<TableOptions, 'timers' | 'idOper' | 'random'>>;
  error: (e: unknown) => void;
  log?: (line: string) => void;
  /** What players are told (the protocol layer): seats, moves, eliminations, the end. */
  notify?: (n: TournamentNotice) => void;
  /** The operator's other tournaments: a satellite's seats are entries in its target (T 1-5). */
  directory?: (id: string) => Tournament | undefined;
  /** Where the tournament's state is kept, in the steps that change it (crash safety). */
  store?: TournamentStore;
  /** The players' hand histories (R-HISTORY): a tournament hand carries its tournament and level. */
  history?: { add(accountId: number, tableId: string, handId: string, endedAt: number, record: HandRecord, tournament: HandTournament): void };
  /** A practice player's brain, for practice entrants restored after a restart. */
  brain?: () => Brain;
  /**
   * Effective playing time (R-TIMELIMIT, decree 2010-518 art. 16-1; protection/watch.ts): real-money
   * tournament tables count it like cash tables, but at the limit the player finishes the tournament
   * (no entry to another: the wallet's stake check refuses it).
   */
  playtime?: { handDealt(accountId: number, tableId: string): void; left(accountId: number, tableId: string): void };
}

export type TournamentState = 'registering' | 'running' | 'finished' | 'cancelled';

/**
 * Why a person may no longer play (R-EXCLUDE, R-BANNED; server/closure.ts): a self-exclusion, a ban
 * (the national file), or an account closed by its holder. Their registrations not started are
 * refunded, and they leave running tournaments as a disqualified player does (T 13-1).
 */
export type ExclusionWhy = 'banned' | 'self-excluded' | 'closed';

/**
 * Why a player sits where they sit (`tournament.seat.why`): the start's draw, a late
 * entry, a move to balance the tables (T 6-8 to 6-10), a broken table's player (T 6-6, 6-11), or a
 * busted player back in after a rebuy or a re-entry (T 5-2).
 */
export type SeatWhy = 'start' | 'late' | 'balance' | 'broken' | 'back';

/** What the tournament tells its players (shared/protocol/tournament.ts carries them). */
export type TournamentNotice =
  | { type: 'state'; tournamentId: string; state: TournamentState }
  | { type: 'seated'; tournamentId: string; accountId: number; tableId: string; seat: number; moved: boolean; why: SeatWhy }
  | { type: 'finished'; tournamentId: string; accountId: number; place: number; tied: number; prize: number; bounties: number }
  | { type: 'clock'; tournamentId: string; level: number; onBreak: boolean }
  /**
   * A hand was settled at a table where people play (their standing after each hand):
   * the people seated there and those the hand eliminated. Not sent for tables of practice players only.
   */
  | { type: 'hand'; tournamentId: string; tableId: string; accountIds: number[] }
  /** An excluded person left the running tournament (R-EXCLUDE, R-BANNED; their place follows when known). */
  | { type: 'removed'; tournamentId: string; accountId: number; why: ExclusionWhy };

export interface Entrant {
  player: TablePlayer;
  brain: Brain | null;
  /** The POINSCRIT's Inscription (A 1.3.6.b): one per registration. */
  inscription: string;
  /** Chips: the last settled stack (at a table: at the start of the hand in play). */
  stack: number;
  table: Table | null;
  /** Eliminated (or, before the start, never). */
  out: boolean;
  /** Final place, 1 = the winner (null while playing, or until late registration closes). */
  place: number | null;
  prize: number | null;
  /** Left after the start: sat out for good, blinded away (R-TOURN-LEAVE, T 2-15). */
  forfeited: boolean;
  rebuys: number;
  addOn: boolean;
  reEntries: number;
  /** The bounty on the player's head (money in the fund), paid to who eliminates them. */
  bounty: number;
  /** Bounties the player won so far (money paid to their wallet). Optional in older saves. */
  won?: number;
  /** Chips bought (rebuy, add-on) not yet at the table (the hand in play ends first). */
  pendingChips: number;
  /** A practice player: rebuys when busted and takes the add-on while it may. */
  autoRebuy: boolean;
  /** Registration order (kept across restarts). */
  n: number;
  /** The busted group the player is in (its number in the order of eliminations), null while in. */
  bust: number | null;
  /**
   * Busted in a hand-for-hand round still being played at other tables: the stack at the start of
   * that hand, by which the round's busts of every table are ranked together when it ends (T 8-16).
   * Saved (optional in older saves): a restart ranks them at once.
   */
  roundStack?: number | null;
  /**
   * Excluded (R-EXCLUDE, R-BANNED): no purchase, no re-entry; while still in, they leave when their
   * table's hand ends (T 13-1). Saved with the entrant (optional in older saves): a restart does not
   * bring them back.
   */
  excluded?: ExclusionWhy | null;
  /** The chips taken out of play when they left excluded (T 13-1: "les jetons du joueur sont alors retirés"). */
  removedChips?: number;
}

/** An entrant as saved (store.ts): the table by its number, the seat in it. */
export interface SavedEntrant extends Omit<Entrant, 'brain' | 'table'> {
  brain: boolean;
  table: number | null;
  seat: number | null;
}

/** The tournament's own state as saved; `elapsed`: the clock at the save (restored on restart). */
export interface SavedState {
  elapsed: number | null;
  poolFinal: boolean;
  entryCount: number;
  rebuyCount: number;
  addOnCount: number;
  paidFromPool: number;
  /** Busted groups numbered so far (each entrant keeps its group's number: saved with the entrant). */
  bustSeq: number;
  /** The overlay put into the fund (v9; absent in a tournament saved before: restore puts in what is owed). */
  overlay?: number;
}

export type Refusal = TableRefusal;
export const refusal = (code: Refusal['code'], message: string, rule?: string): Refusal => ({ ok: false, code, message, ...(rule ? { rule } : {}) });

/** An excluded person asks for chips (a rebuy, an add-on, a re-entry): refused as the wallet's stake guard refuses a stake. */
export const excludedRefusal = (why: ExclusionWhy): Refusal =>
  why === 'self-excluded'
    ? refusal('SELF_EXCLUDED', 'you are self-excluded: no play until the end of your exclusion', 'R-EXCLUDE')
    : refusal('ACCOUNT_CLOSED', 'this account is closed: you can only withdraw your money', why === 'banned' ? 'R-BANNED' : 'R-EXCLUDE');

/** Balancing at 2 players' difference once this few tables remain (T 6-8: "un nombre prédéfini de tables"). */
export const LATE_TABLES = 3;
