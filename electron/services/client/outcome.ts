/**
 * The client API's `Outcome` of a refusal from the operator, or of a call made while no operator is
 * connected: one shape for every service's answers (session.ts, tables.ts, cashier.ts).
 */
import type { Outcome, TableRefusalView } from '../../../shared/api';
import { refusalDetails } from '../../../shared/protocol/refusal';
import type { Refused } from '../link/link';

/**
 * The refusal as the screen gets it: the code, the message, and every detail the
 * operator (or the client's own `decide`) gave (the rule, the range, the chips a call adds), unchanged.
 */
export function tableRefusal(r: Refused): TableRefusalView {
  return { code: r.code, message: r.message.slice(0, 2000), ...refusalDetails(r) };
}

export function refusal(r: Refused): Outcome {
  const o: Outcome = { ok: false, ...tableRefusal(r) };
  if (r.retryAfterMs !== undefined) o.retryAfterMs = r.retryAfterMs;
  return o;
}

export function notConnected(message = 'not connected to an operator'): Outcome {
  return { ok: false, code: 'OFFLINE', message };
}
