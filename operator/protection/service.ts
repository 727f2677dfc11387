/**
 * The player-protection duties over the operator database (SPEC §2b; docs/protection.md):
 * the self-set limits and their pending raises (R-LIMITS, R-TIMELIMIT), self-exclusion (R-EXCLUDE),
 * the closed account of a banned holder (R-BANNED), and effective playing time (R-TIMELIMIT). The
 * rules themselves are the pure functions of limits.ts, playtime.ts and exclusion.ts; this keeps
 * their data and answers the operator's questions:
 *
 * - `depositCheck`: given to the cashier, asked inside the transaction that records a deposit;
 * - `stakeCheck`: given to the wallet (its `stakeGuard`), asked inside the transaction of every
 *   real-money stake (a cash-table buy-in or top-up; tournament entries and rebuys when they exist);
 * - `startStretch` / `endStretch` / `seen`: told by the tables when the first hand is dealt to a player
 *   and when they leave (the effective playing time of art. 16-1), `timeReached` and `warningsDue`
 *   asked by them.
 *
 * What is counted: deposits are the cashier's payments not failed, at the time they were asked (a
 * pending one counts, so two at once cannot pass the limit together); stakes are the ledger's
 * real-money buy-ins and top-ups at their time. Both over a sliding seven days (limits.ts); playing
 * time over consecutive seven-day periods from when the player first set that limit (playtime.ts).
 */
import type { Db } from '../../shared/node/sqlite';
import { refuse, type Refusal } from '../result';
import type { MovementReason } from '../wallet';
import { exclude, isExcluded, type Exclusion, type ExclusionChoice } from './exclusion';
import { askLimit, limitAt, roomFor, usedInWindow, PERIOD_MS, type Counted, type SelfLimit } from './limits';
import { periodAt, playedBetween, untilNextWarning, warningsDue, type Stretch, type TimeWarning } from './playtime';

/**
 * The ledger movements that are stakes (docs/protection.md "What a stake is"): a cash table's buy-in and
 * top-up; a tournament's entry, rebuy and add-on join this list with their ledger reasons (and the
 * wallet's debits, which its stake guard checks).
 */
export const STAKE_REASONS: readonly MovementReason[] = ['buy-in', 'top-up'];

export type LimitKind = 'deposit' | 'stake' | 'time';
export const LIMIT_KINDS: readonly LimitKind[] = ['deposit', 'stake', 'time'];

/** The most a limit may be: 10 million euros in cents, or the seven days of a period in milliseconds. */
export const LIMIT_MAX: Readonly<Record<LimitKind, number>> = { deposit: 1_000_000_000, stake: 1_000_000_000, time: PERIOD_MS };

/** Why an account is closed, as its refusals say it (accounts.ts ClosedReason). */
const CLOSED_WHY: Readonly<Record<string, string>> = {
  banned: 'its holder is on the national file of gambling bans',
  'closed-by-player': 'you closed it',
  'excluded-permanently': 'you excluded yourself permanently',
};

/** Everything the "Jeu responsable" page shows, as of `at`. */
export interface ProtectionView {
  readonly at: number;
  /** Each limit in force with its pending raise and when it applies; null: not set yet (no default). */
  readonly limits: Readonly<Record<LimitKind, SelfLimit | null>>;
  readonly counters: {
    /** Cents deposited, and staked, in the seven days up to now. */
    readonly deposits: number;
    readonly stakes: number;
    /** Effective playing time used in the current period (ms), and the period; null without a time limit. */
    readonly timeUsedMs: number;
    readonly period: { readonly from: number; readonly to: number } | null;
  };
  readonly exclusion: Exclusion | null;
  /** Why the account is closed (`banned`, `closed-by-player`, `excluded-permanently`), or null. */
  readonly closed: string | null;
}

/** Refusal codes of the protection checks, each with what the player needs to know. */
export type ProtectionRefusal =
  | Refusal<'ACCOUNT_CLOSED', { reason: string }>
  | Refusal<'SELF_EXCLUDED', { until: number | null }>
  | Refusal<'IDENTITY_REQUIRED'>
  | Refusal<'LIMIT_NOT_SET', { limit: LimitKind }>
  | Refusal<'DEPOSIT_LIMIT' | 'STAKE_LIMIT', { limit: number; used: number; freeAt: number | null }>
  | Refusal<'TIME_LIMIT_REACHED', { limit: number; used: number; freeAt: number }>;

interface LimitRow {
  kind: LimitKind;
  value: number;
  pending_value: number | null;
  pending_from: number | null;
  first_set_at: number;
}

export interface ProtectionOptions {
  readonly clock?: () => number;
}

export class Protection {
  private readonly clock: () => number;
  private readonly q;

