/**
 * Accounts of one person (R-ONEACCOUNT) for the operator's report. From schema v10 on the operator
 * refuses a second account of a person at registration and the database refuses it too (a UNIQUE
 * index on the person's identity hash, schema.ts v10). Accounts opened before v10 were never
 * compared, so a database may hold two accounts of one person under the identity key of that time
 * (`identity_key = 1`): the migration keeps them as they are (merging would move money, limits and
 * exclusions without the person), and this lists them for a person at the operator to settle (keep
 * one, close the others after their withdrawal). It decides nothing.
 */
import type { Db } from '../../shared/node/sqlite';

/** The accounts holding one identity hash. */
export interface DuplicateIdentity {
  /** The identity hash they share (SHA-256, never a name: none is stored). */
  readonly identityHash: string;
  /** The identity key it was made with (protection/identity.ts): 1 before schema v10, 2 after. */
  readonly identityKey: number;
  readonly accounts: readonly { readonly id: number; readonly username: string; readonly createdAt: number; readonly closed: string | null }[];
}

/**
 * Every identity hash held by more than one account, oldest account first in each. The report reads
 * the database as it is, never migrating it (trace/evidence.ts): one of schema v6 to v9 has no
 * `identity_key`, and all its hashes are of key 1.
 */
export function duplicateIdentities(db: Db): DuplicateIdentity[] {
  const columns = new Set(db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all('accounts').map((c) => c.name));
  if (!columns.has('identity_hash')) return [];
  const key = columns.has('identity_key') ? 'a.identity_key' : '1';
  const rows = db
    .prepare<[], { identity_hash: string; identity_key: number | null; id: number; username: string; created_at: number; closed_reason: string | null }>(
      `SELECT a.identity_hash, ${key} AS identity_key, a.id, a.username, a.created_at, a.closed_reason
         FROM accounts a
         JOIN (SELECT identity_hash FROM accounts WHERE identity_hash IS NOT NULL GROUP BY identity_hash HAVING COUNT(*) > 1) d
           ON d.identity_hash = a.identity_hash
        ORDER BY a.identity_hash, a.id`,
    )
    .all();
  const out: DuplicateIdentity[] = [];
  for (const r of rows) {
    let last = out.at(-1);
    if (last?.identityHash !== r.identity_hash) {
      last = { identityHash: r.identity_hash, identityKey: r.identity_key ?? 1, accounts: [] };
      out.push(last);
    }
    (last.accounts as DuplicateIdentity['accounts'][number][]).push({ id: r.id, username: r.username, createdAt: r.created_at, closed: r.closed_reason });
  }
  return out;
}

/** The section as text lines. */
export function formatDuplicateIdentities(duplicates: readonly DuplicateIdentity[]): string[] {
  if (duplicates.length === 0) return ['no two accounts of one person (R-ONEACCOUNT)'];
  const lines = [`accounts of one person, opened before the one-account check (R-ONEACCOUNT; kept as they are, to settle by hand): ${duplicates.length}`];
  for (const d of duplicates) {
    const accounts = d.accounts.map((a) => `${a.id} (${a.username}, opened ${new Date(a.createdAt).toISOString().slice(0, 10)}${a.closed ? `, closed: ${a.closed}` : ''})`);
    lines.push(`  identity ${d.identityHash.slice(0, 12)}… (key ${d.identityKey}): accounts ${accounts.join(', ')}`);
  }
  return lines;
}
