/**
 * The hand record: one finished hand as plain data, complete enough for the history codecs (POJEU
 * XML, PHH, PokerStars-style text) and the results shown to the player (R-RESULTS, R-HISTORY, A
 * 1.3.6.d): variant, table rules, seats and players, stacks before and after, every action with its
 * record round, cards dealt and shown or mucked, pots with their eligible players, winners and
 * their shares, rake, uncalled returns and net per player.
 */
import type { Card } from './cards';
import { explainHand, type EvalGame, type HandExplanation } from './eval';
import type { HandConfig, HandPlan, HandState, LogEntry, PotResult } from './engine/types';
import type { TableRules } from './tableRules';
import { VARIANTS, type RoundName, type VariantCode } from './variants';

export interface RecordSeat {
  seat: number;
  player: string;
  /** Chips before the hand ("CaveAvant"). */
  stackBefore: number;
  /** Chips after the hand ("CaveApres"). */
  stackAfter: number;
  dealtIn: boolean;
  /** Private cards at the end of the hand (Triple Draw: after the draws); null where unknown. */
  cards: (Card | null)[];
  /** Per card: dealt face up (Stud). */
  up: boolean[];
  folded: boolean;
  shown: boolean;
  mucked: boolean;
  /** Chips engaged in the pot, net of uncalled returns ("Total", R-UNCALLED). */
  committed: number;
  /** Chips won from the pots, after rake. */
  won: number;
  /** Rake taken from this player's winnings. */
  rake: number;
  /** stackAfter − stackBefore ("Net"). */
  net: number;
  /** The shown hand, described (R-RESULTS): best high and, in high/low games, the qualifying low. */
  hand: { high: HandExplanation | null; low: HandExplanation | null } | null;
}

export interface HandRecord {
  handId: string | null;
  variant: VariantCode;
  rules: TableRules;
  /** Number of seats at the table. */
  tableSize: number;
  button: number | null;
  smallBlind: number | null;
  bigBlind: number | null;
  /** Occupied seats only, in seat order. */
  seats: RecordSeat[];
  board: Card[];
  /** Every action in order, each with its record round (A 1.3.6.d.5). */
  actions: LogEntry[];
  /** The rounds that appear in `actions`, in the variant's order (A 1.3.6.d.5). */
  rounds: RoundName[];
  /** Main pot first, then side pots (R-POTS); shares name the high/low halves (R-LOW8). */
  pots: PotResult[];
  uncalled: { seat: number; amount: number; round: RoundName }[];
  rake: number;
  showdown: boolean;
}

export function gamesOf(state: HandState): { high: EvalGame; low: EvalGame | null } {
  const v = VARIANTS[state.variant];
  switch (v.family) {
    case 'omaha':
      return { high: 'omaha-high', low: v.evaluation === 'high-low8' ? 'omaha-low8' : null };
    case 'draw':
      return { high: state.rules.lowball27 === 'international' ? '27-international' : '27-decree', low: null };
    default:
      return { high: v.evaluation === 'razz' ? 'razz' : 'high', low: v.evaluation === 'high-low8' ? 'low8' : null };
  }
}

function describe(state: HandState, seat: number): RecordSeat['hand'] {
  const p = state.seats[seat];
  if (!p.shown || p.hole.some((c) => c === null)) return null;
  const hole = p.hole as Card[];
  const v = VARIANTS[state.variant];
  const games = gamesOf(state);
  const explain = (game: EvalGame): HandExplanation | null =>
    v.family === 'omaha' ? explainHand(game, hole, state.board) : explainHand(game, v.family === 'holdem' ? hole.concat(state.board) : hole);
  return { high: explain(games.high), low: games.low === null ? null : explain(games.low) };
}

/** The record of a finished hand. Throws when the hand is not over (a caller's bug). */
/**
 * The table rules as the hand used them: a replay-only house rule the hand did not use is dropped
 * (`stud-muck` with no muck plays exactly as the decree's Stud showdown), so a record reads the same
 * whatever file it came through: a file shows a house rule only by using it (shared/exchange).
 */