  constructor(
    private readonly db: Db,
    options: ProtectionOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.q = {
      account: db.prepare<[number], { guest: number; birth_date: string | null; closed_reason: string | null }>('SELECT guest, birth_date, closed_reason FROM accounts WHERE id = ?'),
      limits: db.prepare<[number], LimitRow>('SELECT kind, value, pending_value, pending_from, first_set_at FROM protection_limits WHERE account_id = ?'),
      putLimit: db.prepare(
        `INSERT INTO protection_limits(account_id, kind, value, pending_value, pending_from, first_set_at, updated_at)
         VALUES (@accountId, @kind, @value, @pendingValue, @pendingFrom, @at, @at)
         ON CONFLICT(account_id, kind) DO UPDATE SET value = excluded.value, pending_value = excluded.pending_value,
           pending_from = excluded.pending_from, updated_at = excluded.updated_at`,
      ),
      exclusion: db.prepare<[number], { from_at: number; until_at: number | null }>('SELECT from_at, until_at FROM self_exclusions WHERE account_id = ?'),
      putExclusion: db.prepare<[number, number, number | null]>(
        'INSERT INTO self_exclusions(account_id, from_at, until_at) VALUES (?, ?, ?) ON CONFLICT(account_id) DO UPDATE SET from_at = excluded.from_at, until_at = excluded.until_at',
      ),
      deposits: db.prepare<[number, number], Counted>(
        "SELECT created_at AS at, amount FROM cashier_payments WHERE account_id = ? AND direction = 'deposit' AND state <> 'failed' AND created_at > ?",
      ),
      stakes: db.prepare<[number, number], Counted>(
        `SELECT at, amount FROM ledger WHERE account_id = ? AND kind = 'real' AND reason IN (${STAKE_REASONS.map((r) => `'${r}'`).join(', ')}) AND at > ?`,
      ),
      stretches: db.prepare<[number, number], { from_at: number; to_at: number | null }>(
        'SELECT from_at, to_at FROM play_stretches WHERE account_id = ? AND (to_at IS NULL OR to_at > ?)',
      ),
      openStretch: db.prepare<[number, string, number, number]>(
        'INSERT INTO play_stretches(account_id, table_id, from_at, seen_at) VALUES (?, ?, ?, ?) ON CONFLICT(account_id, table_id) WHERE to_at IS NULL DO NOTHING',
      ),
      closeStretch: db.prepare<[number, number, string]>('UPDATE play_stretches SET to_at = MAX(from_at, ?) WHERE account_id = ? AND table_id = ? AND to_at IS NULL'),
      seen: db.prepare<[number, number]>('UPDATE play_stretches SET seen_at = MAX(seen_at, ?) WHERE account_id = ? AND to_at IS NULL'),
      closeAllOpen: db.prepare('UPDATE play_stretches SET to_at = seen_at WHERE to_at IS NULL'),
      openCount: db.prepare<[number], number>('SELECT COUNT(*) FROM play_stretches WHERE account_id = ? AND to_at IS NULL').pluck(),
      given: db.prepare<[number, number], { warning: TimeWarning }>('SELECT warning FROM time_warnings WHERE account_id = ? AND period_from = ?'),
      give: db.prepare<[number, number, string, number]>('INSERT OR IGNORE INTO time_warnings(account_id, period_from, warning, at) VALUES (?, ?, ?, ?)'),
    };
  }

  /** The limits as they stand at `at` (a raise whose 48 hours have passed is in force). */
  limits(accountId: number, at = this.clock()): Record<LimitKind, SelfLimit | null> {
    const out: Record<LimitKind, SelfLimit | null> = { deposit: null, stake: null, time: null };
    for (const r of this.q.limits.all(accountId)) {
      const stored: SelfLimit = { value: r.value, pending: r.pending_value === null ? null : { value: r.pending_value, from: r.pending_from! } };
      out[r.kind] = limitAt(stored, at);
    }
    return out;
  }

  /**
   * The player sets a limit (R-LIMITS, R-TIMELIMIT; art. 16, 16-1): the first one and a lower one at
   * once, a higher one 48 hours after it was asked for (limits.ts `askLimit`).
   */
  setLimit(accountId: number, kind: LimitKind, value: number, at = this.clock()): { ok: true; limit: SelfLimit } | Refusal<'INVALID_LIMIT' | 'UNKNOWN_ACCOUNT'> {
    if (!LIMIT_KINDS.includes(kind)) return refuse('INVALID_LIMIT', `no limit ${String(kind)}`);
    if (!Number.isSafeInteger(value) || value <= 0 || value > LIMIT_MAX[kind]) {
      return refuse('INVALID_LIMIT', `a ${kind} limit is a whole number from 1 to ${LIMIT_MAX[kind]}`);
    }
    return this.db
      .transaction(() => {
        if (!this.q.account.get(accountId)) return refuse('UNKNOWN_ACCOUNT', `no account ${accountId}`);
        const limit = askLimit(this.limits(accountId, at)[kind], value, at);
        this.q.putLimit.run({ accountId, kind, value: limit.value, pendingValue: limit.pending?.value ?? null, pendingFrom: limit.pending?.from ?? null, at });
        return { ok: true as const, limit };
      })
      .immediate();
  }

