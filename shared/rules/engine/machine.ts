/**
 * The hand state machine: `startHand`, `apply` and the transitions between phases (deal → draw →
 * bet → … → showdown → done). States are never mutated: `apply` copies the state object and its
 * seats array, and a seat object only when it changes (copy-on-write), so earlier states stay valid.
 *
 * Dealing is an action supplied from outside (R-DEAL): the engine keeps no deck, only what is owed
 * to whom, the stub size and which cards are known, to refuse duplicates (R-DECK).
 */
import { isCard, type Card } from '../cards';
import { hasHouseRule, validateTableRules } from '../tableRules';
import type { RoundName, Variant } from '../variants';
import { betBounds, fullRaiseTo, isBlock, liveCount } from './betting';
import { bringInSeat, nextSeat, openPairShowing, studFirstSeat } from './order';
import { ALL_DOWN, ALL_UP, appendCards, appendFlags, cloneSeat } from './seat';
import { liveCommitments, settle } from './settle';
import { variantOf } from './variant';
import type {
  Action,
  ApplyResult,
  BetAction,
  BringInAction,
  CallAction,
  CheckAction,
  DealAction,
  DrawAction,
  FoldAction,
  HandConfig,
  HandState,
  LogEntry,
  PostKind,
  Refusal,
  SeatState,
  ShowAction,
} from './types';

// ---------------------------------------------------------------------------------------------
// Copy-on-write. `apply` is synchronous and never re-entered, so module-level bookkeeping of which
// seats (and whether the log) were copied in the current transition is safe and allocation-free.

let touched = 0;
let logCopied = false;

// Explicit literals rather than object spread: one fixed shape, which V8 copies several times faster.
function begin(s: HandState): HandState {
  touched = 0;
  logCopied = false;
  return {
    variant: s.variant,
    rules: s.rules,
    plan: s.plan,
    players: s.players,
    stacksBefore: s.stacksBefore,
    handId: s.handId,
    viewer: s.viewer,
    phase: s.phase,
    street: s.street,
    seats: s.seats.slice(),
    board: s.board,
    boardOwed: s.boardOwed,
    pot: s.pot,
    currentBet: s.currentBet,
    lastIncrement: s.lastIncrement,
    lastFullLevel: s.lastFullLevel,
    fullBets: s.fullBets,
    capLocked: s.capLocked,
    bigBetAllowed: s.bigBetAllowed,
    bringInDue: s.bringInDue,
    toAct: s.toAct,
    roundFirst: s.roundFirst,
    aggressor: s.aggressor,
    stub: s.stub,
    discardPool: s.discardPool,
    usedLo: s.usedLo,
    usedHi: s.usedHi,
    showQueue: s.showQueue,
    allInShowdown: s.allInShowdown,
    log: s.log,
    result: s.result,
  };
}

/** The seat, copied once per transition so that it may be written. */
function w(ns: HandState, i: number): SeatState {
  const bit = 1 << i;
  if ((touched & bit) === 0) {
    ns.seats[i] = cloneSeat(ns.seats[i]);
    touched |= bit;
  }
  return ns.seats[i];
}

function log(ns: HandState, entry: LogEntry): void {
  if (logCopied) {
    ns.log.push(entry);
    return;
  }
  // The earlier state keeps its log, so appending means copying (a plain array cannot be shared
  // with a longer one). `toSpliced` (ES2023) makes the one exact-size copy with the entry appended,
  // in a single builtin that copies the elements as a block: measured faster than filling a
  // `new Array(n + 1)` element by element, and without the slack (a quarter more memory per hand)
  // that `slice` then a store past the end, or a spread, leave in the copy.
  ns.log = ns.log.toSpliced(ns.log.length, 0, entry);
  logCopied = true;
}

function refuse(rule: string, reason: string, extra?: { min?: number; max?: number; call?: number }): Refusal {
  return extra ? { ok: false, rule, reason, ...extra } : { ok: false, rule, reason };
}

function roundOf(ns: HandState): RoundName {
  return variantOf(ns.variant).streets[ns.street].round;
}

function isUsed(s: HandState, c: Card): boolean {
  return c < 26 ? (s.usedLo & (1 << c)) !== 0 : (s.usedHi & (1 << (c - 26))) !== 0;
}

function markUsed(ns: HandState, c: Card): void {
  if (c < 26) ns.usedLo |= 1 << c;
  else ns.usedHi |= 1 << (c - 26);
}

function unmarkUsed(ns: HandState, c: Card): void {
  if (c < 26) ns.usedLo &= ~(1 << c);
  else ns.usedHi &= ~(1 << (c - 26));
}

function inHand(st: SeatState['status']): boolean {
  return st === 'in' || st === 'allin';
}

// ---------------------------------------------------------------------------------------------
// Starting a hand

// Table rules objects already validated: a table starts every hand with the same rules object.
const validRules = new WeakSet<object>();

function isDealtSeat(mask: number, x: number | null): boolean {
  return x !== null && Number.isInteger(x) && x >= 0 && x < 31 && (mask & (1 << x)) !== 0;
}

