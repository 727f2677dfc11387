/**
 * Practice players filling a play-money sit & go (operator.ts `tournaments.practiceFillMs`): a delay
 * after a person registers, or never (null). The operator is started whole on real SQLite files, its
 * time advanced by hand.
 */
import { describe, expect, it } from 'vitest';
import { startOperator } from '../../operator/server/operator';
import { ManualTimers } from '../../operator/tables/timers';
import type { TablePlayer } from '../../operator/tables/types';
import { tempDir } from '../support/operator/temp-dir';
import { tournamentSpec } from '../support/operator/tournament-spec';

/** An operator with one 6-seat play sit & go (`fill-1`), a person registered to it, then `ms` of its time passed. */
async function registeredThen(practiceFillMs: number | null | undefined, ms: number): Promise<{ state: string; entries: number }> {
  const t = tempDir();
  const timers = new ManualTimers(Date.UTC(2026, 11, 2, 12));
  const op = await startOperator({
    dataDir: t.dir,
    lobby: { config: { version: 1, operator: { idOper: '0091', idCoffre: 1, name: 'Fill' }, tables: [] }, tables: [] },
    timers,
    accounts: { scrypt: { N: 1024, r: 8, p: 1 } },
    log: () => undefined,
    tournaments: { specs: [tournamentSpec({ id: 'fill' })], ...(practiceFillMs === undefined ? {} : { practiceFillMs }) },
  });
  try {
    const g = op.accounts.createGuest({ ip: '203.0.113.7' });
    if (!g.ok) throw new Error(g.code);
    op.wallet.grantPlay(g.account.id, 10_000, { idempotencyKey: 'fill:guest' });
    const person: TablePlayer = { accountId: g.account.id, name: g.account.username, practice: false, ip: '203.0.113.7', sessionId: g.session.sessionId };
    const tour = op.tournaments.get('fill-1')!;
    const r = op.tournaments.register('fill-1', person, tour.version);
    expect(r.ok).toBe(true);
    timers.advance(ms);
    return { state: tour.state, entries: tour.entries };
  } finally {
    await op.close();
    t.cleanup();
  }
}

describe('practice players filling a sit & go', () => {
  it('null: never; the sit & go waits for its people however long it takes', async () => {
    expect(await registeredThen(null, 10 * 60_000)).toEqual({ state: 'registering', entries: 1 });
  });

  it('a delay: filled and started once it has passed; 3 s when none is given', async () => {
    expect(await registeredThen(500, 400)).toEqual({ state: 'registering', entries: 1 });
    expect((await registeredThen(500, 600)).entries).toBe(6);
    expect((await registeredThen(undefined, 2_900)).entries).toBe(1);
    expect((await registeredThen(undefined, 3_100)).entries).toBe(6);
  });
});
