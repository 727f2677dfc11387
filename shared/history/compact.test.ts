import { describe, expect, it } from 'vitest';
import type { HandRecord } from '../rules/record';
import { makeTableRules } from '../rules/tableRules';
import { VARIANT_CODES, VARIANTS } from '../rules/variants';
import { ByteReader, crc16, unpackSixBits } from './bytes';
import { COMPACT_VERSION, ROUND_IDS, VARIANT_IDS, decodeHand, encodeHand, isDecodeRefusal, type DecodeOptions, type EncodeOptions } from './compact';
import { playRecord, prng, randInt, randomConfig, randomRecord } from './test-support';

/** The flags varint of an encoding (after version, CRC and the card stream), to see what was derived. */
function flagsOf(bytes: Uint8Array): number {
  const r = new ByteReader(bytes, 3);
  unpackSixBits(r, r.uint());
  r.byte(); // variant
  return r.uint();
}
const DERIVATION_MISSES = 0x1fe0; // the X_* bits: fields stored because their derivation did not match

function roundTrip(record: HandRecord, enc: EncodeOptions = {}, dec: DecodeOptions = {}): Uint8Array {
  const bytes = encodeHand(record, enc);
  const back = decodeHand(bytes, dec);
  if (isDecodeRefusal(back)) throw new Error(`refused: ${back.reason}`);
  expect(back).toEqual(record);
  return bytes;
}

function withRecomputedCrc(bytes: Uint8Array): Uint8Array {
  const crc = crc16(bytes, 3, bytes.length);
  bytes[1] = crc >>> 8;
  bytes[2] = crc & 0xff;
  return bytes;
}

