/**
 * The player's own statistics, hand by hand (R-RESULTS; exact definitions in docs/stats.md): from a
 * finished hand's record and the hero's seat, what the hand counts for VPIP, PFR, 3-bet, aggression,
 * went to showdown, won at showdown and the draws. The history store keeps the result packed in one
 * integer per hand (`packHandStats`) and adds them up over any filter in SQL.
 *
 * "First round" is the first betting round of the variant: pre-flop (Hold'em, Omaha), 3rd street
 * (Stud, record round `bring-in`), before the first draw (Triple Draw, `pre-draw`). Forced bets
 * (blinds, antes, the bring-in) are never voluntary.
 */
import type { HandRecord } from '../rules/record';
import { VARIANTS, type RoundName } from '../rules/variants';

export interface HandStats {
  /** The hero was dealt in: the hand counts (every other field is 0/false otherwise). */
  dealt: boolean;
  /** Put chips in voluntarily in the first round (call, bet, raise, complete). */
  vpip: boolean;
  /** Bet, raised or completed in the first round. */
  pfr: boolean;
  /** Had to act in the first round facing exactly one raise (a completion in Stud) by another player. */
  threeBetChance: boolean;
  /** Raised at that moment. */
  threeBet: boolean;
  /** Was still in when the second betting round's cards came (saw the flop, 4th street, the first draw). */
  sawSecond: boolean;
  /** Reached the showdown without folding. */
  showdown: boolean;
  /** Won chips at the showdown (any part of a pot). */
  wonShowdown: boolean;
  /** Bets, raises and completions after the first round (the aggression factor's numerator). */
  aggressive: number;
  /** Calls after the first round (its denominator). */
  calls: number;
  /** Triple Draw: draws the hero took part in (0-3). */
  draws: number;
  /** Triple Draw: cards the hero discarded and drew, over all draws. */
  cardsDrawn: number;
  /** Triple Draw: draws where the hero stood pat (discarded nothing). */
  standPats: number;
}

const FIRST_ROUND: Record<'holdem' | 'omaha' | 'stud' | 'draw', RoundName> = { holdem: 'pre-flop', omaha: 'pre-flop', stud: 'bring-in', draw: 'pre-draw' };

export function handStats(record: HandRecord, heroSeat: number): HandStats {
  const out: HandStats = {
    dealt: false,
    vpip: false,
    pfr: false,
    threeBetChance: false,
    threeBet: false,
    sawSecond: false,
    showdown: false,
    wonShowdown: false,
    aggressive: 0,
    calls: 0,
    draws: 0,
    cardsDrawn: 0,
    standPats: 0,
  };
  const hero = record.seats.find((s) => s.seat === heroSeat);
  if (hero === undefined || !hero.dealtIn) return out;
  out.dealt = true;
  const v = VARIANTS[record.variant];
  const first = FIRST_ROUND[v.family];
  const second = v.streets[1].round;
  // Raises (bets, completions) made so far in the first round, by anybody but forced bets.
  let raises = 0;
  let raisedByHero = false;
  let foldedBeforeSecond = false;
  for (const a of record.actions) {
    if (a.round === first) {
      if (a.kind === 'fold' && a.seat === heroSeat) foldedBeforeSecond = true;
      const aggressive = a.kind === 'bet' || a.kind === 'raise' || a.kind === 'complete';
      if (a.kind === 'call' || aggressive || a.kind === 'check' || a.kind === 'fold') {
        if (a.seat === heroSeat) {
          if (raises === 1 && !raisedByHero) {
            out.threeBetChance = true;
            if (aggressive) out.threeBet = true;
          }
          if (a.kind === 'call' || aggressive) out.vpip = true;
          if (aggressive) out.pfr = true;
        }
        if (aggressive) {
          raises++;
          if (a.seat === heroSeat) raisedByHero = true;
        }
      }
      continue;
    }
    if (a.round === 'bet' || a.round === 'reveal') continue;
    if (!('seat' in a) || a.seat !== heroSeat) continue;
    if (a.kind === 'bet' || a.kind === 'raise' || a.kind === 'complete') out.aggressive++;
    else if (a.kind === 'call') out.calls++;
    else if (a.kind === 'discard') {
      out.draws++;
      out.cardsDrawn += a.cards.length;
      if (a.cards.length === 0) out.standPats++;
    }
  }
  out.sawSecond = !foldedBeforeSecond && record.rounds.includes(second);
  out.showdown = record.showdown && !hero.folded;
  out.wonShowdown = out.showdown && hero.won > 0;
  return out;
}

// ---------------------------------------------------------------------------------------------
// One integer per hand (the history's `stats` column). Bits 0-7 are the yes/no counts; then 8-bit
// counters. Written as arithmetic, read in SQL with shifts and masks.

