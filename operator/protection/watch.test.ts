import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts } from '../accounts';
import type { Db } from '../../shared/node/sqlite';
import { openOperatorDatabase } from '../schema';
import { ManualTimers } from '../tables/timers';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { HOUR_MS, PERIOD_MS } from './limits';
import { Protection } from './service';
import { PlaytimeWatch, type TimeWarningNotice } from './watch';

const MIN = 60_000;

describe('playing-time watch (R-TIMELIMIT, decree 2010-518 art. 16-1)', () => {
  let t: ReturnType<typeof tempDir>;
  let db: Db;
  let timers: ManualTimers;
  let protection: Protection;
  let watch: PlaytimeWatch<ReturnType<ManualTimers['set']>>;
  let sent: { at: number; accountId: number; notice: TimeWarningNotice }[];
  let id: number;

  beforeEach(async () => {
    t = tempDir();
    db = openOperatorDatabase(join(t.dir, 'operator.sqlite'));
    timers = new ManualTimers(Date.UTC(2026, 10, 25, 12));
    protection = new Protection(db, { clock: () => timers.now() });
    sent = [];
    watch = new PlaytimeWatch(protection, timers, (accountId, notice) => sent.push({ at: timers.now(), accountId, notice }));
    const r = await new Accounts(db, { scrypt: { N: 1 << 10, r: 8, p: 1 } }).register('olga', 'olga password', { lastName: 'A', firstNames: 'B', birthDate: '1990-01-01' });
    if (!r.ok) throw new Error(r.message);
    id = r.account.id;
  });
  afterEach(() => {
    watch.close();
    db.close();
    t.cleanup();
  });

  it('warns on time across two tables counted once, pauses while the player is away, and stands them up at the limit after the hand', () => {
    protection.setLimit(id, 'time', HOUR_MS);
    protection.setLimit(id, 'stake', 100_000);
    const start = timers.now();
    watch.handDealt(id, 'a');
    timers.advance(10 * MIN);
    watch.handDealt(id, 'b'); // two tables at once: still one clock
    timers.advance(15 * MIN);
    expect(watch.handEnded(id, 'a')).toBe(true);
    watch.left(id, 'a');
    watch.left(id, 'b');
    expect(protection.timeUsed(id).used).toBe(25 * MIN);
    // Away for three hours: no time counts, no warning fires.
    timers.advance(3 * HOUR_MS);
    expect(sent).toEqual([]);
    watch.handDealt(id, 'a');
    timers.advance(5 * MIN); // 30 minutes used: "near" (30 minutes before comes before 75 %)
    expect(sent.map((s) => [s.at - start, s.notice.warning, s.notice.usedMs])).toEqual([[3 * HOUR_MS + 30 * MIN, 'near', 30 * MIN]]);
    timers.advance(20 * MIN);
    expect(sent.map((s) => s.notice.warning)).toEqual(['near', 'ten-minutes']);
    expect(sent[1]).toMatchObject({ at: start + 3 * HOUR_MS + 50 * MIN, notice: { usedMs: 50 * MIN, limitMs: HOUR_MS, periodEnd: start + PERIOD_MS } });
    expect(watch.handEnded(id, 'a')).toBe(true);
    timers.advance(12 * MIN); // the hand in progress runs past the limit
    expect(sent.map((s) => s.notice.warning)).toEqual(['near', 'ten-minutes', 'reached']);
    // The hand ends: no further game operation (the table stands the player up); no stake either.
    expect(watch.handEnded(id, 'a')).toBe(false);
    expect(protection.stakeCheck(id, 100)).toMatchObject({ code: 'TIME_LIMIT_REACHED', freeAt: start + PERIOD_MS });
    watch.left(id, 'a');
    expect(timers.size).toBe(0);
  });

  it('a player who self-excludes while seated is stood up after the hand in progress (R-EXCLUDE)', () => {
    protection.setLimit(id, 'time', 10 * HOUR_MS);
    watch.handDealt(id, 'a');
    timers.advance(5 * MIN);
    expect(watch.handEnded(id, 'a')).toBe(true);
    expect(protection.exclude(id, { kind: 'days', days: 7 })).toMatchObject({ ok: true });
    expect(watch.handEnded(id, 'a')).toBe(false);
  });

  it('no limit set: nothing is warned and the player is never stood up by the watch (the stake check refuses them first)', () => {
    watch.handDealt(id, 'a');
    timers.advance(10 * HOUR_MS);
    expect(watch.handEnded(id, 'a')).toBe(true);
    expect(sent).toEqual([]);
  });
});
