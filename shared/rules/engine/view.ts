/**
 * What one seat (or an observer) may see (DESIGN.md §1: the operator never sends a card to a client
 * that may not see it). Hidden cards become `null` everywhere: in the seats, the discard pool, the
 * log and the known-card bit sets, so they cannot be recovered from the view.
 */
import type { Card } from '../cards';
import { VARIANTS } from '../variants';
import type { Action, HandState, LogEntry, SeatState } from './types';

function hideDown(hole: readonly (Card | null)[], up: readonly boolean[]): (Card | null)[] {
  const out = new Array<Card | null>(hole.length);
  for (let i = 0; i < hole.length; i++) out[i] = up[i] ? hole[i] : null;
  return out;
}

function nulls(n: number): null[] {
  return new Array<null>(n).fill(null);
}

/**
 * The state as `seat` sees it; `null` for an observer (no private card at all). Down cards of other
 * players stay hidden unless shown at the showdown; other players' discards are hidden.
 */
export function viewFor(state: HandState, seat: number | null): HandState {
  const viewer = seat === null ? -1 : seat;
  const seats: SeatState[] = state.seats.map((p, i) => {
    if (i === viewer) return p;
    const hole = p.shown ? p.hole.slice() : hideDown(p.hole, p.up);
    return { ...p, hole, up: p.up.slice(), discards: nulls(p.discards.length) };
  });
  const log: LogEntry[] = state.log.map((e) => {
    if (e.kind === 'deal' && e.seat !== null && e.seat !== viewer) return { ...e, cards: hideDown(e.cards, e.up), up: e.up.slice() };
    if (e.kind === 'discard' && e.seat !== viewer) return { ...e, cards: nulls(e.cards.length) };
    return e;
  });
  // The pool keeps only the viewer's own earlier discards.
  const own = new Set<Card>();
  for (const e of state.log) if (e.kind === 'discard' && e.seat === viewer) for (const c of e.cards) if (c !== null) own.add(c);
  const discardPool = state.discardPool.map((c) => (c !== null && own.has(c) ? c : null));

  // Known cards, from what the view shows only.
  let usedLo = 0;
  let usedHi = 0;
  const mark = (c: Card | null): void => {
    if (c === null) return;
    if (c < 26) usedLo |= 1 << c;
    else usedHi |= 1 << (c - 26);
  };
  for (const c of state.board) mark(c);
  for (const p of seats) {
    for (const c of p.hole) mark(c);
    for (const c of p.discards) mark(c);
  }
  return { ...state, viewer, seats, log, discardPool, usedLo, usedHi, board: state.board.slice() };
}

/**
 * The action as `seat` may see it (null: an observer), given the full state it applies to: another
 * player's down cards and discards become `null`, and a show carries the cards it reveals. What the
 * operator sends each client, who applies it to its `viewFor` state.
 */
export function actionFor(state: HandState, action: Action, seat: number | null): Action {
  const viewer = seat === null ? -1 : seat;
  if (action.type === 'deal' && action.seat !== null && action.seat !== viewer) {
    const street = VARIANTS[state.variant].streets[state.street];
    const owed = state.seats[action.seat]?.owed ?? 0;
    const from = street.hole.length - owed;
    const shown = state.seats[action.seat]?.shown ?? false;
    const cards = action.cards.map((c, k) => (state.phase === 'deal' && (shown || street.hole[from + k] === 'up') ? c : null));
    return { ...action, cards };
  }
  if (action.type === 'draw' && action.seat !== viewer) return { ...action, discards: nulls(action.discards.length) };
  if (action.type === 'show' && action.cards === undefined) {
    // A shown hand is public: the view learns the cards with the show.
    const hole = state.seats[action.seat]?.hole;
    if (hole && hole.every((c) => c !== null)) return { ...action, cards: hole.slice() };
  }
  return action;
}
