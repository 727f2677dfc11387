/**
 * A tournament in the player's local history and the results over them (R-TRACKER, R-RESULTS): the
 * history's own model, which the client API carries (api/tournaments.ts re-exports it) and the
 * exchange formats read and write (exchange/summary.ts). Built on the rules' result of a tournament.
 */
import { tournamentResultShape } from '../rules/tournament/result';
import { arr, int, type Infer, nullable, obj, oneOf, str } from '../validate';

const amount = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
const signed = int({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const millis = amount;

/** A tournament kept in the local history: stored when the player registers, completed when it ends. */
export const tournamentRecordSchema = obj({
  // The wire's result (shared/protocol/tournament.ts), with what only the local record knows.
  ...tournamentResultShape,
  registeredAt: millis,
  startedAt: nullable(millis),
  endedAt: nullable(millis),
  /** Null while it runs. */
  place: nullable(int({ min: 1, max: 1_000_000 })),
  /**
   * The players sharing the places from `place` (out on one hand with equal stacks, T 8-16: the prizes
   * of those places split between them), as `tournament.finished` told it. Absent: alone at that place,
   * or not told (the operator's results and summary files do not carry it).
   */
  tied: int({ min: 2, max: 1_000_000 }),
  /** Hands of it stored here. */
  hands: amount,
  /**
   * When its entry came back (unregistered before the start, or the tournament cancelled): the
   * registration is refunded, listed as such, in no result; a later registration is a new record.
   * Absent: not refunded.
   */
  refundedAt: millis,
}, ['tied', 'refundedAt']);
export type TournamentRecordView = Infer<typeof tournamentRecordSchema>;

/** What a tournament's lobby line says of it: the fields a new record copies (a `TournamentSummary` has them, and more). */
export type TournamentHead = Pick<TournamentRecordView, 'name' | 'variant' | 'money' | 'format' | 'kinds' | 'buyIn' | 'fee' | 'entries'>;

/**
 * The record of a tournament newly seen: its lobby line, nothing started, played,
 * won or paid yet. Main's tournament service and the history generator both start from it; the
 * fields are picked one by one so that a summary's other fields stay out of the stored record.
 */
export function blankTournamentRecord(tournamentId: string, head: TournamentHead, registeredAt: number): TournamentRecordView {
  const { name, variant, money, format, kinds, buyIn, fee, entries } = head;
  return {
    tournamentId,
    name,
    variant,
    money,
    format,
    kinds,
    buyIn,
    fee,
    entries,
    registeredAt,
    startedAt: null,
    endedAt: null,
    place: null,
    prize: 0,
    bounties: 0,
    rebuys: 0,
    addOns: 0,
    reEntries: 0,
    spent: 0,
    hands: 0,
  };
}

/** Tournament results of a group (R-RESULTS): ROI is `net / spent` of the finished ones, ITM `cashes / count`, average finish `placeSum / count`. */
const tournamentTotalsShape = {
  count: amount,
  spent: amount,
  prizes: amount,
  bounties: amount,
  /** prizes + bounties − spent. */
  net: signed,
  cashes: amount,
  placeSum: amount,
  /** Sum of the fields' sizes (for the average field). */
  entriesSum: amount,
  /**
   * Running tournaments counted (R-TRACKER: an entry paid is lost until a prize comes): their spent and
   * bounties so far are in `spent`, `bounties` and `net`; `count`, `cashes`, `placeSum`, `entriesSum`
   * are the finished ones'. ROI is over the finished ones (shared/history/tournaments.ts).
   */
  running: amount,
  runningSpent: amount,
  runningBounties: amount,
};
export const tournamentTotalsSchema = obj(tournamentTotalsShape);
export const tournamentResultsSchema = obj({
  real: tournamentTotalsSchema,
  play: tournamentTotalsSchema,
  groups: arr(obj({ money: oneOf('real', 'play'), key: str({ max: 40 }), ...tournamentTotalsShape }), { max: 10_000 }),
});
export type TournamentResultsView = Infer<typeof tournamentResultsSchema>;
