/** The hand history's route (docs/protocol.md "History"): a page of the account's hands of the past year (R-HISTORY). */
import { authed, type Routes } from './route';

export const historyRoutes: Routes<'history'> = {
  history: authed<'history'>((m, c, account) => {
    const page = c.ctx.history.page(account.id, m.cursor, m.limit);
    if (!page.ok) return c.error(m.rid, 'BAD_CURSOR', 'not a cursor of this history');
    c.send({ type: 'history', rid: m.rid, hands: page.hands, next: page.next });
  }),
};
