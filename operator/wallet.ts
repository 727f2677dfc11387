/**
 * Wallets and their append-only ledger (operator database, schema.ts).
 *
 * Each account has one wallet per kind of money: `real` in integer euro cents, `play` in integer play
 * chips. The two never mix: deposits are real money, grants are play chips, and a table holds one kind.
 * Money moves between four places, each movement one ledger row:
 *
 *   outside ──deposit/grant──▶ wallet ──buy-in/top-up──▶ table ──cash-out──▶ wallet
 *                                                         table ──rake──▶ operator (collected rake)
 *   operator ──overlay──▶ tournament's fund (a guarantee's overlay: money the operator puts in, v9)
 *   wallet ──withdrawal──▶ outside (the player's card, through the cashier: R-CASHIER)
 *
 * Chips moved between players at a table by a hand stay at the table and do not touch the ledger;
 * only the rake the operator takes does. So for each kind, at all times:
 *   Σ wallets + Σ money at tables + collected rake = Σ deposits and grants + Σ overlays − Σ withdrawals   (`audit()`).
 *
 * Every movement carries a caller-chosen idempotency key (unique across the ledger; namespace it, e.g.
 * `buy-in:<table>:<request id>`): a repeated request returns the movement first recorded instead of
 * applying it twice.
 */
import type { Db } from '../shared/node/sqlite';
import { refuse, type Refusal } from './result';

/** Kind of money: real money in cents, or play chips. Kept strictly apart. */
export type MoneyKind = 'real' | 'play';

/** Why money moved. */
export type MovementReason = 'deposit' | 'grant' | 'buy-in' | 'top-up' | 'cash-out' | 'rake' | 'withdrawal' | 'overlay';

/** Reasons that take money out of a wallet (the others put money in, or touch no wallet: rake). */
const DEBITS: readonly MovementReason[] = ['buy-in', 'top-up', 'withdrawal'];

/**
 * A check the wallet makes inside the transaction of every real-money stake (buy-in, top-up) before
 * moving it (R-LIMITS, R-TIMELIMIT, R-EXCLUDE, R-BANNED; protection/service.ts): null lets it through,
 * a refusal stops it with nothing moved.
 */
export type StakeGuard = (accountId: number, amount: number, at: number) => Refusal<string, object> | null;

/** One row of the ledger, as stored. Amounts are positive integers; the reason gives the direction. */
export interface LedgerEntry {
  readonly id: number;
  /** The player's account; null for rake (the operator's side). */
  readonly accountId: number | null;
  readonly kind: MoneyKind;
  readonly reason: MovementReason;
  readonly amount: number;
  /** Wallet balance after the movement; for rake, the operator's collected rake after it; for an overlay, the operator's overlays after it. */
  readonly balanceAfter: number;
  readonly tableId: string | null;
  /** Money held at the table after the movement (movements touching a table only). */
  readonly tableAfter: number | null;
  readonly handId: string | null;
  readonly idempotencyKey: string;
  /** Milliseconds since the Unix epoch. */
  readonly at: number;
  /** The payment provider's reference of a deposit or withdrawal (R-CASHIER), else null. */
  readonly paymentRef: string | null;
}

/** Refusal codes of wallet operations. */
export type WalletRefusalCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_REFERENCE'
  | 'UNKNOWN_ACCOUNT'
  | 'UNKNOWN_TABLE'
  | 'GUEST_REAL_MONEY'
  | 'KIND_MISMATCH'
  | 'INSUFFICIENT_FUNDS'
  | 'INSUFFICIENT_TABLE_FUNDS'
  | 'IDEMPOTENCY_CONFLICT'
  /** R-CASHIER: money asked for by a pending withdrawal is no longer available to stake. */
  | 'FUNDS_RESERVED';

/** Outcome of a movement: the ledger row (`replayed` when the idempotency key had already been used). */
export type MovementResult = { readonly ok: true; readonly entry: LedgerEntry; readonly replayed: boolean } | Refusal<WalletRefusalCode> | Refusal<string, object>;

