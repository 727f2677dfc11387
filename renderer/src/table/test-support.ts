/**
 * Helpers for the table logic's unit tests: real hands from the rules engine, seen from one seat,
 * wrapped in the TableState the components receive. Not used by the app.
 */
import type { Card } from '../../../shared/rules/cards';
import type { TableState } from '../../../shared/api/contract';
import { handViewFor } from '../../../shared/protocol/hand';
import type { TableView } from '../../../shared/protocol/messages';
import { startHand } from '../../../shared/rules/engine/machine';
import { dealFrom, run, tableConfig, type TestTable } from '../../../shared/rules/engine/test-support';
import type { HandState } from '../../../shared/rules/engine/types';
import { makeTableRules, type Stakes, type TableRules } from '../../../shared/rules/tableRules';
import type { VariantCode } from '../../../shared/rules/variants';
import { legalActions } from '../../../shared/rules/engine/legal';

export function newHand(code: VariantCode, t: TestTable, stakes: Stakes = { smallBlind: 50, bigBlind: 100 }, rules: Partial<TableRules> = {}): HandState {
  return dealFrom(startHand(tableConfig(makeTableRules(code, stakes, rules), t)));
}

/** Applies steps (engine test script: `2 c`, `0 r 300`, …) and deals what follows. */
export function play(state: HandState, ...steps: string[]): HandState {
  let s = state;
  for (const step of steps) s = dealFrom(run(s, step));
  return s;
}

/** `play`, dealing from `deck` (consumed from the front). */
export function playFrom(deck: Card[], state: HandState, ...steps: string[]): HandState {
  let s = state;
  for (const step of steps) s = dealFrom(run(s, step), deck);
  return s;
}

export function tableState(full: HandState | null, seat: number | null, over: Partial<TableState> = {}): TableState {
  const hand = full === null ? null : handViewFor(full, seat);
  const n = full?.seats.length ?? 6;
  const rules = full?.rules ?? makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
  const view: TableView = {
    tableId: 't1',
    name: 'Paris',
    money: 'play',
    practice: false,
    rules,
    buyIn: { min: 2000, max: 10000 },
    seats: Array.from({ length: n }, (_, i) =>
      full === null || full.players[i] !== null ? { name: `Joueur ${i}`, practice: i % 2 === 1, stack: full?.seats[i].stack ?? 1000, status: 'active' as const, connected: true } : null,
    ),
    handNo: 7,
    hand,
    turn: null,
    you: seat === null ? null : { seat, waitForBigBlind: false, leaving: false, pendingTopUp: 0, timeBankMs: 30000 },
    tournament: null,
  };
  return { tableId: 't1', status: 'live', view, seq: 1, lastHand: null, pending: null, error: null, cashedOut: null, tournamentId: null, watching: false, ...over };
}

/**
 * Deals the given hole cards (seat order) and board, calls or checks every decision (`opening` first:
 * steps such as a short stack's all-in), then shows hands until `us` is the seat to show or muck. The whole state (no view).
 */
export function toOurShowdown(rules: TableRules, stacks: number[], holes: string[], board: string[], us: number, opening: string[] = []): HandState {
  let s = startHand(tableConfig(rules, { stacks, button: stacks.length - 1 }));
  s = run(s, ...holes.map((h, i) => `d ${i} ${h}`), ...opening);
  const boards = [...board];
  for (let guard = 0; guard < 100; guard++) {
    const legal = legalActions(s);
    if (legal.next === 'show' && legal.seat === us) return s;
    if (legal.next === 'done') throw new Error('the hand ended before our turn to show');
    if (legal.next === 'deal') s = boards.length > 0 ? run(s, `d b ${boards.shift()}`) : dealFrom(s);
    else if (legal.next === 'show') s = run(s, { type: 'show', seat: legal.seat! });
    else s = run(s, legal.check ? { type: 'check', seat: legal.seat! } : { type: 'call', seat: legal.seat! });
  }
  throw new Error('no showdown');
}
