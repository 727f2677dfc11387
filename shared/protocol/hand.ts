/**
 * The hand as it crosses the wire and IPC (DESIGN.md §3 "The wire carries views, not engine
 * internals"): a versioned `HandView` = the start of the hand (rules, plan, who sat
 * with how many chips, whose view it is) and the engine actions so far as that seat may see them
 * (`actionFor`: other players' down cards and discards are `null`). Nothing of the engine's internal
 * state (`usedLo`, `capLocked`, the log, the seats' bookkeeping…) is in it: every consumer rebuilds
 * the state with the same engine (`handOf`: `startHand`, then `apply` of each action), so the engine
 * can change its internals without a protocol change. Actions are the engine's public input, already
 * on the wire in `table.event` `action`.
 *
 * Why actions and not a display-oriented view: the client checks every move with the engine before
 * sending it (SPEC.md §1) and the renderer computes legal moves, pots and made hands from a
 * `HandState` (renderer/src/table/*.ts); a display view would have to carry all of that, or the
 * client would rebuild a state from it anyway. Folding the actions gives the very state the operator's
 * `viewFor` gives, with no second description of it to keep in step.
 */
import { actionFor, apply, startHand, type Action, type HandPlan, type HandState, type LogEntry } from '../rules/engine';
import type { TableRules } from '../rules/tableRules';
import { arr, int, nullable, obj, oneOf, str } from '../validate';
import { actionSchema, handPlanSchema, tableRulesSchema } from './game';
import { ACTIONS_MAX, HAND_ID_MAX, PLAYER_NAME_MAX } from './limits';
import { amount, as } from './schema';

/** The version of the hand view's shape; a peer that reads another one refuses it (the schema names it). */
export const HAND_VIEW_VERSION = 1;

/** One hand as one seat (or an observer: `viewer` null) may see it. */
export interface HandView {
  v: typeof HAND_VIEW_VERSION;
  handId: string | null;
  /** Whose view: a seat index, or null for an observer (no private card at all). */
  viewer: number | null;
  rules: TableRules;
  plan: HandPlan;
  /** One entry per seat of the table (its size): who sat there with how many chips at the start; null = empty. */
  seated: ({ player: string; stack: number } | null)[];
  /** The engine actions so far, as the viewer may see them, in order. */
  actions: Action[];
}

export const handViewSchema = as<HandView>(
  obj({
    v: oneOf(HAND_VIEW_VERSION),
    handId: nullable(str({ max: HAND_ID_MAX })),
    viewer: nullable(int({ min: 0, max: 9 })),
    rules: tableRulesSchema,
    plan: handPlanSchema,
    seated: arr(nullable(obj({ player: str({ min: 1, max: PLAYER_NAME_MAX }), stack: amount })), { min: 2, max: 10 }),
    actions: arr(actionSchema, { max: ACTIONS_MAX }),
  }),
);

/** The hand's start, as `startHand` takes it, from a state of that hand. */
function seatedOf(state: HandState): HandView['seated'] {
  return state.players.map((p, i) => (p === null ? null : { player: p, stack: state.stacksBefore[i] }));
}

/**
 * The engine action a log entry stands for; null for what the engine does by itself (posts, returns).
 * A show whose cards this log does not know is a show without cards (the replayer's case).
 */
export function actionOfEntry(e: LogEntry): Action | null {
  switch (e.kind) {
    case 'post':
    case 'return':
      return null;
    case 'deal':
      return { type: 'deal', seat: e.seat, cards: e.cards.slice() };
    case 'reshuffle':
      return { type: 'reshuffle' };
    case 'bring-in':
      return { type: 'bringIn', seat: e.seat };
    case 'fold':
    case 'check':
    case 'call':
    case 'muck':
      return { type: e.kind, seat: e.seat };
    case 'bet':
    case 'raise':
    case 'complete':
      return { type: 'bet', seat: e.seat, to: e.to };
    case 'discard':
      return { type: 'draw', seat: e.seat, discards: e.cards.slice() };
    case 'show':
      return e.cards.every((c) => c !== null) ? { type: 'show', seat: e.seat, cards: e.cards.slice() } : { type: 'show', seat: e.seat };
  }
}

