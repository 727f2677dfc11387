import { describe, expect, it } from 'vitest';
import { startHand } from '../../shared/rules/engine';
import { run, tableConfig } from '../../shared/rules/engine/test-support';
import { recordOf } from '../../shared/rules/record';
import { makeTableRules } from '../../shared/rules/tableRules';
import { recordXml } from './records';
import { pojeuOf } from './pojeu';
import { prng, randomConfig } from '../../shared/history/test-support';
import { playRandomHand } from '../../shared/rules/engine/test-support';

const ctx = (n: number) => ({
  tech: 't1',
  pool: 't1-1',
  idOper: '0099',
  seats: Array.from({ length: n }, (_, i) => ({ idJoueur: String(100 + i), ipJoueur: `203.0.113.${i + 1}`, inscription: `i${i}` })),
  times: [],
  description: "Texas Hold'em No Limit (0.50-1.00)",
  scale: 2 as const,
  test: false,
});
const header = { idOper: '0099', idCoffre: 1, dateEvt: new Date(Date.UTC(2026, 0, 1)), idEvt: 1 };

describe('POJEU from a hand record (A 1.3.6.c.2)', () => {
  it('a walk: the big blind returned uncalled in pre-flop comes off the bet round (D art. 9)', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000, 1000] }));
    s = run(s, 'd 0 AsKs', 'd 1 2c3d', 'd 2 7h8h', '2 f', '0 f');
    const data = pojeuOf(recordOf(s), ctx(3));
    expect(data.rounds.map((r) => [r.name, r.total])).toEqual([
      ['bet', 100],
      ['pre-flop', 0],
    ]);
    expect(data.participants.map((p) => [p.siege, p.finance.net, p.finance.total])).toEqual([
      [1, -50, 50],
      [2, 50, 50],
      [3, 0, 0],
    ]);
    const xml = recordXml(header, data);
    expect(xml).toContain('<Bet name="small blind">');
    expect(xml).toContain('<Fold>');
  });

  it('an all-in call is named allin; shown down cards are Reveals; board cards are common', () => {
    const rules = makeTableRules('THNL', { smallBlind: 50, bigBlind: 100 });
    let s = startHand(tableConfig(rules, { stacks: [1000, 1000] }));
    s = run(s, 'd 1 AsKs', 'd 0 2c3d', '1 r 1000', '0 c', '1 sm', '0 sm', 'd b 7h8h9h', 'd b Tc', 'd b Jd');
    const xml = recordXml(header, pojeuOf(recordOf(s), ctx(2)));
    expect(xml).toContain('<Bet name="allin">');
    expect(xml).toContain('<Draw ouverte="true" commune="true">');
    expect((xml.match(/<Reveal>/g) ?? []).length).toBe(4);
  });
});

describe('the Stud showdown in the POJEU (D art. 7 III)', () => {
  it('every player still in at a Stud showdown has their hidden cards in the Reveal round', () => {
    let checked = 0;
    for (const code of ['7SHL', '7SJL', '7SLL'] as const) {
      const rng = prng(31 + code.length);
      for (let h = 0; h < 60; h++) {
        const rules = makeTableRules(code, { ante: 5, bringIn: 10, smallBet: 20, bigBet: 40 });
        const record = recordOf(playRandomHand(randomConfig(code, rng, { rules }), rng));
        if (!record.showdown) continue;
        const data = pojeuOf(record, ctx(record.tableSize));
        const reveal = data.rounds.find((r) => r.name === 'reveal');
        for (const s of record.seats.filter((x) => x.dealtIn && !x.folded)) {
          expect(s.shown && !s.mucked, `${code} ${record.handId} seat ${s.seat}`).toBe(true);
          // Its face-down cards (three, or two when the stub ran short and a card was dealt face up).
          const hidden = s.cards.filter((c, k) => c !== null && !s.up[k]);
          expect(hidden.length).toBeGreaterThanOrEqual(2);
          expect(reveal?.actions.flatMap((a) => (a.type === 'Reveal' && a.siege === s.seat + 1 ? [a.valeur] : [])).sort()).toEqual([...hidden].sort());
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
