import type { Outcome } from '../../shared/api';

type T = (key: string, named?: Record<string, unknown>) => string;

/** The codes with a message of their own in `errors.*` (i18n); any other says what was refused generically. */
const KNOWN = new Set([
  'HOST_DOWN',
  'OFFLINE',
  'DISCONNECTED',
  'TIMEOUT',
  'STALE',
  'RATE_LIMITED',
  'UPDATE_REQUIRED',
  'AUTH_REQUIRED',
  'INVALID_CREDENTIALS',
  'INVALID_USERNAME',
  'USERNAME_TAKEN',
  'WEAK_PASSWORD',
  'INVALID_SESSION',
  'SESSION_EXPIRED',
  'SESSION_REPLACED',
  'UNKNOWN_TABLE',
  'TABLE_FULL',
  'ALREADY_SEATED',
  'NOT_SEATED',
  'BUY_IN_RANGE',
  'INSUFFICIENT_FUNDS',
  'SAME_ADDRESS',
  'REAL_MONEY_FORBIDDEN',
  'NOT_SITTING_OUT',
  'ALREADY_SITTING_OUT',
  'NO_CHIPS',
  'NO_HAND',
  'NOT_YOUR_TURN',
  'ILLEGAL_ACTION',
  'SHUTTING_DOWN',
]);

/**
 * What the player reads when a call is refused or cannot be sent (issue 13 defects 2, 3, 9): the
 * reason in the page's language from the code, with the allowed range when the operator gave it;
 * never the English `message`, which is for logs.
 */
export function outcomeText(t: T, o: Pick<Outcome, 'code' | 'min' | 'max'>, amount: (n: number) => string = String): string {
  const code = o.code ?? 'INTERNAL';
  const base = KNOWN.has(code) ? t(`errors.${code}`) : t('errors.other', { code });
  if (o.min !== undefined && o.max !== undefined) return `${base} ${t('errors.range', { min: amount(o.min), max: amount(o.max) })}`;
  if (o.min !== undefined) return `${base} ${t('errors.min', { min: amount(o.min) })}`;
  if (o.max !== undefined) return `${base} ${t('errors.max', { max: amount(o.max) })}`;
  return base;
}

/** A call's promise as an Outcome: a call that could not be sent (host gone) is a refusal like any other. */
export async function safely(p: Promise<Outcome>): Promise<Outcome> {
  try {
    return await p;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { ok: false, code: typeof code === 'string' ? code : 'INTERNAL', message: (e as Error).message };
  }
}
