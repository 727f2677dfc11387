/**
 * The machine's store over a real SQLite file (schema v11): after any event, the state read back from
 * the rows an event wrote is the runner's state, and it replays the next event identically.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apply } from '../../shared/rules/tournament/machine';
import { DRIVEN_ID, drivenSpec, nextEvent, openFolder, people, type Folder } from '../../tests/support/operator/machine-driver';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { TournamentRunner } from './runner';

const open: { f: Folder; t: ReturnType<typeof tempDir> }[] = [];
afterEach(() => {
  for (const x of open.splice(0)) {
    x.f.close();
    x.t.cleanup();
  }
});

describe('the tournament machine store', () => {
  it('reads back, after every event, the state the runner holds; it replays the next event identically', async () => {
    const t = tempDir();
    const f = openFolder(t.dir, 'NORMAL');
    open.push({ f, t });
    await people(f, 14);
    const runner = TournamentRunner.create(drivenSpec(14), 3, f.deps);
    for (let n = 0; runner.state.phase !== 'finished' && n < 5000; n++) {
      const ev = nextEvent(runner.state, runner.events, 3);
      expect(runner.dispatch(ev).ok).toBe(true);
      const saved = f.store.load(DRIVEN_ID)!;
      expect(saved.events).toBe(runner.events);
      expect(saved.state).toEqual(runner.state);
      const next = nextEvent(runner.state, runner.events, 3);
      expect(apply(saved.state, next)).toEqual(apply(runner.state, next));
    }
    expect(runner.state.phase).toBe('finished');
    expect(f.store.unfinished()).toEqual([]);
  });

  it('a purchase the wallet refuses leaves nothing: no ledger row, no record, the state as it was', async () => {
    const t = tempDir();
    const f = openFolder(t.dir, 'NORMAL');
    open.push({ f, t });
    await people(f, 2);
    const runner = TournamentRunner.create(drivenSpec(3), 3, f.deps);
    // Account 3 does not exist (no money): its entry is refused by the wallet (R-NODEBT).
    const before = runner.state;
    const r = runner.dispatch({ type: 'register', who: { accountId: 99, name: 'nobody', practice: false, ip: '203.0.113.9', sessionId: 's' }, inscription: 'x' });
    expect(r.ok).toBe(false);
    expect(runner.state).toBe(before);
    expect(f.store.load(DRIVEN_ID)!.state).toEqual(before);
    expect(f.outbox.pending()).toBe(0);
  });
});