/** Why this configuration cannot start a hand (a caller's bug), or null. */
export function checkHandConfig(config: HandConfig): Refusal | null {
  if (!validRules.has(config.rules)) {
    const rules = validateTableRules(config.rules);
    if (!rules.ok) return refuse(rules.rule, rules.reason);
    validRules.add(config.rules);
  }
  const v = variantOf(config.rules.variant);
  const seats = config.seats;
  const n = seats.length;
  if (n < 2 || n > v.maxSeats) return refuse('R-SEATS', `${v.code} is played at 2 to ${v.maxSeats} seats, not ${n}`);
  const plan = config.plan;
  const dealt = plan.dealtIn;
  if (dealt.length < 2) return refuse('R-ONEHAND', 'a hand needs at least two players dealt in');
  let mask = 0;
  for (let k = 0; k < dealt.length; k++) {
    const seat = dealt[k];
    if (!Number.isInteger(seat) || seat < 0 || seat >= n) return refuse('R-ONEHAND', `seat ${seat} is not a seat of this table`);
    if (mask & (1 << seat)) return refuse('R-ONEHAND', `seat ${seat} is dealt in twice`);
    mask |= 1 << seat;
    const sc = seats[seat];
    if (sc === null) return refuse('R-ONEHAND', `seat ${seat} is empty`);
    if (!Number.isSafeInteger(sc.stack) || sc.stack < 1) return refuse('R-NODEBT', `seat ${seat} has no chips to play`);
  }
  for (let i = 0; i < n; i++) {
    const sc = seats[i];
    if (sc !== null && (!Number.isSafeInteger(sc.stack) || sc.stack < 0)) return refuse('R-CONSERVE', `seat ${i}'s stack is not a whole number of chips`);
  }
  if (v.forcedBets === 'ante-bring-in') {
    if (plan.button !== null || plan.smallBlind !== null || plan.bigBlind !== null) {
      return refuse('R-FORCED', 'Stud has no button and no blinds');
    }
    if (plan.extraBigBlinds.length > 0 || plan.deadSmallBlinds.length > 0) return refuse('R-FORCED', 'Stud has no blinds');
  } else {
    if (plan.button === null || !Number.isInteger(plan.button) || plan.button < 0 || plan.button >= n) {
      return refuse('R-BUTTON', `${v.code} needs the button on a seat of the table`);
    }
    if (!isDealtSeat(mask, plan.bigBlind)) return refuse('R-FORCED', 'the big blind must be a player dealt in');
    if (plan.smallBlind !== null && (!isDealtSeat(mask, plan.smallBlind) || plan.smallBlind === plan.bigBlind)) {
      return refuse('R-FORCED', 'the small blind must be another player dealt in, or null when it is missing');
    }
    for (const seat of plan.extraBigBlinds) {
      if (!isDealtSeat(mask, seat) || seat === plan.bigBlind || seat === plan.smallBlind) {
        return refuse('R-BUTTON', `seat ${seat} cannot post an extra big blind`);
      }
    }
    for (const seat of plan.deadSmallBlinds) if (!isDealtSeat(mask, seat)) return refuse('R-BUTTON', `seat ${seat} cannot post a dead small blind`);
  }
  return null;
}

function emptySeat(status: SeatState['status'], stack: number): SeatState {
  return {
    status,
    stack,
    bet: 0,
    committed: 0,
    hole: [],
    up: [],
    owed: 0,
    acted: false,
    reopenAt: 0,
    drew: false,
    discards: [],
    shown: false,
    mucked: false,
  };
}

/**
 * Starts a hand: seats the players, posts the forced bets (antes, dead small blinds, blinds, extra
 * big blinds: R-FORCED, R-BUTTON) and waits for the first cards. Throws on a configuration that
 * `checkHandConfig` refuses (that is the table's bug, not a player's move).
 */
export function startHand(config: HandConfig): HandState {
  const bad = checkHandConfig(config);
  if (bad) throw new Error(`startHand: ${bad.rule}: ${bad.reason}`);
  const rules = config.rules;
  const v = variantOf(rules.variant);
  const plan = config.plan;
  const n = config.seats.length;
  const seats: SeatState[] = new Array(n);
  const players: (string | null)[] = new Array(n);
  const stacksBefore: number[] = new Array(n);
  let dealt = 0;
  for (const seat of plan.dealtIn) dealt |= 1 << seat;
  for (let i = 0; i < n; i++) {
    const sc = config.seats[i];
    players[i] = sc === null ? null : sc.player;
    stacksBefore[i] = sc === null ? 0 : sc.stack;
    seats[i] = emptySeat(sc === null ? 'empty' : dealt & (1 << i) ? 'in' : 'out', sc === null ? 0 : sc.stack);
  }
  const first = v.streets[0];
  const state: HandState = {
    variant: v.code,
    rules,
    plan,
    players,
    stacksBefore,
    handId: config.handId ?? null,
    viewer: null,
    phase: 'deal',
    street: 0,
    seats,
    board: [],
    boardOwed: first.board,
    pot: 0,
    currentBet: 0,
    lastIncrement: 0,
    lastFullLevel: 0,
    fullBets: 0,
    capLocked: false,
    bigBetAllowed: false,
    bringInDue: false,
    toAct: null,
    roundFirst: null,
    aggressor: null,
    stub: 52,
    discardPool: [],
    usedLo: 0,
    usedHi: 0,
    showQueue: [],
    allInShowdown: false,
    log: [],
    result: null,
  };
  touched = (1 << n) - 1; // every seat object above is fresh
  logCopied = true;

  // Antes first: everyone dealt in (R-FORCED), or the big blind alone for the table when the table
  // rule says so (a big-blind ante, tableRules.ts AntePayer).
  if (rules.ante > 0) {
    if (rules.anteBy === 'big-blind' && plan.bigBlind !== null) post(state, plan.bigBlind, 'ante', rules.ante);
    else for (const seat of plan.dealtIn) post(state, seat, 'ante', rules.ante);
  }
  if (v.forcedBets === 'blinds') {
    if (plan.smallBlind !== null) post(state, plan.smallBlind, 'small blind', rules.smallBlind);
    post(state, plan.bigBlind as number, 'big blind', rules.bigBlind);
    for (const seat of plan.extraBigBlinds) post(state, seat, 'big blind', rules.bigBlind);
    for (const seat of plan.deadSmallBlinds) post(state, seat, 'dead small blind', rules.smallBlind);
    // R-ALLIN: a big blind posted all-in for less still counts as the full big blind for the others;
    // it is the round's opening bet (cap count, minimum raise to twice it).
    state.currentBet = rules.bigBlind;
    state.lastIncrement = rules.bigBlind;
    state.lastFullLevel = rules.bigBlind;
    state.fullBets = 1;
  }
  for (const seat of plan.dealtIn) seats[seat].owed = first.hole.length;
  return state;
}