/** Options common to every movement. */
export interface MovementOptions {
  /** Applied once per key: a repeat with the same key and the same movement returns the first result. */
  readonly idempotencyKey: string;
}

/** Totals for one kind of money, as seen by {@link Wallet.audit}. */
export interface KindTotals {
  /** Σ deposits (real) or grants (play): all the money that ever came in. */
  readonly cameIn: number;
  /** Σ withdrawals: all the money that went back out (real money only). */
  readonly wentOut: number;
  readonly wallets: number;
  readonly tables: number;
  readonly rake: number;
  /** Σ overlays: money the operator put into guaranteed prize pools. */
  readonly overlay: number;
}

/** Result of {@link Wallet.audit}: `ok` when every check passed, otherwise the problems found. */
export interface AuditReport {
  readonly ok: boolean;
  readonly totals: Readonly<Record<MoneyKind, KindTotals>>;
  readonly problems: readonly string[];
}

/** Options for {@link Wallet}. */
export interface WalletOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** Checked before each real-money buy-in or top-up (protection/service.ts); none: no check. */
  readonly stakeGuard?: StakeGuard;
}

const KINDS: readonly MoneyKind[] = ['real', 'play'];
const MAX_REF_LENGTH = 200;

interface LedgerRow {
  id: number;
  account_id: number | null;
  kind: MoneyKind;
  reason: MovementReason;
  amount: number;
  balance_after: number;
  table_id: string | null;
  table_after: number | null;
  hand_id: string | null;
  idempotency_key: string;
  at: number;
  payment_ref: string | null;
}

function toEntry(r: LedgerRow): LedgerEntry {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind,
    reason: r.reason,
    amount: r.amount,
    balanceAfter: r.balance_after,
    tableId: r.table_id,
    tableAfter: r.table_after,
    handId: r.hand_id,
    idempotencyKey: r.idempotency_key,
    at: r.at,
    paymentRef: r.payment_ref,
  };
}

/**
 * A player's wallet movement as the regulatory trace writes it (Solde Avant / Mouvement / Apres,
 * A 1.3.6.c): e.g. the buy-in of a POINSCRIT, the top-up of a POACHAT, the cash-out of a POBILAN.
 * Undefined for rake rows, which are the operator's, not a player's.
 */
export function walletMovement(entry: LedgerEntry): { avant: number; mouvement: number; apres: number } | undefined {
  if (entry.accountId === null) return undefined;
  const debit = DEBITS.includes(entry.reason);
  return { avant: debit ? entry.balanceAfter + entry.amount : entry.balanceAfter - entry.amount, mouvement: entry.amount, apres: entry.balanceAfter };
}

/** What a movement is, compared with the stored row when an idempotency key comes back. */
interface Intent {
  accountId: number | null;
  kind: MoneyKind;
  reason: MovementReason;
  amount: number;
  tableId: string | null;
  handId: string | null;
  paymentRef?: string | null;
}

function validRef(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_REF_LENGTH;
}

/**
 * The wallet service over the operator database. Every operation is one IMMEDIATE transaction, so
 * concurrent processes on the same file serialise, and a movement is applied entirely or not at all.
 */
export class Wallet {
  private readonly clock: () => number;
  private readonly stakeGuard: StakeGuard | undefined;
  private readonly q;

