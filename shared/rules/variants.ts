/**
 * The decree's eleven poker variants as data (D art. 7; codes from A 1.3.6.d.5; SPEC.md §3).
 *
 * A variant says what is dealt on each street (private cards down or up, board cards, draws), how
 * betting is structured, how hands are evaluated and what the record calls each round. The hand
 * engine reads these tables; nothing here is behaviour.
 */

/**
 * The decree variant codes (A 1.3.6.d.5), spelled here only: the protocol, the API contract, the
 * trace's Regle and the compact codec take them from this list. The codec's bytes
 * follow this order (shared/history/compact.test.ts fixes it): append only, never reorder.
 */
export const VARIANT_CODES = ['THL', 'THPL', 'THNL', 'O4HPL', 'O4JL', 'O4JPL', 'O5HPL', '7SHL', '7SJL', '7SLL', '2T7TD'] as const;
export type VariantCode = (typeof VARIANT_CODES)[number];

/** R-LIMIT, R-PL, R-NL. */
export type BettingStructure = 'limit' | 'pot-limit' | 'no-limit';

/**
 * How the winner is found: `high` (R-HIGH), `high-low8` (R-LOW8: half to the best high, half to
 * the best qualifying low), `razz` (R-RAZZ: A-5 low), `low27` (R-27: 2-7 low, reading per table).
 */
export type Evaluation = 'high' | 'high-low8' | 'razz' | 'low27';

/** Hold'em and Omaha share the board; Stud has up cards and a bring-in; Draw has draws. */
export type GameFamily = 'holdem' | 'omaha' | 'stud' | 'draw';

/** Blinds (Hold'em, Omaha, Triple Draw) or antes and a bring-in (Stud) (R-FORCED). */
export type ForcedBets = 'blinds' | 'ante-bring-in';

/**
 * Round names of the record (A 1.3.6.d.5). `bet` holds the forced bets, `reveal` the showdown.
 * Spelled here only; the compact codec writes a rare round by its place in this
 * list (fixed by shared/history/compact.test.ts): append only, never reorder.
 */
export const ROUND_NAMES = [
  'bet',
  'pre-flop',
  'flop',
  'turn',
  'river',
  'bring-in',
  '4th st',
  '5th st',
  '6th st',
  '7th st',
  'pre-draw',
  '1st draw',
  '2nd draw',
  '3rd draw',
  'reveal',
] as const;
export type RoundName = (typeof ROUND_NAMES)[number];

/** One street: what is dealt, whether a draw precedes its betting, and its limit size. */
export interface StreetDef {
  /** The record's name for this street's round (A 1.3.6.d.5). */
  readonly round: RoundName;
  /** Private cards dealt to each player on this street, in dealing order: face down or face up. */
  readonly hole: readonly ('down' | 'up')[];
  /** Board (community) cards dealt on this street. */
  readonly board: number;
  /** Triple Draw: each player discards 0..5 cards and is dealt replacements before the betting. */
  readonly draw: boolean;
  /** Limit games: bets and raises are of the big bet on this street, else the small bet (R-LIMIT). */
  readonly bigBet: boolean;
}

export interface Variant {
  readonly code: VariantCode;
  readonly nameFr: string;
  readonly nameEn: string;
  readonly family: GameFamily;
  /** R-SEATS, D art. 2. */
  readonly maxSeats: number;
  /** Private cards a player holds at the end of the dealing (Stud: 7; Draw: 5). */
  readonly privateCards: number;
  /** Board cards at the end of the dealing. */
  readonly boardCards: number;
  /** Omaha: a hand is made of exactly this many private cards (and 5 − it from the board). */
  readonly exactPrivate: number | null;
  readonly betting: BettingStructure;
  readonly forcedBets: ForcedBets;
  readonly evaluation: Evaluation;
  /** Streets in order; the first street's round follows the `bet` round of forced bets. */
  readonly streets: readonly StreetDef[];
  /** Every round of the record in order, `bet` first and `reveal` last (A 1.3.6.d.5). */
  readonly rounds: readonly RoundName[];
}

const D = 'down' as const;
const U = 'up' as const;

function street(round: RoundName, hole: readonly ('down' | 'up')[], board: number, draw: boolean, bigBet: boolean): StreetDef {
  return { round, hole, board, draw, bigBet };
}

// Hold'em and Omaha: pre-flop and flop small, turn and river big (R-LIMIT).
function boardStreets(holeCards: number): StreetDef[] {
  return [
    street('pre-flop', Array.from({ length: holeCards }, () => D), 0, false, false),
    street('flop', [], 3, false, false),
    street('turn', [], 1, false, true),
    street('river', [], 1, false, true),
  ];
}