export const STAT_BIT = {
  dealt: 1,
  vpip: 2,
  pfr: 4,
  threeBetChance: 8,
  threeBet: 16,
  sawSecond: 32,
  showdown: 64,
  wonShowdown: 128,
} as const;
/** [shift, mask] of the counters. */
export const STAT_FIELD = {
  aggressive: [8, 255],
  calls: [16, 255],
  draws: [24, 15],
  cardsDrawn: [28, 31],
  standPats: [33, 15],
} as const;

export function packHandStats(s: HandStats): number {
  let x = 0;
  for (const [k, bit] of Object.entries(STAT_BIT)) if (s[k as keyof typeof STAT_BIT]) x += bit;
  for (const [k, [shift, mask]] of Object.entries(STAT_FIELD)) x += Math.min(s[k as keyof typeof STAT_FIELD], mask) * 2 ** shift;
  return x;
}

export function unpackHandStats(x: number): HandStats {
  const bit = (b: number): boolean => Math.floor(x / b) % 2 === 1;
  const field = (k: keyof typeof STAT_FIELD): number => Math.floor(x / 2 ** STAT_FIELD[k][0]) % (STAT_FIELD[k][1] + 1);
  return {
    dealt: bit(STAT_BIT.dealt),
    vpip: bit(STAT_BIT.vpip),
    pfr: bit(STAT_BIT.pfr),
    threeBetChance: bit(STAT_BIT.threeBetChance),
    threeBet: bit(STAT_BIT.threeBet),
    sawSecond: bit(STAT_BIT.sawSecond),
    showdown: bit(STAT_BIT.showdown),
    wonShowdown: bit(STAT_BIT.wonShowdown),
    aggressive: field('aggressive'),
    calls: field('calls'),
    draws: field('draws'),
    cardsDrawn: field('cardsDrawn'),
    standPats: field('standPats'),
  };
}

/**
 * The statistics the results page shows, in order, as whole fractions over hands (docs/stats.md).
 * `bb100` is in hundredths of a big blind per hand (= big blinds per 100 hands).
 */
export const STAT_KEYS = ['vpip', 'pfr', 'threeBet', 'af', 'wtsd', 'wsd', 'bb100', 'cardsPerDraw', 'standPat'] as const;
export type StatKey = (typeof STAT_KEYS)[number];

/** Hundredths of a big blind of a hand's net (half away from zero), as the store sums them. */
export function centiBigBlinds(net: number, bigBlind: number): number {
  if (bigBlind <= 0) return 0;
  const x = (net * 100) / bigBlind;
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** Adds hands up into the page's fractions (the store does the same in SQL; tests compare both). */
export function sumStats(hands: readonly { stats: HandStats; net: number; bigBlind: number }[]): { hands: number; stats: { key: StatKey; num: number; den: number }[] } {
  const n = { hands: 0, vpip: 0, pfr: 0, tbc: 0, tb: 0, saw: 0, wtsd: 0, sd: 0, wsd: 0, agg: 0, calls: 0, cbb: 0, draws: 0, cards: 0, pat: 0 };
  for (const h of hands) {
    const s = h.stats;
    if (!s.dealt) continue;
    n.hands++;
    n.vpip += +s.vpip;
    n.pfr += +s.pfr;
    n.tbc += +s.threeBetChance;
    n.tb += +s.threeBet;
    n.saw += +s.sawSecond;
    n.wtsd += +(s.sawSecond && s.showdown);
    n.sd += +s.showdown;
    n.wsd += +s.wonShowdown;
    n.agg += s.aggressive;
    n.calls += s.calls;
    n.cbb += centiBigBlinds(h.net, h.bigBlind);
    n.draws += s.draws;
    n.cards += s.cardsDrawn;
    n.pat += s.standPats;
  }
  return { hands: n.hands, stats: statList(n) };
}

/** The page's fractions from the sums. */
export function statList(n: { hands: number; vpip: number; pfr: number; tbc: number; tb: number; saw: number; wtsd: number; sd: number; wsd: number; agg: number; calls: number; cbb: number; draws: number; cards: number; pat: number }): { key: StatKey; num: number; den: number }[] {
  return [
    { key: 'vpip', num: n.vpip, den: n.hands },
    { key: 'pfr', num: n.pfr, den: n.hands },
    { key: 'threeBet', num: n.tb, den: n.tbc },
    { key: 'af', num: n.agg, den: n.calls },
    { key: 'wtsd', num: n.wtsd, den: n.saw },
    { key: 'wsd', num: n.wsd, den: n.sd },
    { key: 'bb100', num: n.cbb, den: n.hands },
    { key: 'cardsPerDraw', num: n.cards, den: n.draws },
    { key: 'standPat', num: n.pat, den: n.draws },
  ];
}
