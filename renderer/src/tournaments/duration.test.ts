/**
 * The expected duration of a tournament (docs/tournaments.md "The expected duration"), from its
 * structure and its field, with the worked examples of the document.
 */
import { describe, expect, it } from 'vitest';
import { readyWire } from '../../../tests/support/renderer/structure';
import { END_AVERAGE_BIG_BLINDS, expectedDuration, expectedField } from './duration';

describe('the expected duration (R-TOURN-STRUCTURE)', () => {
  it('the worked example: 100 players of the regular structure end at level 23, about 4 h 05 with 3 breaks', () => {
    // 100 × 10,000 chips = 1,000,000; the last two hold 20 BB each on average when the big blind is
    // at least 1,000,000 / 40 = 25,000: level 23 (0-based 22). 23 levels × 10 min + 3 breaks × 5 min.
    expect(END_AVERAGE_BIG_BLINDS).toBe(20);
    expect(expectedDuration(readyWire('THNL', 'regular'), 100)).toEqual({ levels: 23, breaks: 3, minutes: 245, atLeast: false });
  });

  it('a 6-max hyper-turbo sit & go: 11 levels of 3 minutes; heads-up: 6', () => {
    const s = { ...readyWire('THNL', 'hyper-turbo'), lateRegistrationLevels: 0 };
    expect(expectedDuration(s, 6)).toEqual({ levels: 11, breaks: 0, minutes: 33, atLeast: false });
    expect(expectedDuration(s, 2)).toEqual({ levels: 6, breaks: 0, minutes: 18, atLeast: false });
  });

  it('Stud counts its small bet as the big blind; a structure too short says "at least"', () => {
    const stud = readyWire('7SHL', 'regular');
    expect(expectedDuration(stud, 7).levels).toBeGreaterThan(0);
    const short = { ...readyWire('THNL', 'regular'), levels: readyWire('THNL', 'regular').levels.slice(0, 3) };
    expect(expectedDuration(short, 1000)).toEqual({ levels: 3, breaks: 0, minutes: 30, atLeast: true });
  });

  it('the field: a sit & go its seats, a scheduled one its entries or its minimum, whichever is more', () => {
    expect(expectedField({ format: 'sit-and-go', maxEntrants: 6, minEntrants: 6, entries: 2 })).toBe(6);
    expect(expectedField({ format: 'scheduled', maxEntrants: 2000, minEntrants: 10, entries: 3 })).toBe(10);
    expect(expectedField({ format: 'scheduled', maxEntrants: 2000, minEntrants: 10, entries: 240 })).toBe(240);
  });
});
