/**
 * One `Refusal` on the wire (DESIGN.md §3 "One decision path"): what the operator
 * refuses (a move judged by shared/rules `decide`, a join, a top-up, …) travels as this shape in an
 * `error` or a `table.actionResult` frame, and the client carries it unchanged to the screen: the
 * stable code, the rule, the English message for logs, and the details the player needs (the allowed
 * range `min`/`max`, the chips a call adds `call`).
 */
import type { MoveRefusal } from '../rules/decide';
import type { ProtectionDetails } from './cashier';
import type { ErrorCode } from './codes';

export interface Refusal {
  ok: false;
  code: ErrorCode;
  message: string;
  rule?: string;
  min?: number;
  max?: number;
  call?: number;
  /** A cashier or protection refusal's details: the limit, what is used, when room frees up. */
  details?: ProtectionDetails;
}

/** The details a refusal may carry beside its code and message, in wire order. */
export const REFUSAL_DETAILS = ['rule', 'min', 'max', 'call', 'details'] as const;
export type RefusalDetails = Pick<Refusal, (typeof REFUSAL_DETAILS)[number]>;

// A decision's refusal is a wire refusal as it is: its codes are the wire's (a compile-time check).
const _decisionOnTheWire: (r: MoveRefusal) => Refusal = (r) => r;
void _decisionOnTheWire;

/**
 * The one converter: the details present in `r` (rule, range, call), copied as they
 * are onto a frame or a value that carries a refusal beside its own fields (an `error`, a
 * `table.actionResult`, the client's table state), with no `undefined` field (the schemas are closed).
 */
export function refusalDetails(r: Partial<RefusalDetails>): RefusalDetails {
  const out: RefusalDetails = {};
  if (r.rule !== undefined) out.rule = r.rule;
  if (r.min !== undefined) out.min = r.min;
  if (r.max !== undefined) out.max = r.max;
  if (r.call !== undefined) out.call = r.call;
  if (r.details !== undefined) out.details = r.details;
  return out;
}
