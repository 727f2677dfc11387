/**
 * The cashier (R-CASHIER; law 2010-476 art. 26; docs/protection.md): real money enters an account only
 * by a deposit and leaves it only by a withdrawal, each asked of the payment provider (provider.ts) and
 * recorded in `cashier_payments` (schema.ts v6) before the provider is asked anything:
 *
 *   pending ──provider confirms──▶ confirmed   (one ledger movement, key `deposit:<id>` / `withdrawal:<id>`,
 *      │                                          in the transaction that marks it confirmed)
 *      └──declined, or no answer in time──▶ failed   (nothing moves)
 *
 * A final state never changes (a trigger forbids it), and the ledger key is unique, so a confirmation
 * that comes twice, or late after a restart (`reconcile`, run at start and at intervals), moves money
 * once. A pending withdrawal reserves its amount: the wallet lets no stake take it (wallet.ts
 * FUNDS_RESERVED) and no other withdrawal either. A withdrawal is refused while the player has money
 * at a real-money table (their stack is not withdrawable until they leave).
 */
import type { Db } from '../../shared/node/sqlite';
import { refuse, type Refusal } from '../result';
import type { Wallet } from '../wallet';
import type { PaymentProvider, PaymentRequest, ProviderAnswer } from './provider';

export type PaymentDirection = 'deposit' | 'withdrawal';
export type PaymentState = 'pending' | 'confirmed' | 'failed';