  exclusion(accountId: number): Exclusion | null {
    const r = this.q.exclusion.get(accountId);
    return r ? { from: r.from_at, until: r.until_at } : null;
  }

  /**
   * Self-exclusion (R-EXCLUDE), asked twice by the client and sent with `confirm: true`: it can be
   * lengthened, never lifted nor shortened (exclusion.ts).
   */
  exclude(accountId: number, choice: ExclusionChoice, at = this.clock()): { ok: true; exclusion: Exclusion } | Refusal<'EXCLUSION_TOO_SHORT' | 'EXCLUSION_CANNOT_SHORTEN', { until: number | null }> {
    return this.db
      .transaction(() => {
        const r = exclude(this.exclusion(accountId), choice, at);
        if (!r.ok) return refuse(r.code, r.message, { until: r.until });
        this.q.putExclusion.run(accountId, r.exclusion.from, r.exclusion.until);
        return r;
      })
      .immediate();
  }

  /** Effective playing time used in the current period, and the period (null without a time limit). */
  timeUsed(accountId: number, at = this.clock()): { used: number; period: { from: number; to: number } | null } {
    const anchor = this.q.limits.all(accountId).find((r) => r.kind === 'time')?.first_set_at;
    if (anchor === undefined) return { used: 0, period: null };
    const period = periodAt(anchor, at);
    return { used: playedBetween(this.stretchesSince(accountId, period.from), period.from, at), period };
  }

  view(accountId: number, at = this.clock()): ProtectionView {
    const since = at - PERIOD_MS;
    const time = this.timeUsed(accountId, at);
    return {
      at,
      limits: this.limits(accountId, at),
      counters: {
        deposits: usedInWindow(this.q.deposits.all(accountId, since), at),
        stakes: usedInWindow(this.q.stakes.all(accountId, since), at),
        timeUsedMs: time.used,
        period: time.period,
      },
      exclusion: this.exclusion(accountId),
      closed: this.q.account.get(accountId)?.closed_reason ?? null,
    };
  }

  /**
   * Whether a seated player may be dealt another real-money hand: not once the playing-time limit is
   * reached (R-TIMELIMIT), nor once they self-excluded (R-EXCLUDE) or their account was closed
   * (R-BANNED) while seated. The refusal says why; null: play on.
   */
  playOnCheck(accountId: number, at = this.clock()): ProtectionRefusal | null {
    return this.blocked(accountId, at) ?? this.timeReached(accountId, at);
  }

  /** What stops any real-money operation but a withdrawal: a closed account, a self-exclusion in force. */
  private blocked(accountId: number, at: number): ProtectionRefusal | null {
    const account = this.q.account.get(accountId);
    if (account?.closed_reason) {
      return refuse('ACCOUNT_CLOSED', `this account is closed (${CLOSED_WHY[account.closed_reason] ?? account.closed_reason}): you can only withdraw your money and read your history`, {
        reason: account.closed_reason,
      });
    }
    const ex = this.exclusion(accountId);
    if (isExcluded(ex, at)) return refuse('SELF_EXCLUDED', 'you are self-excluded: no play, deposit or tournament until the end of your exclusion', { until: ex!.until });
    return null;
  }

  /** R-CASHIER, R-LIMITS, R-EXCLUDE, R-BANNED: may this account deposit `amount` cents now? */
  depositCheck(accountId: number, amount: number, at = this.clock()): ProtectionRefusal | null {
    const account = this.q.account.get(accountId);
    // Real money only for an account whose holder's age and ban status were checked (R-AGE, R-BANNED).
    if (!account || account.birth_date === null) return refuse('IDENTITY_REQUIRED', 'a real-money account needs your identity and date of birth, given at registration');
    const blocked = this.blocked(accountId, at);
    if (blocked) return blocked;
    const limit = this.limits(accountId, at).deposit;
    // Art. 16: the deposit limit is set before the first deposit; no default.
    if (!limit) return refuse('LIMIT_NOT_SET', 'set your deposit limit for 7 days before your first deposit', { limit: 'deposit' as const });
    const room = roomFor(this.q.deposits.all(accountId, at - PERIOD_MS), limit.value, amount, at);
    if (!room.ok) return refuse('DEPOSIT_LIMIT', `over your deposit limit of ${room.limit} for 7 days (${room.used} used)`, { limit: room.limit, used: room.used, freeAt: room.freeAt });
    return null;
  }

