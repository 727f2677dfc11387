/**
 * The session's routes (docs/protocol.md "Sessions"): a second `hello`, `ping`, the four ways to
 * authenticate (guest, register, login, resume), `logout`, the balance and a new nickname. The first
 * `hello` is the connection's own (connection.ts: the version check that opens it).
 */
import type { ErrorCode } from '../../../shared/protocol/codes';
import type { ClientMessageOf } from '../../../shared/protocol/messages';
import { addressKey } from '../../login-throttle';
import { PROTECTION_RULES } from '../../protection/rules';
import { balancesOf, seatsOf } from '../context';
import { authed, type RoutedConnection, type Routes } from './route';

type Authentication = ClientMessageOf<'guest' | 'register' | 'login' | 'resume'>;

/**
 * A new account (and its welcome chips) is rationed per address and overall, before any work (a
 * registration's scrypt) is done. False: refused, the refusal sent.
 */
function signupAllowed(m: ClientMessageOf<'guest' | 'register'>, c: RoutedConnection): boolean {
  const key = addressKey(c.ip) ?? c.ip;
  const wait = Math.max(c.ctx.signup.perAddress.wait(key), c.ctx.signup.global.wait(''));
  if (wait > 0) {
    c.error(m.rid, 'RATE_LIMITED', `too many new accounts; try again in ${Math.ceil(wait / 1000)} s`, { retryAfterMs: wait });
    return false;
  }
  c.ctx.signup.perAddress.take(key);
  c.ctx.signup.global.take('');
  return true;
}

function welcomeGrant(c: RoutedConnection, accountId: number): void {
  if (c.ctx.welcomePlayChips <= 0) return;
  const r = c.ctx.wallet.grantPlay(accountId, c.ctx.welcomePlayChips, { idempotencyKey: `grant:welcome:${accountId}` });
  if (!r.ok) throw new Error(`welcome grant refused: ${r.code}`);
}

async function login(c: RoutedConnection, rid: number, username: string, password: string): Promise<void> {
  const r = await c.ctx.accounts.login(username, password, { ip: c.ip });
  if (c.closed) return;
  if (!r.ok) {
    if (r.code === 'RATE_LIMITED') return c.error(rid, 'RATE_LIMITED', r.message, { retryAfterMs: (r as { retryAfterMs: number }).retryAfterMs });
    if (r.code === 'INVALID_ADDRESS') return c.error(rid, 'INTERNAL', r.message);
    return c.error(rid, r.code, r.message);
  }
  c.bind(rid, { account: r.account, sessionId: r.session.sessionId, token: r.session.token, expiresAt: r.session.expiresAt, since: new Map(), resumed: false });
}

async function authenticate(m: Authentication, c: RoutedConnection): Promise<void> {
  const a = c.ctx.accounts;
  if ((m.type === 'guest' || m.type === 'register') && !signupAllowed(m, c)) return;
  switch (m.type) {
    case 'guest': {
      const g = a.createGuest({ ip: c.ip });
      if (!g.ok) return c.error(m.rid, 'INTERNAL', g.message);
      welcomeGrant(c, g.account.id);
      return c.bind(m.rid, { account: g.account, sessionId: g.session.sessionId, token: g.session.token, expiresAt: g.session.expiresAt, since: new Map(), resumed: false });
    }
    case 'register': {
      const r = await a.register(m.username, m.password, m.identity);
      if (!r.ok) return c.error(m.rid, r.code as ErrorCode, r.message, PROTECTION_RULES[r.code] ? { rule: PROTECTION_RULES[r.code] } : {});
      welcomeGrant(c, r.account.id);
      return login(c, m.rid, m.username, m.password);
    }
    case 'login':
      return login(c, m.rid, m.username, m.password);
    case 'resume': {
      const r = a.authenticate(m.token);
      if (!r.ok) return c.error(m.rid, r.code, r.message);
      const since = new Map(m.tables.map((t) => [t.tableId, t.lastSeq]));
      return c.bind(m.rid, { account: r.account, sessionId: r.session.sessionId, token: m.token, expiresAt: r.session.expiresAt, since, resumed: true });
    }
  }
}

export const sessionRoutes: Routes<'hello' | 'ping' | Authentication['type'] | 'logout' | 'balance' | 'account.rename'> = {
  hello: { when: 'open', handle: (_m, c) => c.error(null, 'BAD_MESSAGE', 'hello was already received') },
  ping: { when: 'open', handle: (m, c) => c.send({ type: 'pong', t: m.t, time: c.ctx.now() }) },
  guest: { when: 'anon', handle: authenticate },
  register: { when: 'anon', handle: authenticate },
  login: { when: 'anon', handle: authenticate },
  resume: { when: 'anon', handle: authenticate },
  logout: authed<'logout'>((m, c) => {
    c.signOut();
    c.send({ type: 'ok', rid: m.rid });
  }),
  balance: authed<'balance'>((m, c, account) => c.send({ type: 'balance', rid: m.rid, balances: balancesOf(c.ctx, account.id) })),
  'account.rename': authed<'account.rename'>((m, c, account) => {
    // Seats, hand histories and the table streams name a player by username, so it
    // changes only while the account sits nowhere (no hand is ever written under two names).
    if (seatsOf(c.ctx, account.id).length > 0) return c.error(m.rid, 'NAME_WHILE_SEATED', 'leave your tables before changing your name');
    const r = c.ctx.accounts.rename(account.id, m.username);
    if (!r.ok) return c.error(m.rid, r.code, r.message);
    c.renamed(r.account);
    c.send({ type: 'account', rid: m.rid, account: { id: r.account.id, username: r.account.username, guest: r.account.guest } });
  }),
};
