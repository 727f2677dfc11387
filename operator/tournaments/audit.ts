/**
 * The books with tournaments: for each kind of money,
 *
 *   Σ wallets + Σ money at cash tables + Σ tournaments' funds + tournament fees + rake = money in
 *
 * where money in is the deposits and grants, plus the overlays the operator put into guaranteed prize
 * pools (the operator's contribution, its own line), less the withdrawals.
 *
 * A tournament's fund is a `table_funds` row named `tournament:<id>` (tournament.ts), and its fees a
 * `rake` row from it; this splits the wallet's audit (wallet.ts `audit`) into those parts.
 */
import type { Db } from '../../shared/node/sqlite';
import type { MoneyKind } from '../wallet';

export interface TournamentBooks {
  /** Deposits and grants, plus the operator's overlays, less withdrawals. */
  cameIn: number;
  /** Of which the operator's overlays into guaranteed prize pools (`overlay` ledger rows). */
  overlay: number;
  wallets: number;
  /** Cash tables. */
  tables: number;
  /** Tournaments' funds: entries not yet paid out. */
  tournaments: number;
  /** Tournament fees collected by the operator. */
  fees: number;
  /** Cash-game rake. */
  rake: number;
}

export function tournamentAudit(db: Db): Record<MoneyKind, TournamentBooks> {
  const one = (sql: string, kind: MoneyKind): number => (db.prepare(sql).pluck().get(kind) as number | null) ?? 0;
  const books = (kind: MoneyKind): TournamentBooks => {
    const tournaments = one(`SELECT SUM(held) FROM table_funds WHERE kind = ? AND table_id LIKE 'tournament:%'`, kind);
    const fees = one(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason = 'rake' AND table_id LIKE 'tournament:%'`, kind);
    const overlay = one(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason = 'overlay'`, kind);
    return {
      cameIn:
        one(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason IN ('deposit', 'grant')`, kind) +
        overlay -
        one(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason = 'withdrawal'`, kind),
      overlay,
      wallets: one('SELECT SUM(balance) FROM wallets WHERE kind = ?', kind),
      tables: one('SELECT SUM(held) FROM table_funds WHERE kind = ?', kind) - tournaments,
      tournaments,
      fees,
      rake: one('SELECT amount FROM rake_collected WHERE kind = ?', kind) - fees,
    };
  };
  return { real: books('real'), play: books('play') };
}
