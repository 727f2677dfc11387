/**
 * Refusals are values, not exceptions (CONVENTIONS.md): an expected "no" (short balance, wrong
 * password, locked account) is returned as `{ ok: false, code, message }`; exceptions are kept for
 * bugs and I/O.
 */

/** An expected refusal, with a stable machine code and a human-readable message. */
export type Refusal<C extends string = string, X extends object = object> = {
  readonly ok: false;
  readonly code: C;
  readonly message: string;
} & Readonly<X>;

/** Builds a refusal value; `extra` carries details such as `retryAfterMs` or `balance`. */
export function refuse<C extends string, X extends object = object>(code: C, message: string, extra?: X): Refusal<C, X> {
  return { ok: false, code, message, ...(extra ?? ({} as X)) };
}
