/**
 * Public types of the hand state machine (DESIGN.md §3, CONVENTIONS.md "The rules engine as a state
 * machine"). Everything here is plain serialisable data: no classes, no Maps, cards are integers
 * 0..51 (R-CARDCODE) or `null` when the holder of the state may not see them.
 *
 *   startHand(config)        → HandState        (forced bets posted, cards to deal)
 *   legalActions(state)      → LegalActions     (who decides, with which bounds; or what to deal)
 *   apply(state, action)     → ApplyResult      ({ ok: true, state } or a refusal naming the rule)
 *   viewFor(state, seat)     → HandState        (what that seat may see; null = an observer)
 *
 * Amounts in actions are totals for the current betting round ("raise TO", T 7-9), as in PHH.
 */
import type { Card } from '../cards';
import type { TableRules } from '../tableRules';
import type { RoundName, VariantCode } from '../variants';

/**
 * What the table (shared/rules/table) decides before each hand and the engine consumes. Seats are
 * indices into `HandConfig.seats`.
 */
export interface HandPlan {
  button: number | null; // seat index of the button; may be an empty seat (dead button); null in Stud
  smallBlind: number | null; // seat posting the small blind; null when it is missing (dead small blind)
  bigBlind: number | null; // seat posting the big blind; null in Stud
  extraBigBlinds: number[]; // players coming in who post a big blind out of position (R-BUTTON)
  deadSmallBlinds: number[]; // players who also post a dead small blind (goes to the pot, not their bet)
  dealtIn: number[]; // seats dealt in this hand, in clockwise order starting left of the button
}

/** A seated player at the start of the hand. */
export interface SeatConfig {
  /** The player's id (or name) as the table knows it; carried into the record. */
  player: string;
  /** Chips on the table before the hand (integer, R-NODEBT). */
  stack: number;
}

export interface HandConfig {
  rules: TableRules;
  /** One entry per seat of the table (its length is the table size, R-SEATS); null = empty seat. */
  seats: (SeatConfig | null)[];
  plan: HandPlan;
  /** Carried into the record. */
  handId?: string;
}

// ---------------------------------------------------------------------------------------------
// Actions

/** Deal cards from outside (operator, replayer, test). `seat: null` deals board cards. */
export interface DealAction {
  type: 'deal';
  seat: number | null;
  /** 1..owed cards; a private down card may be `null` (unknown to this state's holder). */
  cards: (Card | null)[];
}

/**
 * Triple Draw (R-DEAL): the stub cannot serve the draw, so the discards of earlier draw rounds and
 * what is left of the stub are shuffled into a new stub. The current round's discards stay out.
 */
export interface ReshuffleAction {
  type: 'reshuffle';
}

export interface FoldAction {
  type: 'fold';
  seat: number;
}
export interface CheckAction {
  type: 'check';
  seat: number;
}
export interface CallAction {
  type: 'call';
  seat: number;
}
/** Bet, raise or (Stud) complete TO `to`: the player's total bet for this round after the action. */
export interface BetAction {
  type: 'bet';
  seat: number;
  to: number;
}
/** Stud: the lowest up-card posts the bring-in (it may instead complete with a `bet`). */
export interface BringInAction {
  type: 'bringIn';
  seat: number;
}
/** Triple Draw: discard these cards (0..5; `[]` stands pat). Unknown cards may be `null`. */
export interface DrawAction {
  type: 'draw';
  seat: number;
  discards: (Card | null)[];
}
/** Showdown: show the hand. `cards` is needed when this state does not know them (a client's view). */
export interface ShowAction {
  type: 'show';
  seat: number;
  cards?: Card[];
}
/** Showdown: give up the pot without showing (T 8-5). */
export interface MuckAction {
  type: 'muck';
  seat: number;
}

export type Action =
  | DealAction
  | ReshuffleAction
  | FoldAction
  | CheckAction
  | CallAction
  | BetAction
  | BringInAction
  | DrawAction
  | ShowAction
  | MuckAction;

export type PlayerAction = Exclude<Action, DealAction | ReshuffleAction>;

// ---------------------------------------------------------------------------------------------
// What may happen now

/** What the dealer must deal next: `count` cards to `seat` (null = the board), face down or up. */
export interface DealRequest {
  seat: number | null;
  count: number;
  /** Per card, in order: true when the card is dealt face up (Stud up cards, board cards). */
  up: boolean[];
  /** Cards left in the stub (Triple Draw; 52 minus cards dealt otherwise). */
  stub: number;
  /** True when the stub cannot serve this deal: a `reshuffle` is due (R-DEAL). */
  reshuffle: boolean;
}

