import { describe, expect, it } from 'vitest';
import { VARIANT_CODES, VARIANTS, isVariantCode, variantOf } from './variants';

describe('the eleven decree variants as data (D art. 7, A 1.3.6.d.5)', () => {
  it('lists exactly the ARJEL codes', () => {
    expect([...VARIANT_CODES].sort()).toEqual(['2T7TD', '7SHL', '7SJL', '7SLL', 'O4HPL', 'O4JL', 'O4JPL', 'O5HPL', 'THL', 'THNL', 'THPL']);
    for (const code of VARIANT_CODES) expect(variantOf(code).code).toBe(code);
    expect(isVariantCode('THNL')).toBe(true);
    expect(isVariantCode('NLHE')).toBe(false);
    expect(isVariantCode('toString')).toBe(false);
  });

  it('seats at most: Hold\'em 10, Omaha 9, Stud 7, Triple Draw 6 (R-SEATS, D art. 2)', () => {
    const seats = Object.fromEntries(VARIANT_CODES.map((c) => [c, VARIANTS[c].maxSeats]));
    expect(seats).toEqual({ THL: 10, THPL: 10, THNL: 10, O4HPL: 9, O4JL: 9, O4JPL: 9, O5HPL: 9, '7SHL': 7, '7SJL': 7, '7SLL': 7, '2T7TD': 6 });
  });

  it('private and board cards: 2 + 5, 4 + 5 and 5 + 5 with exactly two private in Omaha, 7 in Stud, 5 in Triple Draw', () => {
    const cards = Object.fromEntries(VARIANT_CODES.map((c) => [c, [VARIANTS[c].privateCards, VARIANTS[c].boardCards, VARIANTS[c].exactPrivate]]));
    expect(cards).toEqual({
      THL: [2, 5, null],
      THPL: [2, 5, null],
      THNL: [2, 5, null],
      O4HPL: [4, 5, 2],
      O4JL: [4, 5, 2],
      O4JPL: [4, 5, 2],
      O5HPL: [5, 5, 2],
      '7SHL': [7, 0, null],
      '7SJL': [7, 0, null],
      '7SLL': [7, 0, null],
      '2T7TD': [5, 0, null],
    });
  });

  it('betting structure and evaluation follow the SPEC table', () => {
    const rows = Object.fromEntries(VARIANT_CODES.map((c) => [c, `${VARIANTS[c].betting} ${VARIANTS[c].evaluation} ${VARIANTS[c].forcedBets}`]));
    expect(rows).toEqual({
      THL: 'limit high blinds',
      THPL: 'pot-limit high blinds',
      THNL: 'no-limit high blinds',
      O4HPL: 'pot-limit high blinds',
      O4JL: 'limit high-low8 blinds',
      O4JPL: 'pot-limit high-low8 blinds',
      O5HPL: 'pot-limit high blinds',
      '7SHL': 'limit high ante-bring-in',
      '7SJL': 'limit high-low8 ante-bring-in',
      '7SLL': 'limit razz ante-bring-in',
      '2T7TD': 'limit low27 blinds',
    });
  });

  it('record round names per family (A 1.3.6.d.5)', () => {
    expect(VARIANTS.THNL.rounds).toEqual(['bet', 'pre-flop', 'flop', 'turn', 'river', 'reveal']);
    expect(VARIANTS.O5HPL.rounds).toEqual(['bet', 'pre-flop', 'flop', 'turn', 'river', 'reveal']);
    expect(VARIANTS['7SLL'].rounds).toEqual(['bet', 'bring-in', '4th st', '5th st', '6th st', '7th st', 'reveal']);
    expect(VARIANTS['2T7TD'].rounds).toEqual(['bet', 'pre-draw', '1st draw', '2nd draw', '3rd draw', 'reveal']);
  });

  it('Stud deals two down and one up, three up, one down; limit sizes small, small, big, big, big (R-LIMIT)', () => {
    const v = VARIANTS['7SHL'];
    expect(v.streets.map((s) => s.hole.join(','))).toEqual(['down,down,up', 'up', 'up', 'up', 'down']);
    expect(v.streets.map((s) => s.bigBet)).toEqual([false, false, true, true, true]);
  });

  it("Hold'em and Omaha deal the flop, turn and river; Triple Draw has three draws, the last two big (R-LIMIT)", () => {
    expect(VARIANTS.O4JL.streets.map((s) => [s.board, s.bigBet])).toEqual([
      [0, false],
      [3, false],
      [1, true],
      [1, true],
    ]);
    expect(VARIANTS['2T7TD'].streets.map((s) => [s.draw, s.bigBet])).toEqual([
      [false, false],
      [true, false],
      [true, true],
      [true, true],
    ]);
  });

  it('has French and English names', () => {
    for (const code of VARIANT_CODES) {
      expect(VARIANTS[code].nameFr.length).toBeGreaterThan(5);
      expect(VARIANTS[code].nameEn.length).toBeGreaterThan(5);
    }
    expect(VARIANTS['7SLL'].nameFr).toContain('Razz');
  });
});
