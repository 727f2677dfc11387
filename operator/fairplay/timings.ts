/**
 * Decision times (R-NOBOT, D art. 2 and 8 I: robot-assisted play is forbidden; a robot shows as
 * near-constant action times). Each person's decision is stored as it is made, in the operator
 * database (`decision_times`, schema.ts v4), not in the regulatory trace: from the turn announced
 * to the action received, by the table's clock (network latency included; the clock and the
 * operator's own moves are not decisions and are not stored). Practice players are the operator's
 * and are not timed.
 *
 * `stats()` sums them up per account for the fair-play report (fairplay.ts), which decides what is
 * suspicious.
 */
import type { Db } from '../../shared/node/sqlite';
import type { MoneyKind } from '../wallet';
import type { TablePlayer, TimedDecision } from '../tables/types';

/** Moves that clients commonly make without thinking (showing a winning hand), left out of the statistics. */
const NOT_A_DECISION = ['show', 'muck'];

/** One account's decision times. */
export interface DecisionTimeStats {
  accountId: number;
  username: string;
  decisions: number;
  meanMs: number;
  /** Standard deviation (population). */
  sdMs: number;
}

export class DecisionTimes {
  private readonly q;

  /** `db` must have been opened with `openOperatorDatabase` (schema.ts). */
  constructor(db: Db) {
    this.q = {
      insert: db.prepare<[number, string, string, string, string, number, number]>(
        'INSERT INTO decision_times(account_id, table_id, kind, hand_id, move, turn_at, ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      // Sums in SQL (TOTAL: floating point, never an integer overflow), the variance from Σx and Σx²:
      // relative error ~1e-16 × mean² / variance, negligible for the spreads the report looks at.
      stats: db.prepare<[number, number, number], { account_id: number; username: string; n: number; s: number; s2: number }>(
        `SELECT d.account_id, a.username, COUNT(*) AS n, TOTAL(d.ms) AS s, TOTAL(d.ms * d.ms) AS s2
         FROM decision_times d JOIN accounts a ON a.id = d.account_id
         WHERE d.turn_at >= ? AND (? = 1 OR d.kind = 'real') AND d.move NOT IN (${NOT_A_DECISION.map((m) => `'${m}'`).join(', ')})
         GROUP BY d.account_id HAVING COUNT(*) >= ? ORDER BY d.account_id`,
      ),
    };
  }

  /** Stores one person's decision at a table of `kind` money. */
  record(tableId: string, kind: MoneyKind, player: TablePlayer, d: TimedDecision): void {
    if (player.practice) return;
    this.q.insert.run(player.accountId, tableId, kind, d.handId, d.move, Math.round(d.turnAt), Math.max(0, Math.round(d.ms)));
  }

  /**
   * Per account with at least `minDecisions` decisions (since `since`, ms), their count, mean and
   * standard deviation. Real money only unless `includePlayMoney`.
   */
  stats(options: { minDecisions?: number; includePlayMoney?: boolean; since?: number } = {}): DecisionTimeStats[] {
    return this.q.stats.all(options.since ?? 0, options.includePlayMoney ? 1 : 0, options.minDecisions ?? 1).map((r) => {
      const mean = r.s / r.n;
      return { accountId: r.account_id, username: r.username, decisions: r.n, meanMs: mean, sdMs: Math.sqrt(Math.max(0, r.s2 / r.n - mean * mean)) };
    });
  }
}
