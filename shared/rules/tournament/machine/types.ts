/**
 * The tournament machine's data (R-TOURN, R-TOURN-RUN; CONVENTIONS "The rules engine as a state
 * machine"): the state, the events that move it, the effects a runner applies, the refusals. All of
 * it is plain JSON: a state saved with its effects and read back replays identically.
 */
import type { TournamentStructure } from '../structure';
import type { VariantCode } from '../../variants';

/**
 * A large map (entrants by account, tables by number) as 1,024 buckets by key (buckets.ts reads and
 * writes them). Declared here, not in buckets.ts, so the state's types import nothing of the machine.
 */
export type Buckets<T> = readonly Readonly<Record<string, T>>[];

/** For each player count, table numbers ascending in runs keyed by `no / RUN` (sizes.ts). */
export type TablesBySize = readonly Readonly<Record<string, readonly number[]>>[];

/** What the machine needs of a tournament's spec (operator/tournaments/spec.ts is one). */
export interface MachineSpec {
  /** The Tech code of the trace (A 1.3.6.b): unique on the platform; letters, digits, `-`, `_`. */
  readonly id: string;
  readonly name: string;
  readonly variant: VariantCode;
  readonly money: 'real' | 'play';
  /** To the prize pool, per entry (integer units). */
  readonly buyIn: number;
  /** To the operator, per entry (integer units). */
  readonly fee: number;
  /** `sit-and-go`: starts when `maxEntrants` have registered; `scheduled`: at its start time. */
  readonly format: 'sit-and-go' | 'scheduled';
  /** Seats per table (R-SEATS). */
  readonly seats: number;
  /** The field's cap; a sit & go starts when it is reached. */
  readonly maxEntrants: number;
  /** A scheduled tournament with fewer entrants at its start time is cancelled and refunded. */
  readonly minEntrants: number;
  /** Bounty: this part of each buy-in goes on the player's head (not in the prize pool; `T /G`). */
  readonly bounty?: number;
  /** A guaranteed prize pool: what the entries do not bring, the operator puts in (the overlay, a ledger `overlay` row). */
  readonly guarantee?: number;
  /**
   * Satellite (`T /S`, T 1-5): prizes are entries in `target`, each worth `seatValue` (the target's
   * buy-in + fee); it ends when the remaining players are all qualified.
   */
  readonly satellite?: { readonly target: string; readonly seatValue: number };
  /**
   * A freeroll's delay for absent players (T 2-15, ms on the tournament clock): past it, an absent
   * player's chips are taken out of the tournament. Unset: one level (`structure.levelMinutes`).
   */
  readonly absenceDelay?: number;
  readonly structure: TournamentStructure;
}

/**
 * How busts at different tables in one hand-for-hand hand are ranked (T 8-16 ranks two busts of one
 * hand by their starting stacks; the TDA splits the places of busts at different tables): `stack`,
 * the online operators' reading and Cercle's, or `split`, the TDA's.
 */
export type RoundRanking = 'stack' | 'split';

export interface MachineOptions {
  readonly roundRanking: RoundRanking;
  /** Late in the tournament (this few tables or fewer), tables are balanced within one (T 6-8). */
  readonly lateTables: number;
}

export type ExclusionWhy = 'banned' | 'self-excluded' | 'closed';
export type Phase = 'registering' | 'running' | 'finished' | 'cancelled';
export type SeatWhy = 'start' | 'late' | 'balance' | 'broken' | 'back' | 'final';

/** Who a record is about, as the trace needs them (the runner adds the identity hash). */
export interface Who {
  readonly accountId: number;
  readonly name: string;
  readonly practice: boolean;
  readonly ip: string;
  readonly sessionId: string;
}