/**
 * The view of `state` (the operator's whole state) for `seat` (null: an observer): the hand replayed
 * from its start, each action as `actionFor` shows it to that seat — exactly the frames the stream
 * sends that seat (operator/tables: `handStart`, then one `action` per step).
 */
export function handViewFor(state: HandState, seat: number | null): HandView {
  const seated = seatedOf(state);
  let s = startHand({ rules: state.rules, seats: seated, plan: state.plan, handId: state.handId ?? undefined });
  const actions: Action[] = [];
  for (const e of state.log) {
    const a = actionOfEntry(e);
    if (a === null) continue;
    actions.push(actionFor(s, a, seat));
    const r = apply(s, a);
    if (!r.ok) throw new Error(`handViewFor: the hand's own ${a.type} does not replay: ${r.rule} ${r.message}`);
    s = r.state;
  }
  return { v: HAND_VIEW_VERSION, handId: state.handId, viewer: seat, rules: state.rules, plan: state.plan, seated, actions };
}

/** A view that could not be folded: the action the engine refused (a desynchronised or forged view). */
export interface HandViewRefused {
  ok: false;
  at: number;
  rule: string;
  /** The engine's refusal, as it says it (`message`, as every refusal of the product). */
  message: string;
}

/** A fold kept to extend: the view it was made from and the state it gave. */
export interface FoldedHand {
  view: HandView;
  state: HandState;
}

/**
 * The hand state of a view: `startHand` of its start, then `apply` of each action. With `from` (the
 * fold of an earlier view of the same hand whose actions this view extends) only the new actions are
 * applied. The state is what `viewFor(state, viewer)` gives on the operator's side.
 */
export function foldHand(view: HandView, from?: FoldedHand | null): { ok: true; state: HandState } | HandViewRefused {
  let s: HandState;
  let k = 0;
  if (from && extends_(view, from.view)) {
    s = from.state;
    k = from.view.actions.length;
  } else {
    try {
      s = startHand({ rules: view.rules, seats: view.seated, plan: view.plan, handId: view.handId ?? undefined });
    } catch (e) {
      return { ok: false, at: -1, rule: 'R-HANDVIEW', message: (e as Error).message };
    }
    s = { ...s, viewer: view.viewer ?? -1 };
  }
  for (; k < view.actions.length; k++) {
    const r = apply(s, view.actions[k]);
    if (!r.ok) return { ok: false, at: k, rule: r.rule, message: r.message };
    s = r.state;
  }
  return { ok: true, state: s };
}

/** `foldHand`, throwing on a view the engine refuses (for views already checked at the trust boundary). */
export function handOf(view: HandView, from?: FoldedHand | null): HandState {
  const r = foldHand(view, from);
  if (!r.ok) throw new Error(`hand ${view.handId ?? '?'}: action ${r.at} refused: ${r.rule} ${r.message}`);
  return r.state;
}

/** `view` is `prev` with actions added (same hand, same viewer, same start, same first actions). */
function extends_(view: HandView, prev: HandView): boolean {
  if (view === prev) return true;
  if (view.handId !== prev.handId || view.viewer !== prev.viewer || view.actions.length < prev.actions.length) return false;
  if (!sameJson(view.seated, prev.seated) || !sameJson(view.plan, prev.plan) || !sameJson(view.rules, prev.rules)) return false;
  for (let i = 0; i < prev.actions.length; i++) if (view.actions[i] !== prev.actions[i] && !sameJson(view.actions[i], prev.actions[i])) return false;
  return true;
}

/** Deep equality of small plain data (actions, plans, rules). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  return ak.length === Object.keys(bo).filter((k) => bo[k] !== undefined).length && ak.every((k) => sameJson(ao[k], bo[k]));
}

/** The next view when one more action (as the viewer sees it) is applied: shares the earlier actions. */
export function withAction(view: HandView, action: Action): HandView {
  return { ...view, actions: [...view.actions, action] };
}
