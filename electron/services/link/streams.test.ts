/**
 * The link's table streams (streams.ts) where watching meets a seat: a table we watched and where the
 * operator's `authed` (a resume after a break in the link) lists a seat of ours is followed as a seat
 * from then on, not watched again (the operator ended that watch when we sat).
 */
import { describe, expect, it } from 'vitest';
import { TableStreams } from './streams';
import type { Request } from './types';

function streams(): { s: TableStreams; sent: Request[] } {
  const sent: Request[] = [];
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
    created: () => undefined,
    changed: () => undefined,
    backfillPages: 1,
  });
  return { s, sent };
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
