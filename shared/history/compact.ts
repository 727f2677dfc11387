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
import type { LogEntry, PostKind, PotResult, PotShare } from '../rules/engine/types';
import { explainHand, type EvalGame } from '../rules/eval';
import type { HandRecord, RecordSeat } from '../rules/record';
import { makeTableRules, REPLAY_HOUSE_RULES, type TableRules } from '../rules/tableRules';
import { ROUND_NAMES, VARIANT_CODES, VARIANTS, type BettingStructure, type RoundName, type VariantCode } from '../rules/variants';
import { ByteReader, ByteWriter, CorruptBytes, crc16, packSixBits, unpackSixBits } from './bytes';

export const COMPACT_VERSION = 1;

/** Variant codes by their byte in the encoding: variants.ts's order, fixed on disk (compact.test.ts). */
export const VARIANT_IDS: readonly VariantCode[] = VARIANT_CODES;

/** Every record round name, for the rare round that is not one of the variant's: variants.ts's order, fixed on disk. */
export const ROUND_IDS: readonly RoundName[] = ROUND_NAMES;
const POST_KINDS: readonly PostKind[] = ['ante', 'small blind', 'big blind', 'dead small blind'];
const HALVES: readonly PotShare['half'][] = ['whole', 'high', 'low'];
const STRUCTURES: readonly BettingStructure[] = ['limit', 'pot-limit', 'no-limit'];

const UNKNOWN_CARD = 52;

// Flags.
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

// Seat flags.
const S_DEALT_IN = 1;
const S_FOLDED = 2;
const S_SHOWN = 4;
const S_MUCKED = 8;

// Opcode kinds (low 4 bits of the opcode byte).
const K_POST = 0;
const K_DEAL = 1;
const K_RESHUFFLE = 2;
const K_BRING_IN = 3;
const K_FOLD = 4;
const K_CHECK = 5;
const K_CALL = 6;
const K_BET = 7;
const K_RAISE = 8;
const K_COMPLETE = 9;
const K_DISCARD = 10;
const K_SHOW = 11;
const K_MUCK = 12;
const K_RETURN = 13;
const K_CALL_OWED = 14; // a call of exactly what the running totals say is owed: no operand
const ROUND_ESCAPE = 7;

// Table-rules difference mask, most frequent differences in the low bits (one varint byte).
const R_RAKE = 1 << 0;
const R_ANTE = 1 << 1;
const R_BRING_IN = 1 << 2;
const R_SMALL_BLIND = 1 << 3;
const R_BIG_BET = 1 << 4;
const R_CAP = 1 << 5;
const R_CAP_HEADS_UP = 1 << 6;
const R_MIN_RAISE = 1 << 7;
const R_OPEN_PAIR = 1 << 8;
const R_LOWBALL = 1 << 9;
const R_ACTION_SECONDS = 1 << 10;
const R_TIME_BANK = 1 << 11;
const R_ANTE_BY = 1 << 12;
const R_SMALL_BET = 1 << 13;
const R_BIG_BLIND = 1 << 14;
const R_STRUCTURE = 1 << 15;
const R_VARIANT = 1 << 16;
// Replay-only house rules of a recorded hand (tableRules.ts ReplayHouseRule): a byte, bit i = rule i.
const R_HOUSE_RULES = 1 << 17;
const R_ALL = (1 << 18) - 1;

/** The largest table whose seat sets are written as bit masks (they stay 32-bit safe). */
const MASK_SEATS = 30;

export interface EncodeOptions {
  /** The hand id is kept by the container (e.g. the store's columns): it is left out of the bytes. */
  handIdOutside?: boolean;
  /** A dictionary of player names: the bytes carry the id it gives instead of the name. */
  playerId?: (name: string) => number;
}

export interface DecodeOptions {
  /** The hand id, for bytes encoded with `handIdOutside`. */
  handId?: string;
  /** The name of a dictionary id, for bytes encoded with `playerId`; undefined when unknown. */
  playerName?: (id: number) => string | undefined;
}

export interface DecodeRefusal {
  ok: false;
  reason: string;
}

export function isDecodeRefusal(x: HandRecord | DecodeRefusal): x is DecodeRefusal {
  return (x as DecodeRefusal).ok === false;
}

// ---------------------------------------------------------------------------------------------
// The running totals that both sides replay to predict amounts and rebuild derived fields.

