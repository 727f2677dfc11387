// Tournament hands and summaries through the exchange (docs/exchange.md): every
// variant's tournament hands through POJEU, PHH and PokerStars text and back (record and meta equal,
// less what PokerStars text cannot carry); golden text of one PokerStars tournament hand and one
// summary; malformed tournament headers and summaries refused with their line and nothing imported;
// the shapes PokerStars' own tournament files have (notes on who went out, bounty seats, ET dates).

import { describe, expect, it } from 'vitest';
import type { TournamentRecordView } from '../api/tournaments';
import { prng, randomRecord } from '../history/test-support';
import type { HandRecord } from '../rules/record';
import { VARIANT_CODES } from '../rules/variants';
import { isNumericHandId } from './handNumber';
import { EXCHANGE_FORMATS, canonicalRecord, exportHands, importHands, isSummaryText, pokerstarsCarriedRules, readPokerstarsSummaries, tournamentNumber, writePokerstarsSummaries, type ExchangeFormat, type ExchangeHand, type ExchangeMeta } from './index';
import { fromRoman, parisOffset, readDate, roman } from './pokerstars-tournament';
import { golden } from '../../tests/support/exchange-golden';

/** What PokerStars text keeps of a tournament hand's meta: the number for the id, `T n` for the table, the entry's money; no name. */
function pokerstarsMeta(m: ExchangeMeta): ExchangeMeta {
  const t = m.tournament!;
  const money = t.money ?? m.money ?? 'real';
  const n = tournamentNumber(t.tournamentId);
  const table = /-t(\d+)$/.exec(m.tableName ?? '')?.[1] ?? '1';
  return { tableName: `${n} ${Number(table)}`, endedAt: m.endedAt, money, tournament: { tournamentId: String(n), level: t.level, buyIn: t.buyIn, fee: t.fee, money } };
}

function carried(format: ExchangeFormat, r: HandRecord, other: HandRecord): unknown {
  const c = canonicalRecord(r);
  if (format !== 'pokerstars') return c;
  const sameReading = other.rules.lowball27 === r.rules.lowball27;
  return { ...c, rules: pokerstarsCarriedRules(r), handId: null, seats: c.seats.map((s) => ({ ...s, hand: r.variant === '2T7TD' && !sameReading ? null : s.hand })) };
}

function roundTrip(format: ExchangeFormat, hands: ExchangeHand[]): void {
  const text = exportHands(format, hands);
  const back = importHands(format, text);
  if (!back.ok) throw new Error(`${format}: line ${back.line}: ${back.message}\n${text}`);
  expect(back.hands).toHaveLength(hands.length);
  back.hands.forEach((h, i) => {
    expect(carried(format, h.record, hands[i].record)).toEqual(carried(format, hands[i].record, h.record));
    expect(h.meta).toEqual(format === 'pokerstars' ? pokerstarsMeta(hands[i].meta) : hands[i].meta);
    if (format !== 'pokerstars' || isNumericHandId(hands[i].record.handId)) expect(h.record.handId).toBe(hands[i].record.handId);
  });
}

// Around the clocks' changes: Paris (last Sundays of March and October) and New York (second Sunday of March, first of November).
const TIMES = [Date.UTC(2026, 10, 25, 20, 0, 0), Date.UTC(2026, 9, 25, 0, 30, 7), Date.UTC(2026, 9, 25, 1, 30, 7), Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0), Date.UTC(2026, 10, 1, 5, 30, 0), Date.UTC(2026, 10, 1, 6, 30, 0), Date.UTC(2027, 0, 1, 0, 0, 0)];

function tournamentHand(code: (typeof VARIANT_CODES)[number], rng: () => number, i: number): ExchangeHand {
  const numeric = i % 3 === 0;
  const tournamentId = numeric ? String(900_000 + i) : `sng-${code.toLowerCase()}-6-${i}`;
  const money = i % 2 === 0 ? 'play' : 'real';
  const freeroll = i % 7 === 5;
  return {
    record: randomRecord(code, rng, i % 5 === 4 ? `${tournamentId}-h${i}` : String(300_000 + i)),
    meta: {
      tableName: `${tournamentId}-t${1 + (i % 4)}`,
      endedAt: TIMES[i % TIMES.length],
      ...(i % 4 === 3 ? {} : { money }),
      tournament: {
        tournamentId,
        level: (i * 7) % 40,
        buyIn: freeroll ? 0 : money === 'real' ? 450 + i * 100 : 1000,
        fee: freeroll ? 0 : money === 'real' ? 50 : 100,
        ...(i % 2 === 0 ? { name: `Sit & Go ${code}` } : {}),
        ...(i % 4 === 3 ? {} : { money }),
      },
    },
  };
}

