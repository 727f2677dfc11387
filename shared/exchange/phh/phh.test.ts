import { readFileSync } from 'node:fs';
import { phhCorpusFiles } from '../../../tests/phh-corpus';
import { describe, expect, it } from 'vitest';
import { formatPhhAction, parsePhhAction, parsePhhCards } from './actions';
import { parsePhh, parsePhhs, writePhh, writePhhs, type PhhHand } from './phh';
import { DECREE_VARIANT_OF, PHH_CODE_OF, PHH_STANDARD_VARIANTS, PHH_VARIANTS } from './variants';


const DWAN_IVEY = `# A famous hand.
variant = "NT"
ante_trimming_status = true
antes = [500, 500, 500]
blinds_or_straddles = [1000, 2000, 0]
min_bet = 2000
starting_stacks = [1125600, 2000000, 553500]
actions = [
  # Pre-flop
  "d dh p1 Ac2d",  # Ivey
  "d dh p2 ????",  # Antonius
  "d dh p3 7h6h",  # Dwan
  "p3 cbr 7000",
  "p1 cbr 23000 # a 3-bet",
  "p2 f",
  "p3 cc",
]
author = "Juho Kim"
year = 2009
players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]
currency = "USD"
time = 20:15:00
_cercle_note = { reviewed = true }
`;

function parsed(text: string): PhhHand {
  const r = parsePhh(text);
  if (!r.ok) throw new Error(`line ${r.line}: ${r.reason}`);
  return r.hand;
}

describe('reading a PHH hand', () => {
  it('reads the standard fields with their types', () => {
    const hand = parsed(DWAN_IVEY);
    expect(hand.variant).toBe('NT');
    expect(hand.ante_trimming_status).toBe(true);
    expect(hand.antes).toEqual([500, 500, 500]);
    expect(hand.blinds_or_straddles).toEqual([1000, 2000, 0]);
    expect(hand.min_bet).toBe(2000);
    expect(hand.starting_stacks).toEqual([1125600, 2000000, 553500]);
    expect(hand.actions).toEqual(['d dh p1 Ac2d', 'd dh p2 ????', 'd dh p3 7h6h', 'p3 cbr 7000', 'p1 cbr 23000 # a 3-bet', 'p2 f', 'p3 cc']);
    expect(hand.players).toEqual(['Phil Ivey', 'Patrik Antonius', 'Tom Dwan']);
    expect(hand.time).toBe('20:15:00');
    expect(hand.extra).toEqual({ _cercle_note: { reviewed: true } });
  });

  it('reads decimal amounts and unknown (inf) stacks as written', () => {
    const hand = parsed(
      "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.10, 0.25]\nmin_bet = 0.25\nstarting_stacks = [25, inf]\nactions = []",
    );
    expect(hand.blinds_or_straddles).toEqual([0.1, 0.25]);
    expect(hand.starting_stacks).toEqual([25, Infinity]);
  });

  it('names the line of a field of the wrong type', () => {
    expect(parsePhh('variant = "NT"\nantes = [0, 0]\nmin_bet = "2"\n')).toEqual({ ok: false, line: 3, reason: "'min_bet' must be a number" });
    expect(parsePhh('variant = 1')).toMatchObject({ ok: false, line: 1, reason: "'variant' must be a string" });
    expect(parsePhh('variant = "NT"\nday = 1.5')).toMatchObject({ ok: false, line: 2, reason: "'day' must be an integer" });
  });

  it('refuses a hand missing a required field, generic or of its variant', () => {
    expect(parsePhh('variant = "NT"\nantes = [0, 0]\nstarting_stacks = [1, 1]')).toMatchObject({ ok: false, reason: "missing required field 'actions'" });
    const noMinBet = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nstarting_stacks = [100, 100]\nactions = []';
    expect(parsePhh(noMinBet)).toMatchObject({ ok: false, reason: "variant 'NT' needs 'min_bet'" });
    const studWithBlinds = 'variant = "F7S"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\nblinds_or_straddles = [1, 2]\nstarting_stacks = [100, 100]\nactions = []';
    expect(parsePhh(studWithBlinds)).toMatchObject({ ok: false, line: 6 });
  });

  it('refuses per-player arrays whose length is not the number of players', () => {
    const text = 'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\nactions = []';
    expect(parsePhh(text)).toEqual({ ok: false, line: 2, reason: "'antes' has 3 entries but there are 2 players" });
  });

  it('refuses a malformed action, naming its own line', () => {
    const text = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\nactions = [\n  "d dh p1 AcKd",\n  "p1 raise 5",\n]';
    const r = parsePhh(text);
    expect(r).toMatchObject({ ok: false, line: 8 });
    if (!r.ok) expect(r.reason).toMatch(/action 2 'p1 raise 5': unknown player action 'raise'/);
    const p3 = text.replace('"p1 raise 5"', '"p3 f"');
    expect(parsePhh(p3)).toMatchObject({ ok: false, line: 8, reason: "action 2 'p3 f': there are only 2 players" });
  });

  it('passes TOML errors through with their line', () => {
    expect(parsePhh('variant = "NT"\nantes = [0, 0\n')).toMatchObject({ ok: false, line: 3 });
  });
});

