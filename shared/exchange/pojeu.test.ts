// The POJEU example of the ARJEL decision (A 1.4.3.f, tests/fixtures/exchange), imported and checked
// field by field: first the document as read (Stackin/Stackout, the example's round names), then the
// hand the engine plays from it, which must give back every Finance figure the example states.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardFromText } from '../rules/cards';
import { exportHands, importHands, parsePojeuDocs } from './index';
import { parseXml } from './xml';

const EXAMPLE = readFileSync(join(__dirname, '../../tests/fixtures/exchange/arjel-a-1-4-3-f-pojeu.xml'), 'utf8');

describe('A 1.4.3.f, the POJEU example of the decision', () => {
  const parsed = parsePojeuDocs(EXAMPLE);
  if (!parsed.ok) throw new Error(`line ${parsed.line}: ${parsed.message}`);
  const [doc] = parsed.docs;

  it('is the document the decision prints, field by field', () => {
    expect(parsed.docs).toHaveLength(1);
    expect(doc).toMatchObject({
      supervision: false,
      retransmission: false,
      test: false,
      idOper: '0099',
      idCoffre: '1',
      dateEvt: '2016-01-01T00:10:00',
      idEvt: '0000001360',
      tech: 'WW-94703142',
      pool: '1',
      regle: 'THNL',
      description: "Texas Hold'Em No Limit (0.02-0.04)",
      info: null,
      scale: 2,
    });
    const fin = (net: number, total: number, avant: number, apres: number, rake: number | null) => ({
      net,
      total,
      caveAvant: avant,
      caveApres: apres,
      rake,
      stackNames: 'Stackin/Stackout',
    });
    expect(doc.participants.map(({ line: _line, ...p }) => p)).toEqual([
      { idOper: '0100', oper: null, pays: 'FR', idJoueur: '999-test-999', ipJoueur: '2001:db8::1', siege: 7, inscription: 'inscript-0', finance: fin(-4, 4, 152, 148, null) },
      { idOper: '0100', oper: null, pays: null, idJoueur: '000-test-001', ipJoueur: '2001:db8::2', siege: 8, inscription: 'inscript-1', finance: fin(-2, 2, 355, 353, null) },
      { idOper: '0100', oper: null, pays: null, idJoueur: '000-test-002', ipJoueur: '2001:db8::3', siege: 10, inscription: 'inscript-2', finance: fin(-4, 4, 190, 186, null) },
      { idOper: null, oper: 'Hyper Poker (IT)', pays: 'IT', idJoueur: 'HP-0013232002234234', ipJoueur: '2001:db8::4', siege: 2, inscription: 'inscript-3', finance: fin(-5, 241, 241, 236, 12) },
      { idOper: '0100', oper: null, pays: null, idJoueur: '123-test-456', ipJoueur: '2001:db8::5', siege: 3, inscription: 'inscript-4', finance: fin(-5, 241, 618, 613, 12) },
      { idOper: '0100', oper: null, pays: null, idJoueur: '325-test-667', ipJoueur: '2001:db8::6', siege: 5, inscription: 'inscript-5', finance: fin(-4, 4, 172, 168, null) },
    ]);
    // Rounds: the example's `blinds` and `preflop` read as the table's `bet` and `pre-flop`.
    expect(doc.rounds.map((r) => [r.name, r.timestamp, r.total, r.actions.length])).toEqual([
      ['bet', '2015-01-01T00:00:01', 6, 2],
      ['pre-flop', '2015-01-01T00:00:01', 16, 18],
      ['flop', '2015-01-01T00:00:10', 32, 9],
      ['turn', '2015-01-01T00:00:20', 56, 3],
      ['river', '2015-01-01T00:00:20', 386, 4],
      ['reveal', '2015-01-01T00:00:30', null, 4],
    ]);
    const strip = (r: (typeof doc.rounds)[number]) => r.actions.map(({ line: _line, ...a }) => a);
    expect(strip(doc.rounds[0])).toEqual([
      { type: 'Bet', name: 'small blind', siege: 8, valeur: 2 },
      { type: 'Bet', name: 'big blind', siege: 10, valeur: 4 },
    ]);
    const holes: [number, number][] = [
      [2, 32], [2, 26], [3, 33], [3, 38], [5, 14], [5, 23], [7, 10], [7, 19], [8, 16], [8, 13], [10, 5], [10, 8],
    ];
    expect(strip(doc.rounds[1])).toEqual([
      ...holes.map(([siege, valeur]) => ({ type: 'Draw', siege, valeur, ouverte: false, commune: false })),
      { type: 'Bet', name: 'call', siege: 2, valeur: 4 },
      { type: 'Bet', name: 'call', siege: 3, valeur: 4 },
      { type: 'Bet', name: 'call', siege: 5, valeur: 4 },
      { type: 'Bet', name: 'call', siege: 7, valeur: 4 },
      { type: 'Fold', siege: 8 },
      { type: 'Check', siege: 10 },
    ]);
    const board = (valeur: number) => ({ type: 'Draw', siege: null, valeur, ouverte: true, commune: true });
    expect(strip(doc.rounds[2])).toEqual([
      board(39), board(43), board(25),
      { type: 'Check', siege: 10 },
      { type: 'Bet', name: 'bet', siege: 2, valeur: 16 },
      { type: 'Bet', name: 'call', siege: 3, valeur: 16 },
      { type: 'Fold', siege: 5 },
      { type: 'Fold', siege: 7 },
      { type: 'Fold', siege: 10 },
    ]);
    expect(strip(doc.rounds[3])).toEqual([board(44), { type: 'Bet', name: 'bet', siege: 2, valeur: 28 }, { type: 'Bet', name: 'call', siege: 3, valeur: 28 }]);
    expect(strip(doc.rounds[4])).toEqual([
      board(29),
      { type: 'Bet', name: 'bet', siege: 2, valeur: 56 },
      { type: 'Bet', name: 'raise', siege: 3, valeur: 278 },
      { type: 'Bet', name: 'allin', siege: 2, valeur: 137 },
    ]);
    expect(strip(doc.rounds[5])).toEqual([
      { type: 'Reveal', siege: 2, valeur: 32 },
      { type: 'Reveal', siege: 2, valeur: 26 },
      { type: 'Reveal', siege: 3, valeur: 33 },
      { type: 'Reveal', siege: 3, valeur: 38 },
    ]);
  });

  it('card codes are those of A 1.3.6.d.3 (2♣ 0 … A♠ 51), the engine\'s', () => {
    // The example's board: 39 J♠, 43 Q♠, 25 8♦, 44 K♣, 29 9♦.
    expect([39, 43, 25, 44, 29]).toEqual(['Js', 'Qs', '8d', 'Kc', '9d'].map(cardFromText));
  });

  it('plays as a hand of the engine, and the hand gives back every Finance figure of the example', () => {
    const r = importHands('pojeu', EXAMPLE);
    if (!r.ok) throw new Error(`line ${r.line}: ${r.message}`);
    const [{ record, meta }] = r.hands;
    expect(meta).toEqual({ tableName: 'WW-94703142', endedAt: Date.UTC(2016, 0, 1, 0, 10, 0) });
    expect(record.variant).toBe('THNL');
    expect(record.handId).toBe('1');
    expect(record.rules).toMatchObject({ smallBlind: 2, bigBlind: 4, ante: 0 });
    // Seats are Siege − 1; the button is the seat before the small blind (Siege 7).
    expect(record.tableSize).toBe(10);
    expect([record.button, record.smallBlind, record.bigBlind]).toEqual([6, 7, 9]);
    const bySiege = (s: number) => record.seats.find((x) => x.seat === s - 1)!;
    const expectSeat = (siege: number, player: string, before: number, after: number, committed: number, won: number, rake: number) =>
      expect(bySiege(siege)).toMatchObject({ player, stackBefore: before, stackAfter: after, committed, won, rake, net: after - before, dealtIn: true });
    expectSeat(2, 'HP-0013232002234234', 241, 236, 241, 236, 12);
    expectSeat(3, '123-test-456', 618, 613, 241, 236, 12);
    expectSeat(5, '325-test-667', 172, 168, 4, 0, 0);
    expectSeat(7, '999-test-999', 152, 148, 4, 0, 0);
    expectSeat(8, '000-test-001', 355, 353, 2, 0, 0);
    expectSeat(10, '000-test-002', 190, 186, 4, 0, 0);
    expect(record.board).toEqual([39, 43, 25, 44, 29]);
    expect(bySiege(2).cards).toEqual([32, 26]);
    expect(bySiege(3).cards).toEqual([33, 38]);
    // One pot of 4.96; the rake of 0.24 (Σ Rake) from it; two kings-high straights split it.
    expect(record.pots).toEqual([{ amount: 496, rake: 24, eligible: [1, 2], shares: expect.arrayContaining([{ seat: 1, amount: 236, half: 'whole' }, { seat: 2, amount: 236, half: 'whole' }]) }]);
    expect(record.rake).toBe(24);
    // The river: Siege 3 raised to 2.78, Siege 2 called all-in for 1.37 more: 0.85 came back (Total 3.86).
    expect(record.uncalled).toEqual([{ seat: 2, amount: 85, round: 'river' }]);
    expect(record.showdown).toBe(true);
    expect(bySiege(2).hand?.high?.labelEn).toMatch(/straight/);
    expect(bySiege(3).hand?.high?.labelEn).toMatch(/straight/);
  });

  it('written again, it uses the table\'s names (CaveAvant/CaveApres, bet, pre-flop) and reads back to the same hand', () => {
    const r = importHands('pojeu', EXAMPLE);
    if (!r.ok) throw new Error(r.message);
    const text = exportHands('pojeu', r.hands);
    expect(text).toContain('<CaveAvant>2.41</CaveAvant>');
    expect(text).not.toContain('Stackin');
    expect(text).toContain('<Tour name="pre-flop">');
    expect(text).toContain('<Total>3.86</Total>');
    const back = importHands('pojeu', text);
    expect(back.ok && back.hands[0].record).toEqual(r.hands[0].record);
  });

  it('CaveAvant/CaveApres and Stackin/Stackout read the same; a Finance that the hand does not give is refused at its Joueur', () => {
    const cave = EXAMPLE.replaceAll('Stackin>', 'CaveAvant>').replaceAll('Stackout>', 'CaveApres>');
    const a = importHands('pojeu', cave);
    const b = importHands('pojeu', EXAMPLE);
    expect(a.ok && b.ok && a.hands[0].record).toEqual(b.ok && b.hands[0].record);
    const wrong = EXAMPLE.replace('<Stackout>6.13</Stackout>', '<Stackout>6.14</Stackout>');
    const r = importHands('pojeu', wrong);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(wrong.split('\n')[r.line - 1].trim()).toBe('<Joueur>');
      expect(r.message).toMatch(/Stackout 6\.14/);
    }
  });

  it('the decision\'s own page-break artefact (a POJEU closed after four participants) is refused with its line', () => {
    const lines = EXAMPLE.split('\n');
    const at = lines.findIndex((l) => l.includes('<IDJoueur>123-test-456</IDJoueur>')) - 2;
    const broken = [...lines.slice(0, at), '  </Participants>', '</POJEU>', ...lines.slice(at)].join('\n');
    const r = importHands('pojeu', broken);
    expect(r).toMatchObject({ ok: false, line: at + 3 });
  });
});

