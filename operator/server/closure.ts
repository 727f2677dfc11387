/**
 * What stops at once, everywhere, when a person may no longer play (SPEC §2b; docs/protection.md):
 *
 * - R-EXCLUDE: a self-exclusion "takes effect at once everywhere": cash seats after the hand in
 *   progress, tournament registrations not started refunded, running tournaments left as a
 *   disqualified player leaves them;
 * - R-EXCLUDE: a permanent self-exclusion closes the account, and a player can close it themselves;
 * - R-BANNED: a new copy of the ban file "applies at once to every session": each holder found banned
 *   is stood up after the hand in progress, their registrations refunded, removed from running
 *   tournaments, and the account closed for play and deposits.
 *
 * A closed account keeps its sessions: the player signs in, withdraws and reads their history; every
 * stake and deposit is refused ACCOUNT_CLOSED where its money moves (protection/service.ts `blocked`,
 * asked by the wallet's stake guard and the cashier's deposit guard). The player's connection, if any,
 * is told with an `account.closed` push.
 */
import type { ServerMessage } from '../../shared/protocol/messages';
import type { AccountView, Accounts, ClosedReason } from '../accounts';
import type { TableManager } from '../tables/manager';
import type { TournamentHub } from '../tournaments/hub';

/**
 * What closing needs of the server: its own narrow view, so the connection module imports this one
 * and never the reverse (no import cycle; the server's context has these fields).
 */
export interface ClosureContext {
  readonly accounts: Accounts;
  readonly manager: Pick<TableManager, 'standUp'>;
  readonly tournaments?: Pick<TournamentHub, 'excludePlayer'>;
  /** The connection signed in for each account: its view of the account, and a push to it. */
  readonly byAccount: ReadonlyMap<number, { account: AccountView | null; send(message: ServerMessage): void }>;
  readonly log: (line: string) => void;
}
type Ctx = ClosureContext;

/**
 * The person leaves play: every real-money cash seat after the hand in progress (a seat with no hand
 * in play at once, its stack back to the wallet: R-CASH), and every tournament (TournamentHub).
 */
export function stopPlay(ctx: Ctx, accountId: number, why: 'banned' | 'self-excluded' | 'closed'): void {
  ctx.manager.standUp(accountId);
  ctx.tournaments?.excludePlayer(accountId, why);
}

/** Closes the account for `reason` and stops its play; false when it was closed already. */
export function closeAccount(ctx: Ctx, accountId: number, reason: ClosedReason): boolean {
  if (!ctx.accounts.close(accountId, reason)) return false;
  closed(ctx, accountId, reason);
  return true;
}

/**
 * R-BANNED: the copy of the ban file in force (`banned`, BanList.current) is applied to every open
 * account, signed in or not; returns the ids closed. Called at the operator's start and whenever the
 * file changes (protection/ban-watch.ts).
 */
export function applyBanFile(ctx: Ctx, banned: ReadonlySet<string>): number[] {
  const ids = ctx.accounts.closeBanned(banned);
  for (const id of ids) {
    // The accounts are closed already (one transaction): a fault in one's stand-up does not spare the others.
    try {
      closed(ctx, id, 'banned');
    } catch (e) {
      ctx.log(`ban file: account ${id} closed, stopping its play failed: ${(e as Error)?.stack ?? String(e)}`);
    }
  }
  if (ids.length > 0) ctx.log(`ban file: ${ids.length} accounts closed (R-BANNED): ${ids.join(', ')}`);
  return ids;
}

function closed(ctx: Ctx, accountId: number, reason: ClosedReason): void {
  stopPlay(ctx, accountId, reason === 'banned' ? 'banned' : reason === 'excluded-permanently' ? 'self-excluded' : 'closed');
  const c = ctx.byAccount.get(accountId);
  if (!c) return;
  // The connection's own view of the account follows (`closed` is read from it).
  const now = ctx.accounts.getAccount(accountId);
  if (now && c.account?.id === accountId) c.account = now;
  c.send({ type: 'account.closed', reason });
}
