/**
 * The tournament routes (docs/protocol.md "Tournaments"), each handed to tournament-requests.ts as
 * the connection handed them before the route map.
 */
import type { ClientMessageOf } from '../../../shared/protocol/messages';
import type { AccountView } from '../../accounts';
import { tournamentRequest } from '../tournament-requests';
import { authed, type RoutedConnection, type Routes } from './route';

type TournamentType = 'tournament.list' | 'tournament.details' | 'tournament.register' | 'tournament.unregister' | 'tournament.rebuy' | 'tournament.addOn' | 'tournament.results';

function toHub(m: ClientMessageOf<TournamentType>, c: RoutedConnection, account: AccountView): void {
  tournamentRequest(m, { hub: c.ctx.tournaments, account, ip: c.ip, sessionId: c.sessionId!, send: (x) => c.send(x), error: (rid, code, message, extra) => c.error(rid, code, message, extra) });
}

export const tournamentRoutes: Routes<TournamentType> = {
  'tournament.list': authed<'tournament.list'>(toHub),
  'tournament.details': authed<'tournament.details'>(toHub),
  'tournament.register': authed<'tournament.register'>(toHub),
  'tournament.unregister': authed<'tournament.unregister'>(toHub),
  'tournament.rebuy': authed<'tournament.rebuy'>(toHub),
  'tournament.addOn': authed<'tournament.addOn'>(toHub),
  'tournament.results': authed<'tournament.results'>(toHub),
};
