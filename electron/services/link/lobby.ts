/**
 * The link's lobby requests (docs/protocol.md "Lobby"): every table with its rules (R-INFO), then
 * `lobby.table` changes; the subscription is asked again after each reconnection while wanted.
 */
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import { askWith, type Reply, type SendRequest } from './types';

export class LobbyRequests {
  private wanted = false;

  constructor(private readonly request: SendRequest) {}

  /** Every table (R-INFO); then `lobby.table` events, also after reconnections. */
  subscribe(): Promise<Reply<ServerMessageOf<'lobby'>>> {
    this.wanted = true;
    return askWith<'lobby'>(this.request, { type: 'lobby.subscribe' });
  }

  unsubscribe(): Promise<Reply<ServerMessageOf<'ok'>>> {
    this.wanted = false;
    return askWith<'ok'>(this.request, { type: 'lobby.unsubscribe' });
  }

  /** The link is in step again: the subscription the new connection does not have yet, if wanted. */
  resubscribe(): void {
    if (this.wanted) void this.request({ type: 'lobby.subscribe' });
  }
}