/** The range of a bet, raise or completion TO amount (inclusive). */
export interface BetBounds {
  /** `bet` opens the round, `raise` raises a bet, `complete` brings the Stud bring-in up to the small bet. */
  kind: 'bet' | 'raise' | 'complete';
  min: number;
  max: number;
  /**
   * Limit games: only `min` or `max` may be chosen (they are equal except for the Stud open pair on
   * 4th street, small or big bet, or a short stack's all-in). No-limit and pot-limit: any integer
   * from `min` to `max`.
   */
  exact: boolean;
}

export interface LegalActions {
  /**
   * `deal`: the dealer must deal (`deal`); `act`: `seat` decides a betting action; `draw`: `seat`
   * chooses its discards; `show`: `seat` shows or mucks; `done`: the hand is over (`state.result`).
   */
  next: 'deal' | 'act' | 'draw' | 'show' | 'done';
  seat: number | null;
  /** What the dealer may deal now (with `next: 'show'` in an all-in runout, shows and deals may come in any order). */
  deal: DealRequest | null;
  fold: boolean;
  check: boolean;
  /** Chips a call adds (all-in for less included); null when calling is not possible. */
  call: number | null;
  /** Stud: chips the bring-in posts, when it is offered. */
  bringIn: number | null;
  /** Bet / raise / complete TO bounds; null when not possible (cap, no reopening, no chips). */
  bet: BetBounds | null;
  /** Triple Draw: most cards that may be discarded. */
  draw: { max: number } | null;
  show: boolean;
  muck: boolean;
}

export interface Refusal {
  ok: false;
  /** The requirement refused, e.g. `R-MINRAISE`. */
  rule: string;
  /** Why, in English for logs; `message` as every other refusal of the product says it (DecisionCode refusals, the wire). */
  message: string;
  /** Bounds of what would have been accepted, when relevant. */
  min?: number;
  max?: number;
  call?: number;
}

export type ApplyResult = { ok: true; state: HandState } | Refusal;

// ---------------------------------------------------------------------------------------------
// State

/** `empty`: no player; `out`: seated, not dealt in; `in`: may act; `allin`: no chips behind; `folded`. */
export type SeatStatus = 'empty' | 'out' | 'in' | 'allin' | 'folded';

export interface SeatState {
  status: SeatStatus;
  /** Chips behind. */
  stack: number;
  /** Chips bet in the current betting round (not yet gathered). */
  bet: number;
  /** Chips this seat has put in the pot this hand (antes, dead blinds, bets), net of uncalled returns. */
  committed: number;
  /** Private cards in dealing order (Triple Draw: replacements appended); null = unknown here. */
  hole: (Card | null)[];
  /** Per private card: dealt face up (Stud). */
  up: boolean[];
  /** Cards still to be dealt to this seat in the current dealing step. */
  owed: number;
  /** Has made a voluntary betting decision in this round (posting a blind is not one). */
  acted: boolean;
  /** R-ALLIN, T 7-19: once acted, may raise again only when the bet reaches this level (0 = free). */
  reopenAt: number;
  /** Triple Draw: has chosen its discards in this draw round. */
  drew: boolean;
  /** Triple Draw: this draw round's discards (never dealt back in the same round, R-DEAL). */
  discards: (Card | null)[];
  shown: boolean;
  mucked: boolean;
}

export type Phase = 'deal' | 'draw' | 'bet' | 'showdown' | 'done';

/** One line of the hand's log: what happened, in which round of the record (A 1.3.6.d.5). */
export type LogEntry =
  | { round: RoundName; kind: 'post'; seat: number; post: PostKind; amount: number; allIn: boolean }
  | { round: RoundName; kind: 'deal'; seat: number | null; cards: (Card | null)[]; up: boolean[] }
  | { round: RoundName; kind: 'reshuffle'; stub: number }
  | { round: RoundName; kind: 'bring-in'; seat: number; amount: number; allIn: boolean }
  | { round: RoundName; kind: 'fold'; seat: number }
  | { round: RoundName; kind: 'check'; seat: number }
  | { round: RoundName; kind: 'call'; seat: number; amount: number; allIn: boolean }
  | { round: RoundName; kind: 'bet' | 'raise' | 'complete'; seat: number; amount: number; to: number; allIn: boolean }
  | { round: RoundName; kind: 'discard'; seat: number; cards: (Card | null)[] }
  | { round: RoundName; kind: 'show'; seat: number; cards: (Card | null)[] }
  | { round: RoundName; kind: 'muck'; seat: number }
  | { round: RoundName; kind: 'return'; seat: number; amount: number };

