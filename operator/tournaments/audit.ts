/**
 * The books with tournaments (issue 16 item 5): for each kind of money,
 *
 *   Σ wallets + Σ money at cash tables + Σ tournaments' funds + tournament fees + rake = money in
 *
 * A tournament's fund is a `table_funds` row named `tournament:<id>` (tournament.ts), and its fees a
 * `rake` row from it; this splits the wallet's audit (wallet.ts `audit`) into those parts.
 */
import type { Db } from '../db';
import type { MoneyKind } from '../wallet';

export interface TournamentBooks {
  cameIn: number;
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
    return {
      cameIn: one(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason IN ('deposit', 'grant')`, kind),
      wallets: one('SELECT SUM(balance) FROM wallets WHERE kind = ?', kind),
      tables: one('SELECT SUM(held) FROM table_funds WHERE kind = ?', kind) - tournaments,
      tournaments,
      fees,
      rake: one('SELECT amount FROM rake_collected WHERE kind = ?', kind) - fees,
    };
  };
  return { real: books('real'), play: books('play') };
}
