/**
 * Helpers for the machine's tests and the bench: a spec, players, events applied or thrown on, and a
 * random hand at a table (chips moved between its players, some of them busted) that conserves chips.
 */
import { mulberry32 } from '../../prng';
import { readyStructure, type TournamentStructure } from '../structure';
import { apply } from './machine';
import type { Applied, Bust, Effect, MachineEvent, MachineSpec, MachineState, Who } from './types';
import { entrantOf, tableList, tableOf } from './buckets';

export const rngOf = mulberry32;

export function spec(over: Partial<MachineSpec> = {}, structure: Partial<TournamentStructure> = {}): MachineSpec {
  return {
    id: 'mtt',
    name: 'Test',
    variant: 'THNL',
    money: 'real',
    buyIn: 1000,
    fee: 100,
    format: 'scheduled',
    seats: 9,
    maxEntrants: 100_000,
    minEntrants: 2,
    ...over,
    structure: { ...readyStructure('THNL', 'regular'), lateRegistrationLevels: 0, ...structure },
  };
}

export const who = (id: number): Who => ({ accountId: id, name: `p${id}`, practice: false, ip: '203.0.113.1', sessionId: `s${id}` });

/** Applies an event that must be accepted. */
export function must(state: MachineState, event: MachineEvent): Applied {
  const r = apply(state, event);
  if (!r.ok) throw new Error(`${event.type} refused: ${r.code} ${r.message}`);
  return r;
}

/** Applies events in turn, collecting their effects. */
export function run(state: MachineState, events: readonly MachineEvent[]): { state: MachineState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const e of events) {
    const r = must(state, e);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

export const registerAll = (state: MachineState, ids: readonly number[]): MachineState =>
  run(
    state,
    ids.map((id) => ({ type: 'register', who: who(id), inscription: `i${id}` })),
  ).state;

/** The ids seated at a table, by seat. */
export const seatedAt = (s: MachineState, no: number): number[] => (tableOf(s, no)?.seats ?? []).filter((x): x is number => x !== null);

/** The tables the machine allows to deal now (as its last `deal` effect would say). */
export function dealable(s: MachineState): number[] {
  return tableList(s)
    .map((t) => t.no)
    .filter((no) => apply(s, { type: 'handStarted', table: no, bigBlind: null }).ok);
}

/**
 * One random hand at `no`: its players' chips moved (conserved), each loser busted with probability
 * `bustRate` (all but one at most); busts grouped by their starting stacks, best first (T 8-16).
 */
export function randomHand(s: MachineState, no: number, rng: () => number, bustRate = 0.15): { ended: MachineEvent & { type: 'handEnded' }; started: MachineEvent } {
  const ids = seatedAt(s, no).filter((id) => entrantOf(s, id)!.status === 'in');
  const start = new Map(ids.map((id) => [id, entrantOf(s, id)!.stack]));
  const stacks = new Map(start);
  const winner = ids[Math.floor(rng() * ids.length)];
  const busted: number[] = [];
  for (const id of ids) {
    if (id === winner) continue;
    const have = stacks.get(id)!;
    const lose = rng() < bustRate ? have : Math.floor(rng() * Math.min(have, 400));
    stacks.set(id, have - lose);
    stacks.set(winner, stacks.get(winner)! + lose);
    if (have - lose === 0) busted.push(id);
  }
  const byStart = new Map<number, Bust[]>();
  for (const id of busted) byStart.set(start.get(id)!, [...(byStart.get(start.get(id)!) ?? []), { accountId: id, stackAtStart: start.get(id)!, by: [winner] }]);
  const busts = [...byStart.keys()].sort((a, b) => b - a).map((k) => byStart.get(k)!);
  const t = tableOf(s, no)!;
  const bb = t.seats.findIndex((x) => x !== null);
  return {
    started: { type: 'handStarted', table: no, bigBlind: bb },
    ended: { type: 'handEnded', table: no, stacks: ids.map((id) => ({ accountId: id, stack: stacks.get(id)! })), busts },
  };
}
