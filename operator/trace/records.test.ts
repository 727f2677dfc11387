import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildPOACHAT, buildPOANNUL, buildPOBILAN, buildPOGAIN, buildPOINSCRIT, buildPOJEU, cardText, formatAmount, formatDateEvt,
  formatIdEvt, hashJoueur, isFormat, recordXml, TraceRecordError,
  type PlayerEventBase, type PojeuAction, type PojeuData, type RecordHeader,
} from './records';
import { parseXmlElement as parseXml, serialize, type XmlElement } from '../../shared/exchange/xml';

const DECISION = new URL('../../tests/fixtures/arjel/arjel-decision-2016-064-pojeu.md', import.meta.url);

/** The code blocks of one example section of A 1.4.3 ("1.4.3.a" … "1.4.3.f"). */
function exampleBlocks(section: string): string[] {
  const md = readFileSync(DECISION, 'utf8');
  const start = md.search(new RegExp(`^#+ ${section.replace(/\./g, '\\.')} `, 'm'));
  expect(start).toBeGreaterThan(0);
  const rest = md.slice(md.indexOf('\n', start) + 1);
  const next = rest.search(/^#+ /m);
  const body = next < 0 ? rest : rest.slice(0, next);
  return [...body.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * The POJEU example of A 1.4.3.f, put back together: the markdown comes from a PDF whose page breaks
 * split it into five code blocks, with two artefacts, each repaired once (the test fails if the text
 * changes): the first block closes `</Participants></POJEU>` before the list goes on, and the last
 * block repeats the `</Reveal></Tour>` that ended the block before it.
 */
function pojeuExample(): XmlElement {
  const blocks = exampleBlocks('1.4.3.f');
  expect(blocks).toHaveLength(5);
  const first = blocks[0].replace(/<\/Participants>\s*<\/POJEU>\s*$/, '');
  expect(first).not.toBe(blocks[0]);
  const last = blocks[4].replace(/^\s*<\/Reveal>\s*<\/Tour>/, '');
  expect(last).not.toBe(blocks[4]);
  expect(blocks[3].trimEnd().endsWith('</Reveal>\n</Tour>')).toBe(true);
  return parseXml([first, blocks[1], blocks[2], blocks[3], last].join('\n'));
}

const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name)!;
const textOf = (el: XmlElement, name: string) => child(el, name)?.text;
/** "0.04" -> 4, "-1.37" -> -137: amounts in the examples are euros with two decimals. */
const cents = (s: string) => {
  const m = /^(-?)(\d+)\.(\d\d)$/.exec(s)!;
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]));
};
const utc = (s: string) => new Date(`${s}Z`);

/** Reads the example into our input type, accepting Stackin/Stackout for CaveAvant/CaveApres (SPEC.md §6). */
function pojeuDataFrom(ex: XmlElement): PojeuData {
  const participants = child(ex, 'Participants').children.map((j) => {
    const f = child(j, 'Finance');
    return {
      idOper: textOf(j, 'IDOper'),
      oper: textOf(j, 'Oper'),
      pays: textOf(j, 'Pays'),
      idJoueur: textOf(j, 'IDJoueur'),
      ipJoueur: textOf(j, 'IPJoueur'),
      siege: Number(textOf(j, 'Siege')),
      inscription: textOf(j, 'Inscription'),
      finance: {
        net: cents(textOf(f, 'Net')),
        total: cents(textOf(f, 'Total')),
        caveAvant: cents(textOf(f, 'CaveAvant') ?? textOf(f, 'Stackin')),
        caveApres: cents(textOf(f, 'CaveApres') ?? textOf(f, 'Stackout')),
        rake: textOf(f, 'Rake') === undefined ? undefined : cents(textOf(f, 'Rake')),
      },
    };
  });
  const rounds = child(ex, 'Jeu').children.map((tour) => {
    const attr = (el: XmlElement, k: string) => el.attrs.find(([n]) => n === k)?.[1];
    const actions = tour.children
      .filter((a) => a.name !== 'Timestamp' && a.name !== 'Total')
      .map((a): PojeuAction => {
        const siege = textOf(a, 'Siege') === undefined ? undefined : Number(textOf(a, 'Siege'));
        const valeur = textOf(a, 'Valeur');
        switch (a.name) {
          case 'Bet':
            return { type: 'Bet', name: attr(a, 'name') as 'bet', siege: siege!, valeur: cents(valeur) };
          case 'Draw':
            return { type: 'Draw', siege, valeur: Number(valeur), ouverte: attr(a, 'ouverte') === 'true', commune: attr(a, 'commune') === 'true' };
          case 'Reveal':
          case 'Discard':
            return { type: a.name, siege, valeur: Number(valeur) };
          default:
            return { type: a.name as 'Check' | 'Fold', siege: siege! };
        }
      });
    const total = textOf(tour, 'Total');
    return { name: attr(tour, 'name')!, timestamp: utc(textOf(tour, 'Timestamp')), actions, total: total === undefined ? undefined : cents(total) };
  });
  return {
    kind: 'POJEU',
    tech: textOf(ex, 'Tech'),
    pool: textOf(ex, 'Pool'),
    participants,
    regle: textOf(ex, 'Regle') as 'THNL',
    description: textOf(ex, 'Description'),
    rounds,
  };
}