class Replay {
  readonly stack: number[];
  readonly roundBet: number[];
  readonly committed: number[];
  readonly hole: (Card | null)[][];
  readonly up: boolean[][];
  readonly board: Card[] = [];
  readonly returns: { seat: number; amount: number; round: RoundName }[] = [];
  /** Rounds seen, as bits of their ROUND_IDS index. */
  present = 0;
  currentBet = 0;
  round: RoundName | null = null;

  constructor(
    tableSize: number,
    seats: readonly { seat: number; stackBefore: number }[],
    private readonly rules: TableRules,
    private readonly firstStreet: RoundName,
  ) {
    this.stack = new Array<number>(tableSize).fill(0);
    this.roundBet = new Array<number>(tableSize).fill(0);
    this.committed = new Array<number>(tableSize).fill(0);
    this.hole = [];
    this.up = [];
    for (let i = 0; i < tableSize; i++) {
      this.hole.push([]);
      this.up.push([]);
    }
    for (const s of seats) this.stack[s.seat] = s.stackBefore;
  }

  enter(round: RoundName): void {
    if (round === this.round) return;
    this.present |= 1 << ROUND_IDS.indexOf(round);
    // Blinds posted in the `bet` round are the first street's bets; any other new round starts clean.
    if (!(this.round === 'bet' && round === this.firstStreet)) {
      this.roundBet.fill(0);
      this.currentBet = 0;
    }
    this.round = round;
  }

  postOwed(seat: number, kind: PostKind): number {
    const r = this.rules;
    const amount = kind === 'ante' ? r.ante : kind === 'big blind' ? r.bigBlind : r.smallBlind;
    return Math.min(amount, this.stack[seat]);
  }

  bringInOwed(seat: number): number {
    return Math.min(this.rules.bringIn, this.stack[seat]);
  }

  callOwed(seat: number): number {
    return Math.max(0, Math.min(this.currentBet - this.roundBet[seat], this.stack[seat]));
  }

  returnOwed(seat: number): number {
    let other = 0;
    for (let i = 0; i < this.roundBet.length; i++) if (i !== seat && this.roundBet[i] > other) other = this.roundBet[i];
    return Math.max(0, this.roundBet[seat] - other);
  }

  pay(seat: number, amount: number, toRound: boolean): void {
    this.stack[seat] -= amount;
    this.committed[seat] += amount;
    if (toRound) {
      this.roundBet[seat] += amount;
      if (this.roundBet[seat] > this.currentBet) this.currentBet = this.roundBet[seat];
    }
  }

  apply(e: LogEntry): void {
    switch (e.kind) {
      case 'post':
        this.pay(e.seat, e.amount, e.post === 'small blind' || e.post === 'big blind');
        // R-ALLIN: a short big blind still sets the full blind for the others.
        if (e.post === 'big blind' && this.rules.bigBlind > this.currentBet) this.currentBet = this.rules.bigBlind;
        break;
      case 'bring-in':
        this.pay(e.seat, e.amount, true);
        if (this.rules.bringIn > this.currentBet) this.currentBet = this.rules.bringIn;
        break;
      case 'call':
        this.pay(e.seat, e.amount, true);
        break;
      case 'bet':
      case 'raise':
      case 'complete':
        this.stack[e.seat] -= e.amount;
        this.committed[e.seat] += e.amount;
        this.roundBet[e.seat] = e.to;
        this.currentBet = e.to;
        break;
      case 'return':
        this.stack[e.seat] += e.amount;
        this.committed[e.seat] -= e.amount;
        this.roundBet[e.seat] -= e.amount;
        this.returns.push({ seat: e.seat, amount: e.amount, round: e.round });
        break;
      case 'deal':
        if (e.seat === null) {
          for (const c of e.cards) this.board.push(c as Card);
        } else {
          for (const c of e.cards) this.hole[e.seat].push(c);
          for (const u of e.up) this.up[e.seat].push(u);
        }
        break;
      case 'discard': {
        // As the engine does: the card itself, else an unknown card of this view.
        const hole = this.hole[e.seat];
        const up = this.up[e.seat];
        for (const c of e.cards) {
          let at = c === null ? -1 : hole.indexOf(c);
          if (at < 0) at = hole.indexOf(null);
          if (at < 0) continue;
          hole.splice(at, 1);
          up.splice(at, 1);
        }
        break;
      }
      case 'show':
        this.hole[e.seat] = e.cards.slice();
        break;
      default:
        break;
    }
  }
}

