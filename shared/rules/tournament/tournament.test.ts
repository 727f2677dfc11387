import { describe, expect, it } from 'vitest';
import { prng, randInt } from '../engine/test-support';
import { VARIANT_CODES, VARIANTS } from '../variants';
import { bountyShares, payout, prizePool, prizes, satellitePrizes, sharedPrizes } from './payouts';
import { drawSeats, fieldMoves, handForHand, tablesNeeded, type FieldTable } from './field';
import { clockAt, mayAddOn, mayRebuy, readyStructure, registrationOpen, SPEEDS, tableRulesAt, validateStructure, type TournamentStructure } from './structure';

const MIN = 60_000;

describe('structures (R-TOURN-STRUCTURE)', () => {
  it('the ready structures are valid for every variant and speed, freezeout and rebuy', () => {
    for (const code of VARIANT_CODES) {
      for (const speed of Object.keys(SPEEDS) as (keyof typeof SPEEDS)[]) {
        expect(validateStructure(code, readyStructure(code, speed)), `${code} ${speed}`).toEqual({ ok: true });
        expect(validateStructure(code, readyStructure(code, speed, { rebuys: { price: 500, fee: 50 } })), `${code} ${speed} rebuy`).toEqual({ ok: true });
      }
    }
  });

  it('every level of a Stud structure has an ante (D art. 7 III), and limit games bet one big blind', () => {
    const stud = readyStructure('7SHL', 'turbo');
    stud.levels.forEach((_, i) => expect(tableRulesAt('7SHL', stud, i).ante).toBeGreaterThanOrEqual(1));
    const limit = tableRulesAt('THL', readyStructure('THL', 'regular'), 5);
    expect(limit.smallBet).toBe(limit.bigBlind);
    expect(limit.bigBet).toBe(limit.bigBlind * 2);
    // Tournament tables: no rake (the fee was taken at registration), no open-pair big bet (R-LIMIT).
    expect(tableRulesAt('7SHL', stud, 0)).toMatchObject({ rake: { basisPoints: 0 }, studOpenPairBigBet: false });
  });

  it('refuses a bad structure naming the field', () => {
    const good = readyStructure('THNL', 'regular');
    const bad = (s: Partial<TournamentStructure>, code = 'THNL' as const) => validateStructure(code, { ...good, ...s });
    expect(bad({ startingStack: 0 })).toMatchObject({ ok: false, field: 'startingStack' });
    expect(bad({ levels: [{ kind: 'blinds', smallBlind: 50, bigBlind: 100, ante: 0 }, { kind: 'blinds', smallBlind: 25, bigBlind: 50, ante: 0 }] })).toMatchObject({ ok: false, field: 'levels[1]' });
    expect(bad({ levels: [{ kind: 'stud', ante: 0, bringIn: 10, smallBet: 20, bigBet: 40 }] }, '7SHL' as never)).toMatchObject({ ok: false, field: 'levels[0]' });
    expect(validateStructure('7SHL', { ...readyStructure('7SHL', 'regular'), levels: [{ kind: 'stud', ante: 0, bringIn: 10, smallBet: 20, bigBet: 40 }] })).toMatchObject({ ok: false, reason: expect.stringContaining('D art. 7 III') });
    expect(bad({ levels: [{ kind: 'stud', ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 }] })).toMatchObject({ ok: false, field: 'levels[0]' });
    expect(bad({ addOn: { price: 10, fee: 1, chips: 100 } })).toMatchObject({ ok: false, field: 'addOn' });
    expect(bad({ reEntries: 2, lateRegistrationLevels: 0 })).toMatchObject({ ok: false, field: 'reEntries' });
  });

  it('the clock: levels of the structure, a break every hour taken by all tables, the last level goes on', () => {
    const s = readyStructure('THNL', 'regular'); // 10-minute levels, 5 minutes off after every 6th
    expect(clockAt(s, 0)).toEqual({ level: 0, onBreak: false, msToNext: 10 * MIN, next: 'level' });
    expect(clockAt(s, 59 * MIN)).toEqual({ level: 5, onBreak: false, msToNext: MIN, next: 'break' });
    expect(clockAt(s, 61 * MIN)).toEqual({ level: 6, onBreak: true, msToNext: 4 * MIN, next: 'level' });
    expect(clockAt(s, 65 * MIN)).toEqual({ level: 6, onBreak: false, msToNext: 10 * MIN, next: 'level' });
    expect(clockAt(s, 10_000 * MIN)).toMatchObject({ level: s.levels.length - 1, msToNext: null });
  });

  it('late registration through its level; rebuys at or below the starting stack in their period; the add-on after (T 5-2, 5-4, 5-5)', () => {
    const s = readyStructure('THNL', 'regular', { rebuys: { price: 500, fee: 50 } });
    expect(registrationOpen(s, null)).toBe(true);
    expect(registrationOpen(s, 59 * MIN)).toBe(true); // level 6
    expect(registrationOpen(s, 61 * MIN)).toBe(false); // the break after level 6
    expect(mayRebuy(s, 5 * MIN, 10_000, 0)).toBe(true);
    expect(mayRebuy(s, 5 * MIN, 10_001, 0)).toBe(false);
    expect(mayRebuy(s, 61 * MIN, 0, 0)).toBe(false);
    expect(mayAddOn(s, 5 * MIN, false)).toBe(false);
    expect(mayAddOn(s, 61 * MIN, false)).toBe(true); // whatever the stack, on the break after the period
    expect(mayAddOn(s, 61 * MIN, true)).toBe(false);
    const t52: TournamentStructure = { ...s, rebuy: { ...s.rebuy!, when: 'below-big-blind', max: 2 } };
    expect(mayRebuy(t52, 0, 99, 0)).toBe(true); // big blind 100 at level 1
    expect(mayRebuy(t52, 0, 100, 0)).toBe(false);
    expect(mayRebuy(t52, 0, 0, 2)).toBe(false);
  });
});