/** A payment as the player sees it in their movements (dates, references, states). */
export interface PaymentView {
  /** The operator's reference (`cercle-<n>`), shown to the player and given to the provider. */
  readonly paymentId: string;
  readonly requestId: string;
  readonly direction: PaymentDirection;
  readonly amount: number;
  readonly cardLast4: string;
  readonly provider: string;
  /** The provider's reference, once it gave one. */
  readonly providerRef: string | null;
  readonly state: PaymentState;
  /** Why it failed: `declined: <reason>` or `timeout`. */
  readonly failure: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type CashierRefusalCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_REQUEST'
  | 'INVALID_CARD'
  | 'REQUEST_REUSED'
  | 'GUEST_REAL_MONEY'
  | 'UNKNOWN_ACCOUNT'
  | 'INSUFFICIENT_FUNDS'
  | 'MONEY_AT_TABLE';

export type PaymentResult = { readonly ok: true; readonly payment: PaymentView; readonly replayed: boolean } | Refusal<string, object>;

/** A check made before a deposit is recorded, inside its transaction (protection/service.ts): null lets it through. */
export type DepositGuard = (accountId: number, amount: number, at: number) => Refusal<string, object> | null;

export interface CashierOptions {
  readonly clock?: () => number;
  /** How long the provider has to answer `pay` before the payment is failed as `timeout` (default 30 s). */
  readonly timeoutMs?: number;
  readonly depositGuard?: DepositGuard;
  readonly log?: (line: string) => void;
}

interface PaymentRow {
  id: number;
  account_id: number;
  request_id: string;
  direction: PaymentDirection;
  amount: number;
  card_token: string;
  card_last4: string;
  provider: string;
  provider_ref: string | null;
  state: PaymentState;
  failure: string | null;
  created_at: number;
  updated_at: number;
}

/** The operator's reference of payment row `id`. */
export function paymentId(id: number): string {
  return `cercle-${id}`;
}

function view(r: PaymentRow): PaymentView {
  return {
    paymentId: paymentId(r.id),
    requestId: r.request_id,
    direction: r.direction,
    amount: r.amount,
    cardLast4: r.card_last4,
    provider: r.provider,
    providerRef: r.provider_ref,
    state: r.state,
    failure: r.failure,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const REQUEST_ID = /^[\x21-\x7e]{1,64}$/;

export class Cashier {
  private readonly clock: () => number;
  private readonly timeoutMs: number;
  private readonly depositGuard: DepositGuard | undefined;
  private readonly log: (line: string) => void;
  /** Payments whose `pay` is in flight in this process: `reconcile` leaves them to it. */
  private readonly inFlight = new Map<number, AbortController>();
  private closed = false;
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly wallet: Wallet,
    private readonly provider: PaymentProvider,
    options: CashierOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.depositGuard = options.depositGuard;
    this.log = options.log ?? (() => undefined);
    this.q = {
      account: db.prepare<[number], { guest: number }>('SELECT guest FROM accounts WHERE id = ?'),
      byRequest: db.prepare<[number, string], PaymentRow>('SELECT * FROM cashier_payments WHERE account_id = ? AND request_id = ?'),
      byId: db.prepare<[number], PaymentRow>('SELECT * FROM cashier_payments WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO cashier_payments(account_id, request_id, direction, amount, card_token, card_last4, provider, state, created_at, updated_at)
         VALUES (@accountId, @requestId, @direction, @amount, @cardToken, @cardLast4, @provider, 'pending', @at, @at)`,
      ),
      settle: db.prepare<[PaymentState, string | null, string | null, number, number]>(
        "UPDATE cashier_payments SET state = ?, provider_ref = COALESCE(?, provider_ref), failure = ?, updated_at = ? WHERE id = ? AND state = 'pending'",
      ),
      setRef: db.prepare<[string, number, number]>("UPDATE cashier_payments SET provider_ref = ?, updated_at = ? WHERE id = ? AND state = 'pending'"),
      pending: db.prepare<[], PaymentRow>("SELECT * FROM cashier_payments WHERE state = 'pending' ORDER BY id"),
      page: db.prepare<[number, number, number], PaymentRow>('SELECT * FROM cashier_payments WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?'),
      atRealTable: db
        .prepare<[number], number>(
          `SELECT COALESCE(SUM(s.stack), 0) FROM table_seats s JOIN table_funds f ON f.table_id = s.table_id
           WHERE s.account_id = ? AND s.cashed_out IS NULL AND f.kind = 'real'`,
        )
        .pluck(),
      seatedAtReal: db
        .prepare<[number], number>(
          `SELECT COUNT(*) FROM table_seats s JOIN table_funds f ON f.table_id = s.table_id
           WHERE s.account_id = ? AND s.cashed_out IS NULL AND f.kind = 'real'`,
        )
        .pluck(),
    };
  }

  /** What the player may withdraw now: the real balance less pending withdrawals (0 while seated at a real-money table). */
  withdrawable(accountId: number): number {
    if (this.q.seatedAtReal.get(accountId)! > 0) return 0;
    return Math.max(0, this.wallet.balance(accountId, 'real') - this.wallet.reserved(accountId));
  }

  /** The player's payments, newest first (R-CASHIER: "movements with dates and references"); page with `beforeId`. */
  payments(accountId: number, page: { beforeId?: number; limit?: number } = {}): PaymentView[] {
    return this.q.page.all(accountId, page.beforeId ?? Number.MAX_SAFE_INTEGER, Math.min(page.limit ?? 50, 200)).map(view);
  }

  /** One payment by the operator's reference (null if it is not this account's). */
  payment(accountId: number, id: string): PaymentView | null {
    const m = /^cercle-(\d{1,15})$/.exec(id);
    const r = m ? this.q.byId.get(Number(m[1])) : undefined;
    return r && r.account_id === accountId ? view(r) : null;
  }

  /** A deposit of `amount` cents from the card (R-CASHIER); checked against the limits first (R-LIMITS). */
  deposit(accountId: number, request: { requestId: string; amount: number; card: string }): Promise<PaymentResult> {
    return this.ask(accountId, 'deposit', request);
  }

  /** A withdrawal of `amount` cents to the card: never more than `withdrawable` (R-CASHIER). */
  withdraw(accountId: number, request: { requestId: string; amount: number; card: string }): Promise<PaymentResult> {
    return this.ask(accountId, 'withdrawal', request);
  }

  private async ask(accountId: number, direction: PaymentDirection, request: { requestId: string; amount: number; card: string }): Promise<PaymentResult> {
    const { requestId, amount } = request;
    if (!Number.isSafeInteger(amount) || amount <= 0) return refuse('INVALID_AMOUNT', `an amount is a positive whole number of cents, not ${String(amount)}`);
    if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId)) return refuse('INVALID_REQUEST', 'a request id has 1 to 64 printable characters');
    const card = this.provider.tokenize(request.card);
    if (!card.ok) return refuse('INVALID_CARD', card.message);
    const recorded = this.db
      .transaction((): { row: PaymentRow; replayed: boolean } | Refusal<string, object> => {
        const prior = this.q.byRequest.get(accountId, requestId);
        if (prior) {
          if (prior.direction !== direction || prior.amount !== amount || prior.card_token !== card.token) {
            return refuse('REQUEST_REUSED', `request ${requestId} was already used for another payment (${paymentId(prior.id)})`);
          }
          return { row: prior, replayed: true };
        }
        const account = this.q.account.get(accountId);
        if (!account) return refuse('UNKNOWN_ACCOUNT', `no account ${accountId}`);
        // Guests play for play money only (SPEC §2b).
        if (account.guest === 1) return refuse('GUEST_REAL_MONEY', 'guest accounts hold play money only: register to play for real money');
        const now = this.clock();
        if (direction === 'deposit') {
          const refused = this.depositGuard?.(accountId, amount, now) ?? null;
          if (refused) return refused;
        } else {
          const atTables = this.q.atRealTable.get(accountId)!;
          if (this.q.seatedAtReal.get(accountId)! > 0) {
            return refuse('MONEY_AT_TABLE', `${atTables} cents are at a real-money table: leave it before withdrawing`, { atTables });
          }
          const withdrawable = this.withdrawable(accountId);
          if (amount > withdrawable) {
            return refuse('INSUFFICIENT_FUNDS', `${amount} is more than the ${withdrawable} cents withdrawable`, { withdrawable });
          }
        }
        const info = this.q.insert.run({ accountId, requestId, direction, amount, cardToken: card.token, cardLast4: card.last4, provider: this.provider.name, at: now });
        return { row: this.q.byId.get(Number(info.lastInsertRowid))!, replayed: false };
      })
      .immediate();
    if ('ok' in recorded) return recorded;
    const { row, replayed } = recorded;
    if (replayed) return { ok: true, payment: view(this.q.byId.get(row.id)!), replayed: true };

    const abort = new AbortController();
    this.inFlight.set(row.id, abort);
    let timer: NodeJS.Timeout | undefined;
    let answer: ProviderAnswer | 'timeout';
    try {
      answer = await Promise.race([
        this.provider.pay(this.request(row), abort.signal),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.timeoutMs))),
      ]);
    } catch (e) {
      this.log(`cashier: ${paymentId(row.id)}: provider error: ${(e as Error).message}`);
      answer = 'timeout';
    } finally {
      clearTimeout(timer);
      abort.abort();
      this.inFlight.delete(row.id);
    }
    // Stopping: the payment stays pending in the database, settled by `reconcile` at the next start.
    if (this.closed) return refuse('SHUTTING_DOWN', `the operator is stopping: payment ${paymentId(row.id)} is pending and will be settled at its next start`);
    this.apply(row.id, answer);
    return { ok: true, payment: view(this.q.byId.get(row.id)!), replayed: false };
  }

  /**
   * Asks the provider what became of every pending payment and applies the answers: run at start (a
   * payment pending when the operator stopped) and at intervals (a late confirmation). Returns how many
   * changed state.
   */
  async reconcile(): Promise<{ confirmed: number; failed: number; pending: number }> {
    const counts = { confirmed: 0, failed: 0, pending: 0 };
    for (const row of this.q.pending.all()) {
      if (this.inFlight.has(row.id)) continue;
      if (this.closed) break;
      let answer: ProviderAnswer;
      try {
        answer = await this.provider.status({ ...this.request(row), ref: row.provider_ref });
      } catch (e) {
        this.log(`cashier: ${paymentId(row.id)}: status unknown: ${(e as Error).message}`);
        counts.pending++;
        continue;
      }
      if (this.closed) break;
      const state = this.apply(row.id, answer);
      if (state === 'confirmed') counts.confirmed++;
      else if (state === 'failed') counts.failed++;
      else counts.pending++;
    }
    return counts;
  }

  /**
   * Stops waiting for the provider (operator shutdown) before the database closes: payments in flight
   * stay pending, neither confirmed nor failed here, and are settled by `reconcile` at the next start.
   */
  close(): void {
    this.closed = true;
    for (const abort of this.inFlight.values()) abort.abort();
  }

  private request(row: PaymentRow): PaymentRequest {
    return { paymentId: paymentId(row.id), direction: row.direction, amount: row.amount, cardToken: row.card_token, createdAt: row.created_at };
  }

  /**
   * Applies the provider's answer to a pending payment, in one transaction: confirmed moves the money
   * (one ledger row, its key unique) with the state; declined or timeout fails it with nothing moved;
   * pending keeps the provider's reference. A payment already final is left as it is.
   */
  private apply(id: number, answer: ProviderAnswer | 'timeout'): PaymentState {
    return this.db
      .transaction((): PaymentState => {
        const row = this.q.byId.get(id)!;
        if (row.state !== 'pending') return row.state;
        const now = this.clock();
        if (answer === 'timeout') {
          this.q.settle.run('failed', null, 'timeout', now, id);
          return 'failed';
        }
        if (answer.state === 'pending') {
          this.q.setRef.run(answer.ref, now, id);
          return 'pending';
        }
        if (answer.state === 'declined') {
          this.q.settle.run('failed', answer.ref, `declined: ${answer.reason}`, now, id);
          return 'failed';
        }
        // Marked confirmed first: a pending withdrawal's reservation must not count against itself.
        this.q.settle.run('confirmed', answer.ref, null, now, id);
        const key = { idempotencyKey: `${row.direction}:${paymentId(id)}`, paymentRef: answer.ref };
        const moved = row.direction === 'deposit' ? this.wallet.deposit(row.account_id, row.amount, key) : this.wallet.withdraw(row.account_id, row.amount, key);
        // Cannot happen (the withdrawal's amount was reserved): roll back, the payment stays pending.
        if (!moved.ok) throw new Error(`cashier: ${paymentId(id)} confirmed but the ledger refused it: ${moved.code}: ${moved.message}`);
        return 'confirmed';
      })
      .immediate();
  }
}
