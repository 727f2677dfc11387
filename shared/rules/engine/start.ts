/**
 * Starting a hand: the configuration's checks (a caller's bug when refused), the seats, and the
 * forced bets posted before the first cards (R-FORCED, R-BUTTON).
 */
import { validateTableRules } from '../tableRules';
import { Draft, refuse } from './draft';
import type { HandConfig, HandState, PostKind, Refusal, SeatState } from './types';
import { variantOf } from './variant';

// Table rules objects already validated: a table starts every hand with the same rules object. The
// engine's one module-level object, and no transition's state: a memo of a pure check keyed by the
// rules object's identity, which changes no result unless a caller edits a rules object it already
// started a hand with. Checking the rules again at every hand costs about a tenth of the hands/s of
// the engine bench (measured).
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
  if (bad) throw new Error(`startHand: ${bad.rule}: ${bad.message}`);
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
  const d = new Draft(state, true); // every seat object above and the log are fresh

  // Antes first: everyone dealt in (R-FORCED), or the big blind alone for the table when the table
  // rule says so (a big-blind ante, tableRules.ts AntePayer).
  if (rules.ante > 0) {
    if (rules.anteBy === 'big-blind' && plan.bigBlind !== null) post(d, plan.bigBlind, 'ante', rules.ante);
    else for (const seat of plan.dealtIn) post(d, seat, 'ante', rules.ante);
  }
  if (v.forcedBets === 'blinds') {
    if (plan.smallBlind !== null) post(d, plan.smallBlind, 'small blind', rules.smallBlind);
    post(d, plan.bigBlind as number, 'big blind', rules.bigBlind);
    for (const seat of plan.extraBigBlinds) post(d, seat, 'big blind', rules.bigBlind);
    for (const seat of plan.deadSmallBlinds) post(d, seat, 'dead small blind', rules.smallBlind);
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
function post(d: Draft, seat: number, kind: PostKind, amount: number): void {
  const ns = d.state;
  const p = d.seat(seat);
  const a = amount < p.stack ? amount : p.stack;
  if (a === 0) return;
  p.stack -= a;
  p.committed += a;
  if (kind === 'ante' || kind === 'dead small blind') ns.pot += a;
  else p.bet += a;
  if (p.stack === 0) p.status = 'allin';
  d.log({ round: 'bet', kind: 'post', seat, post: kind, amount: a, allIn: p.stack === 0 });
}
