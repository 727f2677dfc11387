/**
 * The machine over random fields and random event streams (R-CONSERVE, R-ELIM, T 8-16, T 1-5):
 * chips conserved after every event, each player ranked once, the prizes the pool, the fund empty at
 * the end, hand-for-hand exactly on the bubbles, and a state saved and read back after any event
 * replays identically.
 */
import { describe, expect, it } from 'vitest';
import { placesProblem } from '../../../../operator/tournaments/places';
import { readyStructure } from '../structure';
import { apply, init } from './machine';
import { bubbles, chipsIssued, poolParts } from './pool';
import { must, randomHand, rngOf, run, spec, who } from './test-support';
import type { Effect, MachineEvent, MachineSpec, MachineState, RoundRanking } from './types';
import { bucketValues, entrantIds, entrantOf, tableList } from './buckets';

interface Played {
  state: MachineState;
  effects: Effect[];
  events: number;
}

function chipsHeld(s: MachineState): number {
  let n = 0;
  for (const e of bucketValues(s.entrants)) {
    if (e.status !== 'out') n += e.stack + e.pending;
  }
  return n;
}

/** Counted from the entrants (the state's own count is checked against it). */
const remaining = (s: MachineState) => bucketValues(s.entrants).filter((e) => e.status !== 'out').length;

/** Plays a tournament to its end with random hands, rebuys, exclusions and clock ticks; checks after each event. */
function playOut(sp: MachineSpec, players: number, seed: number, opts: { replay: boolean; ranking?: RoundRanking }): Played {
  const rng = rngOf(seed);
  const registered = run(
    init(sp, seed, { roundRanking: opts.ranking ?? 'stack', lateTables: 3 }),
    Array.from({ length: players }, (_, i) => ({ type: 'register' as const, who: who(i + 1), inscription: `i${i + 1}` })),
  );
  let state = registered.state;
  const effects: Effect[] = [...registered.effects];
  // The tables told they may deal (each `deal` effect names those an event made ready).
  let canDeal = new Set<number>();
  // The tables in a hand (between their handStarted and handEnded).
  const playing = new Set<number>();
  let events = 0;
  const step = (ev: MachineEvent) => {
    const r = must(state, ev);
    if (opts.replay) {
      // Saved and read back (JSON, as the runner keeps it): the same event gives the same result.
      const again = apply(JSON.parse(JSON.stringify(state)) as MachineState, ev);
      expect(again).toEqual(JSON.parse(JSON.stringify(r)));
    }
    state = r.state;
    effects.push(...r.effects);
    events++;
    const deal = r.effects.find((e): e is Effect & { kind: 'deal' } => e.kind === 'deal');
    if (ev.type === 'handStarted') {
      canDeal.delete(ev.table);
      playing.add(ev.table);
    }
    if (ev.type === 'handEnded') playing.delete(ev.table);
    for (const e of r.effects) if (e.kind === 'closeTable') canDeal.delete(e.table);
    for (const no of deal?.tables ?? []) canDeal.add(no);
    // A table told may deal until it does, unless the field changed it (a rebuy decided, a move).
    if (players <= 200) canDeal = new Set([...canDeal].filter((no) => apply(r.state, { type: 'handStarted', table: no, bigBlind: null }).ok));
    if (state.phase === 'running' && (players <= 200 || events % 25 === 0)) {
      expect(chipsHeld(state)).toBe(chipsIssued(state) - state.removed);
      // Hand-for-hand on a bubble: a new round is dealt to every table together (R-TOURN-RUN).
      const tables = state.sizes.reduce((a, n) => a + n, 0);
      if (players <= 200 || events % 25 === 0) expect(state.remaining).toBe(remaining(state));
      if (deal && tables > 1 && bubbles(state).includes(state.remaining)) expect(state.round.on).toBe(true);
      if (state.round.tables.length > 0) for (const no of deal?.tables ?? []) expect(state.round.tables).toContain(no);
      // Every table that may deal was told so.
      if (players <= 200) for (const t of tableList(state)) if (apply(state, { type: 'handStarted', table: t.no, bigBlind: null }).ok) expect(canDeal.has(t.no)).toBe(true);
    }
  };
  step({ type: 'start' });
  for (let guard = 0; state.phase === 'running' && guard < 200_000; guard++) {
    const inHand = [...playing].sort((a, b) => a - b);
    const deciding = bucketValues(state.entrants)
      .filter((e) => e.status === 'deciding')
      .map((e) => e.who.accountId)
      .sort((a, b) => a - b);
    const x = rng();
    if (deciding.length > 0 && x < 0.3) {
      const id = deciding[Math.floor(rng() * deciding.length)];
      step({ type: rng() < 0.5 && apply(state, { type: 'rebuy', accountId: id }).ok ? 'rebuy' : 'declineRebuy', accountId: id });
    } else if (canDeal.size > 0 && (x < 0.7 || inHand.length === 0)) {
      const list = [...canDeal].sort((a, b) => a - b);
      const no = list[Math.floor(rng() * list.length)];
      canDeal.delete(no);
      if (!apply(state, { type: 'handStarted', table: no, bigBlind: null }).ok) continue;
      step(randomHand(state, no, rng).started);
    } else if (inHand.length > 0) {
      const t = inHand[Math.floor(rng() * inHand.length)];
      step(randomHand(state, t, rng).ended);
    } else if (x < 0.03 && sp.buyIn + sp.fee === 0) {
      // A freeroll's player goes absent (T 2-15: their chips leave the tournament past the delay).
      const ins = entrantIds(state).filter((id) => entrantOf(state, id)!.status === 'in' && !entrantOf(state, id)!.absent);
      if (ins.length > 0) step({ type: 'absent', accountId: ins[Math.floor(rng() * ins.length)], absent: true });
      else step({ type: 'tick', elapsed: state.elapsed + 60_000 });
    } else if (x < 0.02 && sp.money === 'real') {
      const ins = entrantIds(state).filter((id) => entrantOf(state, id)!.status === 'in');
      step({ type: 'exclude', accountId: ins[Math.floor(rng() * ins.length)], why: 'self-excluded' });
    } else {
      step({ type: 'tick', elapsed: state.elapsed + 60_000 });
    }
    // Now and then a player still in buys chips while they may (T 5-2).
    if (sp.structure.rebuy && rng() < 0.05) {
      const id = entrantIds(state)[Math.floor(rng() * state.players)];
      if (apply(state, { type: 'rebuy', accountId: id }).ok) step({ type: 'rebuy', accountId: id });
    }
  }
  return { state, effects, events };
}

