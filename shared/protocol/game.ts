/**
 * Schemas of the rules package's plain data as it crosses the wire: table rules (R-INFO), the hand
 * plan, an engine action as one seat sees it (`actionFor`), and the hand record (R-RESULTS,
 * R-HISTORY). The hand in progress travels as a `HandView` (hand.ts), never as the engine's state. Cards a recipient may not see travel as `null` (DESIGN.md §1).
 * Every object is closed (unknown fields refused), so the wire carries exactly the engine's data.
 */
import type { Action, HandPlan, LogEntry } from '../rules/engine/types';
import type { HandRecord } from '../rules/record';
import { REPLAY_HOUSE_RULES, type TableRules } from '../rules/tableRules';
import { ROUND_NAMES, VARIANT_CODES } from '../rules/variants';
import { arr, bool, int, nullable, obj, oneOf, str } from '../validate';
import { ACTIONS_MAX, HAND_ID_MAX, PLAYER_NAME_MAX, SEATS_MAX } from './limits';
import { amount, as, card, seatIndex, signedAmount, union } from './schema';

const nullableCard = nullable(card);
const seatList = arr(seatIndex, { max: 10 });
const cards = (max: number) => arr(card, { max });
const maybeCards = (max: number) => arr(nullableCard, { max });

export const variantCode = oneOf(...VARIANT_CODES);

export { ROUND_NAMES };
export const roundName = oneOf(...ROUND_NAMES);

/** R-INFO: everything a table shows before the player sits (shared/rules/tableRules.ts). */
export const tableRulesSchema = as<TableRules>(
  obj({
    variant: variantCode,
    structure: oneOf('limit', 'pot-limit', 'no-limit'),
    smallBlind: amount,
    bigBlind: amount,
    ante: amount,
    bringIn: amount,
    smallBet: amount,
    bigBet: amount,
    cap: nullable(int({ min: 1, max: 100 })),
    capHeadsUp: bool,
    minRaise: oneOf('increment', 'double'),
    studOpenPairBigBet: bool,
    lowball27: oneOf('decree', 'international'),
    rake: obj({ basisPoints: int({ min: 0, max: 10_000 }), cap: nullable(amount), noFlopNoDrop: bool }),
    actionSeconds: int({ min: 1, max: 3600 }),
    timeBankSeconds: int({ min: 0, max: 36_000 }),
    anteBy: oneOf('everyone', 'big-blind'),
    // Replay-only house rules of a recorded hand (a record or an imported file, never a live table).
    houseRules: arr(oneOf(...REPLAY_HOUSE_RULES), { max: REPLAY_HOUSE_RULES.length }),
  }, ['anteBy', 'houseRules']),
);

export const handPlanSchema = as<HandPlan>(
  obj({
    button: nullable(seatIndex),
    smallBlind: nullable(seatIndex),
    bigBlind: nullable(seatIndex),
    extraBigBlinds: seatList,
    deadSmallBlinds: seatList,
    dealtIn: seatList,
  }),
);

/** An engine action as the recipient sees it: other players' down cards and discards are `null`. */
export const actionSchema = as<Action>(
  union('type', {
    deal: obj({ type: oneOf('deal'), seat: nullable(seatIndex), cards: maybeCards(7) }),
    reshuffle: obj({ type: oneOf('reshuffle') }),
    fold: obj({ type: oneOf('fold'), seat: seatIndex }),
    check: obj({ type: oneOf('check'), seat: seatIndex }),
    call: obj({ type: oneOf('call'), seat: seatIndex }),
    bet: obj({ type: oneOf('bet'), seat: seatIndex, to: amount }),
    bringIn: obj({ type: oneOf('bringIn'), seat: seatIndex }),
    draw: obj({ type: oneOf('draw'), seat: seatIndex, discards: maybeCards(5) }),
    show: obj({ type: oneOf('show'), seat: seatIndex, cards: cards(7) }, ['cards']),
    muck: obj({ type: oneOf('muck'), seat: seatIndex }),
  }),
);

