/**
 * The tournament bar's figures ("unit tests of the tournament bar's figures
 * (average stack, rank, pay jumps, time to next level)"), over the ready structures the operator uses
 * (shared/rules/tournament/structure.ts) and its clock `clockAt`, so the bar reads the clock the way
 * the operator runs it.
 */
import { describe, expect, it } from 'vitest';
import type { TournamentStanding } from '../../../shared/protocol/tournament';
import { clockAt, readyStructure, type TournamentStructure } from '../../../shared/rules/tournament';
import { levelStakes } from '../../../shared/rules/tournament/structure';
import { payout } from '../../../shared/rules/tournament/payouts';
import { wire } from '../../../tests/support/renderer/structure';
import { averageStack, eliminationsTo, prizeOf, barFigures, breakCountdown, clockText, detailsStale, finishPlace, moneyState, msToNextChange, nextChange, payJump, stackInBigBlinds } from './bar';

/** Regular: 10-minute levels, a 5-minute break after every 6th level. */
const regular = wire(readyStructure('THNL', 'regular'));
const stud = wire(readyStructure('7SHL', 'turbo'));
const hyper = wire(readyStructure('THNL', 'hyper-turbo'));
const MIN = 60_000;

function standing(over: Partial<TournamentStanding> = {}): TournamentStanding {
  return {
    state: 'running',
    level: 0,
    onBreak: false,
    nextChangeInMs: 10 * MIN,
    handForHand: false,
    entries: 20,
    remaining: 20,
    chips: 200_000,
    pool: 20_000,
    paid: 3,
    you: { stack: 10_000, rank: 7, rebuy: false, addOn: false, bounties: 0 },
    ...over,
  };
}

describe('average stack and stack in big blinds', () => {
  it('chips over players still in, rounded down', () => {
    expect(averageStack({ chips: 200_000, remaining: 20 })).toBe(10_000);
    expect(averageStack({ chips: 200_000, remaining: 7 })).toBe(28_571);
    expect(averageStack({ chips: 200_000, remaining: 0 })).toBeNull();
  });

  it('in big blinds with one decimal, rounded down; Stud counts small bets', () => {
    expect(stackInBigBlinds(10_000, regular.levels[0])).toBe(100);
    expect(stackInBigBlinds(995, regular.levels[0])).toBe(9.9);
    expect(stackInBigBlinds(10_000, regular.levels[3])).toBe(33.3);
    expect(stackInBigBlinds(10_000, stud.levels[0])).toBe(100);
    expect(stackInBigBlinds(10_000, { kind: 'blinds', ante: 0 })).toBeNull();
  });
});

describe('the clock', () => {
  it('counts down from when the standing arrived, on the page clock, never below 0', () => {
    const s = standing({ nextChangeInMs: 90_000 });
    expect(msToNextChange(s, 1_000_000, 1_000_000)).toBe(90_000);
    expect(msToNextChange(s, 1_000_000, 1_030_500)).toBe(59_500);
    expect(msToNextChange(s, 1_000_000, 1_200_000)).toBe(0);
    expect(msToNextChange(standing({ nextChangeInMs: null }), 1_000_000, 1_000_000)).toBeNull();
  });

  it('the next level and its blinds, or the break, as the operator clock reads them', () => {
    // Every moment of the first 8 levels: what the bar says comes next is what clockAt reads after the change.
    for (let t = 0; t < 8 * 10 * MIN + 2 * 5 * MIN; t += 30_000) {
      const c = clockAt(regular as TournamentStructure, t);
      const n = nextChange(regular, { level: c.level, onBreak: c.onBreak });
      const after = clockAt(regular as TournamentStructure, t + c.msToNext!);
      expect(n?.kind).toBe(after.onBreak ? 'break' : 'level');
      expect(n?.index).toBe(after.level);
      expect(n?.level).toEqual(regular.levels[after.level]);
    }
  });

  it('the last level never ends: nothing next', () => {
    expect(nextChange(hyper, { level: hyper.levels.length - 1, onBreak: false })).toBeNull();
    expect(nextChange(hyper, { level: null, onBreak: false })).toBeNull();
  });

  it('the break countdown: to the next break across whole levels, or until play resumes', () => {
    // Level 3 (0-based) of regular with 4 minutes left: levels 4 and 5 to play, then the break.
    expect(breakCountdown(regular, { level: 3, onBreak: false }, 4 * MIN)).toEqual({ onBreak: false, ms: 4 * MIN + 2 * 10 * MIN });
    expect(breakCountdown(regular, { level: 5, onBreak: false }, MIN)).toEqual({ onBreak: false, ms: MIN });
    expect(breakCountdown(regular, { level: 6, onBreak: true }, 2 * MIN)).toEqual({ onBreak: true, ms: 2 * MIN });
    // The same against the operator's clock: at any moment, the countdown ends where the break starts.
    for (let t = 0; t < 20 * 10 * MIN; t += 70_000) {
      const c = clockAt(regular as TournamentStructure, t);
      const b = breakCountdown(regular, { level: c.level, onBreak: c.onBreak }, c.msToNext);
      const at = clockAt(regular as TournamentStructure, t + b!.ms);
      expect(at.onBreak).toBe(!c.onBreak);
    }
    expect(breakCountdown(hyper, { level: 0, onBreak: false }, MIN)).toBeNull();
  });

  it('m:ss, h:mm:ss past an hour, rounded up to the second', () => {
    expect(clockText(0)).toBe('0:00');
    expect(clockText(59_001)).toBe('1:00');
    expect(clockText(4 * MIN + 5_000)).toBe('4:05');
    expect(clockText(62 * MIN)).toBe('1:02:00');
    expect(clockText(-5)).toBe('0:00');
  });
});