function checkEnd({ state, effects }: Played): void {
  expect(state.phase).toBe('finished');
  // R-ELIM: every place from 1 to N once, ties sharing (T 8-16).
  expect(placesProblem(entrantIds(state).map((id) => entrantOf(state, id)!.place))).toBeNull();
  const prizes = entrantIds(state).reduce((n, id) => n + (entrantOf(state, id)!.prize ?? 0), 0);
  expect(prizes).toBe(poolParts(state).pool);
  // The fund: entries, purchases and the overlay in; fees, refunds, prizes and bounties out: empty.
  let fund = 0;
  for (const e of effects) {
    if (e.kind === 'money') fund += e.way === 'in' ? e.amount : -e.amount;
    if (e.kind === 'fee') fund -= e.amount;
    if (e.kind === 'overlay') fund += e.amount;
  }
  expect(fund).toBe(0);
  // Each ledger key once (the wallet's idempotency keys).
  const keys = effects.flatMap((e) => (e.kind === 'money' && e.amount > 0 ? [e.key] : e.kind === 'fee' || e.kind === 'overlay' ? [e.key] : []));
  expect(new Set(keys).size).toBe(keys.length);
}

describe('the tournament machine over random fields', () => {
  it('freezeouts of 2 to 60 players: chips conserved, ranked once, prizes the pool; replays identically', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const players = 2 + ((seed * 7) % 59);
      checkEnd(playOut(spec({ seats: 2 + (seed % 8), bounty: seed % 3 === 0 ? 200 : undefined }), players, seed, { replay: true }));
    }
  });

  it('rebuy tournaments with add-ons and a guarantee, both readings of a hand-for-hand round (T 8-16)', () => {
    for (let seed = 1; seed <= 16; seed++) {
      const rebuys = { untilLevel: 3, price: 1000, fee: 100, chips: 10_000, when: 'at-or-below-starting-stack' as const, max: null };
      const sp = spec({ guarantee: seed % 2 ? 200_000 : undefined, bounty: seed % 4 === 0 ? 100 : undefined }, { rebuy: rebuys, addOn: { price: 1000, fee: 100, chips: 15_000 } });
      checkEnd(playOut(sp, 10 + seed * 3, seed, { replay: seed <= 4, ranking: seed % 2 ? 'stack' : 'split' }));
    }
  });

  it('satellites with and without a cash remainder (T 1-5)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const sp = spec({ satellite: { target: 'main', seatValue: seed % 2 ? 5000 : 4400 } });
      const played = playOut(sp, 12 + seed * 2, seed, { replay: false });
      checkEnd(played);
    }
  });

  it('stud freezeouts (balanced by position) and freerolls with absent players (T 2-15)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const stud = spec({ variant: '7SHL', seats: 2 + (seed % 6) }, { ...readyStructure('7SHL', 'regular'), lateRegistrationLevels: 0 });
      checkEnd(playOut(stud, 8 + seed * 3, seed, { replay: seed <= 4 }));
      const freeroll = spec({ buyIn: 0, fee: 0, guarantee: 50_000, absenceDelay: 3 * 60_000, seats: 2 + (seed % 8) });
      checkEnd(playOut(freeroll, 8 + seed * 3, seed, { replay: seed <= 4 }));
    }
  });

  it('a field of 1,000 plays to its winner with every check', () => {
    checkEnd(playOut(spec(), 1000, 99, { replay: false }));
  });
});
