/**
 * The player protection routes (docs/protection.md): the account's limits, exclusions and playing
 * time; a new limit (R-LIMITS); a self-exclusion (R-EXCLUDE); closing the account.
 */
import { closeAccount, stopPlay } from '../closure';
import { refuseProtection } from './refusals';
import { authed, type RoutedConnection, type Routes } from './route';

function sendProtection(c: RoutedConnection, rid: number, accountId: number, now = c.ctx.now()): void {
  const v = c.ctx.protection.view(accountId, now);
  const account = c.ctx.accounts.getAccount(accountId);
  c.send({
    type: 'protection',
    rid,
    protection: { ...v, identified: account?.identified ?? false, withdrawable: c.ctx.cashier.withdrawable(accountId) },
  });
}

export const protectionRoutes: Routes<'protection.get' | 'protection.setLimit' | 'protection.exclude' | 'account.close'> = {
  'protection.get': authed<'protection.get'>((m, c, account) => sendProtection(c, m.rid, account.id)),
  'protection.setLimit': authed<'protection.setLimit'>((m, c, account) => {
    const now = c.ctx.now();
    const r = c.ctx.protection.setLimit(account.id, m.limit, m.value, now);
    if (!r.ok) return refuseProtection(c, m.rid, r);
    sendProtection(c, m.rid, account.id, now);
  }),
  'protection.exclude': authed<'protection.exclude'>((m, c, account) => {
    // R-EXCLUDE: confirmed twice on the client; `confirm: true` is required by the schema.
    const now = c.ctx.now();
    const r = c.ctx.protection.exclude(account.id, m.choice, now);
    if (!r.ok) return refuseProtection(c, m.rid, r);
    // At once everywhere: cash seats after the hand in progress, tournaments (closure.ts); a
    // permanent exclusion closes the account (withdrawal and history stay open).
    if (r.exclusion.until === null) closeAccount(c.ctx, account.id, 'excluded-permanently');
    else stopPlay(c.ctx, account.id, 'self-excluded');
    sendProtection(c, m.rid, account.id, now);
  }),
  'account.close': authed<'account.close'>((m, c, account) => {
    // R-EXCLUDE: "a player can also close their account themselves"; confirmed twice on the client.
    closeAccount(c.ctx, account.id, 'closed-by-player');
    sendProtection(c, m.rid, account.id);
  }),
};
