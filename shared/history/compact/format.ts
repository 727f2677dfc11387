/**
 * The compact codec's layout constants (flags, opcode kinds, rule-difference bits, the frozen variant
 * and round ids) and the small readers and writers both sides use (shared/history/compact.ts has the
 * layout). Split out of compact.ts by issue 14 item 6; the bytes are unchanged (compact.golden.test.ts).
 */
import type { Card } from '../../rules/cards';
import type { PostKind, PotShare } from '../../rules/engine/types';
import type { HandRecord } from '../../rules/record';
import { makeTableRules, type TableRules } from '../../rules/tableRules';
import { ROUND_NAMES, VARIANT_CODES, VARIANTS, type BettingStructure, type RoundName, type VariantCode } from '../../rules/variants';
import { type ByteReader, type ByteWriter, CorruptBytes } from '../bytes';

export const COMPACT_VERSION = 1;

/** Variant codes by their byte in the encoding: variants.ts's order, fixed on disk (compact.test.ts). */
export const VARIANT_IDS: readonly VariantCode[] = VARIANT_CODES;

/** Every record round name, for the rare round that is not one of the variant's: variants.ts's order, fixed on disk. */
export const ROUND_IDS: readonly RoundName[] = ROUND_NAMES;
export const POST_KINDS: readonly PostKind[] = ['ante', 'small blind', 'big blind', 'dead small blind'];
export const HALVES: readonly PotShare['half'][] = ['whole', 'high', 'low'];
export const STRUCTURES: readonly BettingStructure[] = ['limit', 'pot-limit', 'no-limit'];

export const UNKNOWN_CARD = 52;

// Flags.
export const F_ID_INLINE = 1 << 0;
export const F_ID_OUTSIDE = 1 << 1;
export const F_PLAYER_IDS = 1 << 2;
export const F_SHOWDOWN = 1 << 3;
export const F_RAKE = 1 << 4;
export const X_CARDS = 1 << 5;
export const X_COMMITTED = 1 << 6;
export const X_WON = 1 << 7;
export const X_NET = 1 << 8;
export const X_UNCALLED = 1 << 9;
export const X_ROUNDS = 1 << 10;
export const X_HAND_RAKE = 1 << 11;
export const X_BOARD = 1 << 12;
export const ALL_FLAGS = (1 << 13) - 1;

// Seat flags.
export const S_DEALT_IN = 1;
export const S_FOLDED = 2;
export const S_SHOWN = 4;
export const S_MUCKED = 8;

// Opcode kinds (low 4 bits of the opcode byte).
export const K_POST = 0;
export const K_DEAL = 1;
export const K_RESHUFFLE = 2;
export const K_BRING_IN = 3;
export const K_FOLD = 4;
export const K_CHECK = 5;
export const K_CALL = 6;
export const K_BET = 7;
export const K_RAISE = 8;
export const K_COMPLETE = 9;
export const K_DISCARD = 10;
export const K_SHOW = 11;
export const K_MUCK = 12;
export const K_RETURN = 13;
export const K_CALL_OWED = 14; // a call of exactly what the running totals say is owed: no operand
export const ROUND_ESCAPE = 7;

// Table-rules difference mask, most frequent differences in the low bits (one varint byte).
export const R_RAKE = 1 << 0;
export const R_ANTE = 1 << 1;
export const R_BRING_IN = 1 << 2;
export const R_SMALL_BLIND = 1 << 3;
export const R_BIG_BET = 1 << 4;
export const R_CAP = 1 << 5;
export const R_CAP_HEADS_UP = 1 << 6;
export const R_MIN_RAISE = 1 << 7;
export const R_OPEN_PAIR = 1 << 8;
export const R_LOWBALL = 1 << 9;
export const R_ACTION_SECONDS = 1 << 10;
export const R_TIME_BANK = 1 << 11;
export const R_ANTE_BY = 1 << 12;
export const R_SMALL_BET = 1 << 13;
export const R_BIG_BLIND = 1 << 14;
export const R_STRUCTURE = 1 << 15;
export const R_VARIANT = 1 << 16;
// Replay-only house rules of a recorded hand (tableRules.ts ReplayHouseRule): a byte, bit i = rule i.
export const R_HOUSE_RULES = 1 << 17;
export const R_ALL = (1 << 18) - 1;

/** The largest table whose seat sets are written as bit masks (they stay 32-bit safe). */
export const MASK_SEATS = 30;

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

export function sameCards(a: readonly (Card | null)[], b: readonly (Card | null)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameFlags(a: readonly boolean[], b: readonly boolean[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function blindsGame(variant: VariantCode): boolean {
  return VARIANTS[variant].forcedBets === 'blinds';
}

export const BASE_RULES = new Map<string, TableRules>();

/** The variant's default rules at this stake, cached: a table plays thousands of hands at one stake. */
export function baseRules(variant: VariantCode, primary: number): TableRules {
  const key = `${variant}:${primary}`;
  let base = BASE_RULES.get(key);
  if (base === undefined) {
    base = makeTableRules(variant, blindsGame(variant) ? { bigBlind: primary } : { smallBet: primary });
    if (BASE_RULES.size > 1000) BASE_RULES.clear();
    BASE_RULES.set(key, base);
  }
  return base;
}

export function roundsPresent(variant: VariantCode, present: number): RoundName[] {
  const out: RoundName[] = [];
  for (const x of VARIANTS[variant].rounds) if (present & (1 << ROUND_IDS.indexOf(x))) out.push(x);
  return out;
}

export function sameRake(a: TableRules['rake'], b: TableRules['rake']): boolean {
  return a.basisPoints === b.basisPoints && a.cap === b.cap && a.noFlopNoDrop === b.noFlopNoDrop;
}

export function cardCode(c: Card | null): number {
  if (c === null) return UNKNOWN_CARD;
  if (!(Number.isInteger(c) && c >= 0 && c <= 51)) throw new RangeError(`not a card code: ${String(c)}`);
  return c;
}

/** A seat list: a bit mask (×2) when ascending on a small table, else its length (×2 + 1) and the seats. */
export function writeSeatSet(w: ByteWriter, seats: readonly number[], tableSize: number): void {
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

export function readSeatSet(r: ByteReader, tableSize: number): number[] {
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
