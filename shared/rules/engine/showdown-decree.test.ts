import { describe, expect, it } from 'vitest';
import { makeTableRules, validateDecreeTable, validateTableRules, type TableRules } from '../tableRules';
import { legalActions } from './legal';
import { startHand } from './machine';
import { dealFrom, refusal, run, tableConfig } from './test-support';
import type { HandState } from './types';

// The decree's Stud (D art. 7 III) and the big-blind ante.
const STUD = { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 };

/** Plays a Stud hand to its showdown: bring-in, every later player calls, then checks to the end. */
function studToShowdown(rules: TableRules): HandState {
  let s = dealFrom(startHand(tableConfig(rules, { stacks: [500, 500, 500] })));
  for (let guard = 0; guard < 200; guard++) {
    const legal = legalActions(s);
    if (legal.next === 'show' || legal.next === 'done') return s;
    if (legal.next === 'deal') {
      s = dealFrom(s);
      continue;
    }
    const seat = legal.seat!;
    s = run(s, legal.bringIn !== null ? { type: 'bringIn', seat } : legal.check ? { type: 'check', seat } : { type: 'call', seat });
  }
  throw new Error('the hand did not reach its showdown');
}

describe('the Stud showdown (D art. 7 III: "Tous les joueurs ouvrent ensuite leurs trois cartes privatives fermées")', () => {
  for (const code of ['7SHL', '7SJL', '7SLL'] as const) {
    it(`${code}: no one may muck; every player still in shows their hidden cards`, () => {
      let s = studToShowdown(makeTableRules(code, STUD));
      expect(s.phase).toBe('showdown');
      const shown: number[] = [];
      while (legalActions(s).next === 'show') {
        const legal = legalActions(s);
        expect(legal.muck).toBe(false);
        const r = refusal(s, { type: 'muck', seat: legal.seat! });
        expect(r.rule).toBe('R-SHOWDOWN');
        expect(r.message).toContain('D art. 7 III');
        shown.push(legal.seat!);
        s = run(s, { type: 'show', seat: legal.seat! });
      }
      expect(s.phase).toBe('done');
      expect(shown.sort()).toEqual([0, 1, 2]);
      expect(s.seats.every((p) => p.shown && !p.mucked)).toBe(true);
    });
  }

  it('a recorded hand of a game that lets a loser muck replays with the stud-muck house rule', () => {
    let s = studToShowdown(makeTableRules('7SHL', STUD, { houseRules: ['stud-muck'] }));
    s = run(s, { type: 'show', seat: legalActions(s).seat! });
    const next = legalActions(s);
    expect(next.muck).toBe(true);
    s = run(s, { type: 'muck', seat: next.seat! });
    expect(s.seats.some((p) => p.mucked)).toBe(true);
  });

  it("Hold'em keeps R-SHOWDOWN's mucking", () => {
    let s = dealFrom(startHand(tableConfig(makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 }), { stacks: [500, 500] })));
    for (let guard = 0; guard < 50 && legalActions(s).next !== 'show'; guard++) {
      const legal = legalActions(s);
      s = legal.next === 'deal' ? dealFrom(s) : run(s, legal.check ? { type: 'check', seat: legal.seat! } : { type: 'call', seat: legal.seat! });
    }
    s = run(s, { type: 'show', seat: legalActions(s).seat! });
    expect(legalActions(s).muck).toBe(true);
  });
});

describe('the Stud ante (D art. 7 III: "les joueurs engagent un ante")', () => {
  it('Stud table rules without an ante are refused, citing the article', () => {
    const check = validateTableRules(makeTableRules('7SHL', { ...STUD, ante: 0 }));
    expect(check).toMatchObject({ ok: false, rule: 'R-FORCED', field: 'ante' });
    if (!check.ok) expect(check.reason).toContain('D art. 7 III');
    expect(() => startHand(tableConfig(makeTableRules('7SLL', { ...STUD, ante: 0 }), { stacks: [500, 500] }))).toThrow(/D art. 7 III/);
  });

  it('a recorded hand dealt without an ante replays through the stud-no-ante house rule', () => {
    const rules = makeTableRules('7SJL', { ...STUD, ante: 0 }, { houseRules: ['stud-no-ante'] });
    expect(validateTableRules(rules)).toEqual({ ok: true });
    expect(startHand(tableConfig(rules, { stacks: [500, 500] })).phase).not.toBe('done');
  });

  it('a decree table (the operator\'s) never carries a house rule or a big-blind ante', () => {
    expect(validateDecreeTable(makeTableRules('7SHL', STUD))).toEqual({ ok: true });
    expect(validateDecreeTable(makeTableRules('7SHL', STUD, { houseRules: ['stud-muck'] }))).toMatchObject({ ok: false, field: 'houseRules' });
    expect(validateDecreeTable(makeTableRules('7SHL', { ...STUD, ante: 0 }, { houseRules: ['stud-no-ante'] }))).toMatchObject({ ok: false, field: 'houseRules' });
    expect(validateDecreeTable(makeTableRules('THNL', { smallBlind: 5, bigBlind: 10, ante: 10 }, { anteBy: 'big-blind' }))).toMatchObject({ ok: false, field: 'anteBy' });
  });

  it('house rules are Stud only, listed once each in one order', () => {
    expect(validateTableRules(makeTableRules('THNL', { bigBlind: 10 }, { houseRules: ['stud-muck'] }))).toMatchObject({ ok: false, field: 'houseRules' });
    expect(validateTableRules(makeTableRules('7SHL', STUD, { houseRules: ['stud-muck', 'stud-muck'] }))).toMatchObject({ ok: false, field: 'houseRules' });
    expect(validateTableRules(makeTableRules('7SHL', { ...STUD, ante: 0 }, { houseRules: ['stud-no-ante', 'stud-muck'] }))).toMatchObject({ ok: false, field: 'houseRules' });
    expect(validateTableRules(makeTableRules('7SHL', STUD, { houseRules: [] }))).toMatchObject({ ok: false, field: 'houseRules' });
  });
});

describe('mucking with a big-blind ante', () => {
  it('the big blind may muck: its dead ante is no claim of its own on a pot (R-POTS)', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100, ante: 100 }, { anteBy: 'big-blind' });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 AcAd', 'd 1 7h2c', 'd 2 8s3d', '2 c', '0 c', '1 x', 'd b 9s5h4c', '0 x', '1 x', '2 x', 'd b Jd', '0 x', '1 x', '2 x', 'd b Kh', '0 x', '1 x', '2 x');
    expect(legalActions(s).next).toBe('show');
    s = run(s, '0 sm');
    expect(legalActions(s)).toMatchObject({ seat: 1, muck: true });
    s = run(s, '1 mu', '2 mu');
    expect(s.phase).toBe('done');
    expect(s.seats.map((p) => p.stack)).toEqual([1300, 800, 900]);
  });
});
