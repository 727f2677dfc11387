// The PHH replayer: drives the rules engine through a recorded hand and checks the outcome.
//
// From the header it builds the table rules and the hand's start (seats, button, blinds); each PHH
// action becomes an engine action, applied in turn; at the end the stacks are compared with
// `finishing_stacks`. Where a PHH source played by a house rule the decree does not have, the hand
// is either replayed under the matching table rule (the WSOP limit cap, the international 2-7
// reading) or skipped with the difference named (straddles). docs/phh.md lists them all.
//
// PHH positions: player 1 is dealt first, the last player has the button (standard, "Position");
// heads-up, the blinds are reversed (player 2, on the button, posts the small blind). In Stud the
// three first cards of `d dh` are two down and one up (pokerkit's third street: down, down, up);
// later cards follow the streets (up, up, up, down), as our variant table has them.

import { cardFromText, type Card } from '../../rules/cards';
import { apply, legalActions, startHand, type Action, type HandConfig, type HandPlan, type HandState } from '../../rules/engine';
import { houseRulesOf, makeTableRules, validateTableRules, type ReplayHouseRule, type TableRules } from '../../rules/tableRules';
import { VARIANTS, type VariantCode } from '../../rules/variants';
import { parsePhhAction, type PhhAction } from './actions';
import { readBlinds } from './blinds';
import type { PhhHand } from './phh';
import { PHH_VARIANTS, isPhhVariant } from './variants';

/** Differences between a PHH source's house rules and ours that keep a hand from being replayed. */
export type HouseRule = 'straddle';

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

export interface ReplayOptions {
  /**
   * Table rules to impose over what the replayer derives from the header (for instance
   * `{ cap: 5 }`). The result is validated like any table rules.
   */
  readonly rules?: Partial<TableRules>;
}

/** WSOP limit events cap a round at one bet and four raises (corpus README; WSOP rules). */
export const WSOP_LIMIT_CAP = 5;

type Failure = Extract<ReplayResult, { ok: false; skipped?: false }>;
type Skip = Extract<ReplayResult, { skipped: true }>;

function fail(reason: string, more: Omit<Failure, 'ok' | 'reason'> = {}): Failure {
  return { ok: false, reason, ...more };
}

function skip(reason: string, houseRule?: HouseRule): Skip {
  return houseRule ? { ok: false, skipped: true, reason, houseRule } : { ok: false, skipped: true, reason };
}

// ---- amounts ----

/** Digits after the decimal point of a number as JavaScript writes it (0.1 → 1, 1e-7 → 7). */
function decimalsOf(x: number): number {
  const text = String(x);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) {
    const mantissa = text.slice(0, text.indexOf('e'));
    return Number(exp[1]) + (mantissa.split('.')[1]?.length ?? 0);
  }
  return text.split('.')[1]?.length ?? 0;
}

const MAX_DECIMALS = 6;

/**
 * PHH amounts may be decimals (dollars and cents). The engine counts integers (R-CONSERVE), so
 * every amount of the hand is multiplied by the same power of ten: the smallest that makes them
 * all whole.
 */
function amountScale(hand: PhhHand, actions: readonly PhhAction[]): number | string {
  const values: number[] = [
    ...hand.antes,
    ...(hand.blinds_or_straddles ?? []),
    ...hand.starting_stacks,
    ...(hand.finishing_stacks ?? []),
  ];
  for (const k of ['bring_in', 'small_bet', 'big_bet', 'min_bet'] as const) {
    const v = hand[k];
    if (v !== undefined) values.push(v);
  }
  for (const a of actions) if (a.type === 'complete-bet-raise') values.push(a.amount);
  let decimals = 0;
  for (const v of values) decimals = Math.max(decimals, decimalsOf(v));
  if (decimals > MAX_DECIMALS) return `amounts with more than ${MAX_DECIMALS} decimals cannot be counted in whole units`;
  return 10 ** decimals;
}

