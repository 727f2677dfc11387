/**
 * `trace verify`'s second half (issue 12 item 5): the trace against the money. Every movement of the
 * ledger that a record mirrors must have it (A 1.3.6.c): a buy-in its POINSCRIT, each top-up a
 * POACHAT, a cash-out its POBILAN, a raked hand its POJEU; and every hand in the players' histories
 * (each hand a person played to the end) its POJEU. Records still in the outbox (committed with their
 * money, not yet moved to the vault) count, and are reported as pending.
 */
import type { Db } from '../db';
import type { TraceData } from './records';
import type { TraceVault } from './vault';

export interface CrossCheck {
  /** Ledger rows and hands checked. */
  checked: number;
  /** Records committed with their money but not yet in the vault. */
  pending: number;
  /** One line per movement or hand without its record. */
  missing: string[];
}

/** Cross-checks the ledger (operator database) and the hand histories (`history`, if given) against the vault. */
export function crossCheck(operatorDb: Db, vault: TraceVault, historyDb: Db | null, pendingRecords: readonly TraceData[]): CrossCheck {
  const seen = new Set<string>();
  const topUps = new Map<string, number>();
  const add = (kind: string, inscription: string | null, pool: string | null) => {
    if (inscription) seen.add(`${kind}|${inscription}`);
    if (pool) seen.add(`${kind}|pool|${pool}`);
    if (kind === 'POACHAT' && inscription) topUps.set(inscription, (topUps.get(inscription) ?? 0) + 1);
  };
  for (const r of vault.summaries()) add(r.kind, r.inscription, r.pool);
  for (const d of pendingRecords) add(d.kind, d.kind === 'POJEU' ? null : d.inscription, d.kind === 'POJEU' || d.kind === 'POANNUL' ? (d.pool ?? null) : null);

  const missing: string[] = [];
  let checked = 0;
  const rows = operatorDb.prepare<[], { id: number; reason: string; idempotency_key: string }>("SELECT id, reason, idempotency_key FROM ledger WHERE reason IN ('buy-in', 'top-up', 'cash-out', 'rake') ORDER BY id").all();
  const topUpRows = new Map<string, number>();
  for (const r of rows) {
    checked++;
    const key = r.idempotency_key;
    const m = /^(buy-in|top-up|cash-out|rake):(.+?)(?::(\d+))?$/.exec(key);
    if (!m) {
      missing.push(`ledger row ${r.id} (${r.reason}, key ${key}): not a table's movement key, no record to match`);
      continue;
    }
    const [, what, ref] = m;
    if (what === 'buy-in' && !seen.has(`POINSCRIT|${ref}`)) missing.push(`ledger row ${r.id}: buy-in ${ref} has no POINSCRIT`);
    if (what === 'cash-out' && !seen.has(`POBILAN|${ref}`)) missing.push(`ledger row ${r.id}: cash-out ${ref} has no POBILAN`);
    if (what === 'rake' && !seen.has(`POJEU|pool|${ref}`)) missing.push(`ledger row ${r.id}: the raked hand ${ref} has no POJEU`);
    if (what === 'top-up') topUpRows.set(ref, (topUpRows.get(ref) ?? 0) + 1);
  }
  for (const [inscription, n] of topUpRows) {
    const found = topUps.get(inscription) ?? 0;
    if (found < n) missing.push(`${n} top-ups of ${inscription} in the ledger, ${found} POACHAT`);
  }
  if (historyDb) {
    for (const h of historyDb.prepare<[], { hand_id: string }>('SELECT DISTINCT hand_id FROM hands ORDER BY hand_id').all()) {
      checked++;
      if (!seen.has(`POJEU|pool|${h.hand_id}`)) missing.push(`the hand ${h.hand_id} was played to the end (players' histories) but has no POJEU`);
    }
  }
  return { checked, pending: pendingRecords.length, missing };
}