describe('payouts and prizes (R-TOURN-RUN)', () => {
  it('prizes add up to the pool exactly, the remainder one unit at a time from 1st place', () => {
    expect(prizes(1001, [5000, 3000, 2000])).toEqual([501, 300, 200]);
    expect(prizes(2, [5000, 3000, 2000])).toEqual([2, 0, 0]);
    const rng = prng(3);
    for (let k = 0; k < 500; k++) {
      const n = 2 + randInt(rng, 2000);
      const pool = randInt(rng, 10_000_000);
      const p = payout(pool, n);
      expect(p.reduce((a, b) => a + b, 0)).toBe(pool);
      expect(p.every((x) => Number.isSafeInteger(x) && x >= 0)).toBe(true);
    }
  });

  it('the pool: buy-ins less bounties, rebuys and add-ons; a guarantee pays the overlay', () => {
    expect(prizePool({ entries: 10, buyIn: 1000, rebuys: 4, rebuyPrice: 1000, addOns: 7, addOnPrice: 1000 })).toEqual({ pool: 21_000, collected: 21_000, overlay: 0 });
    expect(prizePool({ entries: 10, buyIn: 1000, bounty: 250 })).toEqual({ pool: 7500, collected: 7500, overlay: 0 });
    expect(prizePool({ entries: 10, buyIn: 1000, guarantee: 50_000 })).toEqual({ pool: 50_000, collected: 10_000, overlay: 40_000 });
  });

  it('tied eliminations share the places they cover (T 8-16 with equal stacks); bounties split among the winners', () => {
    const p = payout(10_000, 9); // 5000, 3000, 2000
    expect(sharedPrizes(p, 1, 2)).toEqual([2500, 2500]);
    expect(sharedPrizes(p, 2, 2)).toEqual([1000, 1000]); // 3rd and 4th: 2000 + 0
    expect(sharedPrizes([5, 2], 0, 2)).toEqual([4, 3]);
    expect(bountyShares(1001, 2)).toEqual([501, 500]);
  });

  it('a satellite pays seats worth the target entry; the rest in cash (T 1-5)', () => {
    expect(satellitePrizes(10_500, 2200)).toEqual({ seats: 4, cash: 1700 });
  });
});

