/**
 * The client API's `Outcome` of a refusal from the operator, or of a call made while no operator is
 * connected (core.ts; apart from it to keep it under 600 lines, issue 14).
 */
import type { Outcome } from '../../../shared/api';
import type { Refused } from '../link/link';

export function refusal(r: Refused): Outcome {
  const o: Outcome = { ok: false, code: String(r.code).slice(0, 40), message: r.message.slice(0, 2000) };
  if (r.rule) o.rule = r.rule.slice(0, 40);
  if (r.min !== undefined) o.min = r.min;
  if (r.max !== undefined) o.max = r.max;
  if (r.retryAfterMs !== undefined) o.retryAfterMs = r.retryAfterMs;
  return o;
}

export function notConnected(message = 'not connected to an operator'): Outcome {
  return { ok: false, code: 'OFFLINE', message };
}
