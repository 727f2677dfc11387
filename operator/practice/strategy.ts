/**
 * A practice player's decisions (play-money tables only; labelled `practice` in every view). A simple,
 * sensible strategy for every variant, from what its own seat may see (`viewFor`): it never knows a
 * card its seat may not see.
 *
 * - Hand strength: Monte Carlo equity against up to three of the opponents still in the hand: their
 *   unseen cards and the cards still to come are drawn from the cards this seat has not seen, and
 *   hands are compared with the rules package's evaluators (high, Omaha, A-5 low 8, Razz, 2-7). In
 *   high/low games half the score comes from the high, half from the low (R-LOW8).
 * - Betting: bet or raise with a strong hand (and now and then as a bluff), call when the equity
 *   beats the price of the call, else check or fold. Sizes are within `legalActions` bounds: limit
 *   games bet the fixed amount; pot-limit and no-limit about two thirds of the pot.
 * - Triple Draw: keep distinct cards of rank 8 or lower (the ace is high), draw to the rest.
 * - Showdown: always show.
 */
import type { Card } from '../../shared/rules/cards';
import { eval27, evalHigh7, evalLow8, evalOmahaHigh, evalOmahaLow8, evalRazz } from '../../shared/rules/eval';
import { potTotal, type Action, type HandState, type LegalActions } from '../../shared/rules/engine';
import type { TableRules } from '../../shared/rules/tableRules';
import { VARIANTS, type Variant } from '../../shared/rules/variants';
import type { Brain } from '../tables/types';

const rankOf = (c: Card): number => (c >> 2) + 2;

/** High and low values of a complete hand ("higher is better"; low 0 = none), as the engine settles (R-HIGH, R-LOW8, R-RAZZ, R-27). */
export function handValue(v: Variant, rules: TableRules, hole: readonly Card[], board: readonly Card[]): { high: number; low: number } {
  switch (v.family) {
    case 'holdem':
      return { high: evalHigh7(hole[0], hole[1], board[0], board[1], board[2], board[3], board[4]), low: 0 };
    case 'omaha':
      return { high: evalOmahaHigh(hole, board), low: v.evaluation === 'high-low8' ? evalOmahaLow8(hole, board) : 0 };
    case 'stud':
      if (v.evaluation === 'razz') return { high: evalRazz(hole), low: 0 };
      return { high: evalHigh7(hole[0], hole[1], hole[2], hole[3], hole[4], hole[5], hole[6]), low: v.evaluation === 'high-low8' ? evalLow8(hole) : 0 };
    case 'draw':
      return { high: eval27(hole, rules.lowball27), low: 0 };
  }
}

function isKnown(s: HandState, c: Card): boolean {
  return c < 26 ? (s.usedLo & (1 << c)) !== 0 : (s.usedHi & (1 << (c - 26))) !== 0;
}

/**
 * Equity of `seat` in `view` (0..1): share of the pots it would win, on average, against up to three
 * opponents still in the hand, over `samples` random completions of what it cannot see.
 */