// Stud: two down and one up, three more up, the last down (D art. 7 III); 3rd and 4th street small,
// 5th to 7th big (R-LIMIT). The first round carries the record name `bring-in` (A 1.3.6.d.5).
const STUD_STREETS: StreetDef[] = [
  street('bring-in', [D, D, U], 0, false, false),
  street('4th st', [U], 0, false, false),
  street('5th st', [U], 0, false, true),
  street('6th st', [U], 0, false, true),
  street('7th st', [D], 0, false, true),
];

// Triple Draw: five down, then three draws of 0-5 cards (D art. 7 IV); the first two rounds small,
// the last two big (R-LIMIT).
const DRAW_STREETS: StreetDef[] = [
  street('pre-draw', [D, D, D, D, D], 0, false, false),
  street('1st draw', [], 0, true, false),
  street('2nd draw', [], 0, true, true),
  street('3rd draw', [], 0, true, true),
];

function roundsOf(streets: readonly StreetDef[]): RoundName[] {
  return ['bet', ...streets.map((s) => s.round), 'reveal'];
}

function variant(
  code: VariantCode,
  nameFr: string,
  nameEn: string,
  family: GameFamily,
  betting: BettingStructure,
  evaluation: Evaluation,
  holeCards: number,
): Variant {
  const streets = family === 'stud' ? STUD_STREETS : family === 'draw' ? DRAW_STREETS : boardStreets(holeCards);
  const maxSeats = family === 'holdem' ? 10 : family === 'omaha' ? 9 : family === 'stud' ? 7 : 6; // R-SEATS
  return {
    code,
    nameFr,
    nameEn,
    family,
    maxSeats,
    privateCards: streets.reduce((n, s) => n + s.hole.length, 0),
    boardCards: streets.reduce((n, s) => n + s.board, 0),
    exactPrivate: family === 'omaha' ? 2 : null,
    betting,
    forcedBets: family === 'stud' ? 'ante-bring-in' : 'blinds',
    evaluation,
    streets,
    rounds: roundsOf(streets),
  };
}

// French names as the decree writes them (D art. 7), English names as the ARJEL table (A 1.3.6.d.5).
export const VARIANTS: Readonly<Record<VariantCode, Variant>> = {
  THL: variant('THL', "Texas Hold'em limit", "Texas Hold'em Limit", 'holdem', 'limit', 'high', 2),
  THPL: variant('THPL', "Texas Hold'em pot limit", "Texas Hold'em Pot Limit", 'holdem', 'pot-limit', 'high', 2),
  THNL: variant('THNL', "Texas Hold'em no limit", "Texas Hold'em No Limit", 'holdem', 'no-limit', 'high', 2),
  O4HPL: variant('O4HPL', 'Omaha 4 high pot limit', 'Omaha 4 High Pot Limit', 'omaha', 'pot-limit', 'high', 4),
  O4JL: variant('O4JL', 'Omaha 4 High/Low limit', 'Omaha 4 High/Low Limit', 'omaha', 'limit', 'high-low8', 4),
  O4JPL: variant('O4JPL', 'Omaha 4 High/Low pot limit', 'Omaha 4 High/Low Pot Limit', 'omaha', 'pot-limit', 'high-low8', 4),
  O5HPL: variant('O5HPL', 'Omaha Poker 5 High pot limit', 'Omaha 5 High Pot Limit', 'omaha', 'pot-limit', 'high', 5),
  '7SHL': variant('7SHL', 'Seven Card Stud Poker High limit', '7 Card Stud High Limit', 'stud', 'limit', 'high', 0),
  '7SJL': variant('7SJL', 'Seven Card Stud Poker High/Low limit', '7 Card Stud High/Low Limit', 'stud', 'limit', 'high-low8', 0),
  '7SLL': variant('7SLL', 'Seven Card Stud Poker Razz (ou Low) limit', '7 Card Stud Razz Limit', 'stud', 'limit', 'razz', 0),
  '2T7TD': variant(
    '2T7TD',
    'Triple draw deuce to seven (2-7) Lowball (ou low) limit',
    'Triple Draw deuce to seven Lowball Limit',
    'draw',
    'limit',
    'low27',
    0,
  ),
};

/** True when `x` is one of the eleven decree variant codes. */
export function isVariantCode(x: unknown): x is VariantCode {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(VARIANTS, x);
}

/** The variant of this code. */
export function variantOf(code: VariantCode): Variant {
  return VARIANTS[code];
}
