/**
 * A scripted tournament player for deterministic runs, with no test runner import so
 * that child processes use it too.
 */
import type { Action, HandState, LegalActions } from '../../../shared/rules/engine';
import type { Brain } from '../../../operator/tables/types';
import { mulberry32 } from '../../../shared/rules/prng';

/** A seeded generator of integers in [0, n) (mulberry32): the draw is the tournament's choice, fixed here to replay a run. */
export function seeded(seed: number): (n: number) => number {
  const next = mulberry32(seed);
  return (n) => Math.floor(next() * n);
}

/**
 * A scripted player for deterministic tournaments (seeded): all in (or calling an all-in) with
 * probability `p`, else checking or folding. Its choices come from `rng` only, so with a seeded deal
 * a whole tournament replays the same (the practice players' Monte Carlo is seeded too, but slower).
 */
export class Shover implements Brain {
  constructor(
    private readonly rng: (n: number) => number,
    private readonly p: number,
  ) {}

  decide(view: HandState, legal: LegalActions): Action {
    const seat = legal.seat as number;
    if (legal.next === 'show') return { type: 'show', seat };
    if (this.rng(1000) < this.p * 1000) {
      if (legal.bet) return { type: 'bet', seat, to: legal.bet.max };
      if (legal.call !== null) return { type: 'call', seat };
    }
    return legal.check ? { type: 'check', seat } : { type: 'fold', seat };
  }
}

