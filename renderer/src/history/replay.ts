/**
 * The replayer's steps (R-HISTORY, R-RESULTS): a stored hand record played again through the rules
 * engine, offline, one step per player decision (the dealer's consecutive deals make one step), so
 * every step carries the whole table state: stacks, bets, pots, board and the cards the record knows.
 * Unknown cards (others' down cards, never shown) stay `null`, as the client saw them.
 *
 * The record's forced bets and uncalled returns are not replayed as actions: `startHand` posts the
 * first and the engine makes the second. At the end the engine's nets are checked against the
 * record's, so a step list that does not add up is reported, never shown as if it did.
 */
import { actionOfEntry } from '../../../shared/protocol/hand';
import { apply, buildPots, potTotal, startHand, type HandState, type LogEntry } from '../../../shared/rules/engine';
import { startOfRecord, type HandRecord } from '../../../shared/rules/record';
import type { RoundName } from '../../../shared/rules/variants';

export type StepKind = 'start' | 'deal' | 'action' | 'show' | 'end';

export interface ReplayStep {
  /** The table after this step. */
  state: HandState;
  /** The round this step belongs to (of its last entry; `bet` for the forced bets). */
  round: RoundName;
  /** What this step added to the log (forced bets for the first step, uncalled returns included). */
  entries: LogEntry[];
  kind: StepKind;
  /** The seat that decided (actions, shows, mucks), else null. */
  seat: number | null;
}

export interface Replay {
  steps: ReplayStep[];
  /** The first step of each round present, in order (jump to a round). */
  rounds: { round: RoundName; step: number }[];
  /** The engine reached the end and its result matches the record's. */
  complete: boolean;
  /** Why the replay stopped early or does not match (null when complete). */
  error: string | null;
}

/** The engine action a log entry stands for (one mapping, shared/protocol/hand.ts); null for what the engine does by itself. */
export const actionOf = actionOfEntry;

function kindOf(e: LogEntry): StepKind {
  if (e.kind === 'deal' || e.kind === 'reshuffle') return 'deal';
  if (e.kind === 'show' || e.kind === 'muck') return 'show';
  return 'action';
}

/** Plays the record again; stops at the first action the engine refuses (named in `error`). */
export function buildReplay(record: HandRecord): Replay {
  const steps: ReplayStep[] = [];
  let state: HandState;
  try {
    state = startHand(startOfRecord(record));
  } catch (error) {
    return { steps: [], rounds: [], complete: false, error: error instanceof Error ? error.message : String(error) };
  }
  steps.push({ state, round: 'bet', entries: state.log.slice(), kind: 'start', seat: null });
  let error: string | null = null;
  for (let i = 0; i < record.actions.length; i++) {
    const e = record.actions[i];
    const action = actionOf(e);
    if (action === null) continue;
    const r = apply(state, action);
    if (!r.ok) {
      error = `action ${i + 1} (${e.kind}): ${r.rule} ${r.message}`;
      break;
    }
    const added = r.state.log.slice(state.log.length);
    state = r.state;
    const kind = kindOf(e);
    const last = steps[steps.length - 1];
    if (kind === 'deal' && last.kind === 'deal' && last.round === e.round) {
      last.state = state;
      last.entries = last.entries.concat(added);
    } else {
      steps.push({ state, round: e.round, entries: added, kind, seat: kind !== 'deal' && 'seat' in e ? e.seat : null });
    }
  }
  if (error === null) {
    if (state.phase !== 'done' || state.result === null) error = 'the record ends before the hand does';
    else {
      const net = state.result.net;
      const wrong = record.seats.find((s) => s.dealtIn && net[s.seat] !== s.net);
      if (wrong) error = `seat ${wrong.seat + 1}: the replay ends at ${net[wrong.seat]}, the record at ${wrong.net}`;
    }
  }
  if (error === null) steps[steps.length - 1].kind = 'end';
  const rounds: Replay['rounds'] = [];
  steps.forEach((s, k) => {
    if (!rounds.some((x) => x.round === s.round)) rounds.push({ round: s.round, step: k });
  });
  return { steps, rounds, complete: error === null, error };
}

/** The pot at a step: the total (bets in front of the players included) and, with all-ins, each pot. */
export function potsAt(state: HandState): { total: number; pots: number[] } {
  if (state.phase === 'done') return { total: 0, pots: [] };
  const total = potTotal(state);
  const sides = state.seats.some((s) => s.status === 'allin') ? buildPots(state) : [];
  return { total, pots: sides.length > 1 ? sides.map((p) => p.amount) : [] };
}

/** The round a step index falls in (the last round started at or before it). */
export function roundAt(replay: Replay, step: number): RoundName | null {
  let current: RoundName | null = null;
  for (const r of replay.rounds) if (r.step <= step) current = r.round;
  return current;
}
