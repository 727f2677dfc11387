/**
 * The compact binary form of a stored hand (R-HISTORY, DESIGN.md §3 and §5: ≤ 400 bytes a hand on
 * disk). `encodeHand(record)` → bytes; `decodeHand(bytes)` → the same `HandRecord` (deep-equal), or
 * `{ ok: false, reason }` for bytes it cannot trust. Decoding never throws.
 *
 * Layout (version 1)
 * ------------------
 *   u8      version (1); a newer version is refused, never guessed at
 *   u16     CRC-16/CCITT of every byte after it (corruption is refused, not decoded into a wrong hand)
 *   varint  number of card codes, then the codes packed 6 bits each: 0..51 a card (R-CARDCODE), 52 an
 *           unknown card (`null`: another player's down card, DESIGN.md §1). Every card of the body
 *           is taken from this stream in reading order.
 *   u8      variant (index in VARIANT_IDS, frozen: it is on disk)
 *   varint  flags: where the hand id is, whether players are dictionary ids, showdown, rake present,
 *           and one bit per derived field that did not match its derivation (X_*), which is then
 *           stored explicitly (so any record round-trips exactly, and engine records stay small)
 *   [text]  hand id, when kept inline (a store keeps it in its own columns: F_ID_OUTSIDE)
 *   rules   the primary stake (big blind; Stud: small bet), a bit mask of the fields that differ from
 *           `makeTableRules(variant, { bigBlind | smallBet })`, then those fields (R-INFO)
 *   varint  table size; button + 1, small blind + 1, big blind + 1 (0 = none)
 *   seats   occupied seats as a bit mask (or a list); per seat: flags (dealt in, folded, shown,
 *           mucked), player (dictionary id or text), stack before, and only when not derivable:
 *           committed, won, net and stack after, cards and up flags; the seat's rake when F_RAKE
 *   actions count, then per log entry: an opcode byte [allIn:1 | round:3 | kind:4] (round = index in
 *           the variant's rounds), the seat + 1 (0 = the board), and the kind's operands. Amounts
 *           that the running totals predict (a post of the table's blind, a call of what is owed, a
 *           bet's chips added = to − already bet, an uncalled return) cost one byte or nothing.
 *   [board, rounds, uncalled, hand rake]  only when they differ from their derivation
 *   pots    per pot: amount, rake (F_RAKE), eligible seats, shares (seat·3 + half); the last share's
 *           amount is implied by `amount − rake − others` (R-POTS, R-RAKE)
 *
 * Not stored, recomputed on decode: stack after and net (from committed and won, R-CONSERVE),
 * committed (from the actions), won (from the shares), each seat's final cards (replaying deals,
 * discards and shows), the board, uncalled returns (the `return` entries, R-UNCALLED), the rounds
 * present, the total rake, and the shown hands' descriptions (`explainHand`, R-RESULTS).
 *
 * Table rules: stored as differences from the variant's defaults rather than as an id in a store
 * dictionary, so that the bytes stand alone (an export or a copy needs no side table) for 1 to 8
 * bytes a hand. Players may be dictionary ids (`EncodeOptions.playerId`): names are the largest
 * part of a hand otherwise, and the history store keeps one table of names.
 */
import type { Card } from '../rules/cards';
import type { LogEntry } from '../rules/engine/types';
import { explainHand, type EvalGame } from '../rules/eval';
import type { HandRecord, RecordSeat } from '../rules/record';
import type { TableRules } from '../rules/tableRules';
import { VARIANTS, type RoundName, type VariantCode } from '../rules/variants';
import { ByteReader, ByteWriter, CorruptBytes, crc16, packSixBits, unpackSixBits } from './bytes';
import { COMPACT_VERSION, VARIANT_IDS, ROUND_IDS, type EncodeOptions, type DecodeOptions, type DecodeRefusal, sameCards, sameFlags, roundsPresent, writeSeatSet, readSeatSet } from './compact/format';
import { Replay } from './compact/totals';
import { UNKNOWN_CARD, cardCode, roundId, encodeEntry, amount, readRound, decodeEntry } from './compact/entries';
import { writeRules, readRules } from './compact/rules';
import { writePots, readPots } from './compact/pots';

