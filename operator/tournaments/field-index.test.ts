import { describe, expect, it } from 'vitest';
import { fieldMoves, type FieldTable } from '../../shared/rules/tournament';
import { seeded } from '../../tests/support/operator/shover';
import { planMoves } from '../../shared/rules/tournament/field-plan';
import { FieldIndex } from './field-index';

/**
 * The bucketed plan against the reference (`fieldMoves`, shared/rules/tournament/field.ts, T 6-6 to
 * 6-8, the plan it replaced for speed: docs/tournaments.md "Speed"): the same moves, in the
 * same order, over random fields and random changes of their counts.
 */
describe('the field index plans exactly the moves of fieldMoves (T 6-6, 6-8)', () => {
  const reference = (index: FieldIndex, seats: number, late: boolean) => fieldMoves(index.entries().map(([table, players]): FieldTable => ({ table, players, seats })), { late });

  it('over 2,000 random fields, each changed 20 times (a bust, a seat, a table opened or closed)', () => {
    const random = seeded(16_6);
    let moved = 0;
    let settledNot = 0;
    for (let round = 0; round < 2000; round++) {
      const seats = [2, 6, 9, 10][random(4)];
      const index = new FieldIndex(seats);
      // Table numbers with gaps (tables close from the highest), in a random order of arrival.
      const numbers = Array.from({ length: 1 + random(40) }, (_, k) => 1 + k * (1 + random(3)));
      for (let i = numbers.length - 1; i > 0; i--) {
        const j = random(i + 1);
        [numbers[i], numbers[j]] = [numbers[j], numbers[i]];
      }
      for (const no of numbers) index.set(no, random(seats + 1));
      for (let step = 0; step < 20; step++) {
        const late = random(2) === 0;
        const before = index.entries();
        const expected = reference(index, seats, late);
        expect(index.plan({ late })).toEqual(expected);
        // The machine's plan (field-plan.ts), from the numbers by count as its state keeps them.
        const bySize = Array.from({ length: seats + 1 }, (_, n) => before.filter(([, k]) => k === n).map(([no]) => no));
        expect(planMoves(seats, bySize, { late })).toEqual(expected);
        // Settled means nothing to move (not the converse: an empty table past the needed ones moves no one).
        if (index.settled({ late })) expect(expected).toEqual([]);
        else settledNot++;
        // The plan leaves the counts as they were.
        expect(index.entries()).toEqual(before);
        moved += expected.length;
        const tables = before.map(([no]) => no);
        const pick = tables[random(tables.length)];
        const what = random(10);
        if (what === 0 && tables.length > 1) index.remove(pick);
        else if (what === 1) index.set(Math.max(...tables) + 1 + random(3), random(seats + 1));
        else index.set(pick, random(seats + 1));
      }
    }
    // The fields were not all settled: moves were compared.
    expect(moved).toBeGreaterThan(10_000);
    expect(settledNot).toBeGreaterThan(10_000);
  });

  it('over 40 large fields (up to 3,000 tables, most of them at one count): the plan from the counts is fieldMoves', () => {
    const random = seeded(25_100);
    let moved = 0;
    for (let round = 0; round < 40; round++) {
      const seats = [6, 9, 10][random(3)];
      const tables = 100 + random(2900);
      // A field as a large one ages: most tables full, busts spread over the rest.
      const counts = Array.from({ length: tables }, () => (random(3) === 0 ? random(seats + 1) : seats - random(2)));
      const late = random(4) === 0;
      const expected = fieldMoves(counts.map((players, k): FieldTable => ({ table: k + 1, players, seats })), { late });
      const bySize = Array.from({ length: seats + 1 }, (_, n) => counts.flatMap((k, i) => (k === n ? [i + 1] : [])));
      expect(planMoves(seats, bySize, { late })).toEqual(expected);
      moved += expected.length;
    }
    expect(moved).toBeGreaterThan(10_000);
  });

  it('an empty field and a single table plan nothing; a bad count is refused', () => {
    const index = new FieldIndex(9);
    expect(index.plan({ late: false })).toEqual([]);
    expect(planMoves(9, [], { late: false })).toEqual([]);
    expect(planMoves(9, [[], [4]], { late: true })).toEqual([]);
    expect(index.settled({ late: true })).toBe(true);
    index.set(4, 1);
    expect(index.plan({ late: true })).toEqual([]);
    expect(() => index.set(5, -1)).toThrow(RangeError);
    expect(() => new FieldIndex(1)).toThrow(RangeError);
  });
});
