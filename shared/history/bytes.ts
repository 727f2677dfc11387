/**
 * Byte-level building blocks of the compact hand codec (compact.ts): a growable writer, a bounds-
 * checked reader, unsigned LEB128 varints for any integer up to 2^53 (R-CONSERVE: money is whole
 * numbers of chips, and a stack may be as large as `Number.MAX_SAFE_INTEGER`), "tagged" varints that
 * carry one flag bit in their first byte, 6-bit card packing (R-CARDCODE: 0..51, plus one code for an
 * unknown card) and a CRC-16 over the whole encoding.
 *
 * Pure (DESIGN.md §2): no Node, no DOM. Numbers above 2^31 never go through bit operators (they
 * would be truncated to 32 bits): the slow path divides instead.
 */

/** Raised by `ByteReader` when the bytes end early or hold an impossible value; caught by the decoder. */
export class CorruptBytes extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CorruptBytes';
  }
}

export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Unsigned varint, 0 ≤ v ≤ 2^53 (7 bits a byte, low bits first). */
  uint(v: number): void {
    // A caller's bug (a record with a negative or fractional amount), not input: throw.
    if (!(v >= 0 && v <= 9007199254740992 && Math.floor(v) === v)) throw new RangeError(`not a whole number from 0 to 2^53: ${v}`);
    this.room(8);
    const buf = this.buf;
    let n = this.length;
    if (v < 0x80000000) {
      while (v >= 0x80) {
        buf[n++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[n++] = v;
    } else {
      while (v >= 0x80) {
        buf[n++] = (v % 128) | 0x80;
        v = Math.floor(v / 128);
      }
      buf[n++] = v;
    }
    this.length = n;
  }

  /** A varint whose first byte also carries `tag`: [cont | tag | 6 low bits], then `uint(v / 64)`. */
  tagged(tag: boolean, v: number): void {
    if (!(v >= 0 && v <= 9007199254740992 && Math.floor(v) === v)) throw new RangeError(`not a whole number from 0 to 2^53: ${v}`);
    const low = v < 0x80000000 ? v & 0x3f : v % 64;
    const rest = v < 0x80000000 ? v >>> 6 : Math.floor(v / 64);
    this.byte((rest > 0 ? 0x80 : 0) | (tag ? 0x40 : 0) | low);
    if (rest > 0) this.uint(rest);
  }

  /** A signed integer, |v| ≤ 2^53 − 1: the tag is the sign. */
  int(v: number): void {
    this.tagged(v < 0, v < 0 ? -v : v);
  }

  /** UTF-8 text with its byte length first. */
  text(s: string): void {
    const b = UTF8_ENCODER.encode(s);
    this.uint(b.length);
    this.bytes(b);
  }

  /** Starts over, keeping the buffer (the encoder reuses its writers: no allocation per hand). */
  reset(): void {
    this.length = 0;
  }

  /** The bytes written so far (a view: copy it before the next `reset`). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder('utf-8', { fatal: true });

export class ByteReader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get left(): number {
    return this.end - this.pos;
  }

  byte(): number {
    if (this.pos >= this.end) throw new CorruptBytes('the bytes end early (truncated)');
    return this.buf[this.pos++];
  }

  /** Unsigned varint; refuses more than 8 bytes or a value above 2^53. */
  uint(): number {
    let b = this.byte();
    if (b < 0x80) return b;
    let v = b & 0x7f;
    let mul = 128;
    for (let i = 1; i < 8; i++) {
      b = this.byte();
      v += (b & 0x7f) * mul;
      if (b < 0x80) {
        if (v > 9007199254740992) throw new CorruptBytes('a number is larger than 2^53');
        return v;
      }
      mul *= 128;
    }
    throw new CorruptBytes('a number runs over 8 bytes');
  }

  /** A small count: a varint no larger than `max`. */
  count(max: number, what: string): number {
    const n = this.uint();
    if (n > max) throw new CorruptBytes(`${what}: ${n} is more than ${max}`);
    return n;
  }

  tagged(): { tag: boolean; value: number } {
    const first = this.byte();
    let value = first & 0x3f;
    if (first & 0x80) {
      const rest = this.uint();
      if (rest === 0) throw new CorruptBytes('a number is not written in its shortest form');
      value += rest * 64;
      if (value > 9007199254740992) throw new CorruptBytes('a number is larger than 2^53');
    }
    return { tag: (first & 0x40) !== 0, value };
  }

  int(): number {
    const { tag, value } = this.tagged();
    if (tag && value === 0) throw new CorruptBytes('negative zero is not a number of chips');
    if (value > Number.MAX_SAFE_INTEGER) throw new CorruptBytes('an amount is larger than 2^53 − 1');
    return tag ? -value : value;
  }

  text(): string {
    const n = this.count(this.left, 'a text length');
    const s = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    try {
      return UTF8_DECODER.decode(s);
    } catch {
      throw new CorruptBytes('a text is not valid UTF-8');
    }
  }
}

/** 6-bit codes (the lists one after the other) packed big-endian into ⌈6n/8⌉ bytes. */
export function packSixBits(lists: readonly (readonly number[])[], out: ByteWriter): void {
  let acc = 0;
  let bits = 0;
  for (const codes of lists) {
    for (let i = 0; i < codes.length; i++) {
      acc = ((acc << 6) | codes[i]) & 0xffffff;
      bits += 6;
      while (bits >= 8) {
        bits -= 8;
        out.byte((acc >>> bits) & 0xff);
      }
    }
  }
  if (bits > 0) out.byte((acc << (8 - bits)) & 0xff);
}

/** Reads `n` 6-bit codes written by `packSixBits`; the padding bits must be zero. */
export function unpackSixBits(r: ByteReader, n: number): number[] {
  const bytes = Math.ceil((n * 6) / 8);
  if (bytes > r.left) throw new CorruptBytes('the card list runs past the end (truncated)');
  const out = new Array<number>(n);
  let acc = 0;
  let bits = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (bits < 6) {
      acc = ((acc << 8) | r.buf[r.pos + k++]) & 0xffffff;
      bits += 8;
    }
    bits -= 6;
    out[i] = (acc >>> bits) & 0x3f;
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) throw new CorruptBytes('the card list has stray padding bits');
  r.pos += bytes;
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC-16/CCITT-FALSE of `buf[start, end)`. */
export function crc16(buf: Uint8Array, start: number, end: number): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >>> 8) ^ buf[i]) & 0xff];
  return crc;
}
