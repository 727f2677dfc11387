/**
 * The tournament machine (R-TOURN; CONVENTIONS "The rules engine as a state machine", "Pure core,
 * effects at the edge"): `apply(state, event)` returns the next state and the effects the runner
 * applies in one transaction, or a refusal that names the rule; `legal(state, who)` says what a
 * person may do now. No I/O, no timers, no clock of its own: the runner sends the clock's ticks.
 */
import { mayAddOn } from '../structure';
import { setAbsent } from './absence';
import { emptyBuckets } from './buckets';
import { Draft } from './draft';
import { emptySizes } from './sizes';
import { addOn, declineRebuy, exclude, lateOpen, mayRebuyNow, reEnter, rebuy, register, unregister } from './entries';
import { mayDeal as mayDealNow } from './floor';
import { cancel, handEnded, handStarted, settle, start, tick } from './play';
import type { Applied, Legal, MachineEvent, MachineOptions, MachineSpec, MachineState, Refusal } from './types';

export const DEFAULT_OPTIONS: MachineOptions = { roundRanking: 'stack', lateTables: 3 };

/** A tournament open for registration; `seed` (the runner's CSPRNG) seeds the draws (R-RANDSEAT). */
export function init(spec: MachineSpec, seed: number, options: MachineOptions = DEFAULT_OPTIONS): MachineState {
  return {
    v: 1,
    spec,
    options,
    phase: 'registering',
    elapsed: 0,
    level: 0,
    onBreak: false,
    entrants: emptyBuckets(),
    players: 0,
    nextN: 0,
    tables: emptyBuckets(),
    ...emptySizes(spec.seats),
    remaining: 0,
    nextTable: 1,
    floorWait: null,
    entries: 0,
    rebuyCount: 0,
    addOnCount: 0,
    poolFinal: false,
    prizes: [],
    overlay: 0,
    busted: [],
    placedGroups: 0,
    placedPlayers: 0,
    round: { on: false, tables: [], busts: [] },
    removed: 0,
    finalDrawn: false,
    rng: seed | 0,
  };
}

function step(d: Draft, event: MachineEvent): Refusal | null {
  switch (event.type) {
    case 'register': {
      const r = register(d, event.who, event.inscription, event.auto ?? false);
      if (r === null && d.s.spec.format === 'sit-and-go' && d.s.phase === 'registering' && d.s.players === d.s.spec.maxEntrants) return start(d);
      return r;
    }
    case 'unregister':
      return unregister(d, event.accountId);
    case 'start':
      return start(d);
    case 'cancel':
      return cancel(d);
    case 'tick':
      return tick(d, event.elapsed);
    case 'handStarted':
      return handStarted(d, event.table, event.bigBlind);
    case 'handEnded':
      return handEnded(d, event.table, event.stacks, event.busts);
    case 'rebuy':
      return rebuy(d, event.accountId);
    case 'declineRebuy':
      return declineRebuy(d, event.accountId);
    case 'addOn':
      return addOn(d, event.accountId);
    case 're-enter':
      return reEnter(d, event.accountId, event.inscription);
    case 'exclude':
      return exclude(d, event.accountId, event.why);
    case 'absent': {
      const e = d.find(event.accountId);
      if (!e || e.status !== 'in') return { ok: false, code: 'NOT_REGISTERED', message: 'you are not playing in this tournament' };
      setAbsent(d, event.accountId, event.absent);
      return null;
    }
  }
}

export function apply(state: MachineState, event: MachineEvent): Applied | Refusal {
  const d = new Draft(state);
  const r = step(d, event);
  if (r !== null) return r;
  settle(d);
  const changed = { entrants: [...d.changed].sort((a, b) => a - b), tables: [...d.touched].sort((a, b) => a - b), busted: d.bustedFrom, prizes: d.s.prizes !== state.prizes };
  return { ok: true, state: d.s, effects: d.effects, changed };
}

export function legal(state: MachineState, accountId: number): Legal {
  const d = new Draft(state);
  const e = d.find(accountId);
  const open = state.phase === 'registering' || lateOpen(d);
  return {
    register: !e && open && state.players < state.spec.maxEntrants,
    unregister: e !== undefined && e.status !== 'out' && (state.phase === 'registering' || state.phase === 'running'),
    rebuy: e !== undefined && state.spec.structure.rebuy !== null && mayRebuyNow(d, e),
    addOn: e !== undefined && e.status === 'in' && !e.excluded && state.phase === 'running' && mayAddOn(state.spec.structure, state.elapsed, e.addOn),
    reEnter: e !== undefined && e.status === 'out' && e.place === null && !e.excluded && e.reEntries < state.spec.structure.reEntries && lateOpen(d),
  };
}

/**
 * May table `no` deal its next hand now (R-TOURN-RUN; floor.ts `mayDeal`): what `handStarted` would
 * accept, read without applying an event. A runner's table asks it before each hand it deals.
 */
export function mayDeal(state: MachineState, no: number): boolean {
  return mayDealNow(new Draft(state), no);
}
