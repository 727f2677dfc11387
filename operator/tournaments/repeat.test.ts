import { afterEach, describe, expect, it } from 'vitest';
import { PracticeBrain } from '../practice/strategy';
import { cleanupEnvs, env, person, practice, type Env } from '../../tests/support/operator/tournament-env';
import { scheduledSpec, type TournamentsConfig } from './config';
import { TournamentHub } from './hub';
import { repeatId, validateTournamentSpec } from './spec';

afterEach(cleanupEnvs);

const hubOf = (e: Env) =>
  new TournamentHub({ accounts: e.accounts, wallet: e.wallet, db: e.db, outbox: e.outbox, timers: e.timers, idOper: '0099', seed: 7, table: { betweenHandsMs: 1000, practiceDelayMs: [0, 0] }, error: (x) => e.errors.push(x), practiceFillMs: null });

describe('recurring scheduled tournaments', () => {
  it('a scheduled tournament repeated every 30 minutes: when one starts, the next opens 30 minutes later, once; a cancelled one is followed too', () => {
    const e = env();
    const hub = hubOf(e);
    const every = 30 * 60_000;
    const first = Math.ceil((e.timers.now() + 1) / every) * every;
    // As the configuration makes it (config.ts): 'mtt-half' every 30 minutes, at least 4 players.
    const spec = scheduledSpec({ id: 'mtt-half', name: 'Demi-heure', variant: 'THNL', money: 'play', buyIn: 1000, fee: 100, seats: 6, minEntrants: 4, maxEntrants: 100, speed: 'hyper-turbo', everyMinutes: 30 }, first);
    expect(spec.repeat).toEqual({ series: 'mtt-half', everyMinutes: 30 });
    hub.add(spec);
    expect(hub.all().map((t) => t.spec.id)).toEqual([spec.id]);
    const t1 = hub.get(spec.id)!;
    for (let i = 0; i < 6; i++) expect(t1.register(practice(e), t1.version, { brain: new PracticeBrain({ samples: 2 }) }).ok).toBe(true);
    // Nothing opens before the start.
    e.timers.advance(first - e.timers.now() - 1);
    expect(hub.all()).toHaveLength(1);
    e.timers.advance(1);
    expect(t1.state).toBe('running');
    const second = hub.get(repeatId('mtt-half', first + every))!;
    expect(second).toBeDefined();
    expect(second.state).toBe('registering');
    expect(second.spec.startAt).toBe(first + every);
    expect(second.spec.name).toBe(spec.name);
    expect(hub.all()).toHaveLength(2);
    // The second draws too few players: cancelled at its time, and the third opens.
    for (let i = 0; i < 2; i++) expect(second.register(practice(e), second.version).ok).toBe(true);
    for (let i = 0; i < 100_000 && second.state === 'registering'; i++) if (e.timers.runDue(1) === 0) e.timers.advance(1000);
    expect(second.state).toBe('cancelled');
    const third = hub.get(repeatId('mtt-half', first + 2 * every))!;
    expect(third?.state).toBe('registering');
    // Each start opens exactly one next instance.
    expect(hub.all().filter((t) => t.state === 'registering')).toHaveLength(1);
    expect(e.errors).toEqual([]);
    hub.close();
  });

  it('the configuration gives each scheduled tournament its interval; repeat is checked', () => {
    const c: TournamentsConfig['scheduled'][number] = { id: 'mtt-x', name: 'X', variant: 'THNL', money: 'play', buyIn: 100, fee: 10, seats: 9, minEntrants: 2, maxEntrants: 100, speed: 'turbo', everyMinutes: 45 };
    const s = scheduledSpec(c, 45 * 60_000 * 100);
    expect(s.repeat).toEqual({ series: 'mtt-x', everyMinutes: 45 });
    expect(s.id).toBe(repeatId('mtt-x', 45 * 60_000 * 100));
    expect(validateTournamentSpec({ ...s, repeat: { series: 'mtt-x', everyMinutes: 0 } })).toMatchObject({ ok: false, field: 'repeat.everyMinutes' });
    expect(validateTournamentSpec({ ...s, format: 'sit-and-go', startAt: null, minEntrants: 100 })).toMatchObject({ ok: false, field: 'repeat' });
  });

  it('the embedded reading: a person registers to a play-money scheduled tournament, practice players bring the field to practiceField a moment later, never past it', () => {
    const e = env();
    const hub = new TournamentHub({ accounts: e.accounts, wallet: e.wallet, db: e.db, outbox: e.outbox, timers: e.timers, idOper: '0099', seed: 7, table: { betweenHandsMs: 1000, practiceDelayMs: [0, 0] }, error: (x) => e.errors.push(x), practiceFillMs: 3000, practiceField: 40 });
    const start = e.timers.now() + 10 * 60_000;
    const spec = scheduledSpec({ id: 'mtt-practice', name: 'Entraînement', variant: 'THNL', money: 'play', buyIn: 1000, fee: 0, seats: 9, minEntrants: 2, maxEntrants: 300, speed: 'hyper-turbo', everyMinutes: 10 }, start);
    hub.add(spec);
    // No person, no practice field.
    e.timers.advance(5000);
    expect(hub.get(spec.id)!.entries).toBe(0);
    expect(hub.register(spec.id, person(e), hub.get(spec.id)!.version).ok).toBe(true);
    e.timers.advance(2999);
    expect(hub.get(spec.id)!.entries).toBe(1);
    e.timers.advance(1);
    expect(hub.get(spec.id)!.entries).toBe(40);
    // A second person joins a field already brought up: no more practice players than the target.
    expect(hub.register(spec.id, person(e), hub.get(spec.id)!.version).ok).toBe(true);
    e.timers.advance(3000);
    expect(hub.get(spec.id)!.entries).toBe(41);
    expect(e.errors).toEqual([]);
    hub.close();
  });
});
