/**
 * Helpers for the engine's tests and the hands benchmark: a seeded PRNG, a dealer holding a shuffled
 * deck that serves what the engine asks for (including the Triple Draw reshuffle, R-DEAL), and a
 * random legal player. Not part of the package's public API (not exported from the barrel).
 */
import { parseCards, type Card } from '../cards';
import type { TableRules } from '../tableRules';
import { VARIANTS } from '../variants';
import { legalActions } from './legal';
import { apply, reshuffleCards, startHand } from './machine';
import type { Action, DealRequest, HandConfig, HandState, LegalActions, Refusal } from './types';
import { mulberry32 } from '../prng';

/** mulberry32 (shared/rules/prng.ts): a small, fast, seeded PRNG giving floats in [0, 1). */
export const prng = mulberry32;

export function randInt(rng: () => number, n: number): number {
  return Math.floor(rng() * n);
}

/** A shuffled 52-card deck served from the top; the stub is what is left. */
export class Dealer {
  readonly deck: Card[] = [];
  pos = 0;
  constructor(private readonly rng: () => number) {
    for (let c = 0; c < 52; c++) this.deck.push(c);
    this.shuffle(0);
  }
  /** Fisher-Yates over deck[from..]. */
  shuffle(from: number): void {
    const d = this.deck;
    for (let i = d.length - 1; i > from; i--) {
      const j = from + Math.floor(this.rng() * (i - from + 1));
      const t = d[i];
      d[i] = d[j];
      d[j] = t;
    }
  }
  take(n: number): Card[] {
    const out = this.deck.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** R-DEAL: the new stub is what is left of the old one plus the cards the engine names. */
  reshuffle(extra: readonly (Card | null)[]): void {
    const rest = this.deck.slice(this.pos);
    this.deck.length = 0;
    this.pos = 0;
    for (const c of rest) this.deck.push(c);
    for (const c of extra) if (c !== null) this.deck.push(c);
    this.shuffle(0);
  }
}

/** The dealer's next action for a `deal` step (a partial deal or a reshuffle when the stub is short). */
export function dealerAction(state: HandState, legal: LegalActions, dealer: Dealer, rng: () => number, split: boolean): Action {
  const req = legal.deal;
  if (req === null) throw new Error('no deal pending');
  if (req.reshuffle) {
    if (req.stub > 0 && rng() < 0.5) return { type: 'deal', seat: req.seat, cards: dealer.take(req.stub) };
    dealer.reshuffle(reshuffleCards(state));
    return { type: 'reshuffle' };
  }
  const n = split && req.count > 1 && rng() < 0.3 ? 1 : req.count;
  return { type: 'deal', seat: req.seat, cards: dealer.take(n) };
}

/** A random action among those `legalActions` offers (bets: min, max or in between). */
export function randomPlayerAction(state: HandState, legal: LegalActions, rng: () => number): Action {
  const seat = legal.seat as number;
  if (legal.next === 'show') {
    if (legal.muck && rng() < 0.3) return { type: 'muck', seat };
    return { type: 'show', seat };
  }
  if (legal.next === 'draw') {
    const max = (legal.draw as { max: number }).max;
    const k = randInt(rng, max + 1);
    const hole = state.seats[seat].hole.slice();
    const discards: (Card | null)[] = [];
    for (let i = 0; i < k; i++) discards.push(hole.splice(randInt(rng, hole.length), 1)[0]);
    return { type: 'draw', seat, discards };
  }
  const x = rng();
  if (legal.bringIn !== null) {
    if (legal.bet !== null && x < 0.3) return { type: 'bet', seat, to: legal.bet.min };
    return { type: 'bringIn', seat };
  }
  if (legal.bet !== null && x < 0.25) {
    const b = legal.bet;
    const y = rng();
    let to: number;
    if (b.exact) to = y < 0.5 ? b.min : b.max;
    else to = y < 0.4 ? b.min : y < 0.55 ? b.max : b.min + randInt(rng, b.max - b.min + 1);
    return { type: 'bet', seat, to };
  }
  if (legal.fold && x < 0.4) return { type: 'fold', seat };
  if (legal.call !== null) return { type: 'call', seat };
  if (legal.check) return { type: 'check', seat };
  return { type: 'fold', seat };
}

/** Plays one hand to the end with random legal actions; throws if the engine refuses one. */
export function playRandomHand(config: HandConfig, rng: () => number, onStep?: (s: HandState, a: Action) => void): HandState {
  let s = startHand(config);
  const dealer = new Dealer(rng);
  for (let steps = 0; steps < 10_000; steps++) {
    const legal = legalActions(s);
    if (legal.next === 'done') return s;
    const a = legal.next === 'deal' ? dealerAction(s, legal, dealer, rng, true) : randomPlayerAction(s, legal, rng);
    onStep?.(s, a);
    const r = apply(s, a);
    if (!r.ok) throw new Error(`refused ${JSON.stringify(a)}: ${r.rule} ${r.message}`);
    s = r.state;
  }
  throw new Error('the hand did not end in 10,000 steps');
}

// ---------------------------------------------------------------------------------------------
// Scripted hands for unit tests.

/** Cards from text (`AsKd`, `As Kd`); throws on a typo. */
export function cards(text: string): Card[] {
  const out = parseCards(text);
  if (out === null) throw new Error(`not cards: ${text}`);
  return out;
}

export interface TestTable {
  stacks: number[];
  button?: number | null;
  smallBlind?: number | null;
  bigBlind?: number | null;
  extraBigBlinds?: number[];
  deadSmallBlinds?: number[];
  dealtIn?: number[];
  /** Empty seats (their stacks are ignored). */
  empty?: number[];
}

/**
 * A configuration: blinds games default to the button on the last seat, blinds on seats 0 and 1
 * (heads-up: the button posts the small blind, T 6-19); Stud has no button.
 */
export function tableConfig(rules: TableRules, t: TestTable): HandConfig {
  const n = t.stacks.length;
  const stud = VARIANTS[rules.variant].forcedBets === 'ante-bring-in';
  const empty = new Set(t.empty ?? []);
  const seats = t.stacks.map((stack, i) => (empty.has(i) ? null : { player: `p${i}`, stack }));
  const present = seats.map((s, i) => (s === null ? -1 : i)).filter((i) => i >= 0);
  const button = stud ? null : t.button !== undefined ? t.button : n - 1;
  let dealtIn = t.dealtIn ?? present;
  if (button !== null && t.dealtIn === undefined) {
    // clockwise from left of the button
    dealtIn = [...present.filter((i) => i > button), ...present.filter((i) => i <= button)];
  }
  const headsUp = dealtIn.length === 2;
  return {
    rules,
    seats,
    plan: {
      button,
      smallBlind: stud ? null : t.smallBlind !== undefined ? t.smallBlind : headsUp ? button : dealtIn[0],
      bigBlind: stud ? null : t.bigBlind !== undefined ? t.bigBlind : headsUp ? dealtIn.find((s) => s !== button)! : dealtIn[1],
      extraBigBlinds: t.extraBigBlinds ?? [],
      deadSmallBlinds: t.deadSmallBlinds ?? [],
      dealtIn,
    },
  };
}

/**
 * One step in a tiny script language:
 *   `d 3 AsKs` deal to seat 3, `d b 2c3d4h` deal the board, `reshuffle`,
 *   `3 f` fold, `3 x` check, `3 c` call, `3 r 300` bet/raise/complete to 300, `3 bi` bring-in,
 *   `3 sd AsKs` discard (alone: stand pat), `3 sm` show (`3 sm AsKs` with cards), `3 mu` muck.
 */
export function parseStep(text: string): Action {
  const w = text.trim().split(/\s+/);
  if (w[0] === 'reshuffle') return { type: 'reshuffle' };
  if (w[0] === 'd') return { type: 'deal', seat: w[1] === 'b' ? null : Number(w[1]), cards: cards(w[2]) };
  const seat = Number(w[0]);
  switch (w[1]) {
    case 'f':
      return { type: 'fold', seat };
    case 'x':
      return { type: 'check', seat };
    case 'c':
      return { type: 'call', seat };
    case 'r':
      return { type: 'bet', seat, to: Number(w[2]) };
    case 'bi':
      return { type: 'bringIn', seat };
    case 'sd':
      return { type: 'draw', seat, discards: w[2] ? cards(w[2]) : [] };
    case 'sm':
      return w[2] ? { type: 'show', seat, cards: cards(w[2]) } : { type: 'show', seat };
    case 'mu':
      return { type: 'muck', seat };
  }
  throw new Error(`bad step: ${text}`);
}

/** Applies steps in order; throws with the refusal if one is refused. */
export function run(state: HandState, ...steps: (string | Action)[]): HandState {
  let s = state;
  for (const step of steps) {
    const a = typeof step === 'string' ? parseStep(step) : step;
    const r = apply(s, a);
    if (!r.ok) throw new Error(`step ${JSON.stringify(step)} refused: ${r.rule}: ${r.message}`);
    s = r.state;
  }
  return s;
}

/** Applies one step and returns the refusal (throws if it was accepted). */
export function refusal(state: HandState, step: string | Action): Refusal {
  const r = apply(state, typeof step === 'string' ? parseStep(step) : step);
  if (r.ok) throw new Error(`step ${JSON.stringify(step)} was accepted`);
  return r;
}

/** Cards not yet known to the state, highest codes first. */
function unused(s: HandState, n: number): Card[] {
  const out: Card[] = [];
  for (let c = 51; c >= 0 && out.length < n; c--) {
    const used = c < 26 ? s.usedLo & (1 << c) : s.usedHi & (1 << (c - 26));
    if (!used) out.push(c);
  }
  return out;
}

/**
 * Deals whatever the engine asks for, from `deck` in order (or else the highest unused cards),
 * until a player must decide.
 */
export function dealFrom(state: HandState, deck?: Card[]): HandState {
  let s = state;
  for (;;) {
    const legal = legalActions(s);
    if (legal.next !== 'deal') return s;
    const req = legal.deal as DealRequest;
    const r = apply(s, { type: 'deal', seat: req.seat, cards: deck ? deck.splice(0, req.count) : unused(s, req.count) });
    if (!r.ok) throw new Error(`deal refused: ${r.rule}: ${r.message}`);
    s = r.state;
  }
}

/** A deck in code order without the given cards (for `dealFrom` when the cards do not matter). */
export function deckWithout(...used: Card[][]): Card[] {
  const out: Card[] = [];
  const skip = new Set(used.flat());
  for (let c = 51; c >= 0; c--) if (!skip.has(c)) out.push(c);
  return out;
}
