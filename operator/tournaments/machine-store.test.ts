/**
 * The machine's store over a real SQLite file (schema v11, v12): after any event saved, the state read
 * back from the rows events wrote is the runner's state, and it replays the next event identically; after
 * a hand started (not saved), the events since the last one saved bring it back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apply, type MachineEvent } from '../../shared/rules/tournament/machine';
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
    // Events applied since the last one saved: hands started, which move nothing durable (runner.ts).
    let unsaved: MachineEvent[] = [];
    let skipped = 0;
    for (let n = 0; runner.state.phase !== 'finished' && n < 5000; n++) {
      const ev = nextEvent(runner.state, runner.events, 3);
      expect(runner.dispatch(ev).ok).toBe(true);
      const saved = f.store.load(DRIVEN_ID)!;
      let replayed = saved.state;
      if (saved.events === runner.events) {
        unsaved = [];
        expect(saved.state).toEqual(runner.state);
      } else {
        unsaved.push(ev);
        skipped++;
        expect(ev.type).toBe('handStarted');
        expect(saved.events).toBe(runner.events - unsaved.length);
        // Resumed from the store, the same events bring the runner's state back.
        for (const u of unsaved) {
          const r = apply(replayed, u);
          if (!r.ok) throw new Error(r.message);
          replayed = r.state;
        }
        expect(replayed).toEqual(runner.state);
      }
      const next = nextEvent(runner.state, runner.events, 3);
      expect(apply(replayed, next)).toEqual(apply(runner.state, next));
    }
    expect(runner.state.phase).toBe('finished');
    expect(skipped).toBeGreaterThan(0);
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