/** Posts a forced bet, all-in for less when the stack is short. Antes and dead blinds go to the pot. */
function post(ns: HandState, seat: number, kind: PostKind, amount: number): void {
  const p = w(ns, seat);
  const a = amount < p.stack ? amount : p.stack;
  if (a === 0) return;
  p.stack -= a;
  p.committed += a;
  if (kind === 'ante' || kind === 'dead small blind') ns.pot += a;
  else p.bet += a;
  if (p.stack === 0) p.status = 'allin';
  log(ns, { round: 'bet', kind: 'post', seat, post: kind, amount: a, allIn: p.stack === 0 });
}

// ---------------------------------------------------------------------------------------------
// Transitions

/** Seats in dealing order (clockwise from left of the button, as planned). */
function dealOrder(s: HandState): readonly number[] {
  return s.plan.dealtIn;
}

/** A player who may still bet must act: facing a bet, or not yet acted while someone could answer. */
function needsAction(s: HandState, i: number, canBet: number): boolean {
  const p = s.seats[i];
  return p.status === 'in' && (p.bet < s.currentBet || (!p.acted && canBet >= 2));
}

function countCanBet(s: HandState): number {
  let k = 0;
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].status === 'in') k++;
  return k;
}

/**
 * First seat from `start` (inclusive), clockwise, that must act; null when none. `canBet` is
 * `countCanBet(s)`, passed in when the caller has already counted it.
 */
function firstToAct(s: HandState, start: number, canBet: number = countCanBet(s)): number | null {
  const n = s.seats.length;
  for (let k = 0, i = start; k < n; k++, i = nextSeat(i, n)) if (needsAction(s, i, canBet)) return i;
  return null;
}

/** The street's cards are all dealt: draw, bring-in or betting comes next. */
function beginStreet(ns: HandState): void {
  const v = variantOf(ns.variant);
  const street = v.streets[ns.street];
  if (street.draw) {
    beginDraw(ns);
    return;
  }
  beginBetting(ns, v);
}

function beginBetting(ns: HandState, v: Variant): void {
  ns.phase = 'bet';
  ns.aggressor = null;
  const n = ns.seats.length;
  let start: number;
  if (v.family === 'stud') {
    const razz = v.evaluation === 'razz';
    if (ns.street === 0) {
      // R-FORCED: the lowest up-card (Razz: highest) posts the bring-in and may not pass.
      const seat = bringInSeat(ns, razz);
      if (ns.seats[seat].status === 'in') {
        ns.bringInDue = true;
        ns.toAct = seat;
        ns.roundFirst = seat;
        return;
      }
      start = nextSeat(seat, n); // the bring-in is all-in from the antes: the next player opens
    } else {
      if (ns.street === 1 && ns.rules.studOpenPairBigBet && openPairShowing(ns)) ns.bigBetAllowed = true;
      start = studFirstSeat(ns, razz); // R-ACTORDER, D art. 7 III
    }
  } else if (ns.street === 0) {
    start = nextSeat(ns.plan.bigBlind as number, n); // R-ACTORDER: left of the big blind pre-flop
  } else {
    start = nextSeat(ns.plan.button as number, n); // then left of the button
  }
  const first = firstToAct(ns, start);
  ns.roundFirst = first ?? start;
  ns.toAct = first;
  if (first === null) endRound(ns);
}

function beginDraw(ns: HandState): void {
  ns.phase = 'draw';
  const seats = ns.seats;
  let pool: (Card | null)[] | null = null;
  for (let i = 0; i < seats.length; i++) {
    const p = seats[i];
    if (p.discards.length > 0) {
      // R-DEAL: the previous round's discards join the pool that a reshuffle may use.
      pool = appendCards(pool ?? ns.discardPool, p.discards);
      w(ns, i).discards = [];
    }
    if (inHand(p.status) && p.drew) w(ns, i).drew = false;
  }
  if (pool !== null) ns.discardPool = pool;
  ns.toAct = nextDrawer(ns, ns.plan.button as number);
  if (ns.toAct === null) beginBetting(ns, variantOf(ns.variant));
}

