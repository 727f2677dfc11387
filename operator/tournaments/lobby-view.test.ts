/**
 * What the operator's lobby and details say of a tournament (R-INFO, R-TOURN-FORMATS): its
 * guarantee, a satellite's target by name, and a sit & go's payouts from its first registration (its
 * field is fixed: the table for its seats, `payout` of shared/rules/tournament/payouts.ts), with the
 * standing's paid places reading the same list. Checked against the wire's schema: both sides refuse
 * a field they do not know.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../../shared/validate';
import { tournamentDetailsSchema, tournamentSummarySchema } from '../../shared/protocol/tournament';
import { payout } from '../../shared/rules/tournament';
import { cleanupEnvs, env, person, tournamentSpec, type Env } from '../../tests/support/operator/tournament-env';
import { sitAndGoSpecs } from './config';
import { TournamentHub } from './hub';

afterEach(cleanupEnvs);

function hubOf(e: Env): TournamentHub {
  return new TournamentHub({ accounts: e.accounts, wallet: e.wallet, db: e.db, outbox: e.outbox, timers: e.timers, idOper: '0099', seed: 5, table: { betweenHandsMs: 1000, practiceDelayMs: [0, 0] }, error: (x) => e.errors.push(x), practiceFillMs: null });
}

describe('the lobby and the details (R-INFO)', () => {
  it('carry the guarantee and a satellite’s target by its name', () => {
    const e = env();
    const hub = hubOf(e);
    const startAt = e.timers.now() + 3_600_000;
    hub.add(tournamentSpec({ id: 'mtt-main', name: 'Le Grand Tournoi', format: 'scheduled', startAt, maxEntrants: 100, minEntrants: 2, guarantee: 100_000 }));
    hub.add(tournamentSpec({ id: 'sat-main', name: 'Satellite du Grand', format: 'scheduled', startAt, maxEntrants: 100, minEntrants: 2, satellite: { target: 'mtt-main', seatValue: 1100 } }));
    const main = hub.summary(hub.get('mtt-main')!);
    expect(main.guarantee).toBe(100_000);
    expect(main.satellite).toBeUndefined();
    const sat = hub.details(hub.get('sat-main')!);
    expect(sat.summary.satellite).toEqual({ tournamentId: 'mtt-main', name: 'Le Grand Tournoi', seatValue: 1100 });
    expect(sat.summary.guarantee).toBeUndefined();
    for (const s of hub.list()) expect(validate(tournamentSummarySchema, s, 'summary').ok).toBe(true);
    expect(validate(tournamentDetailsSchema, sat, 'details').ok).toBe(true);
  });

  it('a sit & go’s payouts are its full field’s from the first registration, and its standing pays as many places', () => {
    const e = env();
    const hub = hubOf(e);
    hub.add(tournamentSpec({ id: 'sng-six' })); // 6 seats, buy-in 1000
    const t = hub.get('sng-six-1')!;
    const full = payout(6 * 1000, 6);
    expect(full).toEqual([3900, 2100]);
    expect(hub.details(t).prizes).toEqual(full);
    const p = person(e);
    expect(hub.register('sng-six-1', p, t.version).ok).toBe(true);
    expect(hub.details(t).prizes).toEqual(full);
    expect(hub.standings(t, [p.accountId]).get(p.accountId)?.paid).toBe(full.length);
  });

  it('the default sit & go’s are named by their size and game, not by codes', () => {
    const specs = sitAndGoSpecs({ version: 1, sitAndGo: { money: 'play', buyIn: 1000, fee: 100, speed: 'turbo', sizes: [2, 6, 9] }, scheduled: [] });
    const names = specs.map((s) => s.name);
    expect(names).toContain('Heads-up · Seven Card Stud Poker High/Low limit');
    expect(names).toContain('6-max · Texas Hold’em no limit'.replace('’', "'"));
    expect(names).toContain("9 joueurs · Texas Hold'em no limit");
    // The French game name is too long for a 60-character name here: the English one.
    expect(names).toContain('Heads-up · Triple Draw deuce to seven Lowball Limit');
    for (const n of names) expect(n).not.toMatch(/ [0-9A-Z]{3,5}$/);
  });
});