/** The example with the table's element names for the stacks (what we write; SPEC.md §6). */
function withCaveNames(el: XmlElement): XmlElement {
  const name = el.name === 'Stackin' ? 'CaveAvant' : el.name === 'Stackout' ? 'CaveApres' : el.name;
  return { ...el, name, children: el.children.map(withCaveNames) };
}

const header = (idEvt: number, date: string): RecordHeader => ({ idOper: '0099', idCoffre: 1, dateEvt: utc(date), idEvt });

const demoPlayer: PlayerEventBase = {
  idJoueur: 'arjel-demo01',
  hashJoueur: hashJoueur('test'),
  ipJoueur: '192.2.0.42',
  idSession: 'demo-session',
  inscription: 'ticket-0',
  tech: 'NPT16',
};

describe('ARJEL records match the examples of A 1.4.3 element by element', () => {
  it('POJEU (A 1.4.3.f), writing CaveAvant/CaveApres for the example\'s Stackin/Stackout', () => {
    const example = pojeuExample();
    expect(example.children.map((c) => c.name)).toEqual(['IDOper', 'IDCoffre', 'DateEvt', 'IDEvt', 'Tech', 'Pool', 'Participants', 'Regle', 'Description', 'Jeu']);
    expect(child(example, 'Participants').children).toHaveLength(6);
    const built = buildPOJEU(header(1360, '2016-01-01T00:10:00'), pojeuDataFrom(example));
    expect(built).toEqual(withCaveNames(example));
    // A few values checked by hand, independently of the reading above.
    const xml = serialize(built);
    expect(xml).toContain('<IDEvt>0000001360</IDEvt>');
    expect(xml).toContain('        <Net>-0.04</Net>\n        <Total>0.04</Total>\n        <CaveAvant>1.52</CaveAvant>\n        <CaveApres>1.48</CaveApres>\n');
    expect(xml).toContain('<Draw ouverte="true" commune="true">\n        <Valeur>39</Valeur>\n      </Draw>');
    expect(xml).toContain('<Bet name="allin">\n        <Siege>2</Siege>\n        <Valeur>1.37</Valeur>\n      </Bet>\n      <Total>3.86</Total>\n    </Tour>');
    expect(xml).not.toMatch(/Stackin|Stackout/);
    expect(cardText(32) + cardText(26)).toBe('Tc8h'); // seat 2's hand in the example
  });

  it('POINSCRIT (A 1.4.3.a)', () => {
    const [block] = exampleBlocks('1.4.3.a');
    const built = buildPOINSCRIT(header(1337, '2016-01-01T00:00:00'), {
      ...demoPlayer,
      kind: 'POINSCRIT',
      description: 'National Poker Tour 01 janvier 2016',
      format: 'T',
      solde: { avant: 100_000, mouvement: 10_000, apres: 90_000 },
    });
    expect(built).toEqual(parseXml(block));
  });

  it('POACHAT (A 1.4.3.b)', () => {
    const [block] = exampleBlocks('1.4.3.b');
    const built = buildPOACHAT(header(1338, '2016-01-01T00:00:00'), {
      ...demoPlayer,
      kind: 'POACHAT',
      description: 'Achat de cave (100 jetons).',
      solde: { avant: 90_000, mouvement: 2_000, apres: 88_000 },
    });
    expect(built).toEqual(parseXml(block));
  });

  it('POGAIN (A 1.4.3.c)', () => {
    const [block] = exampleBlocks('1.4.3.c');
    const built = buildPOGAIN(header(1340, '2016-01-01T00:00:00'), {
      ...demoPlayer,
      kind: 'POGAIN',
      description: "Bonus bounty pour l'élimination de arjel-demo02.",
      solde: { avant: 88_000, mouvement: 10_000, apres: 98_000 },
    });
    expect(built).toEqual(parseXml(block));
  });

  it('POBILAN (A 1.4.3.d)', () => {
    const [block] = exampleBlocks('1.4.3.d');
    const built = buildPOBILAN(header(1341, '2016-01-01T00:00:00'), { ...demoPlayer, kind: 'POBILAN', solde: { avant: 98_000, mouvement: 50_000, apres: 148_000 } });
    expect(built).toEqual(parseXml(block));
  });

  it('POANNUL (A 1.4.3.e)', () => {
    const [block] = exampleBlocks('1.4.3.e');
    const built = buildPOANNUL(header(1361, '2016-01-01T00:00:00'), {
      ...demoPlayer,
      kind: 'POANNUL',
      motif: 'Annulation Tournoi National Poker Tour 01 janvier 2016',
      solde: { avant: 90_000, mouvement: 10_000, apres: 100_000 },
    });
    expect(built).toEqual(parseXml(block));
  });
});

