/**
 * The tournament messages of the wire (docs/protocol.md "Tournaments"): the lobby's
 * list, a tournament's details (R-INFO: structure, payouts, entrants, tables), registration with the
 * version of the information confirmed (as `rulesVersion` for tables), unregistering (refunded before
 * the start; after it, a forfeit: R-TOURN-LEAVE), rebuy and add-on (T 5-2, 5-4); and what the
 * operator tells a player: where they sit (and each move to another table, whose stream follows as
 * for any table: `table.snapshot`, then `table.event`), the clock, and their place and prize.
 *
 * Merged into the union of messages.ts; nothing else of the wire changes.
 */
import { tournamentIdSchema, tournamentResultShape } from '../rules/tournament/result';
import { arr, bool, int, nullable, obj, oneOf, str, type Infer } from '../validate';
import { versionText } from './conditions';
import { variantCode } from './game';
import { amount, millis, seatIndex } from './schema';

/** Most tournament results in one page of `tournament.results`. */
export const TOURNAMENT_RESULTS_PAGE_MAX = 100;
const rid = int({ min: 0, max: 2 ** 31 - 1 });
/** Tournament ids: the trace's Tech code (A 1.3.6.b). */
export const tournamentId = tournamentIdSchema;
export const tableRef = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/ });
const count = int({ min: 0, max: 1_000_000 });
export const tournamentStateSchema = oneOf('registering', 'running', 'finished', 'cancelled');

export const tournamentClientVariants = {
  'tournament.list': obj({ type: oneOf('tournament.list'), rid }),
  'tournament.details': obj({ type: oneOf('tournament.details'), rid, tournamentId }),
  /** `version`: of the information the player was shown and confirmed (R-INFO). */
  'tournament.register': obj({ type: oneOf('tournament.register'), rid, tournamentId, version: versionText }),
  'tournament.unregister': obj({ type: oneOf('tournament.unregister'), rid, tournamentId }),
  'tournament.rebuy': obj({ type: oneOf('tournament.rebuy'), rid, tournamentId }),
  'tournament.addOn': obj({ type: oneOf('tournament.addOn'), rid, tournamentId }),
  /**
   * The account's finished tournaments, newest first, a page at a time (a tournament
   * played on another machine appears after sign-in, once, like hands). `cursor` from the last page.
   */
  'tournament.results': obj({ type: oneOf('tournament.results'), rid, cursor: nullable(str({ min: 1, max: 100 })), limit: int({ min: 1, max: TOURNAMENT_RESULTS_PAGE_MAX }) }),
};


/** A tournament in the lobby: what it is and where it stands. */
export const tournamentSummarySchema = obj(
  {
    tournamentId,
    name: str({ min: 1, max: 60 }),
    variant: variantCode,
    money: oneOf('real', 'play'),
    /** Entry = buy-in (to the prize pool) + fee (to the operator), both shown (R-TOURN-FORMATS). */
    buyIn: amount,
    fee: amount,
    bounty: amount,
    format: oneOf('sit-and-go', 'scheduled'),
    /** Its letters: rebuy (A), bounty (G), re-entry (M), satellite (S). */
    kinds: str({ max: 8 }),
    seats: int({ min: 2, max: 10 }),
    state: tournamentStateSchema,
    entries: count,
    players: count,
    remaining: count,
    minEntrants: count,
    maxEntrants: count,
    startAt: nullable(millis),
    pool: amount,
    /** The version a registration confirms (R-INFO). */
    version: versionText,
    /** A guaranteed prize pool (R-TOURN-FORMATS): the pool is at least this; absent without one. */
    guarantee: amount,
    /**
     * A satellite (`S`, T 1-5): the tournament its prizes are seats in, by id and by name (null when
     * that tournament is not offered now), and what a seat is worth (its entry). Absent otherwise.
     */
    satellite: obj({ tournamentId, name: nullable(str({ min: 1, max: 60 })), seatValue: amount }),
  },
  ['guarantee', 'satellite'],
);
export type TournamentSummary = Infer<typeof tournamentSummarySchema>;

const levelSchema = obj(
  { kind: oneOf('blinds', 'stud'), smallBlind: amount, bigBlind: amount, ante: amount, bringIn: amount, smallBet: amount, bigBet: amount },
  ['smallBlind', 'bigBlind', 'bringIn', 'smallBet', 'bigBet'],
);
const purchaseSchema = obj({ price: amount, fee: amount, chips: amount });

/** The structure as data (R-TOURN-STRUCTURE; shared/rules/tournament/structure.ts). */
export const structureSchema = obj({
  version: int({ min: 1, max: 1 }),
  name: str({ min: 1, max: 40 }),
  startingStack: amount,
  levelMinutes: int({ min: 1, max: 240 }),
  levels: arr(levelSchema, { min: 1, max: 100 }),
  breaks: nullable(obj({ everyLevels: int({ min: 1, max: 100 }), minutes: int({ min: 1, max: 60 }) })),
  lateRegistrationLevels: int({ min: 0, max: 100 }),
  rebuy: nullable(
    obj({
      untilLevel: int({ min: 1, max: 100 }),
      price: amount,
      fee: amount,
      chips: amount,
      when: oneOf('at-or-below-starting-stack', 'below-big-blind'),
      max: nullable(int({ min: 1, max: 1000 })),
    }),
  ),
  addOn: nullable(purchaseSchema),
  reEntries: int({ min: 0, max: 10 }),
});

