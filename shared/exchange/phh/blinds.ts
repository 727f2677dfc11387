/**
 * Where the blinds sit in a PHH hand, from `blinds_or_straddles` (already in chips): the one reading
 * shared by the corpus replayer (replay.ts) and the PHH import (shared/exchange/phh.ts).
 *
 * - Heads-up the field is written reversed: player 2 (the button) posts the small blind.
 * - Players 1 and 2 post the small and the big blind; or player 1 alone posts the big blind, the
 *   small blind missing (R-BUTTON, dead button: the small blind is then half the big blind).
 * - A negative entry is a post: a player who has just sat down posts a big blind to play at once
 *   (pokerkit's reading; R-BUTTON "wait for the big blind or post it"). The caller checks its amount.
 * - Anything else is a straddle, not a decree forced bet (R-FORCED).
 */
export type BlindReading =
  | {
      ok: true;
      smallBlindSeat: number | null;
      bigBlindSeat: number;
      smallBlind: number;
      bigBlind: number;
      /** Out-of-position posts: the seat and the amount posted. */
      posts: { seat: number; amount: number }[];
    }
  | { ok: false; reason: 'heads-up' | 'straddle' };

export function readBlinds(raw: readonly number[], players: number): BlindReading {
  const posted = players === 2 ? [raw[1], raw[0]] : raw;
  const live = posted.map((b, i) => [b, i] as const).filter(([b]) => b > 0);
  const posts = posted.flatMap((b, seat) => (b < 0 ? [{ seat, amount: -b }] : []));
  if (players === 2) {
    if (live.length !== 2 || posted[0] < posted[1]) return { ok: false, reason: 'heads-up' };
    return { ok: true, smallBlindSeat: 1, bigBlindSeat: 0, smallBlind: posted[1], bigBlind: posted[0], posts };
  }
  if (live.length === 2 && live[0][1] === 0 && live[1][1] === 1 && posted[0] <= posted[1]) {
    return { ok: true, smallBlindSeat: 0, bigBlindSeat: 1, smallBlind: posted[0], bigBlind: posted[1], posts };
  }
  if (live.length === 1 && live[0][1] === 0) {
    return { ok: true, smallBlindSeat: null, bigBlindSeat: 0, smallBlind: Math.floor(posted[0] / 2), bigBlind: posted[0], posts };
  }
  return { ok: false, reason: 'straddle' };
}
