/**
 * The link's table streams (streams.ts) where watching meets a seat: a table we watched and where the
 * operator's `authed` (a resume after a break in the link) lists a seat of ours is followed as a seat
 * from then on, not watched again (the operator ended that watch when we sat).
 */
import { describe, expect, it } from 'vitest';
import { TableStreams } from './streams';
import type { TableView } from '../../../shared/protocol/messages';
import type { Request } from './types';

function streams(): { s: TableStreams; sent: Request[]; created: string[] } {
  const sent: Request[] = [];
  const created: string[] = [];
  const s = new TableStreams({
    now: () => 0,
    log: () => undefined,
    request: (body) => {
      sent.push(body);
      return new Promise(() => undefined);
    },
    history: () => new Promise(() => undefined),
    ready: () => true,
    username: () => 'hero',
    created: (m) => void created.push(m.tableId),
    changed: () => undefined,
    backfillPages: 1,
  });
  return { s, sent, created };
}

describe('watched tables across a resume', () => {
  it('a watched table where the resume lists a seat of ours is a seat from then on: no longer watched, never watched again', () => {
    const { s, sent } = streams();
    s.watch('t1');
    s.watch('t2');
    s.seated(['t1']);
    expect(s.isWatched('t1')).toBe(false);
    expect(s.watchedTables()).toEqual(['t2']);
    // Its model asks for the seat's snapshot, not a watch (the operator refuses a watch where we sit).
    s.requestSnapshot('t1');
    expect(sent).toEqual([{ type: 'table.snapshot', tableId: 't1' }]);
  });
});

describe('a watch stopped while its snapshot is on its way', () => {
  it('the snapshot of a watch asked before the unwatch makes no model: no table stays that nothing is sent for', () => {
    const { s, sent, created } = streams();
    s.watch('t1');
    // The connection dropped: the watch is asked again, its snapshot to come.
    s.requestSnapshot('t1');
    expect(sent).toEqual([{ type: 'table.watch', tableId: 't1' }]);
    s.unwatch('t1');
    // The operator answers in order: the watch's snapshot arrives after we stopped. Its view is never
    // read when it is ignored (a model would read it: the old streams made one here).
    s.snapshot({ type: 'table.snapshot', rid: null, tableId: 't1', seq: 5, table: {} as TableView });
    expect(created).toEqual([]);
    expect(s.get('t1')).toBeUndefined();
    // Watched again later, its snapshot makes the model as before (which then reads this made-up view
    // and throws: only the model's making is looked at here).
    s.watch('t1');
    try {
      s.snapshot({ type: 'table.snapshot', rid: null, tableId: 't1', seq: 6, table: {} as TableView });
    } catch {
      // the made-up view
    }
    expect(created).toEqual(['t1']);
  });
});