/** Next player after `from` (exclusive) still to choose discards; all-in players draw too. */
function nextDrawer(s: HandState, from: number): number | null {
  const n = s.seats.length;
  for (let k = 0, i = nextSeat(from, n); k < n; k++, i = nextSeat(i, n)) {
    const p = s.seats[i];
    if (inHand(p.status) && !p.drew) return i;
  }
  return null;
}

function drawDone(s: HandState): boolean {
  if (s.toAct !== null) return false;
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].owed > 0) return false;
  return true;
}

/**
 * The betting round is over: return the uncalled part of the top bet (R-UNCALLED, D art. 9), gather
 * the bets, then settle, go to showdown or to the next street.
 */
function endRound(ns: HandState): void {
  const seats = ns.seats;
  const n = seats.length;
  let top = -1;
  let topBet = 0;
  let second = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const b = seats[i].bet;
    sum += b;
    if (b > topBet) {
      second = topBet;
      topBet = b;
      top = i;
    } else if (b > second) {
      second = b;
    }
  }
  if (top >= 0 && topBet > second) {
    const back = topBet - second;
    const p = w(ns, top);
    p.stack += back;
    p.bet -= back;
    p.committed -= back;
    if (p.status === 'allin') p.status = 'in';
    sum -= back;
    log(ns, { round: roundOf(ns), kind: 'return', seat: top, amount: back });
  }
  ns.pot += sum;
  for (let i = 0; i < n; i++) {
    const p = seats[i];
    // Folded and all-in players never act again: their round flags may stay as they are.
    if (p.bet !== 0 || (p.status === 'in' && (p.acted || p.reopenAt !== 0))) {
      const q = w(ns, i);
      q.bet = 0;
      q.acted = false;
      q.reopenAt = 0;
    }
  }
  ns.currentBet = 0;
  ns.lastIncrement = 0;
  ns.lastFullLevel = 0;
  ns.fullBets = 0;
  ns.capLocked = false;
  ns.bigBetAllowed = false;
  ns.bringInDue = false;
  ns.toAct = null;

  // Players still in the hand, and those of them who may still bet, in one pass.
  let live = 0;
  let canBet = 0;
  for (let i = 0; i < n; i++) {
    const st = seats[i].status;
    if (st === 'in') canBet++;
    else if (st !== 'allin') continue;
    live++;
  }
  if (live <= 1) {
    finish(ns, false);
    return;
  }
  // T 8-4: no more betting is possible (all, or all but one, are all-in): hands are shown at once.
  if (!ns.allInShowdown && canBet <= 1) {
    ns.allInShowdown = true;
    ns.showQueue = showOrderFrom(ns, ns.plan.button ?? n - 1, true);
  }
  const v = variantOf(ns.variant);
  if (ns.street === v.streets.length - 1) {
    beginShowdown(ns);
    return;
  }
  ns.street++;
  const street = v.streets[ns.street];
  ns.boardOwed = street.board;
  if (street.hole.length > 0) {
    for (let i = 0; i < n; i++) if (inHand(seats[i].status)) w(ns, i).owed = street.hole.length;
  }
  if (street.hole.length === 0 && street.board === 0) beginStreet(ns);
  else ns.phase = 'deal';
}

/** Contenders clockwise starting at `start` (inclusive when `after` is false). */
function showOrderFrom(s: HandState, start: number, after: boolean): number[] {
  const n = s.seats.length;
  const out: number[] = [];
  for (let k = 0, i = after ? nextSeat(start, n) : start; k < n; k++, i = nextSeat(i, n)) {
    const p = s.seats[i];
    if (inHand(p.status) && !p.shown && !p.mucked) out.push(i);
  }
  return out;
}

/**
 * R-SHOWDOWN, T 8-3: the last aggressor of the last round shows first (else the first to act in
 * it), then clockwise. All-in with no betting left: every hand is shown (T 8-4), in any order.
 */
function beginShowdown(ns: HandState): void {
  ns.phase = 'showdown';
  ns.toAct = null;
  if (ns.allInShowdown) {
    ns.showQueue = showOrderFrom(ns, ns.plan.button ?? ns.seats.length - 1, true);
  } else {
    const start = ns.aggressor ?? ns.roundFirst ?? 0;
    ns.showQueue = showOrderFrom(ns, start, false);
  }
  advanceShowdown(ns);
}

/**
 * Another contender has not mucked and put in, live, at least `atLeast` (dead money aside: a big-blind
 * ante or a dead small blind contests no level of its own, R-POTS). None other means the seat wins
 * without showing (T 8-6).
 */
function othersUnmucked(s: HandState, seat: number, atLeast: number, live: readonly number[] | null = null): boolean {
  const seats = s.seats;
  for (let i = 0; i < seats.length; i++) {
    if (i === seat) continue;
    const p = seats[i];
    if (inHand(p.status) && !p.mucked && (live === null ? p.committed : live[i]) >= atLeast) return true;
  }
  return false;
}

function advanceShowdown(ns: HandState): void {
  if (!ns.allInShowdown) {
    // T 8-6: when every other hand is mucked, the last one wins without showing.
    while (ns.showQueue.length > 0 && !othersUnmucked(ns, ns.showQueue[0], 0)) ns.showQueue = ns.showQueue.slice(1);
  }
  if (ns.showQueue.length === 0 && ns.phase === 'showdown') finish(ns, true);
}

