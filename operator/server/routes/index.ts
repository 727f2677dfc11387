/**
 * The route map: every client message type's one route, joined from the domain files. The compiler
 * checks both halves of "exactly one": `RouteMap` needs a route for each type (and no other), and
 * `Overlap` below fails the build if two domains route the same type (a spread would let the later
 * one win in silence).
 */
import type { ClientMessage, ClientMessageOf, ClientType } from '../../../shared/protocol/messages';
import { cashierRoutes } from './cashier';
import { historyRoutes } from './history';
import { lobbyRoutes } from './lobby';
import { protectionRoutes } from './protection';
import type { Route, RouteMap } from './route';
import { sessionRoutes } from './session';
import { tableRoutes } from './tables';
import { tournamentRoutes } from './tournaments';
import { watchingRoutes } from './watching';

export const DOMAINS = {
  session: sessionRoutes,
  lobby: lobbyRoutes,
  history: historyRoutes,
  cashier: cashierRoutes,
  protection: protectionRoutes,
  tables: tableRoutes,
  watching: watchingRoutes,
  tournaments: tournamentRoutes,
};
type Domains = typeof DOMAINS;
/** The message types two domains both route: must be none. */
type Overlap = { [A in keyof Domains]: { [B in Exclude<keyof Domains, A>]: keyof Domains[A] & keyof Domains[B] }[Exclude<keyof Domains, A>] }[keyof Domains];
const routedOnce: [Overlap] extends [never] ? true : Overlap = true;
void routedOnce;

export const ROUTES: RouteMap = {
  ...DOMAINS.session,
  ...DOMAINS.lobby,
  ...DOMAINS.history,
  ...DOMAINS.cashier,
  ...DOMAINS.protection,
  ...DOMAINS.tables,
  ...DOMAINS.watching,
  ...DOMAINS.tournaments,
};

/** The route of a message, typed for that message. */
export function routeOf<K extends ClientType>(m: ClientMessageOf<K>): Route<ClientMessage> {
  // Each route takes its own message type; `m` is that type, so the widening is sound.
  return ROUTES[m.type];
}
