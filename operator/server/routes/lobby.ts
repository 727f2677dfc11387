/**
 * The lobby's routes (docs/protocol.md "Lobby"): every table with its rules and the conditions of
 * play (R-INFO), then each change as a `lobby.table` frame, until unsubscribed or the connection ends.
 */
import { authed, type Routes } from './route';

export const lobbyRoutes: Routes<'lobby.subscribe' | 'lobby.unsubscribe'> = {
  'lobby.subscribe': authed<'lobby.subscribe'>((m, c) => {
    c.setLobbyFeed(null);
    c.send({ type: 'lobby', rid: m.rid, tables: c.ctx.lobby.list(), conditions: c.ctx.lobby.conditions });
    c.setLobbyFeed(c.ctx.lobby.subscribe((frame) => c.sendRaw(frame)));
  }),
  'lobby.unsubscribe': authed<'lobby.unsubscribe'>((m, c) => {
    c.setLobbyFeed(null);
    c.send({ type: 'ok', rid: m.rid });
  }),
};
