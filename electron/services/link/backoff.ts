/**
 * Reconnection delays: exponential backoff with jitter, so that a thousand clients dropped by the same
 * operator restart do not all knock again in the same millisecond.
 */

export interface BackoffOptions {
  /** Delay before the first retry (before jitter). */
  initialMs: number;
  /** The delay never grows past this. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
  /** 0..1: up to this fraction of the delay is taken off at random (0.5: "equal jitter"). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000, factor: 2, jitter: 0.5 };

/** The wait before retry number `attempt` (1 for the first retry). */
export function backoffDelay(attempt: number, o: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(o.maxMs, o.initialMs * o.factor ** Math.max(0, attempt - 1));
  const jitter = Math.min(1, Math.max(0, o.jitter));
  return Math.max(0, Math.round(base * (1 - jitter * random())));
}