// Flags of the hand (F_*: where things are; X_*: a derived field stored because its derivation missed) and of each seat (S_*). Frozen: on disk.
const F_ID_INLINE = 1 << 0;
const F_ID_OUTSIDE = 1 << 1;
const F_PLAYER_IDS = 1 << 2;
const F_SHOWDOWN = 1 << 3;
const F_RAKE = 1 << 4;
const X_CARDS = 1 << 5;
const X_COMMITTED = 1 << 6;
const X_WON = 1 << 7;
const X_NET = 1 << 8;
const X_UNCALLED = 1 << 9;
const X_ROUNDS = 1 << 10;
const X_HAND_RAKE = 1 << 11;
const X_BOARD = 1 << 12;
const ALL_FLAGS = (1 << 13) - 1;
const S_DEALT_IN = 1;
const S_FOLDED = 2;
const S_SHOWN = 4;
const S_MUCKED = 8;

export { COMPACT_VERSION, ROUND_IDS, VARIANT_IDS, isDecodeRefusal, type DecodeOptions, type DecodeRefusal, type EncodeOptions } from './compact/format';
// ---------------------------------------------------------------------------------------------
// Encoding

// Scratch writers reused by every call (encoding is synchronous and never re-entered): the only
// allocation left per hand is the result itself, which keeps an import free of garbage.
const HEAD = new ByteWriter(512);
const ACTIONS = new ByteWriter(1024);
const TAIL = new ByteWriter(256);
const CARDS = new ByteWriter(64);
const SEAT_CARDS: number[] = [];
const ACTION_CARDS: number[] = [];
const BOARD_CARDS: number[] = [];