function units(x: number, scale: number): number {
  return Math.round(x * scale);
}

// ---- header → table rules and plan ----

interface Start {
  readonly config: HandConfig;
  readonly notes: string[];
}

function isWsop(hand: PhhHand): boolean {
  return /World Series of Poker|\bWSOP\b/i.test(hand.event ?? '');
}

function buildStart(hand: PhhHand, variant: VariantCode, scale: number, options: ReplayOptions): Start | Skip | Failure {
  const v = VARIANTS[variant];
  const n = hand.starting_stacks.length;
  const notes: string[] = [];
  if (n > v.maxSeats) return fail(`${n} players: ${variant} is played at most ${v.maxSeats} to a table (R-SEATS)`);
  if (hand.starting_stacks.some((s) => !Number.isFinite(s))) return fail('a starting stack is unknown (inf): the hand cannot be counted');
  const stacks = hand.starting_stacks.map((s) => units(s, scale));
  const antes = hand.antes.map((a) => units(a, scale));

  // Antes: the decree's antes are paid by every player (D art. 3, R-FORCED). A record where one
  // player alone antes plays a big-blind ante (table rule anteBy 'big-blind'), checked below against
  // the big blind's seat.
  const anteSeats = antes.flatMap((a, i) => (a > 0 ? [i] : []));
  const bigBlindAnte = antes.some((a) => a !== antes[0]) && anteSeats.length === 1 && v.forcedBets === 'blinds';
  const ante = bigBlindAnte ? antes[anteSeats[0]] : antes[0];
  if (antes.some((a) => a !== antes[0]) && !bigBlindAnte) {
    return fail(`antes ${JSON.stringify(hand.antes)} are neither paid by every player (R-FORCED) nor by the big blind alone`);
  }

  let plan: HandPlan;
  let smallBlind = 0;
  let bigBlind = 0;
  if (v.forcedBets === 'ante-bring-in') {
    plan = { button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn: range(n) };
  } else {
    const blinds = readBlinds((hand.blinds_or_straddles ?? []).map((b) => units(b, scale)), n);
    if (!blinds.ok) {
      if (blinds.reason === 'heads-up') return fail(`heads-up blinds ${JSON.stringify(hand.blinds_or_straddles)} are not a small and a big blind`);
      return skip(`blinds or straddles ${JSON.stringify(hand.blinds_or_straddles)}: straddles are not a decree forced bet (R-FORCED)`, 'straddle');
    }
    const sbSeat = blinds.smallBlindSeat;
    const bbSeat = blinds.bigBlindSeat;
    smallBlind = blinds.smallBlind;
    bigBlind = blinds.bigBlind;
    if (sbSeat === null) notes.push('no small blind this hand (dead small blind seat)');
    const extra: number[] = [];
    for (const p of blinds.posts) {
      if (p.amount !== bigBlind) return fail(`player ${p.seat + 1} posts ${p.amount / scale}, not a big blind`);
      extra.push(p.seat);
    }
    if (extra.length > 0) notes.push(`player(s) ${extra.map((i) => i + 1).join(', ')} post a big blind out of position`);
    plan = { button: n - 1, smallBlind: sbSeat, bigBlind: bbSeat, extraBigBlinds: extra, deadSmallBlinds: [], dealtIn: range(n) };
  }

  const info = PHH_VARIANTS[hand.variant as keyof typeof PHH_VARIANTS];
  const stakes =
    info.betting === 'limit'
      ? { smallBlind, bigBlind, ante, bringIn: units(hand.bring_in ?? 0, scale), smallBet: units(hand.small_bet!, scale), bigBet: units(hand.big_bet!, scale) }
      : { smallBlind, bigBlind, ante };
  if (info.betting === 'min-bet' && units(hand.min_bet!, scale) !== bigBlind) {
    return fail(`min_bet ${hand.min_bet} differs from the big blind ${bigBlind / scale}: R-MINRAISE takes the big blind as the minimum bet`);
  }
  const overrides: { -readonly [K in keyof TableRules]?: TableRules[K] } = {
    // PHH sources play a tournament's rules: no open-pair big bet on 4th street (R-LIMIT), and
    // pokerkit has none.
    studOpenPairBigBet: false,
  };
  if (v.betting === 'limit' && isWsop(hand)) {
    overrides.cap = WSOP_LIMIT_CAP;
    notes.push(`WSOP limit cap: 1 bet + ${WSOP_LIMIT_CAP - 1} raises`);
  }
  if (bigBlindAnte) {
    if (plan.bigBlind !== anteSeats[0]) return fail(`player ${anteSeats[0] + 1} antes alone but is not the big blind`);
    overrides.anteBy = 'big-blind';
    notes.push('big-blind ante: the big blind antes for the table (table rule anteBy big-blind)');
  }
  if (v.forcedBets === 'ante-bring-in') {
    // Live Stud games let a loser muck and some deal without an ante; the decree has every hand shown
    // and an ante (D art. 7 III). Such records replay with the replay-only house rules (docs/phh.md).
    const houseRules: ReplayHouseRule[] = [];
    if (ante === 0) {
      houseRules.push('stud-no-ante');
      notes.push('Stud without an ante (replay-only house rule stud-no-ante; the decree has one, D art. 7 III)');
    }
    if (hand.actions.some((line) => /^p\d+ sm\s*(#.*)?$/.test(line.trim()))) {
      houseRules.push('stud-muck');
      notes.push('a loser mucks at the Stud showdown (replay-only house rule stud-muck; the decree has every hand shown, D art. 7 III)');
    }
    overrides.houseRules = houseRulesOf(houseRules);
  }
  if (variant === '2T7TD') {
    // PHH's F2L3D is deuce-to-seven as played internationally (WSOP): straights and flushes count.
    overrides.lowball27 = 'international';
    notes.push("2-7 read the international way (R-27 table rule 'international')");
  }
  const rules = makeTableRules(variant, stakes, { ...overrides, ...options.rules });
  const check = validateTableRules(rules);
  if (!check.ok) return fail(`table rules from the header: ${check.reason}`, { rule: check.rule });
  const config: HandConfig = {
    rules,
    seats: stacks.map((stack, i) => ({ player: hand.players?.[i] ?? `p${i + 1}`, stack })),
    plan,
    ...(hand.hand !== undefined ? { handId: String(hand.hand) } : {}),
  };
  return { config, notes };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

// ---- actions ----

function cardsOf(texts: readonly string[]): (Card | null)[] {
  return texts.map((t) => (t === '??' ? null : cardFromText(t)));
}

/**
 * Stud records sometimes hide a face-up card (the broadcast did not show a player who folded at
 * once: `d dh p1 ??????`). Everyone at the table saw it, so the engine needs a card there. The
 * replayer deals a stand-in that cannot change who brings in: a card the record never names, the
 * highest free ones in high games (the lowest up-card brings in), the lowest free ones in Razz
 * (the highest up-card brings in, ace low; R-FORCED). Should such a player stay in and the
 * stand-in change who acts first, the engine refuses the next action and the replay fails.
 */
function standIns(actions: readonly PhhAction[], razz: boolean): Card[] {
  const named = new Set<Card>();
  for (const a of actions) {
    const cards = 'cards' in a && Array.isArray(a.cards) ? a.cards : [];
    for (const t of cards) {
      const c = cardFromText(t);
      if (c !== null) named.add(c);
    }
  }
  const free: Card[] = [];
  for (let c = 51; c >= 0; c--) if (!named.has(c)) free.push(c);
  if (!razz) return free;
  // Razz ranks aces lowest, then deuces...: aces (48-51) first, then 2, 3, ...
  const lowRank = (c: Card): number => ((c >> 2) + 2 === 14 ? 1 : (c >> 2) + 2);
  return free.sort((x, y) => lowRank(x) - lowRank(y) || x - y);
}

/** The engine action for a PHH action in this state; a string says why there is none. */
function translate(state: HandState, a: PhhAction, scale: number, spare: Card[]): Action | string | null {
  switch (a.type) {
    case 'no-op':
      return null;
    case 'deal-board':
      return { type: 'deal', seat: null, cards: cardsOf(a.cards) };
    case 'deal-hole': {
      const cards = cardsOf(a.cards);
      const seat = state.seats[a.playerIndex];
      const street = VARIANTS[state.variant].streets[state.street];
      if (state.phase === 'deal' && seat !== undefined && seat.owed > 0) {
        const from = street.hole.length - seat.owed;
        for (let k = 0; k < cards.length; k++) {
          if (cards[k] === null && street.hole[from + k] === 'up') {
            const stand = spare.shift();
            if (stand === undefined) return 'no card left to stand in for a hidden up card';
            cards[k] = stand;
          }
        }
      }
      return { type: 'deal', seat: a.playerIndex, cards };
    }
    case 'bring-in':
      return { type: 'bringIn', seat: a.playerIndex };
    case 'fold':
      return { type: 'fold', seat: a.playerIndex };
    case 'check-call': {
      // PHH's `cc` is a check when nothing is owed, else a call (standard, "Checking/Calling").
      const p = state.seats[a.playerIndex];
      return { type: p.bet < state.currentBet ? 'call' : 'check', seat: a.playerIndex };
    }
    case 'complete-bet-raise':
      return { type: 'bet', seat: a.playerIndex, to: units(a.amount, scale) };
    case 'discard':
      return { type: 'draw', seat: a.playerIndex, discards: cardsOf(a.cards) };
    case 'show-muck': {
      if (a.cards === null) return { type: 'muck', seat: a.playerIndex };
      if (a.cards === 'dealt') return { type: 'show', seat: a.playerIndex };
      const cards = cardsOf(a.cards);
      if (cards.some((c) => c === null)) {
        const known = state.seats[a.playerIndex].hole;
        if (known.some((c) => c === null)) return UNKNOWN_SHOWDOWN;
        // Cards dealt known and shown as unknown (a cash-game "show nothing"): they speak anyway (T 8-8).
        return { type: 'show', seat: a.playerIndex };
      }
      return { type: 'show', seat: a.playerIndex, cards: cards as Card[] };
    }
  }
}

/** A show of cards the record does not know: the showdown cannot be settled from the record. */
const UNKNOWN_SHOWDOWN = 'the record shows cards it does not know (??): the showdown cannot be settled';

/** Still a contender at the showdown: dealt in, not folded, has neither shown nor mucked. */
function contender(state: HandState, seat: number): boolean {
  const p = state.seats[seat];
  return p !== undefined && (p.status === 'in' || p.status === 'allin') && !p.shown && !p.mucked;
}

/** Why a show after the settlement does not match the hand held, or null when it does. */
function reShowMismatch(state: HandState, a: Extract<PhhAction, { type: 'show-muck' }>): string | null {
  if (a.cards === null || a.cards === 'dealt') return null;
  const hole = state.seats[a.playerIndex].hole;
  const shown = cardsOf(a.cards);
  if (shown.length !== hole.length) return `shows ${shown.length} cards but holds ${hole.length}`;
  for (const c of shown) if (c !== null && !hole.includes(c)) return `shows a card it does not hold`;
  return null;
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
  const scale = amountScale(hand, actions);
  if (typeof scale === 'string') return fail(scale);
  const start = buildStart(hand, variant, scale, options);
  if ('ok' in start) return start;

  const spare = standIns(actions, VARIANTS[variant].evaluation === 'razz');
  let state: HandState;
  try {
    state = startHand(start.config);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }

  // Shows and mucks may be written in another order than the engine's showdown order (T 8-3): the
  // outcome does not depend on it, so a refused one waits and is retried after the next actions.
  const waiting: number[] = [];
  const applyAt = (i: number): Failure | null => {
    const action = translate(state, actions[i], scale, spare);
    if (action === null) return null;
    if (typeof action === 'string') return fail(action, { actionIndex: i, rule: 'R-SHOWDOWN' });
    if (action.type === 'deal' && action.seat !== null && action.cards.length > state.stub) {
      // R-DEAL: the stub cannot serve this draw, so the earlier discards were reshuffled into it
      // (PHH does not write the reshuffle; issue 14 item 8a). Refused unless a reshuffle is due.
      const reshuffled = apply(state, { type: 'reshuffle' });
      if (reshuffled.ok) state = reshuffled.state;
    }
    const r = apply(state, action);
    if (!r.ok) return fail(r.reason, { actionIndex: i, rule: r.rule });
    state = r.state;
    return null;
  };
  const retryWaiting = (): void => {
    let progress = true;
    while (progress && waiting.length > 0) {
      progress = false;
      for (let k = 0; k < waiting.length; k++) {
        if (applyAt(waiting[k]) === null) {
          waiting.splice(k, 1);
          progress = true;
          break;
        }
      }
    }
  };

  const notes = start.notes;
  let stoppedAt: number | null = null;
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i];
    if (a.type === 'show-muck' && translate(state, a, scale, spare) === UNKNOWN_SHOWDOWN) {
      // The record ends what it can tell here: the actions so far were all checked.
      stoppedAt = i;
      notes.push(`stopped at action ${i + 1} '${hand.actions[i]}': ${UNKNOWN_SHOWDOWN}`);
      break;
    }
    if (state.phase === 'done' && a.type !== 'no-op') {
      // pokerkit records shows after a hand that the engine already settled (T 8-6: the last
      // hand standing need not show): they change nothing.
      if (a.type === 'show-muck') {
        // pokerkit shows again after an all-in runout: the cards must still be the hand's cards.
        const mismatch = reShowMismatch(state, a);
        if (mismatch !== null) return fail(mismatch, { actionIndex: i, rule: 'R-SHOWDOWN' });
        notes.push(`action ${i + 1} '${hand.actions[i]}' comes after the hand is settled: checked, no effect`);
        continue;
      }
      return fail('the hand is already over', { actionIndex: i, rule: 'R-ACTORDER' });
    }
    const failure = applyAt(i);
    if (failure !== null) {
      if (a.type === 'show-muck' && failure.rule === 'R-SHOWDOWN' && contender(state, a.playerIndex)) {
        waiting.push(i);
        notes.push(`action ${i + 1} '${hand.actions[i]}' waits for its turn in the showdown order (T 8-3)`);
        continue;
      }
      return failure;
    }
    retryWaiting();
  }
  retryWaiting();
  if (waiting.length > 0 && state.phase !== 'done' && stoppedAt === null) {
    const i = waiting[0];
    const r = applyAt(i);
    if (r !== null) return r;
  }

  const complete = state.phase === 'done';
  // Stacks after the last action; mid-hand, that is chips behind (standard, "Finishing Stacks").
  const finalUnits = state.seats.map((s) => s.stack);
  const finalStacks = finalUnits.map((u) => u / scale);
  if (hand.finishing_stacks !== undefined) {
    if (stoppedAt !== null) return fail(UNKNOWN_SHOWDOWN, { actionIndex: stoppedAt, rule: 'R-SHOWDOWN' });
    const expected = hand.finishing_stacks.map((x) => units(x, scale));
    if (expected.some((x, i) => x !== finalUnits[i])) {
      const next = complete ? '' : ` (the hand is not over: ${legalActions(state).next} pending)`;
      return fail(`final stacks differ from finishing_stacks${next}`, { expected: hand.finishing_stacks, actual: finalStacks });
    }
  }
  return { ok: true, finalStacks, stacksChecked: hand.finishing_stacks !== undefined, complete, notes };
}