describe('the XML reader', () => {
  it('reads entities, character references, CDATA and comments; refuses a DTD, mixed content and mismatched tags with their line', () => {
    const ok = parseXml('<?xml version="1.0"?>\n<!-- c -->\n<a x="1 &amp; 2">\n  <b>&lt;&#65;&#x42;<![CDATA[<&>]]></b>\n</a>');
    expect(ok.ok && ok.root.attrs.x).toBe('1 & 2');
    expect(ok.ok && ok.root.children[0]).toMatchObject({ name: 'b', text: '<AB<&>', line: 4 });
    expect(parseXml('<!DOCTYPE a>\n<a/>')).toMatchObject({ ok: false, line: 1 });
    expect(parseXml('<a>\n  text <b/>\n</a>')).toMatchObject({ ok: false, line: 1 });
    expect(parseXml('<a>\n<b>\n</c>\n</a>')).toMatchObject({ ok: false, line: 3 });
    expect(parseXml('<a>\n<b>x &nbsp; y</b>\n</a>')).toMatchObject({ ok: false, line: 2 });
    expect(parseXml('<a>\n<b>\n')).toMatchObject({ ok: false });
    expect(parseXml('<a/>\n<b/>')).toMatchObject({ ok: false, line: 2 });
    expect(parseXml('')).toMatchObject({ ok: false, line: 1 });
  });
});