/** The compact bytes of a hand (see the layout above). Throws only on a record no engine makes (a bug). */
export function encodeHand(record: HandRecord, options: EncodeOptions = {}): Uint8Array {
  const variant = record.variant;
  const variantId = VARIANT_IDS.indexOf(variant);
  if (variantId < 0) throw new RangeError(`unknown variant ${String(variant)}`);
  const v = VARIANTS[variant];
  const rules = record.rules;
  const tableSize = record.tableSize;
  const replay = new Replay(tableSize, record.seats, rules, v.streets[0].round);

  // Actions first: they drive the derivations that decide the flags.
  const act = ACTIONS;
  act.reset();
  const actCards = ACTION_CARDS;
  actCards.length = 0;
  act.uint(record.actions.length);
  for (const e of record.actions) {
    replay.enter(e.round);
    encodeEntry(e, act, actCards, replay, v.rounds);
    replay.apply(e);
  }

  let flags = 0;
  if (record.handId !== null) flags |= options.handIdOutside ? F_ID_OUTSIDE : F_ID_INLINE;
  if (options.playerId) flags |= F_PLAYER_IDS;
  if (record.showdown) flags |= F_SHOWDOWN;
  let potRake = 0;
  for (const p of record.pots) potRake += p.rake;
  let anyRake = potRake > 0 || record.rake !== 0;
  for (const s of record.seats) if (s.rake !== 0) anyRake = true;
  if (anyRake) flags |= F_RAKE;

  const won = new Array<number>(tableSize).fill(0);
  for (const p of record.pots) for (const sh of p.shares) if (sh.seat >= 0 && sh.seat < tableSize) won[sh.seat] += sh.amount;
  for (const s of record.seats) {
    if (!sameCards(s.cards, replay.hole[s.seat]) || !sameFlags(s.up, replay.up[s.seat])) flags |= X_CARDS;
    if (s.committed !== replay.committed[s.seat]) flags |= X_COMMITTED;
    if (s.won !== won[s.seat]) flags |= X_WON;
    if (s.net !== s.won - s.committed || s.stackAfter !== s.stackBefore + s.net) flags |= X_NET;
  }
  if (!sameCards(record.board, replay.board)) flags |= X_BOARD;
  const rounds = roundsPresent(variant, replay.present);
  if (rounds.length !== record.rounds.length || rounds.some((x, i) => x !== record.rounds[i])) flags |= X_ROUNDS;
  const un = record.uncalled;
  const ret = replay.returns;
  if (un.length !== ret.length || un.some((u, i) => u.seat !== ret[i].seat || u.amount !== ret[i].amount || u.round !== ret[i].round)) {
    flags |= X_UNCALLED;
  }
  if (record.rake !== potRake) flags |= X_HAND_RAKE;

  const w = HEAD;
  w.reset();
  const seatCards = SEAT_CARDS;
  const boardCards = BOARD_CARDS;
  seatCards.length = 0;
  boardCards.length = 0;
  w.byte(variantId);
  w.uint(flags);
  if (flags & F_ID_INLINE) w.text(record.handId as string);
  writeRules(w, variant, rules);
  w.uint(tableSize);
  w.uint(record.button === null ? 0 : record.button + 1);
  w.uint(record.smallBlind === null ? 0 : record.smallBlind + 1);
  w.uint(record.bigBlind === null ? 0 : record.bigBlind + 1);
  writeSeatSet(
    w,
    record.seats.map((s) => s.seat),
    tableSize,
  );
  for (const s of record.seats) {
    w.byte((s.dealtIn ? S_DEALT_IN : 0) | (s.folded ? S_FOLDED : 0) | (s.shown ? S_SHOWN : 0) | (s.mucked ? S_MUCKED : 0));
    if (options.playerId) w.uint(options.playerId(s.player));
    else w.text(s.player);
    w.uint(s.stackBefore);
    if (flags & X_COMMITTED) w.uint(s.committed);
    if (flags & X_WON) w.uint(s.won);
    if (flags & F_RAKE) w.uint(s.rake);
    if (flags & X_NET) {
      w.int(s.net);
      w.uint(s.stackAfter);
    }
    if (flags & X_CARDS) {
      w.uint(s.cards.length);
      w.uint(s.up.length);
      for (const u of s.up) w.byte(u ? 1 : 0);
      for (const c of s.cards) seatCards.push(cardCode(c));
    }
  }
  const t = TAIL;
  t.reset();
  if (flags & X_BOARD) {
    t.uint(record.board.length);
    for (const c of record.board) boardCards.push(cardCode(c));
  }
  if (flags & X_ROUNDS) {
    t.uint(record.rounds.length);
    for (const x of record.rounds) t.byte(roundId(x));
  }
  if (flags & X_UNCALLED) {
    t.uint(un.length);
    for (const u of un) {
      t.uint(u.seat);
      t.uint(u.amount);
      t.byte(roundId(u.round));
    }
  }
  if (flags & X_HAND_RAKE) t.uint(record.rake);
  writePots(t, record.pots, tableSize, (flags & F_RAKE) !== 0);

  // Assemble: version, CRC, the card stream (seat cards, action cards, board), the body.
  const c = CARDS;
  c.reset();
  c.uint(seatCards.length + actCards.length + boardCards.length);
  packSixBits([seatCards, actCards, boardCards], c);
  const bytes = new Uint8Array(3 + c.length + w.length + act.length + t.length);
  bytes[0] = COMPACT_VERSION;
  let at = 3;
  for (const part of [c, w, act, t]) {
    bytes.set(part.view(), at);
    at += part.length;
  }
  const crc = crc16(bytes, 3, bytes.length);
  bytes[1] = crc >>> 8;
  bytes[2] = crc & 0xff;
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Decoding

/**
 * The hand the bytes hold, or why they cannot be trusted: an unknown version, a checksum mismatch,
 * truncated or trailing bytes, an impossible value. Never throws.
 */
export function decodeHand(bytes: Uint8Array, options: DecodeOptions = {}): HandRecord | DecodeRefusal {
  if (!(bytes instanceof Uint8Array)) return { ok: false, reason: 'not bytes' };
  if (bytes.length < 3) return { ok: false, reason: `${bytes.length} byte(s): too short to be a hand (truncated)` };
  if (bytes[0] !== COMPACT_VERSION) {
    return { ok: false, reason: `compact hand version ${bytes[0]} is not known here (this build reads version ${COMPACT_VERSION})` };
  }
  const crc = (bytes[1] << 8) | bytes[2];
  if (crc16(bytes, 3, bytes.length) !== crc) return { ok: false, reason: 'checksum mismatch: the bytes are corrupt or truncated' };
  try {
    return decodeBody(new ByteReader(bytes, 3), options);
  } catch (e) {
    if (e instanceof CorruptBytes) return { ok: false, reason: e.message };
    // Anything else means bytes that passed the checksum yet make no sense (never seen from our own
    // encoder): still a refusal, as decoding promises never to throw on what it is given.
    return { ok: false, reason: `undecodable: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface SeatDraft {
  seat: RecordSeat;
  committed: number;
  won: number;
  net: number;
  stackAfter: number;
  cards: (Card | null)[] | null;
  up: boolean[] | null;
}

function decodeBody(r: ByteReader, options: DecodeOptions): HandRecord {
  const nCards = r.count(Math.floor((r.left * 8) / 6), 'the card count');
  const cardCodes = unpackSixBits(r, nCards);
  let nextCard = 0;
  const card = (): Card | null => {
    if (nextCard >= cardCodes.length) throw new CorruptBytes('more cards are read than were written');
    const c = cardCodes[nextCard++];
    if (c > UNKNOWN_CARD) throw new CorruptBytes(`card code ${c} is not a card`);
    return c === UNKNOWN_CARD ? null : c;
  };

  const variantId = r.byte();
  if (variantId >= VARIANT_IDS.length) throw new CorruptBytes(`variant ${variantId} is unknown`);
  const variant = VARIANT_IDS[variantId];
  const v = VARIANTS[variant];
  const flags = r.uint();
  if (flags & ~ALL_FLAGS || (flags & F_ID_INLINE && flags & F_ID_OUTSIDE)) throw new CorruptBytes('unknown flags');
  let handId: string | null = null;
  if (flags & F_ID_INLINE) handId = r.text();
  if (flags & F_ID_OUTSIDE) {
    if (typeof options.handId !== 'string') throw new CorruptBytes('the hand id is kept outside these bytes and was not given');
    handId = options.handId;
  }
  const rules = readRules(r, variant);
  const tableSize = r.count(255, 'the table size');
  const optSeat = (what: string): number | null => {
    const x = r.count(tableSize, what);
    return x === 0 ? null : x - 1;
  };
  const button = optSeat('the button');
  const smallBlind = optSeat('the small blind');
  const bigBlind = optSeat('the big blind');
  const seatIndices = readSeatSet(r, tableSize);
  const drafts: SeatDraft[] = [];
  for (const seatIndex of seatIndices) {
    const sf = r.byte();
    if (sf > 15) throw new CorruptBytes('unknown seat flags');
    let player: string;
    if (flags & F_PLAYER_IDS) {
      const id = r.uint();
      const name = options.playerName?.(id);
      if (name === undefined) throw new CorruptBytes(`player id ${id} is not in the dictionary`);
      player = name;
    } else {
      player = r.text();
    }
    const stackBefore = amount(r);
    const d: SeatDraft = {
      seat: {
        seat: seatIndex,
        player,
        stackBefore,
        stackAfter: 0,
        dealtIn: (sf & S_DEALT_IN) !== 0,
        cards: [],
        up: [],
        folded: (sf & S_FOLDED) !== 0,
        shown: (sf & S_SHOWN) !== 0,
        mucked: (sf & S_MUCKED) !== 0,
        committed: 0,
        won: 0,
        rake: 0,
        net: 0,
        hand: null,
      },
      committed: flags & X_COMMITTED ? amount(r) : 0,
      won: flags & X_WON ? amount(r) : 0,
      net: 0,
      stackAfter: 0,
      cards: null,
      up: null,
    };
    if (flags & F_RAKE) d.seat.rake = amount(r);
    if (flags & X_NET) {
      d.net = r.int();
      d.stackAfter = amount(r);
    }
    if (flags & X_CARDS) {
      const nc = r.count(cardCodes.length, 'a seat card count');
      const nu = r.count(r.left, 'a seat face flag count');
      d.up = [];
      for (let k = 0; k < nu; k++) {
        const b = r.byte();
        if (b > 1) throw new CorruptBytes('a face flag is not 0 or 1');
        d.up.push(b === 1);
      }
      d.cards = [];
      for (let k = 0; k < nc; k++) d.cards.push(card());
    }
    drafts.push(d);
  }

  const replay = new Replay(tableSize, drafts.map((d) => d.seat), rules, v.streets[0].round);
  const nActions = r.count(r.left, 'the action count');
  const actions: LogEntry[] = [];
  for (let i = 0; i < nActions; i++) {
    const e = decodeEntry(r, card, replay, v.rounds, tableSize);
    replay.apply(e);
    actions.push(e);
  }

  let board: Card[];
  if (flags & X_BOARD) {
    const n = r.count(cardCodes.length, 'the board size');
    board = [];
    for (let k = 0; k < n; k++) {
      const c = card();
      if (c === null) throw new CorruptBytes('a board card is unknown');
      board.push(c);
    }
  } else {
    board = replay.board;
  }
  let rounds: RoundName[];
  if (flags & X_ROUNDS) {
    const n = r.count(ROUND_IDS.length, 'the round count');
    rounds = [];
    for (let k = 0; k < n; k++) rounds.push(readRound(r));
  } else {
    rounds = roundsPresent(variant, replay.present);
  }
  let uncalled: HandRecord['uncalled'];
  if (flags & X_UNCALLED) {
    const n = r.count(r.left, 'the uncalled count');
    uncalled = [];
    for (let k = 0; k < n; k++) {
      const seat = r.count(tableSize - 1, 'an uncalled seat');
      const amt = amount(r);
      uncalled.push({ seat, amount: amt, round: readRound(r) });
    }
  } else {
    uncalled = replay.returns;
  }
  const explicitHandRake = flags & X_HAND_RAKE ? amount(r) : null;
  const pots = readPots(r, tableSize, (flags & F_RAKE) !== 0);
  if (r.left !== 0) throw new CorruptBytes(`${r.left} byte(s) left over after the hand`);
  if (nextCard !== cardCodes.length) throw new CorruptBytes('cards were written that the hand does not use');

  const won = new Array<number>(tableSize).fill(0);
  let potRake = 0;
  for (const p of pots) {
    potRake += p.rake;
    for (const sh of p.shares) won[sh.seat] += sh.amount;
  }
  const seats: RecordSeat[] = [];
  for (const d of drafts) {
    const s = d.seat;
    s.committed = flags & X_COMMITTED ? d.committed : replay.committed[s.seat];
    s.won = flags & X_WON ? d.won : won[s.seat];
    if (flags & X_NET) {
      s.net = d.net;
      s.stackAfter = d.stackAfter;
    } else {
      s.net = s.won - s.committed;
      s.stackAfter = s.stackBefore + s.net;
    }
    s.cards = d.cards ?? replay.hole[s.seat];
    s.up = d.up ?? replay.up[s.seat];
    seats.push(s);
  }
  for (const s of seats) s.hand = describe(variant, rules, s, board);
  return {
    handId,
    variant,
    rules,
    tableSize,
    button,
    smallBlind,
    bigBlind,
    seats,
    board,
    actions,
    rounds,
    pots,
    uncalled,
    rake: explicitHandRake ?? potRake,
    showdown: (flags & F_SHOWDOWN) !== 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Hand descriptions (R-RESULTS): recomputed as `recordOf` computes them (shared/rules/record.ts).

function gamesOf(variant: VariantCode, rules: TableRules): { high: EvalGame; low: EvalGame | null } {
  const v = VARIANTS[variant];
  switch (v.family) {
    case 'omaha':
      return { high: 'omaha-high', low: v.evaluation === 'high-low8' ? 'omaha-low8' : null };
    case 'draw':
      return { high: rules.lowball27 === 'international' ? '27-international' : '27-decree', low: null };
    default:
      return { high: v.evaluation === 'razz' ? 'razz' : 'high', low: v.evaluation === 'high-low8' ? 'low8' : null };
  }
}

function describe(variant: VariantCode, rules: TableRules, s: RecordSeat, board: readonly Card[]): RecordSeat['hand'] {
  if (!s.shown || s.cards.some((c) => c === null)) return null;
  const hole = s.cards as Card[];
  const v = VARIANTS[variant];
  const games = gamesOf(variant, rules);
  const explain = (game: EvalGame) =>
    v.family === 'omaha' ? explainHand(game, hole, board) : explainHand(game, v.family === 'holdem' ? hole.concat(board) : hole);
  return { high: explain(games.high), low: games.low === null ? null : explain(games.low) };
}