/** Forced bets (R-FORCED, R-BUTTON). `dead small blind` goes to the pot, not the player's bet. */
export type PostKind = 'ante' | 'small blind' | 'big blind' | 'dead small blind';

/** A winner's part of a pot: `whole`, or the `high` / `low` half of a high/low split (R-LOW8). */
export interface PotShare {
  seat: number;
  amount: number;
  half: 'whole' | 'high' | 'low';
}

export interface PotResult {
  /** Chips in the pot before rake. */
  amount: number;
  /** Rake taken from this pot (R-RAKE). */
  rake: number;
  /** Seats that contributed to this pot and did not fold (R-POTS). */
  eligible: number[];
  /** Who won what; the amounts add up to `amount − rake`. */
  shares: PotShare[];
}

export interface HandResult {
  /** Main pot first, then side pots in the order they were built. */
  pots: PotResult[];
  /** Indices into `pots` in the order they were settled: the last side pot first (T 8-14). */
  settled: number[];
  /** Uncalled bets returned (R-UNCALLED, D art. 9), in the order they happened. */
  uncalled: { seat: number; amount: number; round: RoundName }[];
  /** Total rake (R-RAKE). */
  rake: number;
  /** Per seat: chips won from the pots (after rake). */
  won: number[];
  /** Per seat: rake taken from what this seat won. */
  rakePaid: number[];
  /** Per seat: stack after − stack before (R-CONSERVE: Σ net + rake = 0). */
  net: number[];
  /** Whether hands were compared (else the last player standing took everything). */
  showdown: boolean;
  /** Per seat at showdown: high value and low value (0 = none), "higher is better"; null otherwise. */
  values: ({ high: number; low: number } | null)[];
}

export interface HandState {
  readonly variant: VariantCode;
  readonly rules: TableRules;
  readonly plan: HandPlan;
  /** Per seat: the player's id, null for an empty seat. */
  readonly players: (string | null)[];
  /** Per seat: chips before the hand (0 for empty seats). */
  readonly stacksBefore: number[];
  readonly handId: string | null;
  /** Whose view this is: null for the full state (operator), a seat for that player's view, -1 for an observer. */
  readonly viewer: number | null;

  phase: Phase;
  /** Index into the variant's streets. */
  street: number;
  seats: SeatState[];
  board: Card[];
  /** Board cards still to deal in the current dealing step. */
  boardOwed: number;
  /** Chips gathered in the pot: antes, dead blinds and closed rounds (current bets excluded). */
  pot: number;

  // The betting round.
  /** The level to call (a short all-in big blind still counts as the full blind, R-ALLIN). */
  currentBet: number;
  /** The largest full bet or raise increment of the round (R-MINRAISE). */
  lastIncrement: number;
  /** The bet level of the last full bet or raise (R-MINRAISE `double`, limit raises). */
  lastFullLevel: number;
  /** Full bets and raises made this round, the opening bet included (R-LIMIT cap). */
  fullBets: number;
  /** The cap was reached with more than two players, so it stays even if the pot becomes heads-up. */
  capLocked: boolean;
  /** Limit Stud: the big bet is allowed on this street because of an open pair on 4th street. */
  bigBetAllowed: boolean;
  /** Stud: the bring-in is still to be posted by `toAct`. */
  bringInDue: boolean;
  toAct: number | null;
  /** Seat that opened the round's action (showdown order when nobody bet, R-SHOWDOWN). */
  roundFirst: number | null;
  /** Last seat that bet or raised in the current round (R-SHOWDOWN). */
  aggressor: number | null;

  // Dealing (R-DEAL). The deck itself lives with the dealer, never in the state.
  /** Cards left in the stub. */
  stub: number;
  /** Triple Draw: discards of earlier draw rounds not yet reshuffled into the stub. */
  discardPool: (Card | null)[];
  /** Bit set of known cards that may not be dealt now (cards 0..25 in `usedLo`, 26..51 in `usedHi`). */
  usedLo: number;
  usedHi: number;

  // Showdown (R-SHOWDOWN).
  /** Seats still to show or muck, in order. */
  showQueue: number[];
  /** All-in with no betting left: every hand is shown, none mucked (T 8-4). */
  allInShowdown: boolean;

  log: LogEntry[];
  result: HandResult | null;
}