function usedRules(state: HandState): TableRules {
  const house = state.rules.houseRules;
  if (house === undefined) return state.rules;
  const used = house.filter((h) => h !== 'stud-muck' || state.log.some((e) => e.kind === 'muck'));
  if (used.length === house.length) return state.rules;
  const { houseRules: _dropped, ...rest } = state.rules;
  return used.length > 0 ? { ...rest, houseRules: used } : rest;
}

export function recordOf(state: HandState): HandRecord {
  const result = state.result;
  if (state.phase !== 'done' || result === null) throw new Error('recordOf: the hand is not over');
  const plan: HandPlan = state.plan;
  const dealt = new Set(plan.dealtIn);
  const seats: RecordSeat[] = [];
  for (let i = 0; i < state.seats.length; i++) {
    const player = state.players[i];
    if (player === null) continue;
    const p = state.seats[i];
    seats.push({
      seat: i,
      player,
      stackBefore: state.stacksBefore[i],
      stackAfter: p.stack,
      dealtIn: dealt.has(i),
      cards: p.hole.slice(),
      up: p.up.slice(),
      folded: p.status === 'folded',
      shown: p.shown,
      mucked: p.mucked,
      committed: p.committed,
      won: result.won[i],
      rake: result.rakePaid[i],
      net: result.net[i],
      hand: describe(state, i),
    });
  }
  const present = new Set<RoundName>();
  for (const e of state.log) present.add(e.round);
  const rounds = VARIANTS[state.variant].rounds.filter((r) => present.has(r));
  return {
    handId: state.handId,
    variant: state.variant,
    rules: usedRules(state),
    tableSize: state.seats.length,
    button: plan.button,
    smallBlind: plan.smallBlind,
    bigBlind: plan.bigBlind,
    seats,
    board: state.board.slice(),
    actions: state.log.slice(),
    rounds,
    pots: result.pots,
    uncalled: result.uncalled.slice(),
    rake: result.rake,
    showdown: result.showdown,
  };
}

/** Seats dealt in, clockwise from the left of the button (ascending when there is none, as in Stud). */
export function dealtInOrder(seats: readonly number[], button: number | null): number[] {
  const sorted = [...seats].sort((a, b) => a - b);
  if (button === null) return sorted;
  return [...sorted.filter((s) => s > button), ...sorted.filter((s) => s <= button)];
}

/**
 * The start of the hand a record describes, the inverse of `recordOf`'s first step: `startHand` on
 * it posts exactly the record's forced bets. Every `big blind` post after the big blind's own is an
 * extra big blind (R-BUTTON), repeats included; every `dead small blind` post a dead small blind.
 * One function for the history replayer and the exchange formats (the two used to
 * read the extra big blinds differently).
 */
export function startOfRecord(record: HandRecord): HandConfig {
  const seats: HandConfig['seats'] = Array.from({ length: record.tableSize }, () => null);
  for (const s of record.seats) seats[s.seat] = { player: s.player, stack: s.stackBefore };
  const extraBigBlinds: number[] = [];
  const deadSmallBlinds: number[] = [];
  let bigSeen = false;
  for (const e of record.actions) {
    if (e.kind !== 'post') continue;
    if (e.post === 'big blind') {
      if (bigSeen || e.seat !== record.bigBlind) extraBigBlinds.push(e.seat);
      else bigSeen = true;
    } else if (e.post === 'dead small blind') deadSmallBlinds.push(e.seat);
  }
  const plan: HandPlan = {
    button: record.button,
    smallBlind: record.smallBlind,
    bigBlind: record.bigBlind,
    extraBigBlinds,
    deadSmallBlinds,
    dealtIn: dealtInOrder(
      record.seats.filter((s) => s.dealtIn).map((s) => s.seat),
      record.button,
    ),
  };
  return { rules: record.rules, seats, plan, ...(record.handId === null ? {} : { handId: record.handId }) };
}