  /** `db` must have been opened with `openOperatorDatabase` (schema.ts). */
  constructor(private readonly db: Db, options: WalletOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.stakeGuard = options.stakeGuard;
    this.q = {
      account: db.prepare<[number], { guest: number }>('SELECT guest FROM accounts WHERE id = ?'),
      balance: db.prepare<[number, string], { balance: number }>('SELECT balance FROM wallets WHERE account_id = ? AND kind = ?'),
      table: db.prepare<[string], { kind: MoneyKind; held: number }>('SELECT kind, held FROM table_funds WHERE table_id = ?'),
      openTable: db.prepare<[string, string]>('INSERT INTO table_funds(table_id, kind, held) VALUES (?, ?, 0)'),
      rake: db.prepare<[string], { amount: number }>('SELECT amount FROM rake_collected WHERE kind = ?'),
      overlay: db.prepare<[string], { amount: number }>('SELECT amount FROM overlay_paid WHERE kind = ?'),
      byKey: db.prepare<[string], LedgerRow>('SELECT * FROM ledger WHERE idempotency_key = ?'),
      byId: db.prepare<[number | bigint], LedgerRow>('SELECT * FROM ledger WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO ledger(account_id, kind, reason, amount, balance_after, table_id, table_after, hand_id, idempotency_key, at, payment_ref)
         VALUES (@accountId, @kind, @reason, @amount, @balanceAfter, @tableId, @tableAfter, @handId, @idempotencyKey, @at, @paymentRef)`,
      ),
      entries: db.prepare<[number, string, number, number], LedgerRow>(
        'SELECT * FROM ledger WHERE account_id = ? AND kind = ? AND id < ? ORDER BY id DESC LIMIT ?',
      ),
      tableEntries: db.prepare<[string], LedgerRow>('SELECT * FROM ledger WHERE table_id = ? ORDER BY id'),
      reserved: db
        .prepare<[number], number | null>("SELECT SUM(amount) FROM cashier_payments WHERE account_id = ? AND direction = 'withdrawal' AND state = 'pending'")
        .pluck(),
    };
  }

  /** The balance of an account's wallet of one kind (0 if it never moved). */
  balance(accountId: number, kind: MoneyKind): number {
    return this.q.balance.get(accountId, kind)?.balance ?? 0;
  }

  /** Money currently held at a table (the sum of its players' stacks), or undefined for an unknown table. */
  tableHeld(tableId: string): { kind: MoneyKind; held: number } | undefined {
    const t = this.q.table.get(tableId);
    return t ? { kind: t.kind, held: t.held } : undefined;
  }

  /** Rake collected by the operator so far, for one kind of money. */
  rakeCollected(kind: MoneyKind): number {
    return this.q.rake.get(kind)?.amount ?? 0;
  }

  /** The ledger rows of an account's wallet, newest first; page with `beforeId`. */
  entries(accountId: number, kind: MoneyKind, page: { limit?: number; beforeId?: number } = {}): LedgerEntry[] {
    return this.q.entries.all(accountId, kind, page.beforeId ?? Number.MAX_SAFE_INTEGER, page.limit ?? 100).map(toEntry);
  }

  /** The ledger row recorded under an idempotency key, if any (reads only: nothing moves). */
  entryByKey(idempotencyKey: string): LedgerEntry | undefined {
    const r = this.q.byKey.get(idempotencyKey);
    return r ? toEntry(r) : undefined;
  }

  /** Every ledger row touching a table, oldest first. */
  tableEntries(tableId: string): LedgerEntry[] {
    return this.q.tableEntries.all(tableId).map(toEntry);
  }

  /**
   * Declares a table and the kind of money it plays for, before any buy-in. Opening an already open
   * table with the same kind is a no-op; with the other kind it is refused (`KIND_MISMATCH`).
   */
  openTable(tableId: string, kind: MoneyKind): { ok: true } | Refusal<'KIND_MISMATCH' | 'INVALID_REFERENCE'> {
    if (!validRef(tableId)) return refuse('INVALID_REFERENCE', 'table id must be a non-empty string of at most 200 characters');
    if (!KINDS.includes(kind)) return refuse('INVALID_REFERENCE', `unknown kind of money ${String(kind)}`);
    return this.db
      .transaction(() => {
        const t = this.q.table.get(tableId);
        if (t && t.kind !== kind) return refuse('KIND_MISMATCH', `table ${tableId} plays for ${t.kind} money, not ${kind}`);
        if (!t) this.q.openTable.run(tableId, kind);
        return { ok: true } as const;
      })
      .immediate();
  }

  /**
   * Credits real money (integer cents) from outside, e.g. a payment received, with the provider's
   * reference (cashier/cashier.ts). Guests cannot hold real money.
   */
  deposit(accountId: number, cents: number, options: MovementOptions & { paymentRef?: string }): MovementResult {
    return this.move({ accountId, kind: 'real', reason: 'deposit', amount: cents, tableId: null, handId: null, paymentRef: options.paymentRef ?? null }, options);
  }

  /**
   * Pays real money (integer cents) out to the player, e.g. a withdrawal the payment provider
   * confirmed (cashier/cashier.ts, R-CASHIER). Refused beyond the balance, less what other pending
   * withdrawals reserve (the cashier marks this one confirmed first, in the same transaction).
   */
  withdraw(accountId: number, cents: number, options: MovementOptions & { paymentRef?: string }): MovementResult {
    return this.move({ accountId, kind: 'real', reason: 'withdrawal', amount: cents, tableId: null, handId: null, paymentRef: options.paymentRef ?? null }, options);
  }

  /** Money the operator put into guaranteed prize pools so far, for one kind of money. */
  overlayPaid(kind: MoneyKind): number {
    return this.q.overlay.get(kind)?.amount ?? 0;
  }

  /** Real money asked for by pending withdrawals: no longer available to stake (R-CASHIER). */
  reserved(accountId: number): number {
    return this.q.reserved.get(accountId) ?? 0;
  }

  /** Grants play chips (play money only; never convertible to real money). */
  grantPlay(accountId: number, chips: number, options: MovementOptions): MovementResult {
    return this.move({ accountId, kind: 'play', reason: 'grant', amount: chips, tableId: null, handId: null }, options);
  }

  /**
   * Moves a buy-in from the player's wallet to the table, in the table's kind of money. Refused when
   * the wallet is short: no buy-in may make the account negative (R-NODEBT, D art. 8 II 1°).
   */
  buyIn(accountId: number, tableId: string, amount: number, options: MovementOptions): MovementResult {
    return this.tableMove(accountId, tableId, amount, 'buy-in', options);
  }

  /** Like {@link buyIn}, for adding chips to a stack already at the table (recorded as `top-up`). */
  topUp(accountId: number, tableId: string, amount: number, options: MovementOptions): MovementResult {
    return this.tableMove(accountId, tableId, amount, 'top-up', options);
  }

  /**
   * Returns a player's stack from the table to their wallet when they leave: cash-game players keep
   * their winnings (R-CASH, D art. 1 II 1°). The table manager passes the stack; the wallet refuses
   * only if the table does not hold that much (`INSUFFICIENT_TABLE_FUNDS`).
   */
  cashOut(accountId: number, tableId: string, amount: number, options: MovementOptions): MovementResult {
    return this.tableMove(accountId, tableId, amount, 'cash-out', options);
  }

  /**
   * Moves the rake of a hand from the table's money to the operator (R-RAKE, D art. 4). The pot's
   * other chips stay at the table; only this deduction leaves it.
   */
  collectRake(tableId: string, amount: number, options: MovementOptions & { handId: string }): MovementResult {
    if (!validRef(tableId)) return refuse('INVALID_REFERENCE', 'table id must be a non-empty string of at most 200 characters');
    if (!validRef(options.handId)) return refuse('INVALID_REFERENCE', 'rake needs the hand id it was taken from');
    const t = this.q.table.get(tableId);
    if (!t) return refuse('UNKNOWN_TABLE', `table ${tableId} is not open`);
    return this.move({ accountId: null, kind: t.kind, reason: 'rake', amount, tableId, handId: options.handId }, options);
  }

  /**
   * The operator's overlay: what a guaranteed prize pool has beyond the entries'
   * buy-ins, put by the operator into the tournament's fund (`tableId`), in its kind of money. One
   * ledger row from the operator's side, so the audit counts it as money in, the operator's.
   */
  fundOverlay(tableId: string, amount: number, options: MovementOptions): MovementResult {
    if (!validRef(tableId)) return refuse('INVALID_REFERENCE', 'table id must be a non-empty string of at most 200 characters');
    const t = this.q.table.get(tableId);
    if (!t) return refuse('UNKNOWN_TABLE', `table ${tableId} is not open`);
    return this.move({ accountId: null, kind: t.kind, reason: 'overlay', amount, tableId, handId: null }, options);
  }

  private tableMove(accountId: number, tableId: string, amount: number, reason: 'buy-in' | 'top-up' | 'cash-out', options: MovementOptions): MovementResult {
    if (!validRef(tableId)) return refuse('INVALID_REFERENCE', 'table id must be a non-empty string of at most 200 characters');
    const t = this.q.table.get(tableId);
    if (!t) return refuse('UNKNOWN_TABLE', `table ${tableId} is not open`);
    return this.move({ accountId, kind: t.kind, reason, amount, tableId, handId: null }, options);
  }

  /** The single write path: validate, check the idempotency key, compute balances, insert one ledger row. */
  private move(intent: Intent, options: MovementOptions): MovementResult {
    const { amount } = intent;
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      // Money is integers in the smallest unit, never floats (DESIGN.md §3).
      return refuse('INVALID_AMOUNT', `amount must be a positive integer (cents or chips), got ${String(amount)}`);
    }
    if (!validRef(options?.idempotencyKey)) return refuse('INVALID_REFERENCE', 'an idempotency key (non-empty, at most 200 characters) is required');
    return this.db.transaction((): MovementResult => {
      const prior = this.q.byKey.get(options.idempotencyKey);
      if (prior) return this.replay(prior, intent);

      let balanceAfter: number;
      if (intent.accountId !== null) {
        const account = this.q.account.get(intent.accountId);
        if (!account) return refuse('UNKNOWN_ACCOUNT', `no account ${intent.accountId}`);
        // Guest accounts are for play money only.
        if (account.guest === 1 && intent.kind === 'real') return refuse('GUEST_REAL_MONEY', 'guest accounts hold play money only');
        const balance = this.balance(intent.accountId, intent.kind);
        const debit = DEBITS.includes(intent.reason);
        if (debit && balance < amount) {
          // R-NODEBT, D art. 8 II 1°: the account may never go negative.
          return refuse('INSUFFICIENT_FUNDS', `balance ${balance} is less than ${amount}`, { balance, kind: intent.kind });
        }
        if (debit && intent.kind === 'real') {
          // R-CASHIER: what a pending withdrawal asked for is on its way out; it cannot be staked too.
          const reserved = this.reserved(intent.accountId);
          if (balance - reserved < amount) {
            return refuse('FUNDS_RESERVED', `balance ${balance}, of which ${reserved} is asked for by a pending withdrawal, is less than ${amount}`, { balance, kind: intent.kind });
          }
          if (intent.reason !== 'withdrawal' && this.stakeGuard) {
            // R-LIMITS, R-TIMELIMIT, R-EXCLUDE, R-BANNED: a stake is checked where its money moves.
            const refused = this.stakeGuard(intent.accountId, amount, this.clock());
            if (refused) return refused;
          }
        }
        balanceAfter = debit ? balance - amount : balance + amount;
      } else {
        balanceAfter = (intent.reason === 'overlay' ? this.overlayPaid(intent.kind) : this.rakeCollected(intent.kind)) + amount;
      }

      let tableAfter: number | null = null;
      if (intent.tableId !== null) {
        const t = this.q.table.get(intent.tableId);
        if (!t) return refuse('UNKNOWN_TABLE', `table ${intent.tableId} is not open`);
        const leaving = intent.reason === 'cash-out' || intent.reason === 'rake';
        if (leaving && t.held < amount) {
          return refuse('INSUFFICIENT_TABLE_FUNDS', `table ${intent.tableId} holds ${t.held}, less than ${amount}`, { held: t.held });
        }
        tableAfter = leaving ? t.held - amount : t.held + amount;
        if (!Number.isSafeInteger(tableAfter)) return refuse('INVALID_AMOUNT', 'amount would overflow the table total');
      }
      if (!Number.isSafeInteger(balanceAfter)) return refuse('INVALID_AMOUNT', 'amount would overflow the balance');

      const info = this.q.insert.run({ ...intent, paymentRef: intent.paymentRef ?? null, balanceAfter, tableAfter, idempotencyKey: options.idempotencyKey, at: this.clock() });
      return { ok: true, entry: toEntry(this.q.byId.get(info.lastInsertRowid)!), replayed: false };
    }).immediate();
  }

  private replay(prior: LedgerRow, intent: Intent): MovementResult {
    const same =
      prior.account_id === intent.accountId &&
      prior.kind === intent.kind &&
      prior.reason === intent.reason &&
      prior.amount === intent.amount &&
      prior.table_id === intent.tableId &&
      prior.hand_id === intent.handId;
    if (!same) {
      return refuse('IDEMPOTENCY_CONFLICT', `idempotency key ${prior.idempotency_key} was already used for a different movement (ledger row ${prior.id})`);
    }
    return { ok: true, entry: toEntry(prior), replayed: true };
  }

  /**
   * Checks the books, exactly, to the cent or chip:
   * - for each kind, Σ wallets + Σ money at tables + collected rake = Σ deposits/grants − Σ withdrawals (conservation);
   * - every wallet, table and rake balance equals the running sum of its ledger rows, and every row's
   *   `balance_after` / `table_after` equals the running sum up to that row (no row altered or missing);
   * - no balance is negative.
   */
  audit(): AuditReport {
    const a = this.auditStatements();
    const problems: string[] = [];
    const totals = {} as Record<MoneyKind, KindTotals>;
    for (const kind of KINDS) {
      const t: KindTotals = {
        cameIn: (a.cameIn.get(kind) as number | null) ?? 0,
        wentOut: (a.wentOut.get(kind) as number | null) ?? 0,
        wallets: (a.wallets.get(kind) as number | null) ?? 0,
        tables: (a.tables.get(kind) as number | null) ?? 0,
        rake: (a.rake.get(kind) as number | null) ?? 0,
        overlay: (a.overlay.get(kind) as number | null) ?? 0,
      };
      totals[kind] = t;
      if (t.wallets + t.tables + t.rake !== t.cameIn + t.overlay - t.wentOut) {
        problems.push(
          `${kind}: wallets ${t.wallets} + tables ${t.tables} + rake ${t.rake} = ${t.wallets + t.tables + t.rake}, but ${t.cameIn} came in${t.overlay > 0 ? `, the operator put ${t.overlay} in overlays,` : ''} and ${t.wentOut} went out`,
        );
      }
    }
    type Row = Record<string, unknown>;
    for (const r of a.walletRows.all() as Row[]) problems.push(`ledger row ${r.id}: wallet balance_after ${r.balance_after}, but its wallet's rows sum to ${r.running}`);
    for (const r of a.tableRows.all() as Row[]) problems.push(`ledger row ${r.id}: table_after ${r.table_after}, but its table's rows sum to ${r.running}`);
    for (const r of a.rakeRows.all() as Row[]) problems.push(`ledger row ${r.id}: collected rake after ${r.balance_after}, but rake rows sum to ${r.running}`);
    for (const r of a.walletTotals.all() as Row[]) problems.push(`wallet ${r.account_id}/${r.kind}: balance ${r.balance}, but its ledger rows sum to ${r.s}`);
    for (const r of a.tableTotals.all() as Row[]) problems.push(`table ${r.table_id}: holds ${r.held}, but its ledger rows sum to ${r.s}`);
    for (const r of a.rakeTotals.all() as Row[]) problems.push(`collected ${r.kind} rake: ${r.amount}, but rake rows sum to ${r.s}`);
    for (const r of a.overlayRows.all() as Row[]) problems.push(`ledger row ${r.id}: overlays after ${r.balance_after}, but overlay rows sum to ${r.running}`);
    for (const r of a.overlayTotals.all() as Row[]) problems.push(`${r.kind} overlays paid: ${r.amount}, but overlay rows sum to ${r.s}`);
    for (const r of a.negative.all() as Row[]) problems.push(`${r.what} is negative: ${r.v}`);
    return { ok: problems.length === 0, totals, problems };
  }

  private audits: ReturnType<Wallet['prepareAudit']> | undefined;

  private auditStatements(): ReturnType<Wallet['prepareAudit']> {
    return (this.audits ??= this.prepareAudit());
  }

  /** The audit's statements, prepared once on first use. Each lists at most 20 faulty rows. */
  private prepareAudit() {
    const db = this.db;
    // Signed effect of a row on the wallet, and on the table: buy-ins and top-ups leave the wallet for the table.
    const debits = DEBITS.map((r) => `'${r}'`).join(', ');
    const walletDelta = (l: string) => `CASE WHEN ${l}reason IN (${debits}) THEN -${l}amount ELSE ${l}amount END`;
    const tableDelta = (l: string) => `CASE WHEN ${l}reason IN ('buy-in', 'top-up', 'overlay') THEN ${l}amount ELSE -${l}amount END`;
    return {
      cameIn: db.prepare(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason IN ('deposit', 'grant')`).pluck(),
      wentOut: db.prepare(`SELECT SUM(amount) FROM ledger WHERE kind = ? AND reason = 'withdrawal'`).pluck(),
      wallets: db.prepare('SELECT SUM(balance) FROM wallets WHERE kind = ?').pluck(),
      tables: db.prepare('SELECT SUM(held) FROM table_funds WHERE kind = ?').pluck(),
      rake: db.prepare('SELECT amount FROM rake_collected WHERE kind = ?').pluck(),
      overlay: db.prepare('SELECT amount FROM overlay_paid WHERE kind = ?').pluck(),
      walletRows: db.prepare(`
        WITH s AS (SELECT id, balance_after, SUM(${walletDelta('')}) OVER (PARTITION BY account_id, kind ORDER BY id) AS running
                   FROM ledger WHERE account_id IS NOT NULL)
        SELECT id, balance_after, running FROM s WHERE balance_after IS NOT running LIMIT 20`),
      tableRows: db.prepare(`
        WITH s AS (SELECT id, table_after, SUM(${tableDelta('')}) OVER (PARTITION BY table_id ORDER BY id) AS running
                   FROM ledger WHERE table_id IS NOT NULL)
        SELECT id, table_after, running FROM s WHERE table_after IS NOT running LIMIT 20`),
      rakeRows: db.prepare(`
        WITH s AS (SELECT id, balance_after, SUM(amount) OVER (PARTITION BY kind ORDER BY id) AS running
                   FROM ledger WHERE reason = 'rake')
        SELECT id, balance_after, running FROM s WHERE balance_after IS NOT running LIMIT 20`),
      walletTotals: db.prepare(`
        SELECT w.account_id, w.kind, w.balance, COALESCE(SUM(${walletDelta('l.')}), 0) AS s
        FROM wallets w LEFT JOIN ledger l ON l.account_id = w.account_id AND l.kind = w.kind
        GROUP BY w.account_id, w.kind HAVING w.balance IS NOT s LIMIT 20`),
      tableTotals: db.prepare(`
        SELECT t.table_id, t.held, COALESCE(SUM(${tableDelta('l.')}), 0) AS s
        FROM table_funds t LEFT JOIN ledger l ON l.table_id = t.table_id
        GROUP BY t.table_id HAVING t.held IS NOT s LIMIT 20`),
      overlayRows: db.prepare(`
        WITH s AS (SELECT id, balance_after, SUM(amount) OVER (PARTITION BY kind ORDER BY id) AS running
                   FROM ledger WHERE reason = 'overlay')
        SELECT id, balance_after, running FROM s WHERE balance_after IS NOT running LIMIT 20`),
      overlayTotals: db.prepare(`
        SELECT k.kind, k.amount, COALESCE((SELECT SUM(l.amount) FROM ledger l WHERE l.reason = 'overlay' AND l.kind = k.kind), 0) AS s
        FROM overlay_paid k WHERE k.amount IS NOT s`),
      rakeTotals: db.prepare(`
        SELECT k.kind, k.amount, COALESCE((SELECT SUM(l.amount) FROM ledger l WHERE l.reason = 'rake' AND l.kind = k.kind), 0) AS s
        FROM rake_collected k WHERE k.amount IS NOT s`),
      negative: db.prepare(`
        SELECT 'wallet ' || account_id || '/' || kind AS what, balance AS v FROM wallets WHERE balance < 0
        UNION ALL SELECT 'table ' || table_id, held FROM table_funds WHERE held < 0`),
    };
  }
}
