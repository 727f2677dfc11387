/**
 * Self-exclusion (R-EXCLUDE; law 2010-476 art. 26): for 7, 30 or 90 days, until a chosen date (at
 * least 7 days away), or permanently. It cannot be lifted or shortened before its end: a new request
 * while one runs may only lengthen it. During it the player cannot play, deposit or register to a
 * tournament; they can still withdraw and read their history (checked where those operations are).
 */
import { DAY_MS } from './limits';

export type ExclusionChoice =
  | { readonly kind: 'days'; readonly days: 7 | 30 | 90 }
  | { readonly kind: 'until'; readonly until: number }
  | { readonly kind: 'permanent' };

/** A self-exclusion in force: `until` null for a permanent one. */
export interface Exclusion {
  readonly from: number;
  readonly until: number | null;
}

export type ExclusionResult =
  | { readonly ok: true; readonly exclusion: Exclusion }
  | { readonly ok: false; readonly code: 'EXCLUSION_TOO_SHORT' | 'EXCLUSION_CANNOT_SHORTEN'; readonly message: string; readonly until: number | null };

/** The shortest self-exclusion the product offers (SPEC R-EXCLUDE: "at least 7 days"). */
export const MIN_EXCLUSION_MS = 7 * DAY_MS;

export function isExcluded(exclusion: Exclusion | null, now: number): boolean {
  return exclusion !== null && now >= exclusion.from && (exclusion.until === null || now < exclusion.until);
}

/** Applies the player's (twice confirmed) choice to the exclusion in force, if any. */
export function exclude(current: Exclusion | null, choice: ExclusionChoice, now: number): ExclusionResult {
  const until = choice.kind === 'permanent' ? null : choice.kind === 'days' ? now + choice.days * DAY_MS : choice.until;
  if (until !== null && (!Number.isSafeInteger(until) || until - now < MIN_EXCLUSION_MS)) {
    return { ok: false, code: 'EXCLUSION_TOO_SHORT', message: 'a self-exclusion lasts at least 7 days', until };
  }
  if (isExcluded(current, now)) {
    const end = current!.until;
    // Shorter than the one in force: an end before its end, or any end for a permanent one.
    if (until !== null && (end === null || until < end)) {
      return { ok: false, code: 'EXCLUSION_CANNOT_SHORTEN', message: 'the self-exclusion in force can be neither lifted nor shortened', until: end };
    }
    return { ok: true, exclusion: { from: current!.from, until } };
  }
  return { ok: true, exclusion: { from: now, until } };
}
