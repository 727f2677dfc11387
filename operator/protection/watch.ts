/**
 * Effective playing time as the tables report it (R-TIMELIMIT, decree 2010-518 art. 16-1): the three
 * calls a cash table makes, and the warnings pushed to the player on time.
 *
 *   handDealt(account, table)   each hand dealt to the player there (the first one opens the stretch)
 *   handEnded(account, table)   after each hand the player was in: false when the limit is reached (or the
 *                               player self-excluded, or was found banned), and the table stands the
 *                               player up (stack back to the wallet: R-CASH)
 *   left(account, table)        the player left the table (the stretch ends)
 *
 * While the player has a stretch open, one timer waits for the next warning (75 % or 30 minutes
 * before, 10 minutes before, reached; playtime.ts); each is sent once per period as a
 * `protection.warning` frame (shared/protocol/cashier.ts) that the client shows as a dialog needing a
 * click. A tournament reports the same calls and, per art. 16-1, ignores `handEnded` (the player
 * finishes the tournament); its registration asks `Protection.stakeCheck` (no entry at the limit).
 */
import type { Protection } from './service';
import type { TimeWarning } from './playtime';

/** Structurally the tables' `Timers` (tables/timers.ts). */
export interface WatchTimers<H> {
  now(): number;
  set(fn: () => void, ms: number): H;
  clear(handle: H | null): void;
}

export interface TimeWarningNotice {
  readonly type: 'protection.warning';
  readonly warning: TimeWarning;
  readonly usedMs: number;
  readonly limitMs: number;
  readonly periodEnd: number;
}

export class PlaytimeWatch<H> {
  private readonly timers = new Map<number, H>();

  constructor(
    private readonly protection: Protection,
    private readonly clock: WatchTimers<H>,
    /** Sends a warning to the player's connection, if they have one. */
    private readonly notify: (accountId: number, notice: TimeWarningNotice) => void,
  ) {}

  handDealt(accountId: number, tableId: string): void {
    const now = this.clock.now();
    this.protection.startStretch(accountId, tableId, now);
    this.protection.seen(accountId, now);
    this.fire(accountId);
  }

  /**
   * Whether the player may be dealt another hand at a real-money table: not once the playing-time
   * limit is reached (R-TIMELIMIT), nor after they self-excluded or their account was closed while
   * seated (R-EXCLUDE, R-BANNED); false: the table stands them up after this hand.
   */
  handEnded(accountId: number, tableId: string): boolean {
    const now = this.clock.now();
    void tableId;
    this.protection.seen(accountId, now);
    this.fire(accountId);
    return this.protection.playOnCheck(accountId, now) === null;
  }

  left(accountId: number, tableId: string): void {
    this.protection.endStretch(accountId, tableId, this.clock.now());
    if (this.protection.openTables(accountId) === 0) this.stop(accountId);
  }

  /** Stops every timer (operator shutdown). */
  close(): void {
    for (const id of [...this.timers.keys()]) this.stop(id);
  }

  private stop(accountId: number): void {
    this.clock.clear(this.timers.get(accountId) ?? null);
    this.timers.delete(accountId);
  }

  /** Sends the warnings due now, then waits for the next one while the player plays. */
  private fire(accountId: number): void {
    this.stop(accountId);
    const now = this.clock.now();
    const due = this.protection.warningsDue(accountId, now);
    if (!due) return;
    for (const warning of due.warnings) {
      this.notify(accountId, { type: 'protection.warning', warning, usedMs: due.used, limitMs: due.limit, periodEnd: due.periodEnd });
    }
    if (this.protection.openTables(accountId) === 0) return;
    const next = this.protection.untilNextWarning(accountId, now);
    // Time runs while a stretch is open, so the next warning is due `next` ms from now; at the latest,
    // the period's end starts a new count.
    if (next !== null) this.timers.set(accountId, this.clock.set(() => this.fire(accountId), Math.max(1, Math.min(next, due.periodEnd - now))));
    else this.timers.set(accountId, this.clock.set(() => this.fire(accountId), Math.max(1, due.periodEnd - now)));
  }
}