describe('reading .phhs files', () => {
  const two = '[1]\n' + DWAN_IVEY.replace('_cercle_note = { reviewed = true }\n', '') + '\n[2]\n' + DWAN_IVEY.replace(/year = 2009/, 'year = 2010').replace('_cercle_note = { reviewed = true }\n', '');

  it('reads each table as a hand, in file order', () => {
    const r = parsePhhs(two);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.hands.map((h) => h.name)).toEqual(['1', '2']);
    expect(r.hands.map((h) => h.hand.year)).toEqual([2009, 2010]);
    const reordered = parsePhhs('[b]\n' + DWAN_IVEY + '\n[a]\n' + DWAN_IVEY);
    expect(reordered.ok && reordered.hands.map((h) => h.name)).toEqual(['b', 'a']);
  });

  it('prefixes a hand error with the table name and gives the absolute line', () => {
    const broken = two.replace('year = 2010', 'year = "2010"');
    const line = broken.split('\n').findIndex((l) => l === 'year = "2010"') + 1;
    expect(parsePhhs(broken)).toEqual({ ok: false, line, reason: "hand [2]: 'year' must be an integer" });
  });

  it('reads a single-hand file as one hand and refuses loose keys next to tables', () => {
    const one = parsePhhs(DWAN_IVEY);
    expect(one.ok && one.hands.length).toBe(1);
    expect(parsePhhs('x = 1\n[1]\n' + DWAN_IVEY)).toMatchObject({ ok: false, line: 1, reason: "'x' sits outside any hand table" });
    expect(parsePhh(two)).toMatchObject({ ok: false, line: 1 });
  });
});

describe('the action notation', () => {
  it('reads every action of the grammar', () => {
    const cases: [string, unknown][] = [
      ['d db 7h8h9h', { type: 'deal-board', cards: ['7h', '8h', '9h'] }],
      ['d dh p2 ????', { type: 'deal-hole', playerIndex: 1, cards: ['??', '??'] }],
      ['p1 pb', { type: 'bring-in', playerIndex: 0 }],
      ['p3 f', { type: 'fold', playerIndex: 2 }],
      ['p10 cc', { type: 'check-call', playerIndex: 9 }],
      ['p1 cbr 300', { type: 'complete-bet-raise', playerIndex: 0, amount: 300 }],
      ['p1 cbr 0.75', { type: 'complete-bet-raise', playerIndex: 0, amount: 0.75 }],
      ['p1 sd', { type: 'discard', playerIndex: 0, cards: [] }],
      ['p4 sd AsQs', { type: 'discard', playerIndex: 3, cards: ['As', 'Qs'] }],
      ['p1 sm AcKd', { type: 'show-muck', playerIndex: 0, cards: ['Ac', 'Kd'] }],
      ['p1 sm -', { type: 'show-muck', playerIndex: 0, cards: 'dealt' }],
      ['p2 sm', { type: 'show-muck', playerIndex: 1, cards: null }],
      ['  p1   cc  # calls the 3-bet ', { type: 'check-call', playerIndex: 0, commentary: 'calls the 3-bet' }],
      ['# Burn card 6s is exposed', { type: 'no-op', commentary: 'Burn card 6s is exposed' }],
      ['   ', { type: 'no-op' }],
    ];
    for (const [text, action] of cases) expect(parsePhhAction(text)).toEqual({ ok: true, action });
  });

  it('refuses what the grammar does not allow', () => {
    for (const bad of ['p0 f', 'x f', 'd dx p1 Ac', 'd db', 'd db Ax', 'd dh p1', 'p1 cbr', 'p1 cbr -5', 'p1 cbr 1e3', 'p1 f now', 'p1', 'p1 sd AcK', 'p1 sm Ac Kd']) {
      expect(parsePhhAction(bad).ok, bad).toBe(false);
    }
  });

  it('writes actions back to the same action', () => {
    for (const text of ['d db 7h8h9h', 'd dh p2 ????', 'p1 pb', 'p1 cbr 0.5', 'p1 sd', 'p1 sd 2c', 'p1 sm -', 'p1 sm', 'p3 f # folds', '# note']) {
      const parsedAction = parsePhhAction(text);
      if (!parsedAction.ok) throw new Error(text);
      expect(formatPhhAction(parsedAction.action)).toBe(text);
    }
  });

  it('splits runs of cards', () => {
    expect(parsePhhCards('Td3c4d')).toEqual(['Td', '3c', '4d']);
    expect(parsePhhCards('Td3')).toBeNull();
    expect(parsePhhCards('')).toBeNull();
  });
});

