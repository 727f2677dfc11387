/**
 * The all-in adjusted result of a hand (R-RESULTS; definitions in docs/stats.md "All-in adjusted").
 *
 * When the betting of a Hold'em or Omaha hand ended with board cards still to come (somebody was
 * all-in) and every hand still in was shown, the hero's result is counted at the equity they had
 * when the last chips went in: for each pot the hero may win, its amount after rake times the hero's
 * expected part of it over every way the board could be completed, minus the chips the hero put in.
 * Flop and turn all-ins are enumerated exactly (at most C(45, 2) = 990 boards); pre-flop all-ins
 * (1.7 million boards in Hold'em, a million times 60 two-card choices in Omaha) use a fixed sample of
 * 1,000 boards drawn by a generator seeded with the hand's own cards, so the same hand always gives the
 * same figure. Stud and Triple Draw are not adjusted (their future cards are private, or chosen by
 * draws): `null`.
 */
import type { Card } from '../rules/cards';
import { evalHigh7, evalOmahaHigh, evalOmahaLow8 } from '../rules/eval';
import { mulberry32 } from '../rules/prng';
import type { HandRecord } from '../rules/record';
import { VARIANTS } from '../rules/variants';

/** Boards drawn for a pre-flop all-in (5 cards to come). */
export const PREFLOP_SAMPLE = 300;

export interface AllInEquity {
  /** The hero's expected part of the pots, in chips (not rounded). */
  expectedWon: number;
  /** Rounded expected won minus the chips the hero put in: the adjusted net. */
  adjustedNet: number;
  /** Board cards known when the last chips went in. */
  boardKnown: number;
  /** True when every completion was counted; false for a seeded sample. */
  exact: boolean;
}

const BETTING = new Set(['post', 'bring-in', 'fold', 'check', 'call', 'bet', 'raise', 'complete']);

/**
 * The hero's all-in equity in this hand, or null when the hand is not adjusted: not Hold'em/Omaha,
 * the hero folded or did not reach the showdown, betting did not end with cards to come, or a hand
 * still in is unknown.
 */
export function allInEquity(record: HandRecord, heroSeat: number): AllInEquity | null {
  const v = VARIANTS[record.variant];
  if (v.family !== 'holdem' && v.family !== 'omaha') return null;
  if (!record.showdown || record.board.length !== 5) return null;
  const hero = record.seats.find((s) => s.seat === heroSeat);
  if (hero === undefined || !hero.dealtIn || hero.folded) return null;
  // Board cards dealt before the last betting action.
  let last = -1;
  for (let i = 0; i < record.actions.length; i++) if (BETTING.has(record.actions[i].kind)) last = i;
  let known = 0;
  for (let i = 0; i < last; i++) {
    const a = record.actions[i];
    if (a.kind === 'deal' && a.seat === null) known += a.cards.length;
  }
  if (known >= 5) return null;
  // The live hands: every seat eligible for a pot the hero is in, all known.
  const pots = record.pots.filter((p) => p.eligible.includes(heroSeat));
  const live = new Set<number>();
  for (const p of pots) for (const s of p.eligible) live.add(s);
  const holes = new Map<number, Card[]>();
  const holeSize = v.privateCards;
  for (const s of live) {
    const seat = record.seats.find((x) => x.seat === s);
    if (seat === undefined || seat.cards.length !== holeSize || seat.cards.some((c) => c === null)) return null;
    holes.set(s, seat.cards as Card[]);
  }
  const board = record.board.slice(0, known);
  const used = new Set<Card>(board);
  for (const h of holes.values()) for (const c of h) used.add(c);
  const stub: Card[] = [];
  for (let c = 0; c < 52; c++) if (!used.has(c)) stub.push(c);
  const toCome = 5 - known;
  const hiLo = v.evaluation === 'high-low8';
  const omaha = v.family === 'omaha';
  // Seats as small indices: the hero's index, each pot's eligible indices (flat arrays, no Maps in the loop).
  const seats = [...live];
  const heroIdx = seats.indexOf(heroSeat);
  const cardsOf = seats.map((s) => holes.get(s) as Card[]);
  const potSeats = pots.map((p) => p.eligible.map((s) => seats.indexOf(s)));
  const hi = new Int32Array(seats.length);
  const lo = new Int32Array(seats.length);
  const full: Card[] = board.concat([0, 0, 0, 0, 0].slice(0, toCome));
  // Expected fraction of each pot the hero wins, summed over boards.
  const frac = new Float64Array(pots.length);
  let boards = 0;
  const score = (): void => {
    boards++;
    for (let k = 0; k < seats.length; k++) {
      const h = cardsOf[k];
      hi[k] = omaha ? evalOmahaHigh(h, full) : evalHigh7(h[0], h[1], full[0], full[1], full[2], full[3], full[4]);
      if (hiLo) lo[k] = evalOmahaLow8(h, full);
    }
    for (let k = 0; k < potSeats.length; k++) {
      const el = potSeats[k];
      const hiShare = share(el, hi, heroIdx);
      if (!hiLo) {
        frac[k] += hiShare;
        continue;
      }
      const loShare = share(el, lo, heroIdx);
      frac[k] += loShare < 0 ? hiShare : (hiShare + loShare) / 2;
    }
  };
  let exact = true;
  if (toCome <= 2) {
    const n = stub.length;
    if (toCome === 1) {
      for (let i = 0; i < n; i++) {
        full[4] = stub[i];
        score();
      }
    } else {
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          full[3] = stub[i];
          full[4] = stub[j];
          score();
        }
      }
    }
  } else {
    exact = false;
    let seed = 0x9e3779b9;
    for (const h of holes.values()) for (const c of h) seed = Math.imul(seed ^ c, 0x01000193) >>> 0;
    for (const c of board) seed = Math.imul(seed ^ (c + 64), 0x01000193) >>> 0;
    const rng = mulberry32(seed);
    const deck = stub.slice();
    for (let k = 0; k < PREFLOP_SAMPLE; k++) {
      // A partial Fisher-Yates: the first `toCome` cards of the stub, at random.
      for (let i = 0; i < toCome; i++) {
        const j = i + Math.floor(rng() * (deck.length - i));
        const t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        full[known + i] = deck[i];
      }
      score();
    }
  }
  let expected = 0;
  for (let k = 0; k < pots.length; k++) expected += ((pots[k].amount - pots[k].rake) * frac[k]) / boards;
  return { expectedWon: expected, adjustedNet: Math.round(expected) - hero.committed, boardKnown: known, exact };
}

/** The hero's part of a pot (ties split); -1 when nobody has a value (no qualifying low). */
function share(eligible: readonly number[], values: Int32Array, hero: number): number {
  let best = 0;
  let count = 0;
  for (let i = 0; i < eligible.length; i++) {
    const x = values[eligible[i]];
    if (x > best) {
      best = x;
      count = 1;
    } else if (x === best && x > 0) count++;
  }
  if (best === 0) return -1;
  return values[hero] === best ? 1 / count : 0;
}