describe("every variant's tournament hands, every format", () => {
  for (const code of VARIANT_CODES) {
    it(`${code}: 16 tournament hands (operator's and seats' views) through POJEU, PHH and PokerStars text and back`, () => {
      const rng = prng(0x70a1 + code.charCodeAt(0) * 31 + code.length);
      for (let i = 0; i < 16; i++) {
        const hand = tournamentHand(code, rng, i);
        for (const f of EXCHANGE_FORMATS) roundTrip(f, [hand]);
      }
    });
  }

  it('a file mixing cash and tournament hands reads back each as it was', () => {
    const rng = prng(9);
    const hands = [tournamentHand('THNL', rng, 0), { record: randomRecord('O4HPL', rng, '42'), meta: { tableName: 'Cash', endedAt: TIMES[0], money: 'real' as const } }, tournamentHand('7SHL', rng, 1)];
    for (const f of EXCHANGE_FORMATS) {
      const back = importHands(f, exportHands(f, hands));
      expect(back.ok && back.hands.map((h) => h.meta.tournament?.level ?? null)).toEqual([0, null, 7]);
    }
  });

  it('POJEU: Tech is the tournament id and Description starts with its name, as the trace writes them; amounts in whole chips', () => {
    const rng = prng(11);
    const hand = tournamentHand('THNL', rng, 2);
    const text = exportHands('pojeu', [hand], { pojeuScale: 2 });
    expect(text).toContain(`<Tech>${hand.meta.tournament!.tournamentId}</Tech>`);
    expect(text).toContain("<Description>Sit &amp; Go THNL: Texas Hold'em No Limit (");
    expect(text).not.toMatch(/<CaveAvant>\d+\.\d+<\/CaveAvant>/);
    // A Tech that is not the extension's tournament is refused, on the POJEU's line.
    const bad = importHands('pojeu', text.replace(/<Tech>[^<]*<\/Tech>/, '<Tech>other</Tech>'));
    expect(bad).toMatchObject({ ok: false, line: 2 });
    expect(!bad.ok && bad.message).toMatch(/Tech 'other' is not the tournament/);
  });

  it("PHH: event and level (counted from 1) as the standard names them; disagreeing with the extension, refused at the field's line", () => {
    const rng = prng(12);
    const hand = tournamentHand('THPL', rng, 2); // level 14, named
    const text = exportHands('phh', [hand]);
    expect(text).toMatch(/^event = "Sit & Go THPL"$/m);
    expect(text).toMatch(/^level = 15$/m);
    const line = text.split('\n').findIndex((l) => l.startsWith('level =')) + 1;
    expect(importHands('phh', text.replace('level = 15', 'level = 3'))).toMatchObject({ ok: false, line });
  });
});