export interface Entrant {
  readonly who: Who;
  /** The POINSCRIT's Inscription of the player's current entry (a re-entry is a new one: A 1.3.6.b). */
  readonly inscription: string;
  /** Registration order (kept across re-entries). */
  readonly n: number;
  /** `deciding`: busted with a rebuy open, their seat kept for the hand break (T 5-3). */
  readonly status: 'in' | 'deciding' | 'out';
  /** Chips: at a table, as of its last ended hand. */
  readonly stack: number;
  /** Chips bought during a hand: in front of the player (T 5-3), on the stack when the hand ends. */
  readonly pending: number;
  readonly table: number | null;
  readonly seat: number | null;
  readonly place: number | null;
  readonly prize: number | null;
  readonly rebuys: number;
  readonly addOn: boolean;
  readonly reEntries: number;
  readonly bounty: number;
  readonly won: number;
  /** The busted group the player is in (the order of eliminations), null while in. */
  readonly bust: number | null;
  /** When the player busted (the clock's ms): the POBILAN of an entry closed by a re-entry is dated so (A 1.3.6.b). */
  readonly bustAt: number | null;
  readonly excluded: ExclusionWhy | null;
  /** Absent (T 2-14, 2-15): dealt in, blinded, their hand dead at the first action. */
  readonly absent: boolean;
  /** Since when (the clock's ms) the player is absent: a freeroll's delay counts from it (T 2-15). */
  readonly absentAt?: number | null;
  /** The time bank left (ms) as the table's last ended hand reported it: it follows the player on a move. */
  readonly timeBank?: number;
  /** A practice player: rebuys and takes the add-on whenever they may. */
  readonly auto: boolean;
}

export interface Table {
  readonly no: number;
  /** Account ids by seat (null: free). */
  readonly seats: readonly (number | null)[];
  /** The big blind's seat of the hand in play, or else of the last hand (T 6-10 counts from it). */
  readonly bigBlind: number | null;
  readonly inHand: boolean;
  /**
   * Stud (no blinds): the free seats in the order they opened, the last opened last; a player moved
   * in to balance takes the last (TDA: "in stud-only events, players are moved by position").
   */
  readonly opened?: readonly number[];
}

export interface MachineState {
  readonly v: 1;
  readonly spec: MachineSpec;
  readonly options: MachineOptions;
  readonly phase: Phase;
  /** The tournament clock (ms since the start; 0 before). */
  readonly elapsed: number;
  readonly level: number;
  readonly onBreak: boolean;
  /** By account id (buckets.ts: `entrantOf`, `entrantIds`). */
  readonly entrants: Buckets<Entrant>;
  /** Players registered (one place each: re-entries add to the pool, not to the places). */
  readonly players: number;
  /** The next registration's number (`Entrant.n`). */
  readonly nextN: number;
  /** By number (buckets.ts: `tableOf`, `tableList`). */
  readonly tables: Buckets<Table>;
  /** `sizes[k]`: how many tables have k players (the floor's check without reading every table). */
  readonly sizes: readonly number[];
  /** `bySize[k]`: the numbers of the tables with k players, ascending, in runs (sizes.ts; the field index's buckets, T 6-6, 6-8). */
  readonly bySize: TablesBySize;
  /** Players in or deciding a rebuy (counted: read after every hand of a large field). */
  readonly remaining: number;
  readonly nextTable: number;
  /**
   * Moves are due but every table that must give a player is in a hand: the plan is made again when
   * the table sizes change or one of these tables changes (its hand ends), not after every event.
   */
  readonly floorWait: { readonly sizes: readonly number[]; readonly tables: readonly number[] } | null;
  readonly entries: number;
  readonly rebuyCount: number;
  readonly addOnCount: number;
  readonly poolFinal: boolean;
  readonly prizes: readonly number[];
  readonly overlay: number;
  /**
   * Busted groups, the worst first (a group: players sharing places, T 8-16), in runs of 1,024 groups
   * (groups.ts: `groupAt`, `groupCount`; a bust copies one run, not the whole order).
   */
  readonly busted: readonly (readonly (readonly number[])[])[];
  readonly placedGroups: number;
  readonly placedPlayers: number;
  /** Hand-for-hand: tables still to play this round's hand, and its busts with their starting stacks. */
  readonly round: { readonly on: boolean; readonly tables: readonly number[]; readonly busts: readonly { readonly id: number; readonly stack: number; readonly table: number }[] };
  /** Chips taken out of play with excluded players (T 13-1). */
  readonly removed: number;
  readonly finalDrawn: boolean;
  /** The draw's generator state (R-RANDSEAT: seeded by the runner's CSPRNG at the start). */
  readonly rng: number;
}

/** A hand's bust, best first in each group of `busts` (shared/rules/table's elimination groups). */
export interface Bust {
  readonly accountId: number;
  readonly stackAtStart: number;
  /**
   * The winners of the pot that eliminated them (the bounty's), in the engine's odd-chip order for
   * that pot (R-ODDCHIP: its shares' order; from the button's left with blinds, by highest card in Stud).
   */
  readonly by: readonly number[];
}

