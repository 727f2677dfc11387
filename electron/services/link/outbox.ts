/**
 * The action outbox: our decisions at the tables, each with an action id
 * kept until answered, across reconnections. It is the one owner of "pending": one decision in
 * flight per table, which the client core reads into the pages' `TableState` (`pendingFor`).
 *
 * - A move is checked first with the rules engine on the table's model (an illegal move is refused
 *   here, with the rule, SPEC.md §1) unless `check: false`.
 * - After a reconnection an unanswered action is sent again, with the same id, only where that cannot
 *   act on another decision (TableModel `mayResend`); the operator applies a repeated id once and
 *   answers it `replayed`. Otherwise it is answered `STALE`.
 */
import { randomBytes } from 'node:crypto';
import type { ClientMessage, Move, ServerMessageOf } from '../../../shared/protocol/messages';
import type { ActionContext, TableModel } from './table';
import { refusal, type ActResult, type LinkCode, type Refused } from './types';

interface PendingAction {
  actionId: string;
  tableId: string;
  move: Move;
  context: ActionContext | null;
  /** The rid of the frame in flight; null when not in flight (not sent yet, or the link dropped). */
  rid: number | null;
  sentBefore: boolean;
  resolve: (r: ActResult) => void;
  promise: Promise<ActResult>;
}

export interface OutboxDeps {
  nextRid(): number;
  send(m: ClientMessage): boolean;
  ready(): boolean;
  refusedNow(): Refused | null;
  model(tableId: string): TableModel | undefined;
}

export class ActionOutbox {
  private readonly actions = new Map<string, PendingAction>();
  private readonly byRid = new Map<number, string>();
  /** Per session of this client: action ids never repeat across runs (docs/protocol.md "Action ids"). */
  private readonly prefix = randomBytes(6).toString('base64url');
  private count = 0;

  constructor(private readonly d: OutboxDeps) {}

  /**
   * Sends our move at a table. The action id (given, or made unique for this client) is kept until
   * answered, across reconnections.
   */
  act(tableId: string, move: Move, options: { actionId?: string; check?: boolean } = {}): Promise<ActResult> {
    const actionId = options.actionId ?? `${this.prefix}-${++this.count}`;
    const refused = this.d.refusedNow();
    if (refused) return Promise.resolve({ ...refused, actionId, local: true });
    const model = this.d.model(tableId);
    if (options.check !== false && model) {
      const r = model.check(move);
      if (r) return Promise.resolve({ ok: false, actionId, local: true, ...r });
    }
    const existing = this.actions.get(actionId);
    if (existing) {
      // One id, one decision: the same move waits for the same answer; another move is refused.
      if (existing.tableId === tableId && sameMove(existing.move, move)) return existing.promise;
      return Promise.resolve({ ok: false, actionId, code: 'ACTION_ID_REUSED', message: `action id ${actionId} is in use for another move`, local: true });
    }
    // One decision in flight per table (the outbox is the one owner of "pending"): the
    // same move clicked twice waits for the first one's answer; another move is not ours to make yet.
    const inFlight = this.at(tableId);
    if (inFlight) {
      if (sameMove(inFlight.move, move)) return inFlight.promise;
      return Promise.resolve({ ok: false, actionId, code: 'NOT_YOUR_TURN', message: 'your previous action at this table is waiting for its answer', local: true });
    }
    let resolve!: (r: ActResult) => void;
    const promise = new Promise<ActResult>((r) => (resolve = r));
    const a: PendingAction = { actionId, tableId, move, context: model?.actionContext() ?? null, rid: null, sentBefore: false, resolve, promise };
    this.actions.set(actionId, a);
    if (this.d.ready()) this.transmit(a);
    return promise;
  }

  private transmit(a: PendingAction): void {
    const rid = this.d.nextRid();
    a.rid = rid;
    this.byRid.set(rid, a.actionId);
    if (this.d.send({ type: 'table.action', rid, tableId: a.tableId, actionId: a.actionId, move: a.move })) a.sentBefore = true;
    else {
      a.rid = null;
      this.byRid.delete(rid);
    }
  }

  /** The link is in step again: each action not in flight goes (again) only where it still is the decision it was. */
  resend(): void {
    for (const a of [...this.actions.values()]) if (a.rid === null) this.resendOrDrop(a);
  }

  private resendOrDrop(a: PendingAction): void {
    const model = this.d.model(a.tableId);
    const context = a.context;
    const safe = model !== undefined && context !== null && (a.sentBefore ? model.mayResend(context) : model.mayResend({ ...context, heroPlayerActions: Infinity }));
    if (safe || (model === undefined && context === null)) {
      this.transmit(a);
      return;
    }
    this.finish(a, {
      ok: false,
      actionId: a.actionId,
      code: 'STALE',
      message: 'the hand moved on while the connection was down; the action was not sent again',
      local: true,
    });
  }

  /** The operator's answer to an action. */
  result(m: ServerMessageOf<'table.actionResult'>): void {
    this.byRid.delete(m.rid);
    const a = this.actions.get(m.actionId);
    if (!a || a.tableId !== m.tableId) return; // an answer already given (a repeat of an answered id)
    if (m.ok) this.finish(a, { ok: true, actionId: m.actionId, replayed: m.replayed });
    else this.finish(a, { ...refusal({ ...m, code: m.code ?? 'INTERNAL', message: m.message ?? '' }), actionId: m.actionId, replayed: m.replayed });
  }

  /** An `error` answering frame `rid`: true when it was an action's (then answered with it). */
  refused(rid: number, m: ServerMessageOf<'error'>): boolean {
    const id = this.byRid.get(rid);
    if (id === undefined) return false;
    this.byRid.delete(rid);
    const a = this.actions.get(id);
    if (a) this.finish(a, { ...refusal(m), actionId: a.actionId });
    return true;
  }

  /** The connection dropped: every action is kept, no longer in flight (sent again after the resume if still right). */
  dropped(): void {
    this.byRid.clear();
    for (const a of this.actions.values()) a.rid = null;
  }

  /** The link gave up: every action is answered with why. */
  failAll(code: LinkCode, message: string): void {
    for (const a of [...this.actions.values()]) this.finish(a, { ok: false, actionId: a.actionId, code, message });
  }

  private finish(a: PendingAction, r: ActResult): void {
    if (this.actions.get(a.actionId) !== a) return;
    this.actions.delete(a.actionId);
    if (a.rid !== null) this.byRid.delete(a.rid);
    a.resolve(r);
  }

  private at(tableId: string): PendingAction | null {
    for (const a of this.actions.values()) if (a.tableId === tableId) return a;
    return null;
  }

  /** The action at this table sent and not yet answered (what the pages show as sent), or null. */
  pendingFor(tableId: string): { actionId: string; move: Move } | null {
    const a = this.at(tableId);
    return a === null ? null : { actionId: a.actionId, move: a.move };
  }

  /** Actions sent and not yet answered (ids), for diagnostics and tests. */
  pending(): string[] {
    return [...this.actions.keys()];
  }
}

function sameMove(a: Move, b: Move): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
