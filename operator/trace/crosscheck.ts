/**
 * `trace verify`'s second half: the trace against the money. Every movement of the ledger that a
 * record mirrors must have it (A 1.3.6.c; R-TRACE), and every hand in the players' histories (each
 * hand a person played to the end) its POJEU. Records still in the outbox (committed with their money,
 * not yet moved to the vault) count, and are reported as pending.
 *
 * Which record each movement has, by its ledger key (the key names the Inscription, or the Pool):
 *
 * | ledger row (reason, key)                                   | record                                            |
 * | ---------------------------------------------------------- | ------------------------------------------------- |
 * | buy-in `buy-in:<inscription>`                              | POINSCRIT of the inscription (A 1.3.6.c.1)        |
 * | top-up `top-up:<inscription>:<n>`                          | a POACHAT of the inscription each (A 1.3.6.c.4)   |
 * | cash-out `cash-out:<inscription>`                          | POBILAN of the inscription (A 1.3.6.c.3)          |
 * | rake `rake:<pool>`                                         | POJEU of the hand (A 1.3.6.c.2)                   |
 * | buy-in `t-entry:<inscription>`                             | POINSCRIT of the inscription                      |
 * | buy-in `t-rebuy:<i>:<n>`, `t-addon:<i>`, `t-reentry:<i>:<n>` | a POACHAT of the inscription each (A 1.3.6.d.4) |
 * | cash-out `t-refund:<inscription>`                          | POANNUL of the inscription (A 1.3.6.c.6)          |
 * | cash-out `t-prize:<inscription>`                           | POBILAN of the inscription                        |
 * | cash-out `t-bounty:<busted>:<r>:<e>:<winner>`              | a POGAIN of the winner's inscription each (A 1.3.6.c.5) |
 * | rake `t-fee:<inscription>` (a late entry's fee)            | POINSCRIT of the inscription                      |
 * | rake `<purchase key>:fee` (a rebuy's, add-on's, re-entry's) | the purchase's own ledger row (so its POACHAT)   |
 * | rake `t-fees:<tournament>` (the fees at the start)         | the tournament's POINSCRITs (Tech): at least one  |
 * | overlay `t-overlay:<tournament>`                           | none: the operator's money into the fund          |
 *
 * Fees and the overlay move no player's money: the entry fee is inside the SoldeMouvement of the
 * player's POINSCRIT or POACHAT (buy-in + fee leave the wallet together), and its row here is the fund
 * paying it to the operator; the overlay is the operator topping up a guaranteed pool, which reaches
 * players as prizes, each with its POBILAN. Référentiel 2 has no record of the operator's own money,
 * so those rows are matched to the record of the entry they came with (docs/trace.md).
 */
import type { Db } from '../../shared/node/sqlite';
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

interface LedgerRow {
  id: number;
  reason: string;
  idempotency_key: string;
  account_id: number | null;
  table_id: string | null;
}

/** One record's kind and what it is about, from the vault or the outbox. */
interface Seen {
  kind: string;
  inscription: string | null;
  pool: string | null;
  tech: string;
}

/** Counts by key. */
class Tally extends Map<string, number> {
  bump(key: string): void {
    this.set(key, (this.get(key) ?? 0) + 1);
  }
  of(key: string): number {
    return this.get(key) ?? 0;
  }
}

/** A table's movement key: `buy-in:<i>`, `top-up:<i>:<n>`, `cash-out:<i>`, `rake:<pool>`. */
const CASH_KEY = /^(buy-in|top-up|cash-out|rake):(.+?)(?::(\d+))?$/;
/** A tournament's purchase: rebuy, add-on, re-entry (tournament-entries.ts). */
const PURCHASE_KEY = /^(t-rebuy:(.+):\d+|t-addon:(.+)|t-reentry:(.+):\d+)$/;

