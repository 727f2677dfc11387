/**
 * The cashier and the player-protection calls of the client API (docs/protection.md): deposits,
 * withdrawals and their movements (R-CASHIER), the self-set limits and counters (R-LIMITS, R-TIMELIMIT),
 * self-exclusion and closing the account (R-EXCLUDE), and the operator's pushes turned into events: the
 * playing-time warning (art. 16-1, `protectionWarning`), the account closed (R-BANNED, `accountClosed`). Each call is one request on the operator link (`OperatorLink.request`);
 * a refusal reaches the page with its code, rule and details unchanged.
 */
import type { CallArgs, CallResult, EventName, EventPayload, Handlers, PaymentAnswer, ProtectionAnswer } from '../../../shared/api';
import type { ServerMessage, ServerMessageOf } from '../../../shared/protocol/messages';
import type { OperatorLink, Refused, Request } from '../link/link';
import { notConnected, refusal } from './outcome';

/** The provider may take up to the operator's 30 s timeout (docs/protection.md): wait a little longer. */
const PAYMENT_TIMEOUT_MS = 45_000;

export interface ClientCashierOptions {
  /** The link now (null while none). */
  link: () => OperatorLink | null;
  broadcast: <K extends EventName>(event: K, payload: EventPayload<K>) => void;
  /** Balances moved (a payment): main reads them again and pushes the session. */
  balancesMoved: () => void;
}

function isRefused(r: ServerMessage | Refused): r is Refused {
  return 'ok' in r && r.ok === false && !('type' in r);
}

type CashierCalls = 'cashierDeposit' | 'cashierWithdraw' | 'cashierMovements' | 'protectionGet' | 'protectionSetLimit' | 'protectionExclude' | 'accountClose';

export class ClientCashier {
  constructor(private readonly o: ClientCashierOptions) {}

  handlers(): Pick<Handlers, CashierCalls> {
    return {
      cashierDeposit: (a) => this.deposit(a),
      cashierWithdraw: (a) => this.withdraw(a),
      cashierMovements: (a) => this.movements(a),
      protectionGet: () => this.get(),
      protectionSetLimit: (a) => this.setLimit(a),
      protectionExclude: (a) => this.exclude(a),
      accountClose: () => this.close(),
    };
  }

  /**
   * Follows a new link: its `protection.warning` pushes become `protectionWarning` events, its
   * `account.closed` pushes (R-BANNED, R-EXCLUDE) `accountClosed` events.
   */
  attach(link: OperatorLink): () => void {
    return link.on('message', (m) => {
      if (m.type === 'protection.warning') this.o.broadcast('protectionWarning', { warning: m.warning, usedMs: m.usedMs, limitMs: m.limitMs, periodEnd: m.periodEnd });
      else if (m.type === 'account.closed') this.o.broadcast('accountClosed', { reason: m.reason });
    });
  }

  private async ask<K extends ServerMessage['type']>(body: Request, type: K, timeoutMs?: number): Promise<ServerMessageOf<K> | Refused> {
    const link = this.o.link();
    if (!link) return { ok: false, code: 'OFFLINE', message: 'not connected to an operator' };
    const r = await link.request(body, timeoutMs);
    if (isRefused(r)) return r;
    if (r.type !== type) return { ok: false, code: 'INTERNAL', message: `the operator answered ${r.type} to ${body.type}` };
    return r as ServerMessageOf<K>;
  }

  private async payment(type: 'cashier.deposit' | 'cashier.withdraw', a: CallArgs<'cashierDeposit'>): Promise<PaymentAnswer> {
    if (!this.o.link()) return notConnected();
    const r = await this.ask({ type, requestId: a.requestId, amount: a.amount, card: a.card }, 'cashier.payment', PAYMENT_TIMEOUT_MS);
    this.o.balancesMoved();
    if (isRefused(r)) return refusal(r);
    return { ok: true, payment: r.payment, replayed: r.replayed, balances: r.balances, withdrawable: r.withdrawable };
  }

  deposit(a: CallArgs<'cashierDeposit'>): Promise<PaymentAnswer> {
    return this.payment('cashier.deposit', a);
  }

  withdraw(a: CallArgs<'cashierWithdraw'>): Promise<PaymentAnswer> {
    return this.payment('cashier.withdraw', a);
  }

  async movements(a: CallArgs<'cashierMovements'>): Promise<CallResult<'cashierMovements'>> {
    const r = await this.ask({ type: 'cashier.movements', before: a.before, limit: a.limit }, 'cashier.movements');
    return isRefused(r) ? { ...refusal(r), payments: [], next: null } : { ok: true, payments: r.payments, next: r.next };
  }

  private async protection(body: Request): Promise<ProtectionAnswer> {
    const r = await this.ask(body, 'protection');
    return isRefused(r) ? refusal(r) : { ok: true, protection: r.protection };
  }

  get(): Promise<ProtectionAnswer> {
    return this.protection({ type: 'protection.get' });
  }

  setLimit(a: CallArgs<'protectionSetLimit'>): Promise<ProtectionAnswer> {
    return this.protection({ type: 'protection.setLimit', limit: a.limit, value: a.value });
  }

  /** R-EXCLUDE: the page asked twice (`confirm: true`, required by the contract's schema). */
  exclude(a: CallArgs<'protectionExclude'>): Promise<ProtectionAnswer> {
    return this.protection({ type: 'protection.exclude', choice: a.choice, confirm: true });
  }

  /** R-EXCLUDE: the player closes their account; the page asked twice (`confirm: true`). */
  close(): Promise<ProtectionAnswer> {
    return this.protection({ type: 'account.close', confirm: true });
  }
}
