/**
 * One set of limits for what a hand may hold: the wire's and the API's validators
 * (game.ts, shared/api/contract.ts), the importers (shared/exchange) and the client's history store
 * (electron/services/history) all use these, so that what is imported can always be read back: before,
 * an import stored a POJEU Pool of 300 characters or a player name of 500, and every history page
 * holding that hand then failed validation.
 */

/** A hand's id (POJEU Pool, PokerStars hand number, PHH hand name). */
export const HAND_ID_MAX = 200;
/** A player's name at a table. */
export const PLAYER_NAME_MAX = 64;
/** A table's id in the history (an imported table name is cut to it). */
export const TABLE_ID_MAX = 64;
/** Seats at a table (R-SEATS: no variant is played more than 10 a table). */
export const SEATS_MAX = 10;
/** Entries of one hand's log. */
export const ACTIONS_MAX = 1000;
/**
 * The largest hand-history file `cercle convert` and the history import read (docs/exchange.md): the
 * whole text and every hand are held in memory while it is played through the engine, about 17 times
 * the file's size at the peak (a 200 MB PokerStars file took 3.5 GB); 32 MiB is 15,000 to 30,000 hands.
 */
export const EXCHANGE_FILE_MAX_BYTES = 32 * 1024 * 1024;
