/**
 * The link's table requests (docs/protocol.md "Tables", "Watching"): sitting down and leaving, top-ups,
 * sitting out and in, a fresh snapshot, watching without a seat, and our actions (outbox.ts). The
 * tables' models and their streams are streams.ts's; the answers reach them through the link.
 */
import type { Move, ServerMessageOf } from '../../../shared/protocol/messages';
import type { ActionOutbox } from './outbox';
import type { TableStreams } from './streams';
import { askWith, type ActResult, type Refused, type Reply, type SendRequest } from './types';

export class TableRequests {
  constructor(
    private readonly request: SendRequest,
    private readonly streams: Pick<TableStreams, 'watch' | 'unwatch' | 'isWatched'>,
    private readonly outbox: Pick<ActionOutbox, 'act' | 'pendingFor' | 'pending'>,
  ) {}

  /**
   * Sits down with `buyIn` chips (the operator picks the seat, R-RANDSEAT); the table's model follows.
   * `rulesVersion`: the version of the rules the player was shown and confirmed (R-INFO; shared/protocol/conditions.ts).
   */
  join(tableId: string, buyIn: number, options: { rulesVersion: string; waitForBigBlind?: boolean }): Promise<Reply<ServerMessageOf<'table.joined'>>> {
    return askWith<'table.joined'>(this.request, { type: 'table.join', tableId, buyIn, waitForBigBlind: options.waitForBigBlind ?? false, rulesVersion: options.rulesVersion });
  }

  /** Leaves: `cashedOut` now, or null when a hand is in progress (`table.left` follows when it ends). */
  async leave(tableId: string): Promise<Reply<{ cashedOut: number | null }>> {
    const r = await this.request({ type: 'table.leave', tableId });
    if ('ok' in r && r.ok === false) return r as Refused;
    return { ok: true, cashedOut: r.type === 'table.left' ? r.cashedOut : null };
  }

  topUp(tableId: string, amount: number): Promise<Reply<ServerMessageOf<'ok'>>> {
    return askWith<'ok'>(this.request, { type: 'table.topUp', tableId, amount });
  }

  sitOut(tableId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    return askWith<'ok'>(this.request, { type: 'table.sitOut', tableId });
  }

  sitIn(tableId: string, waitForBigBlind = false): Promise<Reply<ServerMessageOf<'ok'>>> {
    return askWith<'ok'>(this.request, { type: 'table.sitIn', tableId, waitForBigBlind });
  }

  setWaitForBigBlind(tableId: string, waitForBigBlind: boolean): Promise<Reply<ServerMessageOf<'ok'>>> {
    return askWith<'ok'>(this.request, { type: 'table.waitForBigBlind', tableId, waitForBigBlind });
  }

  /** A fresh snapshot (the model takes it too). */
  snapshotOf(tableId: string): Promise<Reply<ServerMessageOf<'table.snapshot'>>> {
    return askWith<'table.snapshot'>(this.request, { type: 'table.snapshot', tableId });
  }

  /**
   * Watches a table without a seat: its snapshot and stream follow (a model, `watching`), as an
   * observer sees them (no hidden card, R-HIDDEN); after a reconnection the operator's resume brings
   * its fresh view (else it is watched again once in step: streams.ts).
   */
  async watch(tableId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    this.streams.watch(tableId);
    const r = await askWith<'ok'>(this.request, { type: 'table.watch', tableId });
    if (!r.ok && r.code !== 'DISCONNECTED' && r.code !== 'TIMEOUT') this.streams.unwatch(tableId);
    return r;
  }

  async unwatch(tableId: string): Promise<Reply<ServerMessageOf<'ok'>>> {
    this.streams.unwatch(tableId);
    return askWith<'ok'>(this.request, { type: 'table.unwatch', tableId });
  }

  /** Followed without a seat. */
  isWatching(tableId: string): boolean {
    return this.streams.isWatched(tableId);
  }

  /**
   * Sends our move at a table, checked first with the rules engine on the table's model unless
   * `check: false`; one decision in flight per table. The action id (given, or made unique for this
   * client) is kept until answered, across reconnections.
   */
  act(tableId: string, move: Move, options: { actionId?: string; check?: boolean } = {}): Promise<ActResult> {
    return this.outbox.act(tableId, move, options);
  }

  /** The action at this table sent and not yet answered (what the pages show as sent), or null. */
  pendingFor(tableId: string): { actionId: string; move: Move } | null {
    return this.outbox.pendingFor(tableId);
  }

  /** Actions sent and not yet answered (ids), for diagnostics and tests. */
  pendingActions(): string[] {
    return this.outbox.pending();
  }
}