describe('PokerStars tournament text', () => {
  it('golden: one tournament hand as PokerStars writes it', () => {
    const rng = prng(0x5701);
    const record = randomRecord('THNL', rng, '254800000001');
    const text = exportHands('pokerstars', [{ record, meta: { tableName: 'mtt-thnl-regular-3-t7', endedAt: Date.UTC(2026, 10, 25, 20, 0, 0), money: 'real', tournament: { tournamentId: 'mtt-thnl-regular-3', level: 2, buyIn: 450, fee: 50, name: 'Le Grand Tournoi', money: 'real' } } }]);
    expect(text.split('\n')[0]).toBe(`PokerStars Hand #254800000001: Tournament #${tournamentNumber('mtt-thnl-regular-3')}, €4.50+€0.50 EUR Hold'em No Limit - Level III (${record.rules.smallBlind}/${record.rules.bigBlind}) - 2026/11/25 21:00:00 CET [2026/11/25 15:00:00 ET]`);
    golden('tournament-hand.txt', text);
  });

  it('play money: the entry without currency and no play-money marker; a freeroll is "Freeroll"; both read back', () => {
    const rng = prng(3);
    const record = randomRecord('THNL', rng, '77');
    const play = exportHands('pokerstars', [{ record, meta: { endedAt: TIMES[0], tournament: { tournamentId: '382394766', level: 0, buyIn: 300, fee: 20, money: 'play' } } }]);
    expect(play.split('\n')[0]).toMatch(/^PokerStars Hand #77: Tournament #382394766, 300\+20 Hold'em No Limit - Level I \(/);
    expect(play.split('\n')[1]).toMatch(/^Table '382394766 1' \d+-max Seat #\d+ is the button$/);
    const free = exportHands('pokerstars', [{ record, meta: { endedAt: TIMES[0], money: 'real', tournament: { tournamentId: '604678566', level: 1, buyIn: 0, fee: 0 } } }]);
    expect(free.split('\n')[0]).toMatch(/^PokerStars Hand #77: Tournament #604678566, Freeroll {2}Hold'em No Limit - Level II \(/);
    expect(importHands('pokerstars', play)).toMatchObject({ ok: true, hands: [{ meta: { money: 'play', tournament: { tournamentId: '382394766', buyIn: 300, fee: 20, money: 'play' } } }] });
    expect(importHands('pokerstars', free)).toMatchObject({ ok: true, hands: [{ meta: { money: 'real', tournament: { tournamentId: '604678566', level: 1, buyIn: 0, fee: 0 } } }] });
  });

  it("a tournament id that is not a number comes back as its number, which is numbered the same again", () => {
    const n = tournamentNumber('sng-thnl-6-17');
    expect(Number.isSafeInteger(n)).toBe(true);
    expect(tournamentNumber(String(n))).toBe(n);
    expect(tournamentNumber('123')).toBe(123);
  });

  it('the shapes of PokerStars files: notes on who went out, bounty seats, a three-part entry, an ET date, a Freeroll', () => {
    const text = [
      "PokerStars Hand #86563945695: Tournament #604678566, €10+€10+€2 EUR Hold'em No Limit - Level IV (20/40) - 2012/09/22 13:59:56 ET",
      "Table '604678566 40' 9-max Seat #3 is the button",
      'Seat 1: anna (2500 in chips, €10 bounty)',
      'Seat 3: bob (40 in chips, €10 bounty)',
      'Seat 4: carl (2500 in chips) is sitting out',
      'bob: posts small blind 20',
      'anna: posts big blind 40',
      '*** HOLE CARDS ***',
      'bob: calls 20 and is all-in',
      '*** FLOP *** [2c 7d 9h]',
      '*** TURN *** [2c 7d 9h] [Js]',
      '*** RIVER *** [2c 7d 9h Js] [3s]',
      '*** SHOW DOWN ***',
      'anna: shows [Ah Ad] (a pair of Aces)',
      'bob: shows [Kc Qc] (high card King)',
      'anna collected 80 from pot',
      'bob finished the tournament in 8th place',
      '*** SUMMARY ***',
      'Total pot 80 | Rake 0',
      'Board [2c 7d 9h Js 3s]',
      'Seat 1: anna (big blind) showed [Ah Ad] and won (80) with a pair of Aces',
      'Seat 3: bob (button) (small blind) showed [Kc Qc] and lost with high card King',
      'Seat 4: carl is sitting out',
    ].join('\n');
    const r = importHands('pokerstars', text);
    if (!r.ok) throw new Error(`line ${r.line}: ${r.message}`);
    // 13:59:56 ET in September is daylight time (UTC−4).
    expect(r.hands[0].meta).toEqual({ tableName: '604678566 40', endedAt: Date.UTC(2012, 8, 22, 17, 59, 56), money: 'real', tournament: { tournamentId: '604678566', level: 3, buyIn: 2000, fee: 200, money: 'real' } });
    expect(r.hands[0].record.seats.find((s) => s.player === 'bob')?.stackAfter).toBe(0);
  });

  it('malformed tournament headers are refused with their line; nothing of the file is imported', () => {
    const rng = prng(21);
    const hands = [0, 2].map((i) => tournamentHand('THNL', rng, i)); // play money, both
    const text = exportHands('pokerstars', hands);
    const lines = text.split('\n');
    const second = lines.findIndex((l, k) => k > 0 && l.startsWith('PokerStars Hand #'));
    const cases: [RegExp, string, RegExp][] = [
      [/Level [IVXLCDM]+ /, 'Level IIII ', /'Level IIII' is not a level/],
      [/, \d+\+\d+ /, ', 1000+ ', /the tournament's entry '1000\+' is not/],
      [/ - Level [IVXLCDM]+/, '', /the tournament header is not/],
      [/ CET \[/, ' PST [', /the time zone 'PST' is not one of UTC, CET, ET/],
      [/Tournament #\d+/, 'Tournament #x1', /the tournament header is not/],
    ];
    for (const [pattern, by, message] of cases) {
      const broken = [...lines];
      broken[second] = broken[second].replace(pattern, by);
      expect(broken[second]).not.toBe(lines[second]);
      const r = importHands('pokerstars', broken.join('\n'));
      expect(r).toMatchObject({ ok: false, line: second + 1 });
      expect(!r.ok && r.message).toMatch(message);
    }
  });

  it("cash hands' dates are read in the same zones (UTC, CET, ET); another zone is refused at the header", () => {
    const rng = prng(31);
    const text = exportHands('pokerstars', [{ record: randomRecord('THNL', rng, '5'), meta: { tableName: 'C', endedAt: TIMES[0], money: 'real' } }]);
    const [head, ...rest] = text.split('\n');
    const cet = head.replace(/ - .*$/, ' - 2026/11/25 21:00:00 CET [2026/11/25 15:00:00 ET]');
    expect(importHands('pokerstars', [cet, ...rest].join('\n'))).toMatchObject({ ok: true, hands: [{ meta: { endedAt: TIMES[0] } }] });
    const pst = importHands('pokerstars', [head.replace(' UTC [', ' PST ['), ...rest].join('\n'));
    expect(pst).toMatchObject({ ok: false, line: 1, message: "the time zone 'PST' is not one of UTC, CET, ET" });
  });

  it('Roman levels and Paris time', () => {
    for (let n = 1; n <= 1001; n++) expect(fromRoman(roman(n))).toBe(n);
    expect(roman(16)).toBe('XVI');
    expect(fromRoman('IIII')).toBeNull();
    expect(fromRoman('IC')).toBeNull();
    expect(parisOffset(Date.UTC(2026, 2, 29, 0, 59))).toBe(1);
    expect(parisOffset(Date.UTC(2026, 2, 29, 1, 0))).toBe(2);
    expect(parisOffset(Date.UTC(2026, 9, 25, 0, 59))).toBe(2);
    expect(parisOffset(Date.UTC(2026, 9, 25, 1, 0))).toBe(1);
    // 2:30 CET happens twice on 2026/10/25: the ET time in brackets tells which.
    expect(readDate('2026/10/25 02:30:00 CET', '2026/10/24 20:30:00 ET')).toBe(Date.UTC(2026, 9, 25, 0, 30));
    expect(readDate('2026/10/25 02:30:00 CET', '2026/10/24 21:30:00 ET')).toBe(Date.UTC(2026, 9, 25, 1, 30));
  });
});

// ---------------------------------------------------------------------------------------------
// Summaries

const FINISHED: TournamentRecordView = {
  tournamentId: '2874010268',
  name: 'Le Grand Tournoi',
  variant: 'THNL',
  money: 'real',
  format: 'scheduled',
  kinds: 'AGM',
  buyIn: 450,
  fee: 50,
  entries: 18,
  registeredAt: Date.UTC(2026, 10, 25, 19, 55),
  startedAt: Date.UTC(2026, 10, 25, 20, 0),
  endedAt: Date.UTC(2026, 10, 25, 21, 10, 30),
  place: 3,
  prize: 1620,
  bounties: 875,
  rebuys: 2,
  addOns: 1,
  reEntries: 1,
  spent: 2 * 500 + 1500,
  hands: 140,
};

/** What the summary form carries of a stored tournament (docs/exchange.md): not the name, format, hands kept or registration time. */
function summaryCarried(t: TournamentRecordView): TournamentRecordView {
  return { ...t, tournamentId: String(tournamentNumber(t.tournamentId)), name: `Tournament #${tournamentNumber(t.tournamentId)}`, format: 'scheduled', registeredAt: t.startedAt!, hands: 0 };
}

describe('PokerStars tournament summaries', () => {
  it('golden: one summary as PokerStars writes it', () => {
    golden('tournament-summary.txt', writePokerstarsSummaries([{ tournament: FINISHED, player: 'hero' }]));
  });

  it('every variant, real and play money, in and out of the money, read back to the same record (what the form carries)', () => {
    const list = VARIANT_CODES.flatMap((variant, i) =>
      (['real', 'play'] as const).map((money, k) => ({
        tournament: {
          ...FINISHED,
          tournamentId: k === 0 ? `mtt-${variant.toLowerCase()}-${i}` : String(1000 + i),
          variant,
          money,
          kinds: i % 3 === 0 ? '' : i % 3 === 1 ? 'A' : 'GM',
          buyIn: money === 'real' ? 100 * (i + 1) + 5 : 1000,
          fee: money === 'real' ? 10 * i : 100,
          place: 1 + i,
          prize: i % 2 === 0 ? 0 : 777 * i,
          rebuys: i % 3 === 1 ? i : 0,
          addOns: i % 3 === 1 ? 1 : 0,
          reEntries: i % 3 === 2 ? 1 : 0,
          bounties: i % 3 === 2 ? 250 * i : 0,
          spent: 0,
        },
        player: `player ${i}`,
      })),
    ).map((s) => {
      const t = s.tournament;
      const entry = t.buyIn + t.fee;
      return { ...s, tournament: { ...t, spent: (1 + t.reEntries) * entry + (t.rebuys + t.addOns > 0 ? 3 * entry : 0) } };
    });
    const text = writePokerstarsSummaries(list);
    expect(isSummaryText(text)).toBe(true);
    const back = readPokerstarsSummaries(text);
    if (!back.ok) throw new Error(`line ${back.line}: ${back.message}`);
    expect(back.summaries.map((s) => s.tournament)).toEqual(list.map((s) => summaryCarried(s.tournament)));
    expect(back.summaries.map((s) => s.player)).toEqual(list.map((s) => s.player));
    // Written again from what was read: the same text.
    expect(writePokerstarsSummaries(back.summaries)).toBe(writePokerstarsSummaries(list.map((s) => ({ ...s, tournament: summaryCarried(s.tournament) }))));
  });

  it("a tournament not over has no summary; PokerStars' own shapes read (a still-playing field, e-mail lines, three-part buy-in)", () => {
    expect(writePokerstarsSummaries([{ tournament: { ...FINISHED, place: null }, player: 'hero' }])).toBe('');
    const text = [
      "PokerStars Tournament #447493868, Pot Limit Omaha Hi/Lo",
      'Buy-In: $1.08/$0.27/$0.15 USD',
      '9 players',
      'Total Prize Pool: $9.72 USD',
      'Tournament started 2011/09/28 8:42:10 ET',
      'Tournament finished 2011/09/28 9:34:27 ET',
      '  1: ann (Russia), $4,004.87 (50.102%)',
      '  2: hero [2] (Australia), still playing',
      '',
      'Dear hero,',
      'You finished the tournament in 2nd place.',
      'Thank you for participating.',
    ].join('\n');
    const r = readPokerstarsSummaries(text);
    if (!r.ok) throw new Error(`line ${r.line}: ${r.message}`);
    expect(r.summaries[0]).toMatchObject({ player: 'hero', tournament: { tournamentId: '447493868', variant: 'O4JPL', buyIn: 135, fee: 15, entries: 9, place: 2, prize: 0, startedAt: Date.UTC(2011, 8, 28, 12, 42, 10) } });
    // Without "You finished", the player's names find the line.
    const noYou = text.split('\n').slice(0, 8).join('\n');
    expect(readPokerstarsSummaries(noYou, ['ann'])).toMatchObject({ ok: true, summaries: [{ player: 'ann', tournament: { place: 1, prize: 400487 } }] });
    expect(readPokerstarsSummaries(noYou)).toMatchObject({ ok: false, line: 1 });
  });

  it('malformed summaries are refused with their line, none of the file kept', () => {
    const two = writePokerstarsSummaries([
      { tournament: FINISHED, player: 'hero' },
      { tournament: { ...FINISHED, tournamentId: '99' }, player: 'hero' },
    ]);
    const lines = two.split('\n');
    const second = lines.lastIndexOf(lines[0].replace(/#\d+/, '#99'));
    expect(second).toBeGreaterThan(0);
    const cases: [number, string, RegExp][] = [
      [second, 'PokerStars Tournament #99, No Limit Canasta', /is not a game of the decree/],
      [second + 1, 'Buy-In: €4.50-€0.50 EUR', /unexpected summary line/],
      [second + 4, 'Tournament started 2026/11/25 21:00:00 PST', /the time zone 'PST'/],
      [second + 6, '  3: hero (France), lots', /the prize 'lots' cannot be read/],
    ];
    for (const [at, by, message] of cases) {
      const broken = [...lines];
      broken[at] = by;
      const r = readPokerstarsSummaries(broken.join('\n'));
      expect(r).toMatchObject({ ok: false, line: at + 1 });
      expect(!r.ok && r.message).toMatch(message);
    }
  });
});