/** Settles the hand and records the uncalled returns in the result. */
function finish(ns: HandState, showdown: boolean): void {
  ns.phase = 'done';
  ns.toAct = null;
  ns.showQueue = [];
  const result = settle(ns, showdown);
  for (const e of ns.log) if (e.kind === 'return') result.uncalled.push({ seat: e.seat, amount: e.amount, round: e.round });
  ns.result = result;
}

// ---------------------------------------------------------------------------------------------
// Actions

/**
 * Applies one action. Returns the next state, or a refusal naming the rule (the state is unchanged).
 */
export function apply(state: HandState, action: Action): ApplyResult {
  if (action === null || typeof action !== 'object') return refuse('R-TERMS', 'not an action');
  if (state.phase === 'done') return refuse('R-ACTORDER', 'the hand is over');
  switch (action.type) {
    case 'deal':
      return applyDeal(state, action);
    case 'reshuffle':
      return applyReshuffle(state);
    case 'show':
      return applyShow(state, action);
    case 'muck':
      return applyMuck(state, action.seat);
    case 'draw':
      return applyDraw(state, action);
    case 'fold':
    case 'check':
    case 'call':
    case 'bet':
    case 'bringIn':
      return applyBetting(state, action);
    default:
      return refuse('R-TERMS', `unknown action ${String((action as { type?: unknown }).type)}`);
  }
}

function badSeat(s: HandState, seat: unknown): boolean {
  return typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= s.seats.length;
}

