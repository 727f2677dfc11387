/**
 * The hand of a pushed table as the rules engine's state. Main pushes the hand as a `HandView` (its
 * start and the actions as our seat sees them, shared/protocol/hand.ts), and the
 * page folds it with the same engine as the client's link: once per pushed view, and from the
 * table's previous fold when the new view extends it (a push adds an action or a few).
 */
import type { TableState } from '../../../shared/api/contract';
import { foldHand, type FoldedHand, type HandView } from '../../../shared/protocol/hand';
import type { HandState } from '../../../shared/rules/engine/types';

const byView = new WeakMap<HandView, HandState>();
const lastFold = new Map<string, FoldedHand>();

/** The engine state of the table's hand in progress; null between hands. */
export function tableHand(state: TableState): HandState | null {
  const view = state.view?.hand ?? null;
  if (view === null) {
    lastFold.delete(state.tableId);
    return null;
  }
  const known = byView.get(view);
  if (known) return known;
  const prev = lastFold.get(state.tableId);
  const r = foldHand(view, prev);
  // Main folded this very view before pushing it (electron/services/link/table.ts): a refusal here is
  // a bug, and the table shows no hand rather than a wrong one.
  if (!r.ok) return null;
  byView.set(view, r.state);
  lastFold.set(state.tableId, { view, state: r.state });
  return r.state;
}