describe('the field (T 6-6, 6-8, R-RANDSEAT)', () => {
  const apply = (tables: FieldTable[], late: boolean): FieldTable[] => {
    const moves = fieldMoves(tables, { late });
    const size = new Map(tables.map((t) => [t.table, t.players]));
    for (const m of moves) {
      size.set(m.from, size.get(m.from)! - 1);
      size.set(m.to, size.get(m.to)! + 1);
    }
    return tables.filter((t) => size.get(t.table)! > 0).map((t) => ({ ...t, players: size.get(t.table)! }));
  };

  it('the draw spreads the players over the fewest tables, sizes within one, no seat used twice', () => {
    const rng = prng(11);
    const draw = drawSeats(23, 9, (n) => randInt(rng, n));
    expect(new Set(draw.map(([t]) => t)).size).toBe(3);
    expect(new Set(draw.map(([t, s]) => `${t}:${s}`)).size).toBe(23);
    const sizes = [0, 1, 2].map((t) => draw.filter(([x]) => x === t).length).sort();
    expect(sizes).toEqual([7, 8, 8]);
  });

  it('balancing from 3 players apart (2 late), tables closed highest number first', () => {
    expect(fieldMoves([{ table: 1, players: 9, seats: 9 }, { table: 2, players: 7, seats: 9 }], { late: false })).toEqual([]);
    expect(fieldMoves([{ table: 1, players: 9, seats: 9 }, { table: 2, players: 6, seats: 9 }], { late: false })).toEqual([{ from: 1, to: 2, why: 'balance' }]);
    expect(fieldMoves([{ table: 1, players: 9, seats: 9 }, { table: 2, players: 7, seats: 9 }], { late: true })).toEqual([{ from: 1, to: 2, why: 'balance' }]);
    const closing = fieldMoves([{ table: 1, players: 5, seats: 9 }, { table: 2, players: 6, seats: 9 }, { table: 3, players: 4, seats: 9 }], { late: false });
    expect(closing.filter((m) => m.why === 'break').every((m) => m.from === 3)).toBe(true);
    expect(closing.filter((m) => m.why === 'break')).toHaveLength(4);
  });

  it('property: after every round of eliminations, the fewest tables, sizes within 2 (within 1 late), every player kept', () => {
    const rng = prng(5);
    for (let run = 0; run < 30; run++) {
      const seats = [6, 8, 9][randInt(rng, 3)];
      let players = 20 + randInt(rng, 400);
      let tables: FieldTable[] = [];
      const draw = drawSeats(players, seats, (n) => randInt(rng, n));
      for (const [t] of draw) {
        const found = tables.find((x) => x.table === t + 1);
        if (found) tables = tables.map((x) => (x === found ? { ...x, players: x.players + 1 } : x));
        else tables.push({ table: t + 1, players: 1, seats });
      }
      while (players > 2) {
        // Some players bust at random tables (at most all but one at a table).
        tables = tables.map((t) => {
          const out = Math.min(t.players - 1, randInt(rng, 3), players - 2);
          players -= out;
          return { ...t, players: t.players - out };
        });
        const late = tables.length <= 3;
        tables = apply(tables, late);
        expect(tables.reduce((a, t) => a + t.players, 0)).toBe(players);
        expect(tables.length).toBe(tablesNeeded(players, seats));
        const sizes = tables.map((t) => t.players);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(late ? 1 : 2);
        expect(sizes.every((s) => s <= seats)).toBe(true);
      }
    }
  });

  it('hand-for-hand on the bubble only, with several tables', () => {
    expect(handForHand(16, 15, 2)).toBe(true);
    expect(handForHand(17, 15, 2)).toBe(false);
    expect(handForHand(15, 15, 2)).toBe(false);
    expect(handForHand(4, 3, 1)).toBe(false);
  });
});

it('covers every variant family in the ready structures', () => {
  expect(new Set(VARIANT_CODES.map((c) => readyStructure(c, 'turbo').levels[0].kind))).toEqual(new Set(['blinds', 'stud']));
  expect(VARIANT_CODES.filter((c) => VARIANTS[c].forcedBets === 'ante-bring-in').every((c) => readyStructure(c, 'turbo').levels[0].kind === 'stud')).toBe(true);
});