export function equity(view: HandState, seat: number, samples: number, rng: () => number): number {
  const v = VARIANTS[view.variant];
  const mine = view.seats[seat].hole;
  if (mine.some((c) => c === null)) throw new Error('a player knows its own cards');
  const opponents: number[] = [];
  for (let i = 0; i < view.seats.length && opponents.length < 3; i++) {
    const st = view.seats[i].status;
    if (i !== seat && (st === 'in' || st === 'allin')) opponents.push(i);
  }
  if (opponents.length === 0) return 1;
  const unseen: Card[] = [];
  for (let c = 0; c < 52; c++) {
    if (!isKnown(view, c) && !mine.includes(c) && !view.board.includes(c)) unseen.push(c);
  }
  const holeTarget = v.family === 'stud' ? 7 : v.privateCards;
  const hiLo = v.evaluation === 'high-low8';
  let score = 0;
  const deck = unseen.slice();
  const board: Card[] = [];
  const me: Card[] = [];
  const theirs: Card[] = [];
  for (let s = 0; s < samples; s++) {
    // A partial Fisher-Yates from the top of `deck` serves the cards this seat cannot see (no closure:
    // this loop is the practice players' hot path).
    let top = deck.length;
    board.length = 0;
    for (const c of view.board) board.push(c);
    while (board.length < v.boardCards) {
      const j = Math.floor(rng() * top);
      const c = deck[j];
      deck[j] = deck[--top];
      deck[top] = c;
      board.push(c);
    }
    me.length = 0;
    for (const c of mine) me.push(c as Card);
    while (me.length < holeTarget) {
      const j = Math.floor(rng() * top);
      const c = deck[j];
      deck[j] = deck[--top];
      deck[top] = c;
      me.push(c);
    }
    const my = handValue(v, view.rules, me, board);
    let bestHigh = my.high;
    let bestLow = my.low;
    let highTies = 1;
    let lowTies = my.low > 0 ? 1 : 0;
    let highLost = false;
    let lowLost = false;
    for (const o of opponents) {
      theirs.length = 0;
      const hole = view.seats[o].hole;
      for (let k = 0; k < holeTarget; k++) {
        const known = k < hole.length ? hole[k] : null;
        if (known !== null) {
          theirs.push(known);
          continue;
        }
        const j = Math.floor(rng() * top);
        const c = deck[j];
        deck[j] = deck[--top];
        deck[top] = c;
        theirs.push(c);
      }
      const val = handValue(v, view.rules, theirs, board);
      if (val.high > bestHigh) {
        highLost = true;
        bestHigh = val.high;
      } else if (val.high === my.high && !highLost) highTies++;
      if (hiLo && val.low > 0) {
        if (val.low > bestLow) {
          lowLost = true;
          bestLow = val.low;
        } else if (val.low === my.low && !lowLost) lowTies++;
      }
    }
    const high = highLost ? 0 : 1 / highTies;
    if (!hiLo) score += high;
    else if (bestLow === 0) score += high; // no low qualifies: the high takes all (R-LOW8)
    else score += high / 2 + (lowLost || my.low === 0 ? 0 : 1 / lowTies / 2);
  }
  return score / samples;
}

/** Triple Draw: the cards to throw: ranks above 8 (the ace is high in 2-7) and second cards of a rank. */
export function discardsFor(hole: readonly Card[], max: number): Card[] {
  const seen = new Set<number>();
  const out: Card[] = [];
  const sorted = hole.slice().sort((a, b) => rankOf(a) - rankOf(b));
  for (const c of sorted) {
    const r = rankOf(c);
    if (r > 8 || seen.has(r)) out.push(c);
    seen.add(r);
  }
  return out.slice(0, max);
}

export interface PracticeOptions {
  /** Random numbers in [0, 1) (not security-relevant: the player sees only its own view). */
  rng?: () => number;
  /** Monte Carlo samples per decision. */
  samples?: number;
}

export class PracticeBrain implements Brain {
  private readonly rng: () => number;
  private readonly samples: number;

  constructor(options: PracticeOptions = {}) {
    this.rng = options.rng ?? Math.random;
    this.samples = options.samples ?? 24;
  }

  decide(view: HandState, legal: LegalActions): Action {
    const seat = legal.seat as number;
    if (view.viewer !== seat) throw new Error('a practice player decides from its own view only');
    if (legal.next === 'show') return { type: 'show', seat };
    if (legal.next === 'draw') {
      const hole = view.seats[seat].hole as Card[];
      return { type: 'draw', seat, discards: discardsFor(hole, legal.draw?.max ?? 0) };
    }
    const e = equity(view, seat, this.samples, this.rng);
    const noise = (this.rng() - 0.5) * 0.1;
    const strength = e + noise;
    const pot = potTotal(view);
    const b = legal.bet;
    if (legal.bringIn !== null) return b && strength > 0.6 ? { type: 'bet', seat, to: b.min } : { type: 'bringIn', seat };
    if (legal.check) {
      if (b && (strength > 0.62 || this.rng() < 0.07)) return this.sized(view, legal, seat, pot, strength);
      return { type: 'check', seat };
    }
    const call = legal.call ?? 0;
    if (b && strength > 0.75) return this.sized(view, legal, seat, pot, strength);
    const price = call / (pot + call);
    if (strength > price + 0.05 || (call <= pot / 6 && strength > 0.3) || this.rng() < 0.04) return { type: 'call', seat };
    return { type: 'fold', seat };
  }

  /** A bet or raise within the bounds: the fixed amount in limit games, about two thirds of the pot otherwise. */
  private sized(view: HandState, legal: LegalActions, seat: number, pot: number, strength: number): Action {
    const b = legal.bet!;
    if (b.exact) return { type: 'bet', seat, to: b.min };
    const target = view.currentBet + Math.round((pot + (legal.call ?? 0)) * (0.5 + this.rng() * 0.3));
    const allIn = strength > 0.85 && view.rules.structure === 'no-limit' && this.rng() < 0.1;
    return { type: 'bet', seat, to: allIn ? b.max : Math.min(b.max, Math.max(b.min, target)) };
  }
}
