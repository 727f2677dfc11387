import type { Outcome } from '../../shared/api';
import { ERROR_CODES } from '../../shared/protocol/codes';

type T = (key: string, named?: Record<string, unknown>) => string;

/**
 * The codes with a message of their own in `errors.*` (i18n): the wire's (shared/protocol/codes.ts)
 * and the client's own (a call not sent; a table's link); any other says what was refused generically.
 */
const KNOWN = new Set<string>([...ERROR_CODES.filter((c) => !['BAD_MESSAGE', 'UNKNOWN_TYPE', 'FRAME_TOO_LARGE', 'HELLO_REQUIRED', 'ALREADY_AUTHENTICATED', 'ACTION_ID_REUSED', 'BAD_CURSOR', 'INTERNAL'].includes(c)), 'HOST_DOWN', 'OFFLINE', 'DISCONNECTED', 'TIMEOUT', 'STALE']);

/**
 * What the player reads when a call is refused or cannot be sent: the
 * reason in the page's language from the code, the rule it names, the chips a call adds and the
 * allowed range when the operator gave them (every detail of the refusal reaches the
 * screen); never the English `message`, which is for logs (the table shows it on request).
 */
export function outcomeText(t: T, o: Pick<Outcome, 'code' | 'rule' | 'min' | 'max' | 'call'>, amount: (n: number) => string = String): string {
  const code = o.code ?? 'INTERNAL';
  const parts = [KNOWN.has(code) ? t(`errors.${code}`) : t('errors.other', { code })];
  if (o.rule !== undefined && o.rule !== null) parts.push(t('errors.rule', { rule: o.rule }));
  if (o.call !== undefined) parts.push(t('errors.call', { call: amount(o.call) }));
  if (o.min !== undefined && o.max !== undefined) parts.push(t('errors.range', { min: amount(o.min), max: amount(o.max) }));
  else if (o.min !== undefined) parts.push(t('errors.min', { min: amount(o.min) }));
  else if (o.max !== undefined) parts.push(t('errors.max', { max: amount(o.max) }));
  return parts.join(' ');
}

/** A call's promise as an Outcome: a call that could not be sent (host gone) is a refusal like any other. */
export async function safely<T extends Outcome>(p: Promise<T>): Promise<T | Outcome> {
  try {
    return await p;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { ok: false, code: typeof code === 'string' ? code : 'INTERNAL', message: (e as Error).message };
  }
}
