/** The link's history request (docs/protocol.md "History"): the player's hands of the past year, a page at a time (R-HISTORY). */
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import { HISTORY_PAGE_MAX } from '../../../shared/protocol/version';
import { askWith, type Reply, type SendRequest } from './types';

export class HistoryRequests {
  constructor(private readonly request: SendRequest) {}

  /** A page of the player's hands, newest first. */
  page(cursor: string | null = null, limit = HISTORY_PAGE_MAX): Promise<Reply<ServerMessageOf<'history'>>> {
    return askWith<'history'>(this.request, { type: 'history', cursor, limit });
  }
}
