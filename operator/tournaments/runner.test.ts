/**
 * The runner's records are dated at their events (DateEvt, "date et heure de l'évènement de jeu",
 * A 1.3.6.b): an entry busted during late registration is closed (POBILAN) only when registration
 * ends and its place is known, but its record carries the time of the bust, on the wall's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { entrantOf, tableList } from '../../shared/rules/tournament/machine/buckets';
import { seatedAt, spec, who } from '../../shared/rules/tournament/machine/test-support';
import { openFolder, people, type Folder } from '../../tests/support/operator/machine-driver';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { TournamentRunner } from './runner';

const open: { f: Folder; t: ReturnType<typeof tempDir> }[] = [];
afterEach(() => {
  for (const x of open.splice(0)) {
    x.f.close();
    x.t.cleanup();
  }
});

describe('the tournament runner', () => {
  it.each([1, 60])('dates the POBILAN of a bust during late registration at the bust, the clock %i times the wall', async (rate) => {
    const t = tempDir();
    const f = openFolder(t.dir, 'NORMAL');
    open.push({ f, t });
    await people(f, 6);
    const start = Date.parse('2026-12-02T20:00:00Z');
    let now = start;
    const runner = TournamentRunner.create(spec({ id: 'late' }, { lateRegistrationLevels: 3 }), 7, { ...f.deps, clock: () => now, clockRate: rate });
    const must = (ev: Parameters<TournamentRunner['dispatch']>[0]) => {
      const r = runner.dispatch(ev);
      if (!r.ok) throw new Error(`${ev.type}: ${r.code} ${r.message}`);
      return r;
    };
    for (let i = 1; i <= 6; i++) must({ type: 'register', who: who(i), inscription: `late.${i}` });
    must({ type: 'start' });
    const at = (elapsed: number) => {
      now = start + elapsed / rate;
      return must({ type: 'tick', elapsed });
    };
    // Two minutes in, x loses everything to y: busted, not placed while the field may still grow.
    at(120_000);
    const [table] = tableList(runner.state);
    const [x, y] = seatedAt(runner.state, table.no);
    const ids = seatedAt(runner.state, table.no);
    const stacks = ids.map((id) => ({ accountId: id, stack: id === x ? 0 : id === y ? entrantOf(runner.state, y)!.stack + entrantOf(runner.state, x)!.stack : entrantOf(runner.state, id)!.stack }));
    must({ type: 'handStarted', table: table.no, bigBlind: null });
    must({ type: 'handEnded', table: table.no, stacks, busts: [[{ accountId: x, stackAtStart: entrantOf(runner.state, x)!.stack, by: [y] }]] });
    // Late registration closes after three 10-minute levels (the regular structure): x is placed now.
    const closed = at(31 * 60_000);
    expect(closed.effects.some((e) => e.kind === 'money' && e.record === 'POBILAN' && e.who.accountId === x)).toBe(true);
    while (f.outbox.pending() > 0) f.outbox.flush();
    const records = Array.from({ length: f.vault.head().idEvt }, (_, i) => f.vault.get(i + 1)!);
    const bilan = records.find((r) => r.kind === 'POBILAN' && r.inscription === `late.${x}`)!;
    expect(bilan.dateEvt.toISOString()).toBe(new Date(start + 120_000 / rate).toISOString().replace(/\.\d+Z$/, '.000Z'));
    expect(f.vault.verifyChain().ok).toBe(true);
  });
});