/** Cross-checks the ledger (operator database) and the hand histories (`history`, if given) against the vault. */
export function crossCheck(operatorDb: Db, vault: TraceVault, historyDb: Db | null, pendingRecords: readonly TraceData[]): CrossCheck {
  const seen = new Set<string>();
  const purchasesSeen = new Tally();
  const gainsSeen = new Tally();
  const techs = new Set<string>();
  const add = (r: Seen) => {
    if (r.inscription) seen.add(`${r.kind}|${r.inscription}`);
    if (r.pool) seen.add(`${r.kind}|pool|${r.pool}`);
    if (r.kind === 'POINSCRIT') techs.add(r.tech);
    if (r.kind === 'POACHAT' && r.inscription) purchasesSeen.bump(r.inscription);
    if (r.kind === 'POGAIN' && r.inscription) gainsSeen.bump(r.inscription);
  };
  for (const r of vault.summaries()) add(r);
  for (const d of pendingRecords) {
    add({ kind: d.kind, inscription: d.kind === 'POJEU' ? null : d.inscription, pool: d.kind === 'POJEU' || d.kind === 'POANNUL' ? (d.pool ?? null) : null, tech: d.tech });
  }

  const missing: string[] = [];
  let checked = 0;
  const rows = operatorDb
    .prepare<[], LedgerRow>("SELECT id, reason, idempotency_key, account_id, table_id FROM ledger WHERE reason IN ('buy-in', 'top-up', 'cash-out', 'rake', 'overlay') ORDER BY id")
    .all();
  const keys = new Set(rows.map((r) => r.idempotency_key));
  const purchases = new Tally();
  /** The inscriptions of each player in each tournament fund (`t-entry` rows), to find a bounty winner's. */
  const inscriptionsOf = new Map<string, string[]>();
  const bounties = new Tally();
  const owner = (r: LedgerRow) => `${r.table_id ?? ''}|${r.account_id ?? ''}`;
  for (const r of rows) {
    const m = /^t-entry:(.+)$/.exec(r.idempotency_key);
    if (m) inscriptionsOf.set(owner(r), [...(inscriptionsOf.get(owner(r)) ?? []), m[1]]);
  }
  const need = (r: LedgerRow, what: string, kind: string, inscription: string) => {
    if (!seen.has(`${kind}|${inscription}`)) missing.push(`ledger row ${r.id}: ${what} ${inscription} has no ${kind}`);
  };
  for (const r of rows) {
    checked++;
    const key = r.idempotency_key;
    let m: RegExpExecArray | null;
    if ((m = /^t-entry:(.+)$/.exec(key)) && r.reason === 'buy-in') need(r, 'tournament entry', 'POINSCRIT', m[1]);
    else if ((m = PURCHASE_KEY.exec(key)) && r.reason === 'buy-in') purchases.bump(m[2] ?? m[3] ?? m[4]);
    else if ((m = /^t-refund:(.+)$/.exec(key)) && r.reason === 'cash-out') need(r, 'tournament refund', 'POANNUL', m[1]);
    else if ((m = /^t-prize:(.+)$/.exec(key)) && r.reason === 'cash-out') need(r, 'tournament prize', 'POBILAN', m[1]);
    else if (/^t-bounty:.+:\d+:\d+:\d+$/.test(key) && r.reason === 'cash-out') bounties.bump(owner(r));
    else if ((m = /^t-fee:(.+)$/.exec(key)) && r.reason === 'rake') need(r, "the late entry's fee of", 'POINSCRIT', m[1]);
    else if ((m = /^(.+):fee$/.exec(key)) && PURCHASE_KEY.test(m[1]) && r.reason === 'rake') {
      if (!keys.has(m[1])) missing.push(`ledger row ${r.id}: the fee of ${m[1]} has no purchase in the ledger`);
    } else if ((m = /^t-fees:(.+)$/.exec(key)) && r.reason === 'rake') {
      if (!techs.has(m[1])) missing.push(`ledger row ${r.id}: the fees of tournament ${m[1]} but no POINSCRIT of it`);
    } else if (/^t-overlay:.+$/.test(key) && r.reason === 'overlay') {
      // The operator's money into a guaranteed pool: no record of its own (see the table above).
    } else if ((m = CASH_KEY.exec(key)) && m[1] === r.reason) {
      const [, what, ref] = m;
      if (what === 'buy-in') need(r, 'buy-in', 'POINSCRIT', ref);
      if (what === 'cash-out') need(r, 'cash-out', 'POBILAN', ref);
      if (what === 'rake' && !seen.has(`POJEU|pool|${ref}`)) missing.push(`ledger row ${r.id}: the raked hand ${ref} has no POJEU`);
      if (what === 'top-up') purchases.bump(ref);
    } else {
      missing.push(`ledger row ${r.id} (${r.reason}, key ${key}): not a movement key a record mirrors, no record to match`);
    }
  }
  for (const [inscription, n] of purchases) {
    const found = purchasesSeen.of(inscription);
    if (found < n) missing.push(`${n} purchases (top-ups, rebuys, add-ons, re-entries) of ${inscription} in the ledger, ${found} POACHAT`);
  }
  for (const [who, n] of bounties) {
    const found = (inscriptionsOf.get(who) ?? []).reduce((a, i) => a + gainsSeen.of(i), 0);
    const [fund, account] = who.split('|');
    if (found < n) missing.push(`${n} bounties paid to account ${account} in ${fund} in the ledger, ${found} POGAIN`);
  }
  if (historyDb) {
    for (const h of historyDb.prepare<[], { hand_id: string }>('SELECT DISTINCT hand_id FROM hands ORDER BY hand_id').all()) {
      checked++;
      if (!seen.has(`POJEU|pool|${h.hand_id}`)) missing.push(`the hand ${h.hand_id} was played to the end (players' histories) but has no POJEU`);
    }
  }
  return { checked, pending: pendingRecords.length, missing };
}