describe("the bar reads a structure's worked example as the operator's clock does (structure.ts afterLevel)", () => {
  // Four 20-minute levels, 10 minutes off after every 2nd: 0–20 level 1, 20–40 level 2, 40–50 break,
  // 50–70 level 3, from 70 level 4 held (no break after the last level, though it is the 4th).
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
  const w = wire(example);

  it('the next change at each point of the timeline', () => {
    for (const minute of [0, 25, 40, 49, 50, 70, 10_000]) {
      const c = clockAt(example, minute * MIN);
      const bar = nextChange(w, { level: c.level, onBreak: c.onBreak });
      // On a break the next change is the level after it; else what the clock says follows.
      expect(bar?.kind ?? null, `minute ${minute}`).toBe(c.onBreak ? 'level' : c.next);
      if (bar) expect(bar.level).toEqual(levelStakes(example, c.onBreak ? c.level : c.level + 1));
    }
    expect(nextChange(w, { level: 3, onBreak: false })).toBeNull();
  });

  it('the break countdown: the break after level 2; none once only the last level is ahead', () => {
    // At minute 5: 15 minutes of level 1, then level 2's 20: the break at minute 40.
    expect(breakCountdown(w, { level: 0, onBreak: false }, 15 * MIN)).toEqual({ onBreak: false, ms: 35 * MIN });
    expect(breakCountdown(w, { level: 2, onBreak: false }, 20 * MIN)).toBeNull();
    expect(breakCountdown(w, { level: 2, onBreak: true }, 4 * MIN)).toEqual({ onBreak: true, ms: 4 * MIN });
  });
});

describe('pay jumps and the bubble', () => {
  const prizes = [5_000, 3_000, 2_000, 1_000, 1_000, 1_000];

  it('out of the money: the first paid place is the next jump, after the busts before it', () => {
    expect(payJump(prizes, 10)).toEqual({ place: 10, prize: 0, next: { busts: 4, place: 6, prize: 1_000, jump: 1_000 } });
    expect(payJump(prizes, 7)).toEqual({ place: 7, prize: 0, next: { busts: 1, place: 6, prize: 1_000, jump: 1_000 } });
  });

  it('equal prizes are no jump: the next one is where the prize grows', () => {
    expect(payJump(prizes, 6)).toEqual({ place: 6, prize: 1_000, next: { busts: 3, place: 3, prize: 2_000, jump: 1_000 } });
    expect(payJump(prizes, 2)).toEqual({ place: 2, prize: 3_000, next: { busts: 1, place: 1, prize: 5_000, jump: 2_000 } });
  });

  it('the last one in has nothing above', () => {
    expect(payJump(prizes, 1)).toEqual({ place: 1, prize: 5_000, next: null });
  });

  it('before the money, on the bubble, in the money', () => {
    expect(moneyState(10, 6)).toEqual({ kind: 'before', busts: 4 });
    expect(moneyState(7, 6)).toEqual({ kind: 'bubble' });
    expect(moneyState(6, 6)).toEqual({ kind: 'money' });
    expect(moneyState(6, 0)).toBeNull();
  });
});

