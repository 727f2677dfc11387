/**
 * A level's stakes and what follows it, one rule (structure.ts `levelStakes`, `afterLevel`) read by
 * the operator's clock (`clockAt`) and the client's tournament bar (renderer/src/tournaments/bar.ts,
 * checked against the same worked example in bar.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { afterLevel, clockAt, levelBigBlind, levelStakes, readyStructure, validateStructure, type LevelStakes, type TournamentStructure } from './structure';

const MIN = 60_000;

/**
 * Worked example: four 20-minute levels, a 10-minute break after every 2nd. By hand:
 *   0–20 level 1 (25/50), 20–40 level 2 (50/100), 40–50 break, 50–70 level 3 (75/150), from 70 level 4
 *   (100/200) held until the end: no break after it, though it is the 4th (the last level never ends).
 */
const example: TournamentStructure = {
  ...readyStructure('THNL', 'regular'),
  levelMinutes: 20,
  levels: [
    { kind: 'blinds', smallBlind: 25, bigBlind: 50, ante: 0 },
    { kind: 'blinds', smallBlind: 50, bigBlind: 100, ante: 0 },
    { kind: 'blinds', smallBlind: 75, bigBlind: 150, ante: 0 },
    { kind: 'blinds', smallBlind: 100, bigBlind: 200, ante: 25 },
  ],
  breaks: { everyLevels: 2, minutes: 10 },
  lateRegistrationLevels: 2,
  rebuy: null,
  addOn: null,
};

describe('a level and what follows it (R-TOURN-STRUCTURE, R-TOURN-RUN)', () => {
  it('the worked example is a valid structure', () => {
    expect(validateStructure('THNL', example)).toEqual({ ok: true });
  });

  it('afterLevel: a break after the 2nd level, the next level otherwise, nothing after the last', () => {
    expect([0, 1, 2, 3, 7].map((i) => afterLevel(example, i))).toEqual([{ kind: 'level', index: 1 }, { kind: 'break', index: 2 }, { kind: 'level', index: 3 }, null, null]);
    expect(afterLevel({ ...example, breaks: null }, 1)).toEqual({ kind: 'level', index: 2 });
  });

  it('levelStakes holds the last level; levelBigBlind reads Stud by its small bet', () => {
    expect(levelStakes(example, 3)).toEqual({ kind: 'blinds', smallBlind: 100, bigBlind: 200, ante: 25 });
    expect(levelStakes(example, 40)).toBe(levelStakes(example, 3));
    expect(levelStakes(example, -1)).toBe(levelStakes(example, 0));
    expect(levelBigBlind(levelStakes(example, 2))).toBe(150);
    const stud: LevelStakes = { kind: 'stud', ante: 5, bringIn: 10, smallBet: 40, bigBet: 80 };
    expect(levelBigBlind(stud)).toBe(40);
  });

  it("the operator's clock reads the worked example's timeline", () => {
    // [minute, level (0-based), on a break, minutes to the next change, what comes next]
    const timeline: [number, number, boolean, number | null, 'level' | 'break' | null][] = [
      [0, 0, false, 20, 'level'],
      [25, 1, false, 15, 'break'],
      [40, 2, true, 10, 'level'],
      [49, 2, true, 1, 'level'],
      [50, 2, false, 20, 'level'],
      [70, 3, false, null, null],
      [10_000, 3, false, null, null],
    ];
    for (const [minute, level, onBreak, toNext, next] of timeline) {
      expect(clockAt(example, minute * MIN), `minute ${minute}`).toEqual({ level, onBreak, msToNext: toNext === null ? null : toNext * MIN, next });
    }
  });
});