describe('the compact hand codec (R-HISTORY, DESIGN.md §5)', () => {
  it('keeps the variant ids that are on disk: every variant, in its frozen place', () => {
    expect([...VARIANT_IDS].sort()).toEqual([...VARIANT_CODES].sort());
    // The byte of each variant, as stored since COMPACT_VERSION 1: variants.ts may only append.
    expect(VARIANT_IDS).toEqual(['THL', 'THPL', 'THNL', 'O4HPL', 'O4JL', 'O4JPL', 'O5HPL', '7SHL', '7SJL', '7SLL', '2T7TD']);
  });

  it('keeps the round ids that are on disk: every round name, in its frozen place', () => {
    // A rare round is written by its place in this list (the list is variants.ts's ROUND_NAMES).
    expect(ROUND_IDS).toEqual(['bet', 'pre-flop', 'flop', 'turn', 'river', 'bring-in', '4th st', '5th st', '6th st', '7th st', 'pre-draw', '1st draw', '2nd draw', '3rd draw', 'reveal']);
  });

  for (const [i, code] of VARIANT_CODES.entries()) {
    it(`${code}: random hands round-trip exactly, as the operator and as a seated player see them, with nothing derivable stored`, () => {
      const rng = prng(7000 + i);
      const seen = { shown: 0, mucked: 0, hidden: 0, up: 0, discards: 0, lowHalves: 0, sidePots: 0, raked: 0, uncalled: 0, reshuffles: 0 };
      let misses = 0;
      for (let h = 0; h < 450; h++) {
        const record = randomRecord(code, rng, h % 3 === 0 ? null : `${code}-t1-abc${h}-${h * 7}`);
        const bytes = roundTrip(record);
        if (flagsOf(bytes) & DERIVATION_MISSES) misses++;
        for (const s of record.seats) {
          if (s.shown) seen.shown++;
          if (s.mucked) seen.mucked++;
          if (s.cards.includes(null)) seen.hidden++;
          if (s.up.includes(true)) seen.up++;
        }
        for (const a of record.actions) {
          if (a.kind === 'discard') seen.discards++;
          if (a.kind === 'reshuffle') seen.reshuffles++;
        }
        if (record.pots.some((p) => p.shares.some((x) => x.half === 'low'))) seen.lowHalves++;
        if (record.pots.length > 1) seen.sidePots++;
        if (record.rake > 0) seen.raked++;
        if (record.uncalled.length > 0) seen.uncalled++;
      }
      // Engine records match every derivation: the explicit fallbacks are for foreign records only.
      expect(misses).toBe(0);
      expect(seen.shown).toBeGreaterThan(50);
      expect(seen.mucked).toBeGreaterThan(5);
      expect(seen.hidden).toBeGreaterThan(50);
      expect(seen.sidePots).toBeGreaterThan(5);
      expect(seen.raked).toBeGreaterThan(20);
      expect(seen.uncalled).toBeGreaterThan(50);
      const v = VARIANTS[code];
      if (v.family === 'stud') expect(seen.up).toBeGreaterThan(100);
      if (v.family === 'draw') expect(seen.discards).toBeGreaterThan(100);
      if (v.evaluation === 'high-low8') expect(seen.lowHalves).toBeGreaterThan(10);
    });
  }

  it('with the store options: the hand id kept outside and players as dictionary ids', () => {
    const rng = prng(42);
    const names: string[] = [];
    const ids = new Map<string, number>();
    const enc: EncodeOptions = {
      handIdOutside: true,
      playerId: (name) => {
        let id = ids.get(name);
        if (id === undefined) {
          id = names.length;
          names.push(name);
          ids.set(name, id);
        }
        return id;
      },
    };
    for (let h = 0; h < 300; h++) {
      const code = VARIANT_CODES[h % VARIANT_CODES.length];
      const record = randomRecord(code, rng, `tbl-${h}`);
      roundTrip(record, enc, { handId: `tbl-${h}`, playerName: (id) => names[id] });
    }
    const record = randomRecord('THNL', rng, 'tbl-x');
    const bytes = encodeHand(record, enc);
    expect(decodeHand(bytes, { playerName: (id) => names[id] })).toMatchObject({ ok: false, reason: expect.stringContaining('hand id') });
    expect(decodeHand(bytes, { handId: 'tbl-x', playerName: () => undefined })).toMatchObject({ ok: false, reason: expect.stringContaining('player id') });
  });

  it('a six-max hold’em hand as a seated player stores it takes about a hundred bytes', () => {
    const rng = prng(9);
    let total = 0;
    const n = 400;
    const names = new Map<string, number>();
    for (let h = 0; h < n; h++) {
      const config = randomConfig('THNL', rng, { maxSeats: 6, rules: makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 }, { rake: { basisPoints: 500, cap: 30, noFlopNoDrop: true } }) });
      const record = playRecord({ ...config, handId: `h${h}` }, rng, config.plan.dealtIn[0]);
      total += encodeHand(record, { handIdOutside: true, playerId: (x) => names.get(x) ?? (names.set(x, names.size), names.size - 1) }).length;
    }
    expect(total / n).toBeLessThan(110);
  });

  it('amounts up to 2^53 − 1 survive, whether the running totals predict them or not', () => {
    const big = 2 ** 40;
    const rules = makeTableRules('THNL', { smallBlind: big, bigBlind: 2 * big });
    const rng = prng(5);
    for (let h = 0; h < 40; h++) {
      const config = randomConfig('THNL', rng, { rules });
      const seats = config.seats.map((s) => (s === null ? null : { ...s, stack: 2 ** 50 + randInt(rng, 1_000_000) * 3 }));
      roundTrip(playRecord({ ...config, seats }, rng));
    }
    // A record no engine would make: every derivation misses and every amount is explicit.
    const base = randomRecord('O4JPL', prng(77), 'big');
    const max = Number.MAX_SAFE_INTEGER;
    const odd: HandRecord = {
      ...base,
      rake: max,
      seats: base.seats.map((s, i) => ({ ...s, stackBefore: max, stackAfter: max - i, committed: max, won: max, net: -max, rake: max })),
      pots: [{ amount: max, rake: max, eligible: [base.seats[0].seat], shares: [{ seat: base.seats[0].seat, amount: max, half: 'whole' }] }],
      uncalled: [{ seat: base.seats[0].seat, amount: max, round: 'river' }],
    };
    const bytes = roundTrip(odd);
    expect(flagsOf(bytes) & DERIVATION_MISSES).not.toBe(0);
  });

  it('foreign oddities round-trip too: other table rules, unsorted seat sets, changed rounds, board and cards', () => {
    const base = randomRecord('7SJL', prng(3), 'odd-1');
    const variants: HandRecord[] = [
      { ...base, rules: { ...base.rules, anteBy: 'everyone', actionSeconds: 99, timeBankSeconds: 0, capHeadsUp: true, minRaise: 'double', lowball27: 'international', studOpenPairBigBet: false } },
      { ...base, rules: { ...base.rules, structure: 'no-limit', variant: 'THNL', cap: null, smallBlind: 3, bigBlind: 7 } },
      { ...base, pots: base.pots.map((p) => ({ ...p, eligible: [...p.eligible].reverse() })) },
      { ...base, rounds: ['reveal', 'bet'] },
      { ...base, board: [1, 2, 3] },
      { ...base, seats: base.seats.map((s) => ({ ...s, cards: [null, 51], up: [true] })) },
      { ...base, seats: [...base.seats].reverse() },
      { ...base, handId: 'é—漢字 🂡' },
      { ...base, tableSize: 40, seats: base.seats.map((s) => ({ ...s, seat: s.seat + 30 })), actions: [], pots: [], uncalled: [], rounds: [] },
    ];
    for (const r of variants) {
      // Hand descriptions are recomputed from the cards on decode (R-RESULTS): compare the rest.
      const back = decodeHand(encodeHand(r));
      if (isDecodeRefusal(back)) throw new Error(back.reason);
      const strip = (x: HandRecord) => ({ ...x, seats: x.seats.map((s) => ({ ...s, hand: null })) });
      expect(strip(back)).toEqual(strip(r));
    }
  });

  it('refuses truncated bytes, stray bytes, an unknown version and corruption, with a reason, and never throws', () => {
    const rng = prng(11);
    const samples = VARIANT_CODES.map((code) => encodeHand(randomRecord(code, rng, `c-${code}`)));
    for (const bytes of samples) {
      for (let n = 0; n < bytes.length; n++) {
        const r = decodeHand(bytes.slice(0, n));
        expect(r).toMatchObject({ ok: false, reason: expect.any(String) });
      }
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expect(decodeHand(longer)).toMatchObject({ ok: false });
      expect(decodeHand(withRecomputedCrc(longer.slice()))).toMatchObject({ ok: false, reason: expect.stringContaining('left over') });
      const newer = bytes.slice();
      newer[0] = COMPACT_VERSION + 1;
      expect(decodeHand(newer)).toMatchObject({ ok: false, reason: expect.stringContaining('version') });
      for (let k = 0; k < 200; k++) {
        const bad = bytes.slice();
        bad[3 + randInt(rng, bad.length - 3)] ^= 1 + randInt(rng, 255);
        expect(decodeHand(bad)).toMatchObject({ ok: false, reason: expect.stringContaining('checksum') });
      }
    }
    // Past the checksum (an attacker or a bug can produce those): any body decodes or is refused, never throws.
    for (const bytes of samples) {
      for (let k = 0; k < 400; k++) {
        const bad = bytes.slice();
        const flips = 1 + randInt(rng, 3);
        for (let f = 0; f < flips; f++) bad[3 + randInt(rng, bad.length - 3)] = randInt(rng, 256);
        expect(() => decodeHand(withRecomputedCrc(bad))).not.toThrow();
        const cut = withRecomputedCrc(bad.slice(0, 3 + randInt(rng, bad.length - 3)));
        expect(() => decodeHand(cut)).not.toThrow();
      }
    }
    expect(decodeHand(new Uint8Array(0))).toMatchObject({ ok: false });
    expect(decodeHand('not bytes' as unknown as Uint8Array)).toMatchObject({ ok: false, reason: 'not bytes' });
  });
});