function applyDeal(state: HandState, a: DealAction): ApplyResult {
  const cards = a.cards;
  if (!Array.isArray(cards) || cards.length === 0) return refuse('R-DEAL', 'a deal gives at least one card');
  const v = variantOf(state.variant);
  const street = v.streets[state.street];
  let ups: boolean[];
  if (a.seat === null) {
    if (state.phase !== 'deal' || state.boardOwed === 0) return refuse('R-DEAL', 'no board card is due now');
    if (cards.length > state.boardOwed) return refuse('R-DEAL', `only ${state.boardOwed} board card(s) are due`, { max: state.boardOwed });
    ups = cards.length <= 7 ? ALL_UP[cards.length] : new Array<boolean>(cards.length).fill(true);
  } else {
    if (badSeat(state, a.seat)) return refuse('R-DEAL', `seat ${String(a.seat)} is not a seat of this table`);
    const p = state.seats[a.seat];
    if (p.owed === 0 || (state.phase !== 'deal' && state.phase !== 'draw')) {
      return refuse('R-DEAL', `no card is due to seat ${a.seat} now`);
    }
    if (cards.length > p.owed) return refuse('R-DEAL', `only ${p.owed} card(s) are due to seat ${a.seat}`, { max: p.owed });
    const from = street.hole.length - p.owed;
    // T 8-4: a hand already shown in an all-in runout gets its later cards face up.
    const shown = p.shown;
    let anyUp = false;
    for (let k = 0; k < cards.length; k++) if (state.phase === 'deal' && (shown || street.hole[from + k] === 'up')) anyUp = true;
    if (!anyUp && cards.length <= 7) {
      ups = ALL_DOWN[cards.length];
    } else {
      ups = new Array<boolean>(cards.length);
      for (let k = 0; k < cards.length; k++) ups[k] = state.phase === 'deal' && (shown || street.hole[from + k] === 'up');
    }
  }
  if (cards.length > state.stub) {
    return refuse('R-DEAL', `the stub holds ${state.stub} card(s): reshuffle the earlier discards first`, { max: state.stub });
  }
  let seenLo = 0;
  let seenHi = 0;
  for (let k = 0; k < cards.length; k++) {
    const c = cards[k];
    if (c === null) {
      if (ups[k]) return refuse('R-DEAL', 'a face-up card is seen by everyone: it must be given');
      continue;
    }
    if (!isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
    const dup = c < 26 ? seenLo & (1 << c) : seenHi & (1 << (c - 26));
    if (dup !== 0 || isUsed(state, c)) return refuse('R-DECK', `card ${c} is already dealt: one 52-card deck`);
    if (c < 26) seenLo |= 1 << c;
    else seenHi |= 1 << (c - 26);
  }
  const ns = begin(state);
  ns.usedLo |= seenLo;
  ns.usedHi |= seenHi;
  ns.stub -= cards.length;
  const dealt = cards.slice();
  // Whether this deal served everything it was for: only then can the step be complete.
  let served: boolean;
  if (a.seat === null) {
    ns.board = appendCards(ns.board, dealt) as Card[];
    ns.boardOwed -= cards.length;
    served = ns.boardOwed === 0;
  } else {
    const p = w(ns, a.seat);
    p.hole = appendCards(p.hole, dealt);
    p.up = appendFlags(p.up, ups);
    p.owed -= cards.length;
    served = p.owed === 0;
  }
  log(ns, { round: street.round, kind: 'deal', seat: a.seat, cards: dealt, up: ups });
  if (!served) return { ok: true, state: ns };
  if (ns.phase === 'deal') {
    if (ns.boardOwed === 0 && allDealt(ns)) {
      if (ns.allInShowdown && ns.street === v.streets.length - 1) beginShowdown(ns);
      else if (ns.allInShowdown) endRound(ns);
      else beginStreet(ns);
    }
  } else if (drawDone(ns)) {
    beginBetting(ns, v);
  }
  return { ok: true, state: ns };
}

function allDealt(s: HandState): boolean {
  for (let i = 0; i < s.seats.length; i++) if (s.seats[i].owed > 0) return false;
  return true;
}

/**
 * R-DEAL: the cards a reshuffle puts into the new stub, besides what is left of the old one: the
 * discards of earlier draw rounds; and, only when those cannot serve the waiting draw (the first
 * draw of a full table), this round's discards of players already served (our reading: the rule
 * cannot otherwise be met; never the discards of a player still waiting for cards). The dealer
 * calls it before applying `reshuffle`, shuffles these cards with the rest of its stub, and deals on.
 * Empty when no reshuffle is due.
 */
export function reshuffleCards(state: HandState): (Card | null)[] {
  const need = waitingDraw(state);
  if (state.phase !== 'draw' || need <= state.stub) return [];
  const out = state.discardPool.slice();
  if (state.stub + out.length < need) {
    for (const p of state.seats) if (p.owed === 0 && p.discards.length > 0) out.push(...p.discards);
  }
  return out;
}

/** Cards owed to the next seat to serve in a draw (the first in dealing order still owed). */
function waitingDraw(s: HandState): number {
  for (const seat of dealOrder(s)) if (s.seats[seat].owed > 0) return s.seats[seat].owed;
  return 0;
}

function applyReshuffle(state: HandState): ApplyResult {
  if (state.phase !== 'draw' || waitingDraw(state) <= state.stub) {
    return refuse('R-DEAL', 'the stub can serve the draw: no reshuffle now');
  }
  const cards = reshuffleCards(state);
  const ns = begin(state);
  const fromPool = Math.min(cards.length, state.discardPool.length);
  for (const c of cards) if (c !== null) unmarkUsed(ns, c);
  ns.discardPool = [];
  if (cards.length > fromPool) {
    for (let i = 0; i < ns.seats.length; i++) {
      const p = ns.seats[i];
      if (p.owed === 0 && p.discards.length > 0) w(ns, i).discards = [];
    }
  }
  ns.stub += cards.length;
  log(ns, { round: roundOf(ns), kind: 'reshuffle', stub: ns.stub });
  return { ok: true, state: ns };
}

function applyDraw(state: HandState, a: DrawAction): ApplyResult {
  if (state.phase !== 'draw') return refuse('R-ACTORDER', 'no draw now');
  if (badSeat(state, a.seat) || a.seat !== state.toAct) {
    return refuse('R-ACTORDER', `it is seat ${String(state.toAct)}'s turn to draw`);
  }
  const p = state.seats[a.seat];
  const discards = a.discards;
  if (!Array.isArray(discards) || discards.length > p.hole.length) {
    return refuse('R-DEAL', `discard between 0 and ${p.hole.length} cards`, { min: 0, max: p.hole.length });
  }
  // Each discard takes the first card of the hand still there that is it, else the first unknown card
  // of this view. Positions taken are marked in a bit set (a hand holds at most 7 cards), and the
  // hand is rebuilt once, rather than spliced per discard.
  const held = p.hole;
  let taken = 0;
  for (let k = 0; k < discards.length; k++) {
    const c = discards[k];
    if (c !== null && !isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
    let at = -1;
    if (c !== null) {
      for (let i = 0; i < held.length; i++) {
        if ((taken & (1 << i)) === 0 && held[i] === c) {
          at = i;
          break;
        }
      }
    }
    if (at < 0) {
      for (let i = 0; i < held.length; i++) {
        if ((taken & (1 << i)) === 0 && held[i] === null) {
          at = i; // an unknown card of this view
          break;
        }
      }
    }
    if (at < 0) return refuse('R-DEAL', `card ${String(c)} is not in seat ${a.seat}'s hand`);
    taken |= 1 << at;
  }
  const hole = new Array<Card | null>(held.length - discards.length);
  const up = new Array<boolean>(hole.length);
  for (let i = 0, j = 0; i < held.length; i++) {
    if ((taken & (1 << i)) !== 0) continue;
    hole[j] = held[i];
    up[j++] = p.up[i];
  }
  const ns = begin(state);
  const q = w(ns, a.seat);
  q.hole = hole;
  q.up = up;
  q.discards = discards.slice();
  q.owed = discards.length;
  q.drew = true;
  for (let k = 0; k < discards.length; k++) {
    const c = discards[k];
    if (c !== null) markUsed(ns, c); // discards stay out this round (R-DEAL)
  }
  log(ns, { round: roundOf(ns), kind: 'discard', seat: a.seat, cards: discards.slice() });
  ns.toAct = nextDrawer(ns, a.seat);
  if (drawDone(ns)) beginBetting(ns, variantOf(ns.variant));
  return { ok: true, state: ns };
}

function applyBetting(state: HandState, a: FoldAction | CheckAction | CallAction | BetAction | BringInAction): ApplyResult {
  if (state.phase !== 'bet') {
    return refuse('R-ACTORDER', state.phase === 'deal' ? 'cards must be dealt first' : `no betting now (${state.phase})`);
  }
  const seat = a.seat;
  if (badSeat(state, seat) || seat !== state.toAct) {
    return refuse('R-ACTORDER', `it is seat ${String(state.toAct)}'s turn (R-ONEHAND: a player acts only from their seat, in turn)`);
  }
  const p = state.seats[seat];
  const toCall = state.currentBet - p.bet;
  const callCost = toCall < p.stack ? toCall : p.stack;
  if (state.bringInDue && a.type !== 'bringIn' && a.type !== 'bet') {
    return refuse('R-FORCED', 'the bring-in may not pass: post the bring-in or complete (D art. 7 III)');
  }
  switch (a.type) {
    case 'fold': {
      if (toCall <= 0) return refuse('R-TERMS', 'nothing to call: check rather than fold');
      const ns = begin(state);
      const q = w(ns, seat);
      q.status = 'folded';
      q.acted = true;
      log(ns, { round: roundOf(ns), kind: 'fold', seat });
      return afterAction(ns, seat);
    }
    case 'check': {
      if (toCall > 0) return refuse('R-TERMS', `a check cannot answer a bet: call ${callCost} or fold`, { call: callCost });
      const ns = begin(state);
      w(ns, seat).acted = true;
      log(ns, { round: roundOf(ns), kind: 'check', seat });
      return afterAction(ns, seat);
    }
    case 'call': {
      if (toCall <= 0) return refuse('R-TERMS', 'nothing to call: check');
      const ns = begin(state);
      const q = w(ns, seat);
      q.stack -= callCost;
      q.bet += callCost;
      q.committed += callCost;
      q.acted = true;
      if (q.stack === 0) q.status = 'allin';
      log(ns, { round: roundOf(ns), kind: 'call', seat, amount: callCost, allIn: q.stack === 0 });
      return afterAction(ns, seat);
    }
    case 'bringIn': {
      if (!state.bringInDue) return refuse('R-FORCED', 'no bring-in is due');
      const r = state.rules;
      const amount = r.bringIn < p.stack ? r.bringIn : p.stack;
      const ns = begin(state);
      const q = w(ns, seat);
      q.stack -= amount;
      q.bet += amount;
      q.committed += amount;
      q.acted = true;
      if (q.stack === 0) q.status = 'allin';
      ns.bringInDue = false;
      // Our reading (as for the big blind, R-ALLIN): a bring-in posted all-in for less still sets
      // the full bring-in for the others.
      ns.currentBet = r.bringIn;
      if (r.bringIn >= r.smallBet) {
        // A bring-in of a full small bet is the round's opening bet.
        ns.fullBets = 1;
        ns.lastIncrement = r.bringIn;
        ns.lastFullLevel = r.bringIn;
      }
      log(ns, { round: roundOf(ns), kind: 'bring-in', seat, amount, allIn: q.stack === 0 });
      return afterAction(ns, seat);
    }
    case 'bet':
      return applyBet(state, a, seat, p);
  }
}

function applyBet(state: HandState, a: BetAction, seat: number, p: SeatState): ApplyResult {
  const b = betBounds(state, seat);
  if (isBlock(b)) return refuse(b.rule, b.reason);
  const to = a.to;
  if (typeof to !== 'number' || !Number.isSafeInteger(to)) {
    return refuse('R-CONSERVE', 'an amount is a whole number of chips', { min: b.min, max: b.max });
  }
  const r = state.rules;
  const allInTo = p.bet + p.stack;
  if (to > allInTo) return refuse(r.structure === 'no-limit' ? 'R-NL' : 'R-NODEBT', `at most ${allInTo}: all the chips on the table`, { min: b.min, max: b.max });
  const bad = b.exact ? to !== b.min && to !== b.max : to < b.min || to > b.max;
  if (bad) {
    let rule: string;
    if (state.bringInDue || b.kind === 'complete') rule = r.structure === 'limit' ? 'R-LIMIT' : 'R-FORCED';
    else if (r.structure === 'limit') rule = 'R-LIMIT';
    else if (to > b.max) rule = r.structure === 'pot-limit' ? 'R-PL' : 'R-NL';
    else rule = 'R-MINRAISE';
    const range = b.min === b.max ? `${b.min}` : b.exact ? `${b.min} or ${b.max}` : `${b.min} to ${b.max}`;
    return refuse(rule, `${b.kind} to ${range}${b.min === allInTo ? ' (all-in)' : ''}, not ${to}`, { min: b.min, max: b.max });
  }
  const kind = b.kind;
  const fullTo = state.bringInDue ? r.smallBet : fullRaiseTo(state);
  const ns = begin(state);
  const q = w(ns, seat);
  const added = to - q.bet;
  q.stack -= added;
  q.bet = to;
  q.committed += added;
  q.acted = true;
  if (q.stack === 0) q.status = 'allin';
  if (to >= fullTo) {
    // A full bet or raise (R-MINRAISE): it reopens the betting and counts toward the cap.
    const base = r.structure === 'limit' && ns.fullBets === 0 ? 0 : ns.currentBet;
    if (to - base > ns.lastIncrement) ns.lastIncrement = to - base;
    ns.lastFullLevel = to;
    ns.fullBets++;
    if (r.cap !== null && ns.fullBets >= r.cap && liveCount(ns) > 2) ns.capLocked = true;
  }
  ns.bringInDue = false;
  ns.currentBet = to;
  ns.aggressor = seat;
  log(ns, { round: roundOf(ns), kind, seat, amount: added, to, allIn: q.stack === 0 });
  return afterAction(ns, seat);
}

/** After a betting action: note when the actor may raise again, then pass the action on. */
function afterAction(ns: HandState, seat: number): ApplyResult {
  const seats = ns.seats;
  const q = seats[seat];
  if (q.status === 'in') q.reopenAt = fullRaiseTo(ns); // R-ALLIN, T 7-19
  // Players still in the hand, and those of them who may still bet, in one pass.
  let live = 0;
  let canBet = 0;
  for (let i = 0; i < seats.length; i++) {
    const st = seats[i].status;
    if (st === 'in') canBet++;
    else if (st !== 'allin') continue;
    live++;
  }
  if (live <= 1) {
    endRound(ns);
    return { ok: true, state: ns };
  }
  const next = firstToAct(ns, nextSeat(seat, seats.length), canBet);
  ns.toAct = next;
  if (next === null) endRound(ns);
  return { ok: true, state: ns };
}

// ---------------------------------------------------------------------------------------------
// Showdown

function showsOpen(s: HandState): boolean {
  if (s.phase === 'showdown') return true;
  // All-in runout (T 8-4): shown before the remaining cards, once no decision is left (draws are
  // decisions, so Triple Draw shows after the last draw).
  return s.allInShowdown && s.phase === 'deal' && variantOf(s.variant).family !== 'draw';
}

function applyShow(state: HandState, a: ShowAction): ApplyResult {
  if (!showsOpen(state)) return refuse('R-SHOWDOWN', 'hands are shown at the showdown');
  const seat = a.seat;
  if (badSeat(state, seat) || !state.showQueue.includes(seat)) return refuse('R-SHOWDOWN', `seat ${String(seat)} has nothing to show now`);
  if (!state.allInShowdown && state.showQueue[0] !== seat) {
    return refuse('R-SHOWDOWN', `seat ${state.showQueue[0]} shows or mucks first (T 8-3)`);
  }
  const p = state.seats[seat];
  let hole = p.hole;
  const unknown = hole.indexOf(null) >= 0;
  if (a.cards !== undefined) {
    const cards = a.cards;
    if (!Array.isArray(cards) || cards.length !== hole.length) return refuse('R-SHOWDOWN', `show all ${hole.length} cards`);
    const fresh: Card[] = [];
    for (const c of cards) {
      if (!isCard(c)) return refuse('R-CARDCODE', `${String(c)} is not a card code (0..51)`);
      if (!hole.includes(c)) fresh.push(c);
    }
    for (const c of hole) if (c !== null && !cards.includes(c)) return refuse('R-SHOWDOWN', `card ${c} of the hand is missing`);
    let nulls = 0;
    for (const c of hole) if (c === null) nulls++;
    if (fresh.length !== nulls) return refuse('R-SHOWDOWN', 'the cards shown are not the cards dealt');
    for (let i = 0; i < fresh.length; i++) {
      if (isUsed(state, fresh[i]) || fresh.indexOf(fresh[i]) !== i) return refuse('R-DECK', `card ${fresh[i]} is already known elsewhere`);
    }
    if (fresh.length > 0) {
      hole = hole.slice();
      let k = 0;
      for (let i = 0; i < hole.length; i++) if (hole[i] === null) hole[i] = fresh[k++];
    }
  } else if (unknown) {
    return refuse('R-SHOWDOWN', "this state does not know the hand's cards: give them");
  }
  const ns = begin(state);
  const q = w(ns, seat);
  if (hole !== p.hole) {
    q.hole = hole;
    for (const c of hole) markUsed(ns, c as Card);
  }
  q.shown = true;
  const old = ns.showQueue;
  const queue: number[] = [];
  for (let i = 0; i < old.length; i++) if (old[i] !== seat) queue.push(old[i]);
  ns.showQueue = queue;
  log(ns, { round: 'reveal', kind: 'show', seat, cards: hole.slice() });
  advanceShowdown(ns);
  return { ok: true, state: ns };
}

/**
 * R-SHOWDOWN, T 8-5: a hand may be mucked, unless it is all-in showdown, the last claim on a pot, or
 * a Stud showdown, where every player still in opens their hidden cards (D art. 7 III; recorded
 * hands of games that let a loser muck replay with the `stud-muck` house rule).
 */
export function mayMuck(s: HandState, seat: number): boolean {
  if (s.allInShowdown) return false;
  if (studShowsAll(s)) return false;
  const { live } = liveCommitments(s);
  return othersUnmucked(s, seat, live[seat], live);
}

/** D art. 7 III: "Tous les joueurs ouvrent ensuite leurs trois cartes privatives fermées". */
function studShowsAll(s: HandState): boolean {
  return variantOf(s.variant).forcedBets === 'ante-bring-in' && !hasHouseRule(s.rules, 'stud-muck');
}

function applyMuck(state: HandState, seat: number): ApplyResult {
  if (state.phase !== 'showdown') return refuse('R-SHOWDOWN', 'hands are mucked at the showdown');
  if (badSeat(state, seat) || state.showQueue[0] !== seat) {
    return refuse('R-SHOWDOWN', `seat ${String(state.showQueue[0])} shows or mucks first (T 8-3)`);
  }
  if (state.allInShowdown) return refuse('R-SHOWDOWN', 'all-in with no betting left: every hand is shown (T 8-4)');
  if (studShowsAll(state)) return refuse('R-SHOWDOWN', 'at a Stud showdown every player opens their hidden cards (D art. 7 III)');
  if (!mayMuck(state, seat)) return refuse('R-SHOWDOWN', 'no one else claims a pot this hand is in: show it');
  const ns = begin(state);
  w(ns, seat).mucked = true;
  ns.showQueue = ns.showQueue.slice(1);
  log(ns, { round: 'reveal', kind: 'muck', seat });
  advanceShowdown(ns);
  return { ok: true, state: ns };
}

