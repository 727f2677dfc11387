/**
 * Effective playing time (R-TIMELIMIT, decree 2010-518 art. 16-1): "le temps passé par un joueur à
 * une table, de la distribution de la première main à laquelle il participe jusqu'à ce qu'il quitte
 * la table". The operator records one stretch per table seat: it opens when the first hand is dealt
 * to the player there and closes when they leave. Stretches at several tables at once are counted
 * once (two tables for an hour is one hour): the time used is the length of their union.
 *
 * Periods: art. 16-1 counts "sur chaque période de sept jours". We read it as consecutive seven-day
 * periods from the moment the player first set the limit (the anchor), so "until the end of the
 * period" is one instant the client can show. A stretch crossing a period's start counts in each
 * period for its part (docs/protection.md).
 */
import { PERIOD_MS } from './limits';

/** One seat's stretch of play; `to` null while the player is still at that table. */
export interface Stretch {
  readonly from: number;
  readonly to: number | null;
}

/** The seven-day period that contains `now`, from the anchor (when the limit was first set). */
export function periodAt(anchor: number, now: number): { readonly from: number; readonly to: number } {
  const k = Math.floor((now - anchor) / PERIOD_MS);
  const from = anchor + Math.max(0, k) * PERIOD_MS;
  return { from, to: from + PERIOD_MS };
}

/** Milliseconds played in [from, now]: the union of the stretches, open ones running to `now`. */
export function playedBetween(stretches: readonly Stretch[], from: number, now: number): number {
  const cut = stretches
    .map((s) => ({ a: Math.max(s.from, from), b: Math.min(s.to ?? now, now) }))
    .filter((s) => s.b > s.a)
    .sort((x, y) => x.a - y.a);
  let total = 0;
  let a = -Infinity;
  let b = -Infinity;
  for (const s of cut) {
    if (s.a > b) {
      if (b > a) total += b - a;
      a = s.a;
      b = s.b;
    } else if (s.b > b) b = s.b;
  }
  if (b > a) total += b - a;
  return total;
}

/** The warnings art. 16-1 asks for, in order: near the limit, ten minutes before, reached. */
export type TimeWarning = 'near' | 'ten-minutes' | 'reached';

const MINUTE_MS = 60_000;

/** Time used at which each warning is due for a limit of `limit` ms: "near" when 75 % has gone or
 * at the latest 30 minutes before the limit (whichever comes first), "ten-minutes" 10 minutes
 * before, "reached" at the limit. A limit shorter than 30 (or 10) minutes gives that warning at the
 * first moment of play. */
export function warningThresholds(limit: number): Readonly<Record<TimeWarning, number>> {
  return {
    near: Math.min(Math.floor(limit * 0.75), Math.max(0, limit - 30 * MINUTE_MS)),
    'ten-minutes': Math.max(0, limit - 10 * MINUTE_MS),
    reached: limit,
  };
}

/** The warnings due at `used` that were not given yet (`given`), in order. */
export function warningsDue(limit: number, used: number, given: ReadonlySet<TimeWarning>): TimeWarning[] {
  const t = warningThresholds(limit);
  return (['near', 'ten-minutes', 'reached'] as const).filter((w) => used >= t[w] && !given.has(w));
}

/** Milliseconds of further play before the next warning not given yet, or null when none is left;
 * the operator sets one timer with it while the player is seated. */
export function untilNextWarning(limit: number, used: number, given: ReadonlySet<TimeWarning>): number | null {
  const t = warningThresholds(limit);
  for (const w of ['near', 'ten-minutes', 'reached'] as const) if (!given.has(w)) return Math.max(0, t[w] - used);
  return null;
}
