import { describe, expect, it } from 'vitest';
import { makeTableRules, validateTableRules, type TableRules } from './tableRules';

function refusedFor(rules: TableRules): { rule: string; field: string } {
  const r = validateTableRules(rules);
  if (r.ok) throw new Error('accepted');
  expect(r.reason.length).toBeGreaterThan(10);
  return { rule: r.rule, field: r.field };
}

describe('table rules as data (DESIGN.md §3, R-INFO)', () => {
  it('defaults: cap 1 bet + 3 raises, uncapped heads-up, increment minimum raise, open pair on, decree 2-7, no rake', () => {
    const r = makeTableRules('THL', { smallBlind: 1, bigBlind: 2 });
    expect(r).toMatchObject({
      structure: 'limit',
      smallBet: 2,
      bigBet: 4,
      cap: 4,
      capHeadsUp: false,
      minRaise: 'increment',
      studOpenPairBigBet: true,
      lowball27: 'decree',
      rake: { basisPoints: 0, cap: null, noFlopNoDrop: true },
    });
    expect(validateTableRules(r)).toEqual({ ok: true });
    expect(makeTableRules('THNL', { bigBlind: 20 })).toMatchObject({ smallBlind: 10, smallBet: 0, bigBet: 0, cap: null });
    expect(makeTableRules('7SHL', { ante: 1, bringIn: 2, smallBet: 5 })).toMatchObject({ bigBlind: 0, bringIn: 2, bigBet: 10 });
  });

  it('every default table validates', () => {
    for (const code of ['THL', 'THPL', 'THNL', 'O4HPL', 'O4JL', 'O4JPL', 'O5HPL', '2T7TD'] as const) {
      expect(validateTableRules(makeTableRules(code, { smallBlind: 5, bigBlind: 10 }))).toEqual({ ok: true });
    }
    for (const code of ['7SHL', '7SJL', '7SLL'] as const) {
      expect(validateTableRules(makeTableRules(code, { ante: 1, bringIn: 3, smallBet: 10 }))).toEqual({ ok: true });
    }
  });

  it('refuses inconsistent rules with the rule and the field', () => {
    const nl = makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 });
    expect(refusedFor({ ...nl, structure: 'limit' })).toEqual({ rule: 'R-INFO', field: 'structure' });
    expect(refusedFor({ ...nl, bigBlind: 10.5 })).toEqual({ rule: 'R-CONSERVE', field: 'bigBlind' });
    expect(refusedFor({ ...nl, smallBlind: 20 })).toEqual({ rule: 'R-FORCED', field: 'smallBlind' });
    expect(refusedFor({ ...nl, bigBlind: 0, smallBlind: 0 })).toEqual({ rule: 'R-FORCED', field: 'bigBlind' });
    expect(refusedFor({ ...nl, bringIn: 5 })).toEqual({ rule: 'R-FORCED', field: 'bringIn' });
    expect(refusedFor({ ...nl, cap: 4 })).toEqual({ rule: 'R-LIMIT', field: 'cap' });
    expect(refusedFor({ ...nl, smallBet: 10 })).toEqual({ rule: 'R-NL', field: 'smallBet' });
    expect(refusedFor({ ...nl, minRaise: 'triple' as never })).toEqual({ rule: 'R-MINRAISE', field: 'minRaise' });
    expect(refusedFor({ ...nl, lowball27: 'ace-to-five' as never })).toEqual({ rule: 'R-27', field: 'lowball27' });
    expect(refusedFor({ ...nl, rake: { basisPoints: 10_001, cap: null, noFlopNoDrop: true } })).toEqual({ rule: 'R-RAKE', field: 'rake' });
    expect(refusedFor({ ...nl, rake: { basisPoints: 2.5, cap: null, noFlopNoDrop: true } })).toEqual({ rule: 'R-RAKE', field: 'rake' });
    expect(refusedFor({ ...nl, rake: { basisPoints: 500, cap: -1, noFlopNoDrop: true } })).toEqual({ rule: 'R-RAKE', field: 'rake' });
    expect(refusedFor({ ...nl, actionSeconds: 0 })).toEqual({ rule: 'R-INFO', field: 'actionSeconds' });
    expect(refusedFor({ ...nl, variant: 'NLHE' as never })).toEqual({ rule: 'R-INFO', field: 'variant' });

    const fl = makeTableRules('THL', { smallBlind: 5, bigBlind: 10 });
    expect(refusedFor({ ...fl, bigBet: 5 })).toEqual({ rule: 'R-LIMIT', field: 'bigBet' });
    expect(refusedFor({ ...fl, smallBet: 20 })).toEqual({ rule: 'R-LIMIT', field: 'bigBlind' });
    expect(refusedFor({ ...fl, cap: 0 })).toEqual({ rule: 'R-LIMIT', field: 'cap' });
    expect(validateTableRules({ ...fl, cap: null })).toEqual({ ok: true });

    const stud = makeTableRules('7SHL', { ante: 1, bringIn: 3, smallBet: 10 });
    expect(refusedFor({ ...stud, bringIn: 0 })).toEqual({ rule: 'R-FORCED', field: 'bringIn' });
    expect(refusedFor({ ...stud, bringIn: 11 })).toEqual({ rule: 'R-FORCED', field: 'bringIn' });
    expect(refusedFor({ ...stud, bigBlind: 10 })).toEqual({ rule: 'R-FORCED', field: 'bigBlind' });
  });
});