  /**
   * R-LIMITS, R-TIMELIMIT, R-EXCLUDE, R-BANNED: may this account stake `amount` cents now (a cash-table
   * buy-in or top-up; a tournament entry or rebuy)? Both the stake limit and the playing-time limit
   * must be set before the first stake (art. 16, 16-1), and playing time must be left in the period.
   */
  stakeCheck(accountId: number, amount: number, at = this.clock()): ProtectionRefusal | null {
    const blocked = this.blocked(accountId, at);
    if (blocked) return blocked;
    const limits = this.limits(accountId, at);
    if (!limits.stake) return refuse('LIMIT_NOT_SET', 'set your stake limit for 7 days before your first stake', { limit: 'stake' as const });
    if (!limits.time) return refuse('LIMIT_NOT_SET', 'set your playing-time limit for 7 days before your first stake', { limit: 'time' as const });
    const reached = this.timeReached(accountId, at);
    if (reached) return reached;
    const room = roomFor(this.q.stakes.all(accountId, at - PERIOD_MS), limits.stake.value, amount, at);
    if (!room.ok) return refuse('STAKE_LIMIT', `over your stake limit of ${room.limit} for 7 days (${room.used} used)`, { limit: room.limit, used: room.used, freeAt: room.freeAt });
    return null;
  }

  /**
   * R-TIMELIMIT (art. 16-1): the playing-time limit is reached; no further game operation until the
   * period ends (`freeAt`). Null while time is left. The table asks at the end of each hand and stands
   * the player up (cash games); a tournament in progress is finished, no other entered.
   */
  timeReached(accountId: number, at = this.clock()): Refusal<'TIME_LIMIT_REACHED', { limit: number; used: number; freeAt: number }> | null {
    const limit = this.limits(accountId, at).time;
    if (!limit) return null;
    const { used, period } = this.timeUsed(accountId, at);
    if (used < limit.value) return null;
    return refuse('TIME_LIMIT_REACHED', `your playing-time limit of ${Math.round(limit.value / 60_000)} minutes for this period is reached`, {
      limit: limit.value,
      used,
      freeAt: period!.to,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Effective playing time (R-TIMELIMIT, art. 16-1)

  /** The first hand at `tableId` was dealt to the player: their time there counts from `at`. A repeat is a no-op. */
  startStretch(accountId: number, tableId: string, at = this.clock()): void {
    this.q.openStretch.run(accountId, tableId, at, at);
  }

  /** The player left `tableId` at `at`: their stretch there ends. */
  endStretch(accountId: number, tableId: string, at = this.clock()): void {
    this.q.closeStretch.run(at, accountId, tableId);
  }

  /** Tables where the player's playing time is running. */
  openTables(accountId: number): number {
    return this.q.openCount.get(accountId)!;
  }

  /** The player is still at their tables at `at` (each hand's end): a crash closes their stretches there. */
  seen(accountId: number, at = this.clock()): void {
    this.q.seen.run(at, accountId);
  }

  /**
   * At start, after a crash: the operator stood every player up (tables/recovery.ts), so each stretch
   * left open ends when the player was last seen at a table, not counting the time the operator was down.
   */
  closeOpenStretches(): number {
    return this.q.closeAllOpen.run().changes;
  }

  /**
   * The warnings due now and not given yet in this period, in order (75 % or 30 minutes before, 10
   * minutes before, reached; playtime.ts), recorded as given: each is shown once per period.
   */
  warningsDue(accountId: number, at = this.clock()): { warnings: TimeWarning[]; used: number; limit: number; periodEnd: number } | null {
    const limit = this.limits(accountId, at).time;
    if (!limit) return null;
    return this.db
      .transaction(() => {
        const { used, period } = this.timeUsed(accountId, at);
        const given = new Set(this.q.given.all(accountId, period!.from).map((r) => r.warning));
        const due = warningsDue(limit.value, used, given);
        for (const w of due) this.q.give.run(accountId, period!.from, w, at);
        return { warnings: due, used, limit: limit.value, periodEnd: period!.to };
      })
      .immediate();
  }

  /** Milliseconds of further play before the next warning (one timer while the player is seated), or null. */
  untilNextWarning(accountId: number, at = this.clock()): number | null {
    const limit = this.limits(accountId, at).time;
    if (!limit) return null;
    const { used, period } = this.timeUsed(accountId, at);
    const given = new Set(this.q.given.all(accountId, period!.from).map((r) => r.warning));
    return untilNextWarning(limit.value, used, given);
  }

  private stretchesSince(accountId: number, from: number): Stretch[] {
    return this.q.stretches.all(accountId, from).map((r) => ({ from: r.from_at, to: r.to_at }));
  }
}
