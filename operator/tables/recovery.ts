/**
 * Crash recovery of the money at tables (R-CASH, D art. 1 II 1°: players keep their winnings; money is
 * never lost). An operator that stops without closing its tables (a crash, a kill, a power cut) leaves
 * chips held at tables in the wallet (`table_funds`) with no one seated. On the next start, before
 * serving, every stack still held is returned to its owner's wallet, seating by seating, from the
 * seats the tables kept (seats.ts):
 *
 *   1. a hand that was in play (the seat carries its id) and that the trace does not close (no POJEU
 *      with its Pool) is void: reported (`cancelledHands`, the operator's log), with neither a POJEU
 *      (its course died with the process) nor a POANNUL, which would cancel the whole inscription
 *      (A 1.3.6.c.6; docs/trace.md). The stacks kept are the start-of-hand ones (a
 *      hand's new stacks are written only when it is settled, with its rake), so the stakes are back
 *      on the caves;
 *   2. the stack goes back to the wallet under the ledger key `cash-out:<inscription>`, the one a
 *      normal leave uses, in one transaction with the seat marked as cashed out;
 *   3. the POBILAN (A 1.3.6.c.3), its movement taken from that ledger row, flagged `supervision`: the
 *      operator closes the participation without the player (A 1.3.6.c);
 *   4. the seat is forgotten.
 *
 * Each step checks what is already done (the POBILAN in the vault, the seat's mark), and
 * the ledger's idempotency key makes a repeated cash-out return the first one: a second crash during
 * recovery, at any point, cannot pay twice nor write a record twice. The vault is its own file (its own
 * coffre), so a step's record and its money cannot share a transaction; the order above is what makes
 * every interruption recoverable.
 */
import type { Movement } from '../trace/records';
import type { TraceVault } from '../trace/vault';
import { walletMovement, type MoneyKind, type Wallet } from '../wallet';
import { playerRecord } from './cash';
import type { HeldSeat, SeatLedger } from './seats';

/** Every record of recovery is the operator's, without the player (A 1.3.6.c, supervision). */
const OPERATOR = { supervision: true } as const;

/** What recovery needs of the vault. */
export type RecoveryVault = Pick<TraceVault, 'append' | 'byPool' | 'byInscription'>;

/** A durable step of recovery, for {@link recoverTables}'s `step` observer (tests kill the process there). */
export type RecoveryStep = 'cash-out' | 'pobilan' | 'forget';

type Deps = { wallet: Wallet; seats: SeatLedger; vault: RecoveryVault; step?: (step: RecoveryStep) => void };

export interface RecoveryReport {
  /** Seatings closed. */
  seats: number;
  /** Chips returned to wallets, per kind of money. */
  returned: Record<MoneyKind, number>;
  /** Hands found in play and voided (their Pool), for the operator's log: no record (docs/trace.md). */
  cancelledHands: string[];
  /** Tables that still hold money no seat accounts for (data older than the seats, or a bug): for review. */
  unaccounted: { tableId: string; held: number }[];
}

/** Returns every stack still held at a table to its owner, with its records. Idempotent. */
export function recoverTables(deps: Deps): RecoveryReport {
  const report: RecoveryReport = { seats: 0, returned: { real: 0, play: 0 }, cancelledHands: [], unaccounted: [] };
  const cancelled = new Set<string>();
  const tables = new Set<string>();
  for (const seat of deps.seats.all()) {
    tables.add(seat.tableId);
    recoverSeat(deps, seat, report, cancelled);
    report.seats++;
  }
  report.cancelledHands = [...cancelled];
  for (const tableId of tables) {
    const held = deps.wallet.tableHeld(tableId)?.held ?? 0;
    if (held !== 0) report.unaccounted.push({ tableId, held });
  }
  return report;
}

function recoverSeat(deps: Deps, s: HeldSeat, report: RecoveryReport, cancelled: Set<string>): void {
  const { wallet, seats, vault } = deps;
  const { tableId, inscription, player, kind } = s;
  const key = `cash-out:${inscription}`;
  const unmoved = (): Movement => {
    const b = wallet.balance(player.accountId, kind);
    return { avant: b, mouvement: 0, apres: b };
  };
  let cashedOut = s.cashedOut;
  if (cashedOut === null) {
    // A hand in play that no POJEU settles is void; its stakes are already back on the caves.
    if (s.handId !== null && !vault.byPool(s.handId).some((r) => r.kind === 'POJEU')) cancelled.add(s.handId);
    seats.transaction(() => {
      if (s.stack > 0) {
        const r = wallet.cashOut(player.accountId, tableId, s.stack, { idempotencyKey: key });
        if (!r.ok) throw new Error(`recovery of ${inscription}: the cash-out of ${s.stack} was refused: ${r.code}: ${r.message}`);
      }
      seats.cashedOutInscription(inscription, s.stack);
    });
    deps.step?.('cash-out');
    cashedOut = s.stack;
    report.returned[kind] += s.stack;
  }
  if (!vault.byInscription(inscription).some((r) => r.kind === 'POBILAN')) {
    let movement: Movement;
    if (cashedOut > 0) {
      const entry = wallet.entryByKey(key);
      if (!entry) throw new Error(`recovery of ${inscription}: ${cashedOut} was cashed out, but the ledger has no row ${key}`);
      movement = walletMovement(entry)!;
    } else {
      movement = unmoved(); // nothing left at the table: a POBILAN with a zero movement (A 1.3.6.c.3)
    }
    vault.append({ kind: 'POBILAN', ...playerRecord(player, inscription, tableId, kind, movement, OPERATOR) });
    deps.step?.('pobilan');
  }
  seats.forget(inscription);
  deps.step?.('forget');
}