export const tournamentDetailsSchema = obj({
  summary: tournamentSummarySchema,
  structure: structureSchema,
  /** Prizes by place, best first (fixed once the field is final). */
  prizes: arr(amount, { max: 100_000 }),
  /** The clock: level (0-based), on a break; null before the start. */
  level: nullable(int({ min: 0, max: 1000 })),
  onBreak: bool,
  entrants: arr(
    obj({ name: str({ min: 1, max: 64 }), practice: bool, stack: amount, place: nullable(count), prize: nullable(amount), tableId: nullable(tableRef) }),
    { max: 100_000 },
  ),
  tables: arr(obj({ tableId: tableRef, players: int({ min: 0, max: 10 }) }), { max: 20_000 }),
});
export type TournamentDetails = Infer<typeof tournamentDetailsSchema>;

/** Why a player sits where they sit (`tournament.seat`): the client says so on a move. */
export const seatReason = oneOf('start', 'late', 'balance', 'broken', 'back', 'final');

/**
 * Where a tournament stands, told to each of its (human) players: on every change of state or clock,
 * and after each hand at the player's table (their stack and rank). What the tournament bar shows is read
 * from it, and from the details' prizes for the pay jumps.
 */
export const tournamentStandingSchema = obj({
  state: tournamentStateSchema,
  /** The clock: level (0-based) or null before the start; a level applies from the next hand (T 6-1). */
  level: nullable(int({ min: 0, max: 1000 })),
  onBreak: bool,
  /** Until the clock's next change (the level's end, or the break's), from when the message was sent; null when not running. */
  nextChangeInMs: nullable(millis),
  /** Tables deal one hand each in step (R-TOURN-RUN, hand-for-hand near the money). */
  handForHand: bool,
  /** Entries bought (registrations and re-entries) and players still in. */
  entries: count,
  remaining: count,
  /** Chips in play (every stack): the average stack is `chips / remaining`. */
  chips: amount,
  pool: amount,
  /** Places paid (the length of the prize list). */
  paid: count,
  /**
   * The recipient's own standing; null when out (or not registered). A busted player who may still
   * rebuy (T 5-2) keeps one, with `stack: 0` and `rebuy: true`, so the rebuy can be offered.
   */
  you: nullable(
    obj({
      stack: amount,
      /** 1 = the biggest stack of those still in. */
      rank: int({ min: 1, max: 1_000_000 }),
      rebuy: bool,
      addOn: bool,
      /** Bounties won so far (money, paid to the wallet as they are won). */
      bounties: amount,
    }),
  ),
});
export type TournamentStanding = Infer<typeof tournamentStandingSchema>;

// A finished tournament of the account (`tournament.results`): the rules' model of it, which the local
// history builds on too (shared/rules/tournament/result.ts).
export { tournamentResultShape };
export const tournamentResultSchema = obj(tournamentResultShape);
export type TournamentResult = Infer<typeof tournamentResultSchema>;

export const tournamentServerVariants = {
  'tournament.list': obj({ type: oneOf('tournament.list'), rid, tournaments: arr(tournamentSummarySchema, { max: 10_000 }) }),
  'tournament.details': obj({ type: oneOf('tournament.details'), rid, tournament: tournamentDetailsSchema }),
  'tournament.registered': obj({ type: oneOf('tournament.registered'), rid, tournamentId, inscription: str({ min: 1, max: 100 }) }),
  /** Unregistered: the whole entry back before the start; `refunded` null after it (a forfeit). */
  'tournament.unregistered': obj({ type: oneOf('tournament.unregistered'), rid, tournamentId, refunded: nullable(amount) }),
  /** Where the player sits: at the start, a late entry, or a move (`moved`, T 6-7); the table's stream follows. */
  'tournament.seat': obj({ type: oneOf('tournament.seat'), tournamentId, tableId: tableRef, seat: seatIndex, moved: bool, why: seatReason }),
  /** The tournament's state, clock and the player's standing (a level applies from the next hand, T 6-1). */
  'tournament.state': obj({ type: oneOf('tournament.state'), tournamentId, standing: tournamentStandingSchema }),
  /** The player's place and prize (eliminated, or the end), with the bounties they won. */
  /** `tied`: the players out on the same hand with equal stacks, sharing the places `place` to `place + tied − 1` (T 8-16); 1 alone. */
  'tournament.finished': obj({ type: oneOf('tournament.finished'), tournamentId, place: int({ min: 1, max: 1_000_000 }), tied: int({ min: 1, max: 1_000_000 }), prize: amount, bounties: amount }),
  'tournament.results': obj({ type: oneOf('tournament.results'), rid, results: arr(tournamentResultSchema, { max: TOURNAMENT_RESULTS_PAGE_MAX }), next: nullable(str({ min: 1, max: 100 })) }),
};

export type TournamentClientMessage = { [K in keyof typeof tournamentClientVariants]: Infer<(typeof tournamentClientVariants)[K]> }[keyof typeof tournamentClientVariants];
export type TournamentServerMap = { [K in keyof typeof tournamentServerVariants]: Infer<(typeof tournamentServerVariants)[K]> };
