/**
 * Refusals as the wire says them (docs/protocol.md "Errors"): a table's refusal with every detail the
 * rules gave (shared/protocol/refusal.ts), and a cashier's or protection service's refusal with its
 * code, rule and details (R-LIMITS, R-EXCLUDE, R-CASHIER).
 */
import { ERROR_CODES, type ErrorCode } from '../../../shared/protocol/codes';
import { refusalDetails } from '../../../shared/protocol/refusal';
import { PROTECTION_RULES } from '../../protection/rules';
import type { TableRefusal } from '../../tables/types';
import type { Extra, RoutedConnection } from './route';

/** A refusal of the cashier or the protection service as the wire says it: its code, rule and details. */
export function protectionError(r: { code: string; message: string } & Record<string, unknown>): { code: ErrorCode; message: string; extra: Extra } {
  const code: ErrorCode =
    r.code === 'GUEST_REAL_MONEY' ? 'REAL_MONEY_FORBIDDEN' : r.code === 'INVALID_REQUEST' ? 'BAD_MESSAGE' : (ERROR_CODES as readonly string[]).includes(r.code) ? (r.code as ErrorCode) : 'INTERNAL';
  const details: Record<string, unknown> = {};
  if (typeof r.limit === 'string') details.limitKind = r.limit;
  else if (typeof r.limit === 'number') details.limit = r.limit;
  for (const k of ['used', 'freeAt', 'until', 'withdrawable', 'atTables'] as const) if (r[k] !== undefined) details[k] = r[k];
  const extra: Extra = {};
  if (PROTECTION_RULES[code] !== undefined) extra.rule = PROTECTION_RULES[code];
  // An account the player closed, or closed by their permanent exclusion: R-EXCLUDE, not R-BANNED.
  if (code === 'ACCOUNT_CLOSED' && r.reason !== undefined && r.reason !== 'banned') extra.rule = 'R-EXCLUDE';
  if (Object.keys(details).length > 0) extra.details = details;
  return { code, message: r.message, extra };
}

export function refuseProtection(c: RoutedConnection, rid: number, r: { code: string; message: string }, tableId?: string): void {
  const e = protectionError(r);
  if (tableId !== undefined) e.extra.tableId = tableId;
  c.error(rid, e.code, e.message, e.extra);
}

/** A table's refusal, every detail kept (the rule, the bounds of a bet). */
export function refuseTable(c: RoutedConnection, rid: number, r: TableRefusal, tableId: string): void {
  c.error(rid, r.code, r.message, { tableId, ...refusalDetails(r) });
}

/** `ok`, or the table's refusal. */
export function done(c: RoutedConnection, rid: number, r: { ok: true } | TableRefusal, tableId: string): void {
  if (r.ok) c.send({ type: 'ok', rid });
  else refuseTable(c, rid, r, tableId);
}
