/**
 * The link's tournament requests (docs/protocol.md "Tournaments"): each one request
 * by `rid`, answered by the operator's message or a refusal value (requests.ts). Watching a table is
 * the link's own (`OperatorLink.watch`): its model lives with the table streams.
 */
import type { ServerMessage, ServerMessageOf } from '../../../shared/protocol/messages';
import { TOURNAMENT_RESULTS_PAGE_MAX } from '../../../shared/protocol/tournament';
import { askWith, type Reply, type Request, type SendRequest } from './types';

export class TournamentRequests {
  constructor(private readonly request: SendRequest) {}

  private ask<K extends ServerMessage['type']>(body: Request): Promise<Reply<ServerMessageOf<K>>> {
    return askWith<K>(this.request, body);
  }

  list(): Promise<Reply<ServerMessageOf<'tournament.list'>>> {
    return this.ask<'tournament.list'>({ type: 'tournament.list' });
  }

  details(tournamentId: string): Promise<Reply<ServerMessageOf<'tournament.details'>>> {
    return this.ask<'tournament.details'>({ type: 'tournament.details', tournamentId });
  }

  /** `version`: of the information shown and confirmed (R-INFO). */
  register(tournamentId: string, version: string): Promise<Reply<ServerMessageOf<'tournament.registered'>>> {
    return this.ask<'tournament.registered'>({ type: 'tournament.register', tournamentId, version });
  }

  /** `refunded`: the whole entry before the start; null after it (a forfeit, R-TOURN-LEAVE). */
  unregister(tournamentId: string): Promise<Reply<ServerMessageOf<'tournament.unregistered'>>> {
    return this.ask<'tournament.unregistered'>({ type: 'tournament.unregister', tournamentId });
  }

  rebuy(tournamentId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'tournament.rebuy', tournamentId });
  }

  addOn(tournamentId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    return this.ask<'ok'>({ type: 'tournament.addOn', tournamentId });
  }

  /** A page of the account's finished tournaments, newest first (history/sync.ts). */
  tournamentResults(cursor: string | null, limit: number = TOURNAMENT_RESULTS_PAGE_MAX): Promise<Reply<ServerMessageOf<'tournament.results'>>> {
    return this.ask<'tournament.results'>({ type: 'tournament.results', cursor, limit });
  }
}
