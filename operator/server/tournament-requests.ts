/**
 * A connection's tournament requests (docs/protocol.md "Tournaments"): the
 * list and details, registration on the information shown (R-INFO), unregistering (refund before the
 * start, a forfeit after: R-TOURN-LEAVE), rebuy and add-on (T 5-2, 5-4), and the account's finished
 * tournaments. Served from server/routes/tournaments.ts (the route map), read from the hub.
 */
import type { ErrorCode } from '../../shared/protocol/codes';
import type { ClientMessageOf, ServerMessage } from '../../shared/protocol/messages';
import type { AccountView } from '../accounts';
import type { TableRefusal } from '../tables/types';
import type { TournamentHub } from '../tournaments/hub';

type TournamentMessage = ClientMessageOf<'tournament.list' | 'tournament.details' | 'tournament.register' | 'tournament.unregister' | 'tournament.rebuy' | 'tournament.addOn' | 'tournament.results'>;

export interface TournamentRequestContext {
  hub: TournamentHub | undefined;
  account: AccountView;
  ip: string;
  sessionId: string;
  send(message: ServerMessage): void;
  error(rid: number, code: ErrorCode, message: string, extra?: Record<string, unknown>): void;
}

export function tournamentRequest(m: TournamentMessage, c: TournamentRequestContext): void {
  const { hub, account } = c;
  if (m.type === 'tournament.list') return c.send({ type: 'tournament.list', rid: m.rid, tournaments: hub?.list() ?? [] });
  if (m.type === 'tournament.results') {
    const page = hub?.results(account.id, m.cursor, m.limit) ?? (m.cursor === null ? { ok: true as const, results: [], next: null } : { ok: false as const });
    if (!page.ok) return c.error(m.rid, 'BAD_CURSOR', 'not a cursor of these results');
    return c.send({ type: 'tournament.results', rid: m.rid, results: page.results, next: page.next });
  }
  const t = hub?.get(m.tournamentId);
  if (!hub || !t) return c.error(m.rid, 'UNKNOWN_TOURNAMENT', `no tournament ${m.tournamentId}`);
  const refuse = (r: TableRefusal) => c.error(m.rid, r.code, r.message, r.rule !== undefined ? { rule: r.rule } : {});
  const done = (r: { ok: true } | TableRefusal) => (r.ok ? c.send({ type: 'ok', rid: m.rid }) : refuse(r));
  switch (m.type) {
    case 'tournament.details':
      return c.send({ type: 'tournament.details', rid: m.rid, tournament: hub.details(t) });
    case 'tournament.register': {
      // R-INFO: the player registers on the information they were shown (its version), R-NODEBT in the wallet.
      const r = hub.register(t.spec.id, { accountId: account.id, name: account.username, practice: false, ip: c.ip, sessionId: c.sessionId }, m.version);
      if (!r.ok) return refuse(r);
      c.send({ type: 'tournament.registered', rid: m.rid, tournamentId: t.spec.id, inscription: r.inscription });
      // Where the tournament stands for the player at once.
      return hub.tell(t, [account.id]);
    }
    case 'tournament.unregister': {
      const r = hub.unregister(t, account.id);
      if (!r.ok) return refuse(r);
      return c.send({ type: 'tournament.unregistered', rid: m.rid, tournamentId: t.spec.id, refunded: r.refunded });
    }
    case 'tournament.rebuy':
      return done(t.rebuy(account.id));
    case 'tournament.addOn':
      return done(t.addOn(account.id));
  }
}
