/**
 * The client API's tournament calls and events, joined into contract.ts's `calls` and
 * `events`. Main serves them (electron/services/client/tournaments.ts) over the operator's tournament
 * messages (shared/protocol/tournament.ts) and the local history (electron/services/history).
 *
 * - Lobby and page: `tournaments` (the list), `tournamentDetails`, register / unregister / rebuy /
 *   add-on, `watchTable` to open any table of a tournament.
 * - Playing: `myTournaments` and the `tournament` event: each tournament the player is in, with its
 *   standing (clock, field, stack, rank), seat, last move and finish, as main follows it.
 * - History and results: `tournamentHistory` (the stored tournaments), `tournamentResults` (net, ROI,
 *   in-the-money rate, average finish, by format, game or buy-in).
 */
import { handTournamentSchema, tableId } from '../protocol/messages';
import {
  seatReason,
  tournamentDetailsSchema,
  tournamentId,
  tournamentStandingSchema,
  tournamentSummarySchema,
} from '../protocol/tournament';
import { versionText } from '../protocol/conditions';
import { VARIANT_CODES } from '../rules/variants';
import { tournamentRecordSchema, tournamentResultsSchema } from '../history/tournament-record';
import { arr, bool, int, type Infer, nullable, obj, oneOf, str } from '../validate';

const amount = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
const millis = amount;
const count = int({ min: 0, max: 1_000_000 });
const noArgs = obj({});

/** An operator request's answer: ok, or its refusal (the same fields as contract.ts `Outcome`). */
const answer = { ok: bool, code: str({ max: 40 }), message: str({ max: 2000 }), rule: str({ max: 40 }) };
const answerOptional = ['code', 'message', 'rule'] as const;

export { handTournamentSchema };

/** A tournament the player is in (registered, playing, or just finished), as main follows it. */
export const tournamentPlaySchema = obj({
  tournamentId,
  /** The lobby's line as last read (name, game, buy-in + fee, format, structure version). */
  summary: tournamentSummarySchema,
  status: oneOf('registered', 'playing', 'finished', 'unregistered', 'cancelled'),
  /** The last `tournament.state` (null until the first). */
  standing: nullable(tournamentStandingSchema),
  /** When `standing` arrived (main's clock): the time to the next level is `nextChangeInMs - (now - at)`. */
  standingAt: nullable(millis),
  /** Where the player sits now. */
  seat: nullable(obj({ tableId, seat: int({ min: 0, max: 9 }) })),
  /** The last move to another table and why (balancing, table broken), or null. */
  move: nullable(obj({ from: nullable(tableId), to: tableId, why: seatReason, at: millis })),
  /** The player's place, prize and bounties won, once out or at the end. */
  /** `tied`: players sharing the places from `place` (T 8-16); absent when not told (a record read again). */
  finished: nullable(obj({ place: int({ min: 1, max: 1_000_000 }), tied: int({ min: 1, max: 1_000_000 }), prize: amount, bounties: amount }, ['tied'])),
  /** Paid so far: the entry (buy-in + fee), rebuys and add-ons with their fees; refunds taken off. */
  spent: amount,
  rebuys: count,
  addOns: count,
});
export type TournamentPlay = Infer<typeof tournamentPlaySchema>;

// The stored tournament and its results are the history's model (shared/history/tournament-record.ts);
// the API carries them as they are.
export {
  blankTournamentRecord,
  tournamentRecordSchema,
  tournamentResultsSchema,
  tournamentTotalsSchema,
  type TournamentHead,
  type TournamentRecordView,
  type TournamentResultsView,
} from '../history/tournament-record';

export const tournamentFilterSchema = obj(
  { from: millis, to: millis, money: oneOf('real', 'play'), variant: oneOf(...VARIANT_CODES), format: oneOf('sit-and-go', 'scheduled') },
  ['from', 'to', 'money', 'variant', 'format'],
);
export type TournamentFilter = Infer<typeof tournamentFilterSchema>;

export const tournamentCalls = {
  /** The operator's tournaments (R-INFO: game, buy-in + fee, format, structure version), read now. */
  tournaments: { args: noArgs, result: obj({ ...answer, tournaments: arr(tournamentSummarySchema, { max: 10_000 }) }, [...answerOptional, 'tournaments']) },
  /** One tournament whole: structure, payouts, entrants, tables. */
  tournamentDetails: { args: obj({ tournamentId }), result: obj({ ...answer, details: tournamentDetailsSchema }, [...answerOptional, 'details']) },
  /** Registers on the information shown and confirmed (R-INFO: `version`); the balance is the operator's check (R-NODEBT). */
  tournamentRegister: { args: obj({ tournamentId, version: versionText }), result: obj(answer, answerOptional) },
  /** Before the start the whole entry comes back (`refunded`); after it the player forfeits (R-TOURN-LEAVE). */
  tournamentUnregister: { args: obj({ tournamentId }), result: obj({ ...answer, refunded: nullable(amount) }, [...answerOptional, 'refunded']) },
  tournamentRebuy: { args: obj({ tournamentId }), result: obj(answer, answerOptional) },
  tournamentAddOn: { args: obj({ tournamentId }), result: obj(answer, answerOptional) },
  /** Watch a table without a seat (`table` events follow, as for a table the player sits at); `watch: false` stops. */
  watchTable: { args: obj({ tableId, watch: bool }), result: obj(answer, answerOptional) },
  /** The tournaments the player is in now (also pushed one at a time as `tournament`). */
  myTournaments: { args: noArgs, result: arr(tournamentPlaySchema, { max: 1000 }) },
  /** The stored tournaments, newest first, keyset-paged by `cursor`. */
  tournamentHistory: {
    args: obj({ filter: tournamentFilterSchema, limit: int({ min: 1, max: 200 }), cursor: nullable(str({ max: 200 })) }),
    result: obj({ ok: bool, reason: str({ max: 2000 }), tournaments: arr(tournamentRecordSchema, { max: 200 }), next: nullable(str({ max: 200 })) }, ['reason']),
  },
  /** Tournament results over the filtered tournaments, grouped. */
  tournamentResults: { args: obj({ filter: tournamentFilterSchema, groupBy: oneOf('format', 'variant', 'buyIn') }), result: tournamentResultsSchema },
} as const;

export const tournamentEvents = {
  /** One of the player's tournaments changed (registered, clock, standing, seat, move, finish). */
  tournament: tournamentPlaySchema,
} as const;
