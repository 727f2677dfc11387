/**
 * Who holds the money at each table (operator database, `table_seats`, schema.ts v3): one row per
 * inscription, with the chips held for that player at the table as of the last settled hand.
 *
 * The wallet knows how much a table holds (`table_funds`), not whose it is; this does, so that the
 * chips of an operator that stopped without closing its tables go back to their owners on the next
 * start (R-CASH, D art. 1 II 1°: players keep their winnings; recovery.ts). Each change is written in
 * the same transaction as the ledger movement it mirrors, so at every commit, for each table:
 *
 *   Σ stack of the rows still seated = table_funds.held                       (`audit()`)
 *
 * A row's life: seated at the buy-in (stack = buy-in) ─ top-ups add ─ each settled hand sets the
 * stacks, in the transaction that takes the rake ─ cash-out marks it `cashed_out` (the stack is back in
 * the wallet) ─ deleted once the POBILAN is in the vault. While a hand is in play the rows of its
 * players carry its id (`hand_id`): a row found with one after a crash was in a hand never settled.
 */
import type { Db } from '../../shared/node/sqlite';
import type { MoneyKind } from '../wallet';
import type { TablePlayer } from './types';

/** A seat as stored. */
export interface HeldSeat {
  inscription: string;
  tableId: string;
  /** The table's kind of money (from `table_funds`). */
  kind: MoneyKind;
  seat: number;
  stack: number;
  handId: string | null;
  cashedOut: number | null;
  player: TablePlayer;
}

interface Row {
  inscription: string;
  table_id: string;
  kind: MoneyKind;
  account_id: number;
  seat: number;
  stack: number;
  hand_id: string | null;
  cashed_out: number | null;
  username: string;
  ip: string;
  session_id: string;
  practice: number;
}

function toSeat(r: Row): HeldSeat {
  return {
    inscription: r.inscription,
    tableId: r.table_id,
    kind: r.kind,
    seat: r.seat,
    stack: r.stack,
    handId: r.hand_id,
    cashedOut: r.cashed_out,
    player: { accountId: r.account_id, name: r.username, practice: r.practice === 1, ip: r.ip, sessionId: r.session_id },
  };
}

export class SeatLedger {
  private readonly q;

