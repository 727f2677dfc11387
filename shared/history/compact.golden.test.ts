// The compact codec's bytes are on disk in every history store (R-HISTORY): a hand an older build
// stored must decode to the same record, and encoding must keep giving the same bytes, whatever the
// codec's source looks like (the codes now come from variants.ts and the file
// is split by section). tests/fixtures/compact/golden-v1.json was written by the codec as it was
// before those changes (commit df1b03b's compact.ts), 4 hands of each variant: operator and seated
// views, hand ids inline, outside, and none, player names inline and through a dictionary; then
// recorded Stud hands with replay-only house rules and records with rare rounds and unsorted seats.
// Test files may read files; the code under test stays pure.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandRecord } from '../rules/record';
import { VARIANT_CODES } from '../rules/variants';
import { decodeHand, encodeHand, type DecodeOptions, type EncodeOptions } from './compact';

interface Golden {
  record: HandRecord;
  options: { handIdOutside?: boolean; playerIds?: string[] };
  hex: string;
}

const FILE = join(__dirname, '../../tests/fixtures/compact/golden-v1.json');
const golden = (JSON.parse(readFileSync(FILE, 'utf8')) as { hands: Golden[] }).hands;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function optionsOf(g: Golden): { enc: EncodeOptions; dec: DecodeOptions } {
  const ids = g.options.playerIds;
  return {
    enc: { ...(g.options.handIdOutside ? { handIdOutside: true } : {}), ...(ids ? { playerId: (x: string) => ids.indexOf(x) } : {}) },
    dec: { ...(g.options.handIdOutside && g.record.handId !== null ? { handId: g.record.handId } : {}), ...(ids ? { playerName: (i: number) => ids[i] } : {}) },
  };
}

describe('the compact codec keeps its on-disk bytes (golden hands from an older build)', () => {
  it('covers every variant, both views and both ways of carrying ids and names', () => {
    expect(new Set(golden.map((g) => g.record.variant))).toEqual(new Set(VARIANT_CODES));
    expect(golden.some((g) => g.options.playerIds)).toBe(true);
    expect(golden.some((g) => g.record.handId === null)).toBe(true);
    expect(golden.some((g) => g.record.actions.some((a) => a.kind === 'reshuffle'))).toBe(true);
    // The replay-only house rules of recorded Stud hands, and a rare round written by its ROUND_IDS place.
    expect(golden.some((g) => g.record.rules.houseRules?.includes('stud-muck'))).toBe(true);
    expect(golden.some((g) => g.record.rounds[0] === 'reveal')).toBe(true);
  });

  it('decodes every stored hand to the record it was written from', () => {
    for (const g of golden) {
      const { dec } = optionsOf(g);
      expect(decodeHand(new Uint8Array(Buffer.from(g.hex, 'hex')), dec)).toEqual(g.record);
    }
  });

  it('encodes every record to the same bytes as the older build', () => {
    for (const g of golden) expect(hex(encodeHand(g.record, optionsOf(g).enc))).toBe(g.hex);
  });
});
