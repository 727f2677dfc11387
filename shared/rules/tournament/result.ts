/**
 * A player's tournament as it ended: what it cost and what it paid (R-TRACKER, R-RESULTS). The wire
 * carries it (`tournament.results`, shared/protocol/tournament.ts) and the local history builds its
 * stored tournament on it (shared/history/tournament-record.ts): both read it from here, the layer
 * below them both.
 */
import { VARIANT_CODES } from '../variants';
import { int, oneOf, str } from '../../validate';

const amount = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
const millis = amount;
const count = int({ min: 0, max: 1_000_000 });

/** A tournament's id: the trace's Tech code (A 1.3.6.b), letters, digits, `-` and `_`. */
export const tournamentIdSchema = str({ min: 1, max: 60, pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/ });

export const tournamentResultShape = {
  tournamentId: tournamentIdSchema,
  name: str({ min: 1, max: 60 }),
  variant: oneOf(...VARIANT_CODES),
  money: oneOf('real', 'play'),
  format: oneOf('sit-and-go', 'scheduled'),
  kinds: str({ max: 8 }),
  buyIn: amount,
  fee: amount,
  /** Entries bought in the whole field. */
  entries: count,
  startedAt: millis,
  endedAt: millis,
  place: int({ min: 1, max: 1_000_000 }),
  prize: amount,
  bounties: amount,
  rebuys: count,
  addOns: count,
  reEntries: count,
  /** Everything the player paid: entries, rebuys, add-ons, with their fees. */
  spent: amount,
};