function sameCards(a: readonly (Card | null)[], b: readonly (Card | null)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameFlags(a: readonly boolean[], b: readonly boolean[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function blindsGame(variant: VariantCode): boolean {
  return VARIANTS[variant].forcedBets === 'blinds';
}

const BASE_RULES = new Map<string, TableRules>();

/** The variant's default rules at this stake, cached: a table plays thousands of hands at one stake. */
function baseRules(variant: VariantCode, primary: number): TableRules {
  const key = `${variant}:${primary}`;
  let base = BASE_RULES.get(key);
  if (base === undefined) {
    base = makeTableRules(variant, blindsGame(variant) ? { bigBlind: primary } : { smallBet: primary });
    if (BASE_RULES.size > 1000) BASE_RULES.clear();
    BASE_RULES.set(key, base);
  }
  return base;
}

function roundsPresent(variant: VariantCode, present: number): RoundName[] {
  const out: RoundName[] = [];
  for (const x of VARIANTS[variant].rounds) if (present & (1 << ROUND_IDS.indexOf(x))) out.push(x);
  return out;
}

function sameRake(a: TableRules['rake'], b: TableRules['rake']): boolean {
  return a.basisPoints === b.basisPoints && a.cap === b.cap && a.noFlopNoDrop === b.noFlopNoDrop;
}

function cardCode(c: Card | null): number {
  if (c === null) return UNKNOWN_CARD;
  if (!(Number.isInteger(c) && c >= 0 && c <= 51)) throw new RangeError(`not a card code: ${String(c)}`);
  return c;
}

/** A seat list: a bit mask (×2) when ascending on a small table, else its length (×2 + 1) and the seats. */
function writeSeatSet(w: ByteWriter, seats: readonly number[], tableSize: number): void {
  let ascending = tableSize <= MASK_SEATS;
  for (let i = 1; ascending && i < seats.length; i++) if (seats[i] <= seats[i - 1]) ascending = false;
  if (ascending) {
    let mask = 0;
    for (const s of seats) mask |= 1 << s;
    w.uint((mask >>> 0) * 2);
    return;
  }
  w.uint(seats.length * 2 + 1);
  for (const s of seats) w.uint(s);
}

function readSeatSet(r: ByteReader, tableSize: number): number[] {
  const head = r.uint();
  const out: number[] = [];
  if (head % 2 === 0) {
    const mask = head / 2;
    if (mask >= 2 ** Math.min(tableSize, MASK_SEATS)) throw new CorruptBytes('a seat set names a seat beyond the table');
    for (let i = 0; i < tableSize && i < MASK_SEATS; i++) if (Math.floor(mask / 2 ** i) % 2 === 1) out.push(i);
    return out;
  }
  const n = (head - 1) / 2;
  if (n > r.left) throw new CorruptBytes('a seat list runs past the end (truncated)');
  for (let i = 0; i < n; i++) out.push(r.count(tableSize - 1, 'a seat'));
  return out;
}

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

function roundId(x: RoundName): number {
  const i = ROUND_IDS.indexOf(x);
  if (i < 0) throw new RangeError(`unknown round ${String(x)}`);
  return i;
}

function writeAmount(w: ByteWriter, actual: number, predicted: number): void {
  if (actual === predicted) w.byte(0);
  else w.uint(actual + 1);
}

function encodeEntry(e: LogEntry, w: ByteWriter, cards: number[], replay: Replay, rounds: readonly RoundName[]): void {
  let kind: number;
  switch (e.kind) {
    case 'post':
      kind = K_POST;
      break;
    case 'deal':
      kind = K_DEAL;
      break;
    case 'reshuffle':
      kind = K_RESHUFFLE;
      break;
    case 'bring-in':
      kind = K_BRING_IN;
      break;
    case 'fold':
      kind = K_FOLD;
      break;
    case 'check':
      kind = K_CHECK;
      break;
    case 'call':
      kind = e.amount === replay.callOwed(e.seat) ? K_CALL_OWED : K_CALL;
      break;
    case 'bet':
      kind = K_BET;
      break;
    case 'raise':
      kind = K_RAISE;
      break;
    case 'complete':
      kind = K_COMPLETE;
      break;
    case 'discard':
      kind = K_DISCARD;
      break;
    case 'show':
      kind = K_SHOW;
      break;
    case 'muck':
      kind = K_MUCK;
      break;
    case 'return':
      kind = K_RETURN;
      break;
    default:
      throw new RangeError(`unknown log entry ${JSON.stringify(e)}`);
  }
  const ri = rounds.indexOf(e.round);
  const allIn = 'allIn' in e && e.allIn;
  w.byte((allIn ? 0x80 : 0) | ((ri < 0 || ri >= ROUND_ESCAPE ? ROUND_ESCAPE : ri) << 4) | kind);
  if (ri < 0 || ri >= ROUND_ESCAPE) w.byte(roundId(e.round));
  if (e.kind === 'reshuffle') {
    w.uint(e.stub);
    return;
  }
  w.uint(e.seat === null ? 0 : e.seat + 1);
  switch (e.kind) {
    case 'post': {
      const pk = POST_KINDS.indexOf(e.post);
      if (pk < 0) throw new RangeError(`unknown post ${String(e.post)}`);
      const owed = replay.postOwed(e.seat, e.post);
      w.byte(pk | (e.amount === owed ? 0 : 4));
      if (e.amount !== owed) w.uint(e.amount);
      return;
    }
    case 'bring-in':
      writeAmount(w, e.amount, replay.bringInOwed(e.seat));
      return;
    case 'call':
      if (kind === K_CALL) w.uint(e.amount);
      return;
    case 'bet':
    case 'raise':
    case 'complete': {
      const predicted = e.to - replay.roundBet[e.seat];
      w.tagged(e.amount === predicted, e.to);
      if (e.amount !== predicted) w.uint(e.amount);
      return;
    }
    case 'return':
      writeAmount(w, e.amount, replay.returnOwed(e.seat));
      return;
    case 'deal': {
      const n = e.cards.length;
      if (e.up.length !== n) throw new RangeError('a deal has as many face flags as cards');
      let allDown = true;
      let allUp = true;
      let hidden = true;
      for (let k = 0; k < n; k++) {
        if (e.up[k]) allDown = false;
        else allUp = false;
        if ((e.cards[k] === null) !== !e.up[k]) hidden = false;
      }
      const upMode = allDown ? 0 : allUp ? 1 : 2;
      w.byte((hidden ? 0x40 : 0) | (upMode << 4) | (n < 15 ? n : 15));
      if (n >= 15) w.uint(n);
      if (upMode === 2) {
        let mask = 0;
        for (let k = 0; k < n; k++) if (e.up[k]) mask += 2 ** k;
        w.uint(mask);
      }
      for (let k = 0; k < n; k++) if (!hidden || e.up[k]) cards.push(cardCode(e.cards[k]));
      return;
    }
    case 'discard': {
      const n = e.cards.length;
      const allUnknown = e.cards.every((c) => c === null);
      w.byte((allUnknown ? 0x40 : 0) | (n < 15 ? n : 15));
      if (n >= 15) w.uint(n);
      if (!allUnknown) for (const c of e.cards) cards.push(cardCode(c));
      return;
    }
    case 'show': {
      if (sameCards(e.cards, replay.hole[e.seat])) {
        w.byte(0);
        return;
      }
      w.byte(1);
      w.uint(e.cards.length);
      for (const c of e.cards) cards.push(cardCode(c));
      return;
    }
    default:
      return;
  }
}

function writeRules(w: ByteWriter, variant: VariantCode, r: TableRules): void {
  const primary = blindsGame(variant) ? r.bigBlind : r.smallBet;
  const base = baseRules(variant, primary);
  let mask = 0;
  if (!sameRake(r.rake, base.rake)) mask |= R_RAKE;
  if (r.ante !== base.ante) mask |= R_ANTE;
  if (r.bringIn !== base.bringIn) mask |= R_BRING_IN;
  if (r.smallBlind !== base.smallBlind) mask |= R_SMALL_BLIND;
  if (r.bigBet !== base.bigBet) mask |= R_BIG_BET;
  if (r.cap !== base.cap) mask |= R_CAP;
  if (r.capHeadsUp !== base.capHeadsUp) mask |= R_CAP_HEADS_UP;
  if (r.minRaise !== base.minRaise) mask |= R_MIN_RAISE;
  if (r.studOpenPairBigBet !== base.studOpenPairBigBet) mask |= R_OPEN_PAIR;
  if (r.lowball27 !== base.lowball27) mask |= R_LOWBALL;
  if (r.actionSeconds !== base.actionSeconds) mask |= R_ACTION_SECONDS;
  if (r.timeBankSeconds !== base.timeBankSeconds) mask |= R_TIME_BANK;
  if (r.anteBy !== undefined) mask |= R_ANTE_BY;
  if (r.smallBet !== base.smallBet) mask |= R_SMALL_BET;
  if (r.bigBlind !== base.bigBlind) mask |= R_BIG_BLIND;
  if (r.structure !== base.structure) mask |= R_STRUCTURE;
  if (r.variant !== variant) mask |= R_VARIANT;
  if (r.houseRules !== undefined && r.houseRules.length > 0) mask |= R_HOUSE_RULES;
  w.uint(primary);
  w.uint(mask);
  if (mask & R_RAKE) {
    w.uint(r.rake.basisPoints);
    w.uint(r.rake.cap === null ? 0 : r.rake.cap + 1);
    w.byte(r.rake.noFlopNoDrop ? 1 : 0);
  }
  if (mask & R_ANTE) w.uint(r.ante);
  if (mask & R_BRING_IN) w.uint(r.bringIn);
  if (mask & R_SMALL_BLIND) w.uint(r.smallBlind);
  if (mask & R_BIG_BET) w.uint(r.bigBet);
  if (mask & R_CAP) w.uint(r.cap === null ? 0 : r.cap + 1);
  if (mask & R_ACTION_SECONDS) w.uint(r.actionSeconds);
  if (mask & R_TIME_BANK) w.uint(r.timeBankSeconds);
  if (mask & R_ANTE_BY) w.byte(r.anteBy === 'big-blind' ? 1 : 0);
  if (mask & R_SMALL_BET) w.uint(r.smallBet);
  if (mask & R_BIG_BLIND) w.uint(r.bigBlind);
  if (mask & R_STRUCTURE) {
    const s = STRUCTURES.indexOf(r.structure);
    if (s < 0) throw new RangeError(`unknown betting structure ${String(r.structure)}`);
    w.byte(s);
  }
  if (mask & R_VARIANT) {
    const id = VARIANT_IDS.indexOf(r.variant);
    if (id < 0) throw new RangeError(`unknown variant ${String(r.variant)}`);
    w.byte(id);
  }
  if (mask & R_HOUSE_RULES) {
    let bits = 0;
    for (const h of r.houseRules!) {
      const i = REPLAY_HOUSE_RULES.indexOf(h);
      if (i < 0) throw new RangeError(`unknown house rule ${String(h)}`);
      bits |= 1 << i;
    }
    w.byte(bits);
  }
}

function writePots(w: ByteWriter, pots: readonly PotResult[], tableSize: number, rake: boolean): void {
  w.uint(pots.length);
  for (const p of pots) {
    w.uint(p.amount);
    if (rake) w.uint(p.rake);
    writeSeatSet(w, p.eligible, tableSize);
    w.uint(p.shares.length);
    let left = p.amount - p.rake;
    for (let i = 0; i < p.shares.length; i++) {
      const sh = p.shares[i];
      const half = HALVES.indexOf(sh.half);
      if (half < 0) throw new RangeError(`unknown pot half ${String(sh.half)}`);
      w.uint(sh.seat * 3 + half);
      if (i < p.shares.length - 1) {
        w.uint(sh.amount);
        left -= sh.amount;
      } else {
        // The last share is what is left of the pot after rake and the other shares.
        w.tagged(sh.amount === left, sh.amount === left ? 0 : sh.amount);
      }
    }
  }
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

function amount(r: ByteReader): number {
  const x = r.uint();
  if (x > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
  return x;
}

function readRound(r: ByteReader): RoundName {
  const id = r.byte();
  if (id >= ROUND_IDS.length) throw new CorruptBytes(`round ${id} is unknown`);
  return ROUND_IDS[id];
}

function readAmount(r: ByteReader, predicted: number): number {
  const x = r.uint();
  if (x === 0) return predicted;
  if (x - 1 > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
  return x - 1;
}

function decodeEntry(r: ByteReader, card: () => Card | null, replay: Replay, rounds: readonly RoundName[], tableSize: number): LogEntry {
  const op = r.byte();
  const kind = op & 0x0f;
  const ri = (op >> 4) & 7;
  const allIn = (op & 0x80) !== 0;
  let round: RoundName;
  if (ri === ROUND_ESCAPE) round = readRound(r);
  else if (ri < rounds.length) round = rounds[ri];
  else throw new CorruptBytes(`round ${ri} is not a round of this variant`);
  replay.enter(round);
  if (kind === 15) throw new CorruptBytes('unknown action kind 15');
  if (kind === K_RESHUFFLE) {
    if (allIn) throw new CorruptBytes('a reshuffle is not all-in');
    return { round, kind: 'reshuffle', stub: r.count(52, 'the stub') };
  }
  const seatCode = r.count(tableSize, 'an action seat');
  if (kind !== K_DEAL && seatCode === 0) throw new CorruptBytes('only the board is dealt without a seat');
  const seat = seatCode - 1;
  const noAllIn = (): void => {
    if (allIn) throw new CorruptBytes('this action cannot be all-in');
  };
  switch (kind) {
    case K_POST: {
      const b = r.byte();
      if (b > 7) throw new CorruptBytes('unknown post');
      const post = POST_KINDS[b & 3];
      const amt = b & 4 ? amount(r) : replay.postOwed(seat, post);
      return { round, kind: 'post', seat, post, amount: amt, allIn };
    }
    case K_BRING_IN:
      return { round, kind: 'bring-in', seat, amount: readAmount(r, replay.bringInOwed(seat)), allIn };
    case K_FOLD:
      noAllIn();
      return { round, kind: 'fold', seat };
    case K_CHECK:
      noAllIn();
      return { round, kind: 'check', seat };
    case K_CALL:
      return { round, kind: 'call', seat, amount: amount(r), allIn };
    case K_CALL_OWED:
      return { round, kind: 'call', seat, amount: replay.callOwed(seat), allIn };
    case K_BET:
    case K_RAISE:
    case K_COMPLETE: {
      const t = r.tagged();
      if (t.value > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
      const to = t.value;
      const amt = t.tag ? to - replay.roundBet[seat] : amount(r);
      return { round, kind: kind === K_BET ? 'bet' : kind === K_RAISE ? 'raise' : 'complete', seat, amount: amt, to, allIn };
    }
    case K_RETURN:
      noAllIn();
      return { round, kind: 'return', seat, amount: readAmount(r, replay.returnOwed(seat)) };
    case K_MUCK:
      noAllIn();
      return { round, kind: 'muck', seat };
    case K_DEAL: {
      noAllIn();
      const head = r.byte();
      if (head & 0x80) throw new CorruptBytes('unknown deal flags');
      const hidden = (head & 0x40) !== 0;
      const upMode = (head >> 4) & 3;
      if (upMode === 3) throw new CorruptBytes('unknown face mode');
      let n = head & 15;
      if (n === 15) n = r.count(52, 'a deal size');
      const up: boolean[] = [];
      if (upMode === 2) {
        const mask = r.uint();
        if (mask >= 2 ** n) throw new CorruptBytes('a face mask names more cards than the deal');
        for (let k = 0; k < n; k++) up.push(Math.floor(mask / 2 ** k) % 2 === 1);
      } else {
        for (let k = 0; k < n; k++) up.push(upMode === 1);
      }
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(!hidden || up[k] ? card() : null);
      if (seatCode === 0 && cards.some((c) => c === null)) throw new CorruptBytes('a board card is unknown');
      return { round, kind: 'deal', seat: seatCode === 0 ? null : seat, cards, up };
    }
    case K_DISCARD: {
      noAllIn();
      const head = r.byte();
      if (head & 0xb0) throw new CorruptBytes('unknown discard flags');
      let n = head & 15;
      if (n === 15) n = r.count(52, 'a discard size');
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(head & 0x40 ? null : card());
      return { round, kind: 'discard', seat, cards };
    }
    case K_SHOW: {
      noAllIn();
      const mode = r.byte();
      if (mode === 0) return { round, kind: 'show', seat, cards: replay.hole[seat].slice() };
      if (mode !== 1) throw new CorruptBytes('unknown show mode');
      const n = r.count(52, 'a show size');
      const cards: (Card | null)[] = [];
      for (let k = 0; k < n; k++) cards.push(card());
      return { round, kind: 'show', seat, cards };
    }
    default:
      throw new CorruptBytes(`unknown action kind ${kind}`);
  }
}

function readRules(r: ByteReader, variant: VariantCode): TableRules {
  const primary = amount(r);
  const mask = r.uint();
  if (mask > R_ALL) throw new CorruptBytes('unknown table-rule fields');
  const base = baseRules(variant, primary);
  const out: { -readonly [K in keyof TableRules]: TableRules[K] } = { ...base };
  if (mask & R_RAKE) {
    const basisPoints = amount(r);
    const cap = amount(r);
    const nfnd = r.byte();
    if (nfnd > 1) throw new CorruptBytes('no-flop-no-drop is not 0 or 1');
    out.rake = { basisPoints, cap: cap === 0 ? null : cap - 1, noFlopNoDrop: nfnd === 1 };
  }
  if (mask & R_ANTE) out.ante = amount(r);
  if (mask & R_BRING_IN) out.bringIn = amount(r);
  if (mask & R_SMALL_BLIND) out.smallBlind = amount(r);
  if (mask & R_BIG_BET) out.bigBet = amount(r);
  if (mask & R_CAP) {
    const cap = amount(r);
    out.cap = cap === 0 ? null : cap - 1;
  }
  if (mask & R_CAP_HEADS_UP) out.capHeadsUp = !base.capHeadsUp;
  if (mask & R_MIN_RAISE) out.minRaise = base.minRaise === 'increment' ? 'double' : 'increment';
  if (mask & R_OPEN_PAIR) out.studOpenPairBigBet = !base.studOpenPairBigBet;
  if (mask & R_LOWBALL) out.lowball27 = base.lowball27 === 'decree' ? 'international' : 'decree';
  if (mask & R_ACTION_SECONDS) out.actionSeconds = amount(r);
  if (mask & R_TIME_BANK) out.timeBankSeconds = amount(r);
  if (mask & R_ANTE_BY) {
    const b = r.byte();
    if (b > 1) throw new CorruptBytes('unknown ante payer');
    out.anteBy = b === 1 ? 'big-blind' : 'everyone';
  }
  if (mask & R_SMALL_BET) out.smallBet = amount(r);
  if (mask & R_BIG_BLIND) out.bigBlind = amount(r);
  if (mask & R_STRUCTURE) {
    const s = r.byte();
    if (s >= STRUCTURES.length) throw new CorruptBytes('unknown betting structure');
    out.structure = STRUCTURES[s];
  }
  if (mask & R_VARIANT) {
    const id = r.byte();
    if (id >= VARIANT_IDS.length) throw new CorruptBytes('unknown rules variant');
    out.variant = VARIANT_IDS[id];
  }
  if (mask & R_HOUSE_RULES) {
    const bits = r.byte();
    if (bits === 0 || bits >= 1 << REPLAY_HOUSE_RULES.length) throw new CorruptBytes('unknown house rules');
    out.houseRules = REPLAY_HOUSE_RULES.filter((_, i) => (bits >> i) & 1);
  }
  return out;
}

function readPots(r: ByteReader, tableSize: number, rake: boolean): PotResult[] {
  const n = r.count(r.left, 'the pot count');
  const pots: PotResult[] = [];
  for (let i = 0; i < n; i++) {
    const amt = amount(r);
    const potRake = rake ? amount(r) : 0;
    const eligible = readSeatSet(r, tableSize);
    const k = r.count(r.left, 'the share count');
    const shares: PotShare[] = [];
    let left = amt - potRake;
    for (let j = 0; j < k; j++) {
      const code = r.count(tableSize * 3 - 1, 'a share');
      const seat = Math.floor(code / 3);
      const half = HALVES[code % 3];
      let a: number;
      if (j < k - 1) {
        a = amount(r);
        left -= a;
      } else {
        const t = r.tagged();
        if (t.tag && t.value !== 0) throw new CorruptBytes('an implied share carries a value');
        if (t.tag && left < 0) throw new CorruptBytes('the shares exceed the pot');
        if (t.value > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
        a = t.tag ? left : t.value;
      }
      shares.push({ seat, amount: a, half });
    }
    pots.push({ amount: amt, rake: potRake, eligible, shares });
  }
  return pots;
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