describe('one rule for the money and the pay jumps (R-TOURN-RUN)', () => {
  // A player out now takes place `remaining`: the money is reached when `paid` remain, after
  // `remaining - paid` eliminations; the next jump is the next better place paying more than the
  // current lowest prize, after `remaining - that place` eliminations.
  // A field of 100 pays 15 places (payouts.ts: 15 % of the field).
  const fifteen = payout(100_000, 100);

  it('the worked example: 20 left, 15 paid: in the money after 5 eliminations, when 15 remain', () => {
    expect(fifteen).toHaveLength(15);
    expect(eliminationsTo(20, 15)).toBe(5);
    expect(moneyState(20, 15)).toEqual({ kind: 'before', busts: 5 });
    expect(payJump(fifteen, 20).next).toMatchObject({ busts: 5, place: 15 });
  });

  it('the bar and the pay jump agree before the money, on the bubble, at each jump and on the final table', () => {
    const prizes = [5_000, 3_000, 2_000, 1_000, 1_000, 1_000];
    for (let remaining = 12; remaining >= 1; remaining--) {
      const m = moneyState(remaining, prizes.length);
      const j = payJump(prizes, remaining);
      if (remaining > prizes.length) {
        // Out of the money: the next jump is the first paid place, as many eliminations away as the money.
        const busts = m?.kind === 'before' ? m.busts : m?.kind === 'bubble' ? 1 : 0;
        expect(busts, `${remaining} left`).toBe(j.next?.busts);
        expect(j.next?.place).toBe(prizes.length);
        expect(m?.kind).toBe(remaining === prizes.length + 1 ? 'bubble' : 'before');
      } else {
        expect(m).toEqual({ kind: 'money' });
        // In the money: the jump is the next place paying more than this one's prize.
        if (j.next) expect(prizeOf(prizes, j.next.place)).toBeGreaterThan(prizeOf(prizes, remaining));
        if (j.next) expect(j.next.busts).toBe(eliminationsTo(remaining, j.next.place));
      }
    }
    // Final table of 6: places 4 to 6 pay the same, the next jump is 3rd, after 3 eliminations.
    expect(payJump(prizes, 6).next).toMatchObject({ busts: 3, place: 3 });
    expect(payJump(prizes, 3).next).toMatchObject({ busts: 1, place: 2 });
  });
});

describe('the finish line', () => {
  it('won, a place, or a place shared by the players out on one hand with equal stacks (T 8-16)', () => {
    expect(finishPlace({ place: 1, tied: 1 })).toEqual({ kind: 'won' });
    expect(finishPlace({ place: 3, tied: 1 })).toEqual({ kind: 'place', place: 3 });
    // Three out on one hand from four: each holds 2nd, places 2 to 4 shared.
    expect(finishPlace({ place: 2, tied: 3 })).toEqual({ kind: 'tied', place: 2, last: 4, count: 3 });
    // Two left sharing the end (a satellite's last seats): place 1, tied.
    expect(finishPlace({ place: 1, tied: 2 })).toEqual({ kind: 'tied', place: 1, last: 2, count: 2 });
    // A finish read again without the tie: no tie claimed.
    expect(finishPlace({ place: 2 })).toEqual({ kind: 'place', place: 2 });
  });
});

describe('the bar', () => {
  const details = { structure: regular, prizes: [10_000, 6_000, 4_000] };

  it('reads the standing: level, stakes, rank, average, big blinds, jump, next level', () => {
    const s = standing({ level: 2, nextChangeInMs: 5 * MIN, remaining: 4, chips: 80_000, you: { stack: 12_000, rank: 2, rebuy: false, addOn: true, bounties: 0 } });
    const f = barFigures(s, 1_000, details, 61_000);
    expect(f.stakes).toEqual(regular.levels[2]);
    expect(f.msToNext).toBe(4 * MIN);
    expect(f.next).toEqual({ kind: 'level', level: regular.levels[3], index: 3 });
    expect(f.breakIn).toEqual({ onBreak: false, ms: 4 * MIN + 3 * 10 * MIN });
    expect(f.rank).toBe(2);
    expect(f.average).toBe(20_000);
    expect(f.bigBlinds).toBe(60);
    expect(f.money).toEqual({ kind: 'bubble' });
    expect(f.jump).toEqual({ place: 4, prize: 0, next: { busts: 1, place: 3, prize: 4_000, jump: 4_000 } });
    expect(f.addOn).toBe(true);
    expect(f.rebuy).toBe(false);
  });

  it('without details, or with a prize list of another field, the figures needing them are left out', () => {
    const s = standing();
    expect(barFigures(s, 0, null, 0)).toMatchObject({ stakes: null, next: null, jump: null, bigBlinds: null, average: 10_000, rank: 7 });
    expect(barFigures(standing({ paid: 4 }), 0, details, 0).jump).toBeNull();
  });

  it('out of the tournament (no standing of ours): no rank, stack or jump', () => {
    expect(barFigures(standing({ you: null }), 0, details, 0)).toMatchObject({ rank: null, stack: null, bigBlinds: null, jump: null });
  });

  it('details are read again when the field or the paid places change', () => {
    const d = { summary: { entries: 20 }, prizes: [1, 2, 3] } as unknown as Parameters<typeof detailsStale>[0];
    expect(detailsStale(d, { entries: 20, paid: 3 })).toBe(false);
    expect(detailsStale(d, { entries: 21, paid: 3 })).toBe(true);
    expect(detailsStale(d, { entries: 20, paid: 4 })).toBe(true);
  });
});
