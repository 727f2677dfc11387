/**
 * Watching a table without a seat (docs/protocol.md "Watching"): any table, cash or tournament,
 * followed as no seat sees it (never a hidden card: R-HIDDEN), at most MAX_WATCHED per connection (the
 * client tiles 24); a seat is not affected.
 */
import { findTable } from '../context';
import { MAX_WATCHED } from '../watches';
import { authed, type Routes } from './route';

export const watchingRoutes: Routes<'table.watch' | 'table.unwatch'> = {
  /** `ok`, the table's snapshot as no seat sees it, then its stream. */
  'table.watch': authed<'table.watch'>((m, c, { id }) => {
    const t = findTable(c.ctx, m.tableId);
    if (!t) return c.error(m.rid, 'UNKNOWN_TABLE', `no table ${m.tableId}`, { tableId: m.tableId });
    if (t.isSeated(id)) return c.error(m.rid, 'ALREADY_SEATED', 'you have a seat at this table: its stream is yours already', { tableId: t.tableId });
    // Tables gone, or where the account took a seat since, no longer count.
    for (const x of [...c.watched]) if (!x.isWatching(id)) c.watched.delete(x);
    if (!c.watched.has(t) && c.watched.size >= MAX_WATCHED) {
      // Its own code: a limit on tables watched, not the message rate RATE_LIMITED says.
      return c.error(m.rid, 'WATCH_LIMIT', `at most ${MAX_WATCHED} tables are watched at once: stop watching one first`, { tableId: t.tableId });
    }
    const snap = t.watch(id, (frame) => c.sendRaw(frame));
    if (!snap) return c.error(m.rid, 'SHUTTING_DOWN', 'the table is closing', { tableId: t.tableId });
    c.watched.add(t);
    c.send({ type: 'ok', rid: m.rid });
    c.send({ type: 'table.snapshot', rid: null, tableId: t.tableId, seq: snap.seq, table: snap.table });
  }),
  'table.unwatch': authed<'table.unwatch'>((m, c, { id }) => {
    const t = findTable(c.ctx, m.tableId);
    const was = [...c.watched].find((x) => x.tableId === m.tableId);
    if (!t && !was) return c.error(m.rid, 'UNKNOWN_TABLE', `no table ${m.tableId}`, { tableId: m.tableId });
    if (was) c.watched.delete(was);
    (t ?? was)!.unwatch(id);
    c.send({ type: 'ok', rid: m.rid });
  }),
};