export type MachineEvent =
  | { readonly type: 'register'; readonly who: Who; readonly inscription: string; readonly auto?: boolean }
  | { readonly type: 'unregister'; readonly accountId: number }
  | { readonly type: 'start' }
  | { readonly type: 'cancel' }
  | { readonly type: 'tick'; readonly elapsed: number }
  | { readonly type: 'handStarted'; readonly table: number; readonly bigBlind: number | null }
  | {
      readonly type: 'handEnded';
      readonly table: number;
      /** Each seat's stack, and the time bank it has left (ms) when the table keeps one: carried to a move's `seat`. */
      readonly stacks: readonly { readonly accountId: number; readonly stack: number; readonly timeBank?: number }[];
      readonly busts: readonly (readonly Bust[])[];
    }
  | { readonly type: 'rebuy'; readonly accountId: number }
  | { readonly type: 'declineRebuy'; readonly accountId: number }
  | { readonly type: 'addOn'; readonly accountId: number }
  | { readonly type: 're-enter'; readonly accountId: number; readonly inscription: string }
  | { readonly type: 'exclude'; readonly accountId: number; readonly why: ExclusionWhy }
  | { readonly type: 'absent'; readonly accountId: number; readonly absent: boolean };

export type RecordKind = 'POINSCRIT' | 'POACHAT' | 'POANNUL' | 'POBILAN' | 'POGAIN';

/** What the runner does, in order, in the event's one transaction. */
export type Effect =
  /** Money between a wallet and the fund, and its record (written with the wallet's movement). */
  | { readonly kind: 'money'; readonly way: 'in' | 'out'; readonly who: Who; readonly amount: number; readonly key: string; readonly record: RecordKind; readonly inscription: string; readonly supervision: boolean; readonly motif?: string; readonly what?: string; readonly at?: number }
  | { readonly kind: 'fee'; readonly amount: number; readonly key: string }
  | { readonly kind: 'overlay'; readonly amount: number; readonly key: string }
  /** `timeBank`: the time bank the player had left at their last table (absent when none was reported). */
  | { readonly kind: 'seat'; readonly accountId: number; readonly table: number; readonly seat: number; readonly stack: number; readonly why: SeatWhy; readonly from: number | null; readonly timeBank?: number }
  | { readonly kind: 'chips'; readonly accountId: number; readonly table: number; readonly chips: number }
  /** `why: 'absent'`: a freeroll's absent player whose delay ran out, their chips out of the tournament (T 2-15). */
  | { readonly kind: 'stand'; readonly accountId: number; readonly table: number; readonly why?: 'absent' }
  | { readonly kind: 'openTable'; readonly table: number }
  | { readonly kind: 'closeTable'; readonly table: number }
  /** Tables that may deal their next hand now (hand-for-hand: the round's). */
  | { readonly kind: 'deal'; readonly tables: readonly number[] }
  | { readonly kind: 'notice'; readonly notice: Notice };

export type Notice =
  | { readonly type: 'state'; readonly state: Phase }
  | { readonly type: 'clock'; readonly level: number; readonly onBreak: boolean }
  | { readonly type: 'finished'; readonly accountId: number; readonly place: number; readonly tied: number; readonly prize: number; readonly bounties: number }
  | { readonly type: 'removed'; readonly accountId: number; readonly why: ExclusionWhy }
  | { readonly type: 'qualified'; readonly accountId: number; readonly target: string }
  | { readonly type: 'handForHand'; readonly on: boolean };

export interface Refusal {
  readonly ok: false;
  readonly code: 'REGISTRATION_CLOSED' | 'ALREADY_REGISTERED' | 'TOURNAMENT_FULL' | 'NOT_REGISTERED' | 'SELF_EXCLUDED' | 'ACCOUNT_CLOSED' | 'NOT_NOW' | 'UNKNOWN_TABLE';
  readonly rule?: string;
  readonly message: string;
}

export interface Applied {
  readonly ok: true;
  readonly state: MachineState;
  readonly effects: readonly Effect[];
  /**
   * What a store writes again (the parts of the state that grow with the field, each in rows of its
   * own): the entrants and tables the event changed (or removed), the first busted group it rewrote
   * (`busted`: groups from it on, those past the list's end gone; null: none) and whether the prizes
   * were set.
   */
  readonly changed: { readonly entrants: readonly number[]; readonly tables: readonly number[]; readonly busted: number | null; readonly prizes: boolean };
}

/** What a person may do now (`legal`). */
export interface Legal {
  readonly register: boolean;
  readonly unregister: boolean;
  readonly rebuy: boolean;
  readonly addOn: boolean;
  readonly reEnter: boolean;
}
