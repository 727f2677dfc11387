/**
 * The compact codec's layout constants (flags, opcode kinds, rule-difference bits, the frozen variant
 * and round ids) and the small readers and writers both sides use (shared/history/compact.ts has the
 * layout). The bytes are those of compact.ts (compact.golden.test.ts).
 */
import type { Card } from '../../rules/cards';
import type { HandRecord } from '../../rules/record';
import { makeTableRules, type TableRules } from '../../rules/tableRules';
import { ROUND_NAMES, VARIANT_CODES, VARIANTS, type RoundName, type VariantCode } from '../../rules/variants';
import { type ByteReader, type ByteWriter, CorruptBytes } from '../bytes';

export const COMPACT_VERSION = 1;

/** Variant codes by their byte in the encoding: variants.ts's order, fixed on disk (compact.test.ts). */
export const VARIANT_IDS: readonly VariantCode[] = VARIANT_CODES;

/** Every record round name, for the rare round that is not one of the variant's: variants.ts's order, fixed on disk. */
export const ROUND_IDS: readonly RoundName[] = ROUND_NAMES;

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
