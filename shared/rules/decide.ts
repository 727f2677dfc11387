/**
 * One decision path (DESIGN.md §3): a player's move at a hand becomes the engine's
 * action for their seat, or a refusal naming the rule. The renderer's action bar, the client's link
 * and the operator all call `decide`, so a move is judged the same way on the screen, before it
 * leaves the machine (SPEC.md §1) and by the authority; the operator sends the refusal as it is made
 * here, and the client carries it unchanged to the screen.
 *
 * Pure: the hand as the deciding seat sees it is enough (the engine never needs hidden cards to judge
 * a move), which is why the client can run it on its own view.
 */
import { apply, legalActions, type ApplyResult, type HandState, type LegalActions, type PlayerAction, type Refusal as EngineRefusal } from './engine';

/**
 * What a player decides; the seat is not part of it (R-ONEHAND: a player acts only from their own
 * seat, which whoever receives the move knows). The wire's `table.action` carries it (shared/protocol
 * validates it with `moveSchema` and re-exports this type).
 */
export type Move =
  | { type: 'fold' }
  | { type: 'check' }
  | { type: 'call' }
  | { type: 'bet'; to: number }
  | { type: 'bringIn' }
  | { type: 'draw'; discards: number[] }
  | { type: 'show' }
  | { type: 'muck' };

/** The codes a decision can be refused with; each is one of the wire's error codes (shared/protocol/codes.ts). */
export type DecisionCode = 'NO_HAND' | 'NOT_YOUR_TURN' | 'ILLEGAL_ACTION';

/**
 * A move refused, as it travels from the operator to the screen: a stable code, the requirement
 * refused (`rule`, e.g. R-MINRAISE), the English reason for logs (`message`), and the bounds of what
 * would have been accepted (`min`/`max`: the allowed range; `call`: the chips a call adds).
 * shared/protocol's `Refusal` is this shape with any wire code.
 */
export interface MoveRefusal {
  ok: false;
  code: DecisionCode;
  message: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
}

/**
 * A move accepted: the engine action, the legal actions it was chosen from, and the state it leads to
 * (for a caller that commits it, the operator, without applying it twice).
 */
export type Decision = { ok: true; action: PlayerAction; legal: LegalActions; applied: HandState } | MoveRefusal;

/** The engine action for `seat`'s move; the only place a move is turned into one. */
export function engineAction(move: Move, seat: number): PlayerAction {
  switch (move.type) {
    case 'bet':
      return { type: 'bet', seat, to: move.to };
    case 'draw':
      return { type: 'draw', seat, discards: move.discards.slice() };
    default:
      return { type: move.type, seat };
  }
}

/**
 * Whether `seat` decides now (a bet, a draw, a show or muck): its legal actions, else why not.
 * The action bar offers these (SPEC.md §5: only legal actions).
 */
export function turnOf(hand: HandState | null, seat: number | null): { ok: true; legal: LegalActions } | MoveRefusal {
  if (hand === null || seat === null || !hand.plan.dealtIn.includes(seat)) return { ok: false, code: 'NO_HAND', message: 'you are not in a hand at this table' };
  if (hand.phase === 'done') return { ok: false, code: 'NOT_YOUR_TURN', message: 'it is not your turn', rule: 'R-ACTORDER' };
  const legal = legalActions(hand);
  if (legal.seat !== seat || (legal.next !== 'act' && legal.next !== 'draw' && legal.next !== 'show')) {
    return { ok: false, code: 'NOT_YOUR_TURN', message: 'it is not your turn', rule: 'R-ACTORDER' };
  }
  return { ok: true, legal };
}

/** The engine's refusal as a decision refusal: the one conversion, details kept. */
export function refusalOf(r: EngineRefusal): MoveRefusal {
  const out: MoveRefusal = { ok: false, code: 'ILLEGAL_ACTION', message: r.message, rule: r.rule };
  if (r.min !== undefined) out.min = r.min;
  if (r.max !== undefined) out.max = r.max;
  if (r.call !== undefined) out.call = r.call;
  return out;
}

/**
 * `seat`'s move at `hand`: the engine action to apply, or the refusal. The action is checked by the
 * engine itself (`apply`), so nothing here restates a rule.
 */
export function decide(hand: HandState | null, seat: number | null, move: Move): Decision {
  const turn = turnOf(hand, seat);
  if (!turn.ok) return turn;
  const action = engineAction(move, seat as number);
  const r: ApplyResult = apply(hand as HandState, action);
  if (!r.ok) return refusalOf(r);
  return { ok: true, action, legal: turn.legal, applied: r.state };
}