  /** `db` must have been opened with `openOperatorDatabase` (schema.ts). */
  constructor(
    readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {
    this.q = {
      insert: db.prepare(
        `INSERT INTO table_seats(inscription, table_id, account_id, seat, stack, hand_id, cashed_out, username, ip, session_id, practice, updated_at)
         VALUES (@inscription, @tableId, @accountId, @seat, @stack, NULL, NULL, @name, @ip, @sessionId, @practice, @at)
         ON CONFLICT(inscription) DO NOTHING`,
      ),
      add: db.prepare<[number, number, string, number]>(
        'UPDATE table_seats SET stack = stack + ?, updated_at = ? WHERE table_id = ? AND account_id = ? AND cashed_out IS NULL',
      ),
      setStack: db.prepare<[number, number, string, number]>(
        'UPDATE table_seats SET stack = ?, hand_id = NULL, updated_at = ? WHERE table_id = ? AND account_id = ? AND cashed_out IS NULL',
      ),
      handStarted: db.prepare<[string, number, string, number]>(
        'UPDATE table_seats SET hand_id = ?, updated_at = ? WHERE table_id = ? AND account_id = ? AND cashed_out IS NULL',
      ),
      handEnded: db.prepare<[number, string]>('UPDATE table_seats SET hand_id = NULL, updated_at = ? WHERE table_id = ? AND hand_id IS NOT NULL'),
      cashedOut: db.prepare<[number, number, string, number]>(
        'UPDATE table_seats SET cashed_out = ?, hand_id = NULL, updated_at = ? WHERE table_id = ? AND account_id = ? AND cashed_out IS NULL',
      ),
      cashedOutInscription: db.prepare<[number, number, string]>(
        'UPDATE table_seats SET cashed_out = ?, hand_id = NULL, updated_at = ? WHERE inscription = ? AND cashed_out IS NULL',
      ),
      forget: db.prepare<[string]>('DELETE FROM table_seats WHERE inscription = ?'),
      moved: db.prepare<[string, string, number, string]>('UPDATE table_seats SET ip = ?, session_id = ?, updated_at = ? WHERE inscription = ?'),
      all: db.prepare<[], Row>(
        'SELECT s.*, f.kind FROM table_seats s JOIN table_funds f ON f.table_id = s.table_id ORDER BY s.table_id, s.inscription',
      ),
      ofTable: db.prepare<[string], Row>(
        'SELECT s.*, f.kind FROM table_seats s JOIN table_funds f ON f.table_id = s.table_id WHERE s.table_id = ? ORDER BY s.seat',
      ),
      audit: db.prepare<[], { table_id: string; held: number; seated: number }>(
        `WITH t AS (SELECT f.table_id, f.held,
                          COALESCE((SELECT SUM(s.stack) FROM table_seats s WHERE s.table_id = f.table_id AND s.cashed_out IS NULL), 0) AS seated
                   FROM table_funds f)
         SELECT table_id, held, seated FROM t WHERE seated IS NOT held LIMIT 20`,
      ),
    };
  }

  /** Runs `fn` in one IMMEDIATE transaction (a wallet movement and its seat change commit together). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** A player sits down with `stack` (their buy-in). A repeat of the same inscription changes nothing. */
  seated(tableId: string, inscription: string, seat: number, player: TablePlayer, stack: number): void {
    this.q.insert.run({ inscription, tableId, accountId: player.accountId, seat, stack, name: player.name, ip: player.ip, sessionId: player.sessionId, practice: player.practice ? 1 : 0, at: this.clock() });
  }

  /** Chips added to a seated player's stack (a top-up). */
  added(tableId: string, accountId: number, amount: number): void {
    this.expectOne(this.q.add.run(amount, this.clock(), tableId, accountId).changes, tableId, accountId);
  }

  /** A hand begins with these players' chips in play. */
  handStarted(tableId: string, handId: string, accountIds: readonly number[]): void {
    const at = this.clock();
    for (const id of accountIds) this.q.handStarted.run(handId, at, tableId, id);
  }

  /** A hand was settled: the stacks after it (every seated player's), no hand in play. */
  settled(tableId: string, stacks: readonly { accountId: number; stack: number }[]): void {
    const at = this.clock();
    for (const s of stacks) this.expectOne(this.q.setStack.run(s.stack, at, tableId, s.accountId).changes, tableId, s.accountId);
    this.q.handEnded.run(at, tableId);
  }

  /** A hand was cancelled: every stack stays at its start-of-hand value, no hand in play. */
  handCancelled(tableId: string): void {
    this.q.handEnded.run(this.clock(), tableId);
  }

  /** The player's stack went back to their wallet (`amount`); the row waits for its POBILAN. */
  cashedOut(tableId: string, accountId: number, amount: number): void {
    this.q.cashedOut.run(amount, this.clock(), tableId, accountId);
  }

  /** Like {@link cashedOut}, for the seating `inscription` (recovery). */
  cashedOutInscription(inscription: string, amount: number): void {
    this.q.cashedOutInscription.run(amount, this.clock(), inscription);
  }

  /** The seated player's current address and session (recovery's records carry them). */
  moved(inscription: string, player: TablePlayer): void {
    this.q.moved.run(player.ip, player.sessionId, this.clock(), inscription);
  }

  /** The participation is closed in the trace (POBILAN written): nothing left to recover. */
  forget(inscription: string): void {
    this.q.forget.run(inscription);
  }

  /** Every row, table by table. */
  all(): HeldSeat[] {
    return this.q.all.all().map(toSeat);
  }

  /** The rows of one table. */
  ofTable(tableId: string): HeldSeat[] {
    return this.q.ofTable.all(tableId).map(toSeat);
  }

  /** Tables whose money differs from the sum of their seated players' stacks (empty when all is well). */
  audit(): string[] {
    return this.q.audit.all().map((r) => `table ${r.table_id}: holds ${r.held}, but its seated players' stacks sum to ${r.seated}`);
  }

  private expectOne(changes: number, tableId: string, accountId: number): void {
    if (changes !== 1) throw new Error(`${tableId}: no seat held for account ${accountId}`);
  }
}
