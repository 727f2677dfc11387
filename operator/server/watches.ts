/**
 * Watching tables without a seat (`table.watch`): the per-connection limit, and what a
 * dropped connection watched, kept for a `resume` of the same session.
 */

/** Most tables a connection watches at once (the client tiles up to 24 tables). */
export const MAX_WATCHED = 24;

/**
 * What each account watched (`table.watch`) when its connection dropped, by session: a `resume` of that
 * session watches them again (a fresh snapshot each, as on a watch), so the client need not. One entry
 * per account, at most MAX_WATCHED table ids; taken (and so forgotten) by the account's next
 * authentication, whatever it is; an entry whose session has expired is dropped when another is kept.
 */
export class KeptWatches {
  private readonly byAccount = new Map<number, { sessionId: string; expiresAt: number; tableIds: string[] }>();

  keep(accountId: number, sessionId: string, expiresAt: number, tableIds: string[], now: number): void {
    for (const [id, k] of this.byAccount) if (k.expiresAt <= now) this.byAccount.delete(id);
    if (tableIds.length > 0) this.byAccount.set(accountId, { sessionId, expiresAt, tableIds });
  }

  /** The tables kept for this session (empty for another session: a login replaces them); forgotten either way. */
  take(accountId: number, sessionId: string | null): string[] {
    const k = this.byAccount.get(accountId);
    this.byAccount.delete(accountId);
    return k !== undefined && k.sessionId === sessionId ? k.tableIds : [];
  }

  get size(): number {
    return this.byAccount.size;
  }
}