describe('record formats', () => {
  it('writes amounts, dates, IDEvt and HashJoueur as the decision does', () => {
    expect([0, 5, -4, 152, -137, 123_456].map((c) => formatAmount(c))).toEqual(['0.00', '0.05', '-0.04', '1.52', '-1.37', '1234.56']);
    expect(formatAmount(1500, 0)).toBe('1500');
    expect(() => formatAmount(0.5)).toThrow(TraceRecordError);
    expect(formatDateEvt(new Date('2016-01-01T00:10:00.999Z'))).toBe('2016-01-01T00:10:00');
    expect(formatDateEvt(new Date('2016-07-01T02:00:00+02:00'))).toBe('2016-07-01T00:00:00');
    expect(formatIdEvt(1337)).toBe('0000001337');
    expect(hashJoueur('test')).toBe('A94A8FE5CCB19BA61C4C0873D391E987982FBBD3');
    expect(cardText(0)).toBe('2c');
    expect(cardText(51)).toBe('As');
    // A 1.3.6.c.1 writes the code `T[ /d ]` and the example "T /AS": a space before the slash.
    expect(['CG', 'T', 'T /A', 'T /AS', 'T /GM', 'TDV', 'T/AS'].every(isFormat)).toBe(true);
    expect(['T /AA', 'T/X', 'cg', 'T /', 'T/', 'T  /AS', ''].some(isFormat)).toBe(false);
  });

  it('writes flags, the bonus compartment, a zero POBILAN, and escapes text', () => {
    const xml = recordXml(header(7, '2024-05-06T07:08:09'), {
      ...demoPlayer,
      kind: 'POBILAN',
      test: true,
      supervision: true,
      bonus: { avant: 0, mouvement: 0, apres: 0 },
    });
    expect(xml.split('\n')[0]).toBe('<POBILAN supervision="true" test="true">');
    expect(xml).toContain('  <BonusAvant>0.00</BonusAvant>\n  <BonusMouvement>0.00</BonusMouvement>\n  <BonusApres>0.00</BonusApres>\n</POBILAN>');
    expect(xml).not.toContain('Solde');
    const achat = recordXml(header(8, '2024-05-06T07:08:09'), { ...demoPlayer, kind: 'POACHAT', description: 'Recave <x2> & "plus"', solde: { avant: 10, mouvement: 5, apres: 5 } });
    expect(achat).toContain('<Description>Recave &lt;x2&gt; &amp; "plus"</Description>');
    expect(textOf(parseXml(achat), 'Description')).toBe('Recave <x2> & "plus"');
  });

  it('writes Stud up-cards with their seat, Triple Draw discards, and chip amounts without decimals', () => {
    const p = (siege: number, net: number, total: number, rake?: number) => ({
      idOper: '0099', idJoueur: `p${siege}`, ipJoueur: '2001:db8::7', siege, inscription: `i${siege}`,
      finance: { net, total, caveAvant: 1000, caveApres: 1000 + net, rake },
    });
    const el = buildPOJEU(header(9, '2024-01-01T00:00:00'), {
      kind: 'POJEU', tech: 'T-2T7', pool: 'H-1', regle: '2T7TD', description: 'Triple Draw 2-7 (10/20)', scale: 0, info: 'table rule: decree',
      participants: [p(1, -20, 20), p(4, 18, 20, 2)],
      rounds: [
        { name: 'bet', timestamp: utc('2024-01-01T00:00:00'), total: 30, actions: [{ type: 'Bet', name: 'small blind', siege: 1, valeur: 10 }, { type: 'Bet', name: 'big blind', siege: 4, valeur: 20 }] },
        { name: '1st draw', timestamp: utc('2024-01-01T00:00:05'), total: 10, actions: [
          { type: 'Discard', siege: 1, valeur: 51 }, { type: 'Draw', siege: 1, valeur: 0 },
          { type: 'Draw', siege: 4, valeur: 12, ouverte: true },
          { type: 'Bet', name: 'call', siege: 1, valeur: 10 }, { type: 'Bet', name: 'bet', siege: 4, valeur: 20 }, { type: 'Fold', siege: 1 },
        ] },
      ],
    });
    const xml = serialize(el);
    expect(xml).toContain('<Discard>\n        <Siege>1</Siege>\n        <Valeur>51</Valeur>\n      </Discard>');
    expect(xml).toContain('<Draw ouverte="true">\n        <Siege>4</Siege>\n        <Valeur>12</Valeur>\n      </Draw>');
    expect(xml).toContain('<Net>18</Net>');
    expect(xml).toContain('<Rake>2</Rake>');
    expect(xml).toContain('<Info>table rule: decree</Info>');
    expect(el.children.map((c) => c.name)).toEqual(['IDOper', 'IDCoffre', 'DateEvt', 'IDEvt', 'Tech', 'Pool', 'Participants', 'Regle', 'Description', 'Info', 'Jeu']);
  });

  it('refuses input that breaks the format or the hand\'s arithmetic', () => {
    const base = pojeuDataFrom(pojeuExample());
    const h = header(1, '2016-01-01T00:00:00');
    const variant = (f: (d: PojeuData) => PojeuData) => () => buildPOJEU(h, f(structuredClone(base)));
    const withPlayer = (i: number, patch: object) => (d: PojeuData) => ({ ...d, participants: d.participants.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
    const withFinance = (i: number, patch: object) => (d: PojeuData) => ({ ...d, participants: d.participants.map((p, j) => (j === i ? { ...p, finance: { ...p.finance, ...patch } } : p)) });
    const withRound = (i: number, patch: object) => (d: PojeuData) => ({ ...d, rounds: d.rounds.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
    expect(variant((d) => d)).not.toThrow();
    expect(variant(withFinance(0, { net: -5 }))).toThrow(/Net -5 is not CaveApres − CaveAvant/);
    expect(variant(withFinance(3, { rake: 13 }))).toThrow(/chips are not conserved/);
    expect(variant(withFinance(0, { caveAvant: 1.5 }))).toThrow(TraceRecordError);
    expect(variant(withPlayer(1, { siege: 7 }))).toThrow(/seat 7 is given to two participants/);
    expect(variant(withPlayer(0, { idOper: undefined, pays: undefined }))).toThrow(/IDOper, or Oper and Pays/);
    expect(variant(withPlayer(0, { ipJoueur: 'somewhere' }))).toThrow(/not an IP address/);
    expect(variant((d) => ({ ...d, participants: d.participants.slice(0, 1) }))).toThrow(/at least two participants/);
    expect(variant((d) => ({ ...d, regle: 'HOLDEM' as 'THNL' }))).toThrow(/Regle HOLDEM/);
    expect(variant(withRound(1, { name: 'blinds' }))).toThrow(/round names are unique/);
    expect(variant(withRound(0, { total: undefined }))).toThrow(/needs its Total/);
    expect(variant(withRound(4, { total: 472 }))).toThrow(/Total 472 is more than the 471 bet/);
    expect(variant(withRound(2, { actions: [] }))).toThrow(/at least one action/);
    expect(variant(withRound(2, { actions: [{ type: 'Draw', valeur: 52, commune: true }] }))).toThrow(/card code 0..51/);
    expect(variant(withRound(2, { actions: [{ type: 'Draw', valeur: 5 }] }))).toThrow(/without a seat must be a common card/);
    expect(variant(withRound(2, { actions: [{ type: 'Check', siege: 4 }] }))).toThrow(/seat 4 is not a participant's/);
    expect(variant(withRound(2, { actions: [{ type: 'Bet', name: 'shove', siege: 2, valeur: 1 }] }))).toThrow(/bet name shove/);

    const player = (patch: object) => () => buildPOINSCRIT(h, { ...demoPlayer, kind: 'POINSCRIT', description: 'x', format: 'CG', solde: { avant: 100, mouvement: 10, apres: 90 }, ...patch });
    expect(player({})).not.toThrow();
    expect(player({ format: 'T /XS' })).toThrow(/Format/);
    // Written as the decision spells it (A 1.3.6.c.1, "Par exemple: T /AS"), whichever spelling it is given.
    expect(serialize(player({ format: 'T/AS' })())).toContain('<Format>T /AS</Format>');
    expect(serialize(player({ format: 'T /AS' })())).toContain('<Format>T /AS</Format>');
    expect(player({ solde: { avant: 100, mouvement: 10, apres: 80 } })).toThrow(/SoldeApres 80 does not follow/);
    expect(player({ solde: { avant: 100, mouvement: -10, apres: 90 } })).toThrow(/absolute value/);
    expect(player({ solde: undefined })).toThrow(/needs a Solde or a Bonus/);
    expect(player({ hashJoueur: 'abc' })).toThrow(/HashJoueur/);
    expect(player({ inscription: '' })).toThrow(/Inscription must be a non-empty string/);
    expect(player({ description: 'bell\u0007' })).toThrow(/cannot be written in XML/);
    expect(() => buildPOINSCRIT({ ...h, idOper: 'OP' }, { ...demoPlayer, kind: 'POINSCRIT', description: 'x', format: 'CG', solde: { avant: 1, mouvement: 1, apres: 0 } })).toThrow(/IDOper/);
  });
});