const r = { round: roundName };
export const logEntrySchema = as<LogEntry>(
  union('kind', {
    post: obj({ ...r, kind: oneOf('post'), seat: seatIndex, post: oneOf('ante', 'small blind', 'big blind', 'dead small blind'), amount, allIn: bool }),
    deal: obj({ ...r, kind: oneOf('deal'), seat: nullable(seatIndex), cards: maybeCards(7), up: arr(bool, { max: 7 }) }),
    reshuffle: obj({ ...r, kind: oneOf('reshuffle'), stub: int({ min: 0, max: 52 }) }),
    'bring-in': obj({ ...r, kind: oneOf('bring-in'), seat: seatIndex, amount, allIn: bool }),
    fold: obj({ ...r, kind: oneOf('fold'), seat: seatIndex }),
    check: obj({ ...r, kind: oneOf('check'), seat: seatIndex }),
    call: obj({ ...r, kind: oneOf('call'), seat: seatIndex, amount, allIn: bool }),
    bet: obj({ ...r, kind: oneOf('bet'), seat: seatIndex, amount, to: amount, allIn: bool }),
    raise: obj({ ...r, kind: oneOf('raise'), seat: seatIndex, amount, to: amount, allIn: bool }),
    complete: obj({ ...r, kind: oneOf('complete'), seat: seatIndex, amount, to: amount, allIn: bool }),
    discard: obj({ ...r, kind: oneOf('discard'), seat: seatIndex, cards: maybeCards(5) }),
    show: obj({ ...r, kind: oneOf('show'), seat: seatIndex, cards: maybeCards(7) }),
    muck: obj({ ...r, kind: oneOf('muck'), seat: seatIndex }),
    return: obj({ ...r, kind: oneOf('return'), seat: seatIndex, amount }),
  }),
);

const potResultSchema = obj({
  amount,
  rake: amount,
  eligible: seatList,
  shares: arr(obj({ seat: seatIndex, amount, half: oneOf('whole', 'high', 'low') }), { max: 20 }),
});

const uncalledSchema = arr(obj({ seat: seatIndex, amount, round: roundName }), { max: 20 });

const playerName = str({ min: 1, max: PLAYER_NAME_MAX });

const explanationSchema = obj({
  game: oneOf('high', 'omaha-high', 'omaha-low8', 'low8', 'razz', '27-decree', '27-international'),
  value: amount,
  category: str({ max: 40 }),
  labelFr: str({ max: 200 }),
  labelEn: str({ max: 200 }),
  cards: cards(5),
});

const recordSeatSchema = obj({
  seat: seatIndex,
  player: playerName,
  stackBefore: amount,
  stackAfter: amount,
  dealtIn: bool,
  cards: maybeCards(7),
  up: arr(bool, { max: 7 }),
  folded: bool,
  shown: bool,
  mucked: bool,
  committed: amount,
  won: amount,
  rake: amount,
  net: signedAmount,
  hand: nullable(obj({ high: nullable(explanationSchema), low: nullable(explanationSchema) })),
});

/** A finished hand as one player may see it (R-RESULTS, R-HISTORY): `recordOf(viewFor(final, seat))`. */
export const handRecordSchema = as<HandRecord>(
  obj({
    handId: nullable(str({ max: HAND_ID_MAX })),
    variant: variantCode,
    rules: tableRulesSchema,
    tableSize: int({ min: 2, max: 10 }),
    button: nullable(seatIndex),
    smallBlind: nullable(seatIndex),
    bigBlind: nullable(seatIndex),
    seats: arr(recordSeatSchema, { max: SEATS_MAX }),
    board: cards(5),
    actions: arr(logEntrySchema, { max: ACTIONS_MAX }),
    rounds: arr(roundName, { max: 15 }),
    pots: arr(potResultSchema, { max: 10 }),
    uncalled: uncalledSchema,
    rake: amount,
    showdown: bool,
  }),
);
