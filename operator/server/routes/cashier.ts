/**
 * The cashier's routes (R-CASHIER; docs/protection.md): deposits and withdrawals, answered when the
 * payment provider is done, and the account's movements, a page at a time.
 */
import type { ClientMessageOf } from '../../../shared/protocol/messages';
import type { PaymentView } from '../../cashier/cashier';
import { balancesOf } from '../context';
import { refuseProtection } from './refusals';
import { authed, type RoutedConnection, type Routes } from './route';

type Payment = ClientMessageOf<'cashier.deposit' | 'cashier.withdraw'>;

async function payment(m: Payment, c: RoutedConnection, accountId: number): Promise<void> {
  const ask = { requestId: m.requestId, amount: m.amount, card: m.card };
  const r = m.type === 'cashier.deposit' ? await c.ctx.cashier.deposit(accountId, ask) : await c.ctx.cashier.withdraw(accountId, ask);
  if (c.closed || c.ctx.closing) return;
  if (!r.ok) return refuseProtection(c, m.rid, r);
  c.send({
    type: 'cashier.payment',
    rid: m.rid,
    payment: r.payment,
    replayed: r.replayed,
    balances: balancesOf(c.ctx, accountId),
    withdrawable: c.ctx.cashier.withdrawable(accountId),
  });
}

/**
 * The provider may take its time (up to the cashier's timeout): the payment is answered when it is
 * done, while the connection's other requests (a table action on the clock) go on.
 */
function paymentInBackground(m: Payment, c: RoutedConnection, account: { id: number }): void {
  void payment(m, c, account.id).catch((e: unknown) => {
    c.ctx.log(`connection ${c.ip}: ${(e as Error)?.stack ?? String(e)}`);
    c.error(m.rid, 'INTERNAL', 'the operator could not handle this payment; see your movements');
  });
}

export const cashierRoutes: Routes<'cashier.deposit' | 'cashier.withdraw' | 'cashier.movements'> = {
  'cashier.deposit': authed<'cashier.deposit'>(paymentInBackground),
  'cashier.withdraw': authed<'cashier.withdraw'>(paymentInBackground),
  'cashier.movements': authed<'cashier.movements'>((m, c, account) => {
    const before = m.before === null ? undefined : Number(m.before.slice('cercle-'.length));
    const payments: PaymentView[] = c.ctx.cashier.payments(account.id, { beforeId: before, limit: m.limit });
    const next = payments.length === m.limit ? payments[payments.length - 1].paymentId : null;
    c.send({ type: 'cashier.movements', rid: m.rid, payments, next });
  }),
};