describe('writing PHH', () => {
  it('writes the canonical form', () => {
    const hand = parsed(DWAN_IVEY);
    expect(writePhh(hand)).toBe(
      [
        'variant = "NT"',
        'ante_trimming_status = true',
        'antes = [500, 500, 500]',
        'blinds_or_straddles = [1000, 2000, 0]',
        'min_bet = 2000',
        'starting_stacks = [1125600, 2000000, 553500]',
        'actions = [',
        '  "d dh p1 Ac2d",',
        '  "d dh p2 ????",',
        '  "d dh p3 7h6h",',
        '  "p3 cbr 7000",',
        '  "p1 cbr 23000 # a 3-bet",',
        '  "p2 f",',
        '  "p3 cc",',
        ']',
        'author = "Juho Kim"',
        'time = 20:15:00',
        'year = 2009',
        'players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]',
        'currency = "USD"',
        '_cercle_note = { reviewed = true }',
        '',
      ].join('\n'),
    );
  });

  it('refuses to write a hand that would not read back (a caller bug, thrown)', () => {
    const hand = parsed(DWAN_IVEY);
    expect(() => writePhh({ ...hand, time: '8pm' })).toThrow(/not a local time/);
    expect(() => writePhh({ ...hand, extra: { variant: 'FT' } })).toThrow(/is a standard field/);
  });

  it('writes decimal amounts, unknown stacks and string hand numbers that read back', () => {
    const hand: PhhHand = {
      variant: 'NT',
      antes: [0, 0],
      blinds_or_straddles: [0.1, 0.25],
      min_bet: 0.25,
      starting_stacks: [25.5, Infinity],
      actions: ['p1 cbr 0.75 # "quoted" \\ commentary'],
      hand: 'A-17',
      table: 3,
      winnings: [0, 1.95],
    };
    const text = writePhh(hand);
    expect(text).toContain('starting_stacks = [25.5, inf]');
    expect(parsePhh(text)).toEqual({ ok: true, hand });
  });

  it('round-trips every hand of the vendored corpus (parse(write(h)) equals h)', () => {
    const files = phhCorpusFiles();
    expect(files.length).toBe(104);
    let hands = 0;
    for (const file of files) {
      const r = parsePhhs(readFileSync(file, 'utf8'));
      if (!r.ok) throw new Error(`${file}: line ${r.line}: ${r.reason}`);
      for (const { name, hand } of r.hands) {
        hands++;
        expect(parsePhh(writePhh(hand)), `${file}#${name}`).toEqual({ ok: true, hand });
      }
      expect(parsePhhs(writePhhs(r.hands))).toEqual({ ok: true, hands: r.hands });
    }
    // 103 single-hand files and one .phhs of 10 hands.
    expect(hands).toBe(113);
  });
});

describe('variant codes', () => {
  it('maps every decree variant to a PHH code and back', () => {
    for (const [ours, phh] of Object.entries(PHH_CODE_OF)) {
      expect(DECREE_VARIANT_OF[phh]).toBe(ours);
      expect(PHH_VARIANTS[phh].decree).toBe(ours);
    }
    expect(Object.keys(PHH_CODE_OF)).toHaveLength(11);
  });

  it('keeps extension codes out of the standard code space', () => {
    const standardShape = /^[A-Z0-9/]+$/;
    for (const code of PHH_STANDARD_VARIANTS) expect(code).toMatch(standardShape);
    for (const code of Object.keys(PHH_VARIANTS)) {
      if ((PHH_STANDARD_VARIANTS as readonly string[]).includes(code)) continue;
      expect(code).not.toMatch(standardShape);
      expect(code.startsWith('x-')).toBe(true);
    }
  });
});
