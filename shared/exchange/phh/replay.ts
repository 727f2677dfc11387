// The PHH replayer (`cercle replay`, the corpus conformance test): drives the rules engine through a
// recorded hand and checks the outcome against `finishing_stacks`.
//
// The header gives the table rules and the start of the hand (start.ts); the actions become the
// steps of the one driver every format uses (shared/exchange/core.ts driveSteps: it follows the
// Triple Draw reshuffle PHH does not write, the replay-only Stud house rules stud-muck and
// stud-no-ante, shows written in another order than the engine's showdown order, T 8-3). Where a PHH
// source played by a house rule the decree does not have, the hand is either replayed under the
// matching table rule (the WSOP limit cap, the international 2-7 reading, a big-blind ante) or
// skipped with the difference named (straddles). docs/phh.md lists them all.

import { legalActions } from '../../rules/engine';
import { VARIANTS } from '../../rules/variants';
import { driveSteps, UNKNOWN_SHOWDOWN } from '../core';
import { parsePhhAction, type PhhAction } from './actions';
import type { PhhHand } from './phh';
import { amountScale, phhStart, phhSteps, standIns, units, type HouseRule, type StartOptions } from './start';
import { PHH_VARIANTS, isPhhVariant } from './variants';

export { WSOP_LIMIT_CAP, type HouseRule } from './start';

export type ReplayResult =
  | {
      readonly ok: true;
      /** Final stacks in PHH units (as `finishing_stacks` writes them). */
      readonly finalStacks: readonly number[];
      /** Whether `finishing_stacks` was there to compare with (else only the actions were checked). */
      readonly stacksChecked: boolean;
      /** Whether the engine reached the end of the hand (a PHH history may stop earlier). */
      readonly complete: boolean;
      /** Table rules chosen for this source (e.g. the WSOP cap), for the record. */
      readonly notes: readonly string[];
    }
  | {
      readonly ok: false;
      readonly skipped: true;
      readonly reason: string;
      /** Set when the skip is a documented house-rule difference (docs/phh.md). */
      readonly houseRule?: HouseRule;
    }
  | {
      readonly ok: false;
      readonly skipped?: false;
      /** 0-based index into `actions` of the action refused. */
      readonly actionIndex?: number;
      /** The requirement the engine named (e.g. R-MINRAISE). */
      readonly rule?: string;
      readonly reason: string;
      /** `finishing_stacks` and what the engine reached, in PHH units. */
      readonly expected?: readonly number[];
      readonly actual?: readonly number[];
    };

export type ReplayOptions = StartOptions;

type Failure = Extract<ReplayResult, { ok: false; skipped?: false }>;
type Skip = Extract<ReplayResult, { skipped: true }>;

function fail(reason: string, more: Omit<Failure, 'ok' | 'reason'> = {}): Failure {
  return { ok: false, reason, ...more };
}

function skip(reason: string, houseRule?: HouseRule): Skip {
  return houseRule ? { ok: false, skipped: true, reason, houseRule } : { ok: false, skipped: true, reason };
}

/**
 * Replays one hand through the engine. Variants outside the decree are skipped (parsed only);
 * refusals and a final-stack mismatch are failures that name the action and the rule.
 */
export function replayHand(hand: PhhHand, options: ReplayOptions = {}): ReplayResult {
  if (!isPhhVariant(hand.variant)) return fail(`unknown variant code '${hand.variant}'`);
  const info = PHH_VARIANTS[hand.variant];
  if (info.decree === null) return skip(`${hand.variant} (${info.name}) is not a decree variant (D art. 7): parsed only`);
  const variant = info.decree;

  const actions: PhhAction[] = [];
  for (const [i, text] of hand.actions.entries()) {
    const parsed = parsePhhAction(text);
    if (!parsed.ok) return fail(parsed.reason, { actionIndex: i });
    actions.push(parsed.action);
  }
  const n = hand.starting_stacks.length;
  for (const [i, a] of actions.entries()) if ('playerIndex' in a && a.playerIndex >= n) return fail(`there are only ${n} players`, { actionIndex: i });
  const scale = amountScale(hand, actions);
  if (typeof scale === 'string') return fail(scale);
  const start = phhStart(hand, variant, scale, options);
  if ('ok' in start) {
    if (start.houseRule !== undefined) return skip(start.reason, start.houseRule);
    return fail(start.reason, start.rule === undefined ? {} : { rule: start.rule });
  }

  // Failures name the action by its index (the step's `line`); past the last one, none.
  const steps = phhSteps(actions, scale, (i) => i, (i) => i);
  const r = driveSteps(start.config, steps, { lastLine: actions.length, standIns: standIns(actions, VARIANTS[variant].evaluation === 'razz'), partial: true });
  if (!r.ok) {
    return fail(r.reason ?? r.message, { ...(r.line < actions.length ? { actionIndex: r.line } : {}), ...(r.rule === undefined ? {} : { rule: r.rule }) });
  }
  const notes = start.notes;
  const state = r.state;
  if (r.stoppedAt !== null) notes.push(`stopped at action ${r.stoppedAt.line + 1} '${hand.actions[r.stoppedAt.line]}': ${UNKNOWN_SHOWDOWN}`);

  const complete = state.phase === 'done';
  // Stacks after the last action; mid-hand, that is chips behind (standard, "Finishing Stacks").
  const finalUnits = state.seats.map((s) => s.stack);
  const finalStacks = finalUnits.map((u) => u / scale);
  if (hand.finishing_stacks !== undefined) {
    if (r.stoppedAt !== null) return fail(UNKNOWN_SHOWDOWN, { actionIndex: r.stoppedAt.line, rule: 'R-SHOWDOWN' });
    const expected = hand.finishing_stacks.map((x) => units(x, scale));
    if (expected.some((x, i) => x !== finalUnits[i])) {
      const next = complete ? '' : ` (the hand is not over: ${legalActions(state).next} pending)`;
      return fail(`final stacks differ from finishing_stacks${next}`, { expected: hand.finishing_stacks, actual: finalStacks });
    }
  }
  return { ok: true, finalStacks, stacksChecked: hand.finishing_stacks !== undefined, complete, notes };
}
