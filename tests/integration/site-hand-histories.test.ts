// Real PokerStars and Winamax hand histories (tests/fixtures/hand-histories, README there: where each
// file comes from) read hand by hand (shared/exchange/sites.ts, docs/exchange.md "Site files"). For
// every hand read, each player's net must be what the file's own lines give, summed here by a
// second, plain implementation that knows nothing of the reader or the engine.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSiteText, type SiteHandResult } from '../../shared/exchange/sites';

const ROOT = join(__dirname, '../fixtures/hand-histories');

/** A file's text as the import decodes it: UTF-8, else Windows-1252 (older files). */
export function fixtureText(file: string): string {
  const b = readFileSync(file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new TextDecoder('windows-1252').decode(b);
  }
}

/** The hands of a text, each as its lines (a header starts one). */
function handsOf(text: string): string[][] {
  const out: string[][] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const t = raw.trim();
    if (/^(PokerStars .*#\d+:|Winamax Poker - )/.test(t)) out.push([]);
    if (t !== '' && out.length > 0) out[out.length - 1].push(t);
  }
  return out;
}

/**
 * Each player's net in a hand from its lines alone: what they collected, less what they put in
 * (posts, calls, bets, raises to a level, less an uncalled bet returned). Winamax counts the
 * uncalled bet in `collected` and writes no return line, so the same sum holds there.
 */
export function lineNets(lines: readonly string[]): Map<string, number> {
  const head = lines[0];
  const cents = /^PokerStars/.test(head) ? /\([^)]*[$€£]/.test(head) && !/Tournament #/.test(head) : /CashGame|Go Fast/.test(head);
  const amount = (t: string) => {
    const n = Number(t.replace(/[$€£,]|USD|EUR/g, ''));
    return cents ? Math.round(n * 100) : n;
  };
  const names: string[] = [];
  for (const l of lines) {
    const m = /^Seat \d+: (.+?) \((?:[$€£]?[\d.,]+(?: in chips)?|[\d.,]+€)(?:, [^)]*)?\)/.exec(l);
    if (m && !names.includes(m[1])) names.push(m[1]);
    if (l.startsWith('***')) break;
  }
  names.sort((a, b) => b.length - a.length);
  const put = new Map<string, number>();
  const won = new Map<string, number>();
  let level = new Map<string, number>();
  const bigBlind = amount(/posts big blind (\S+)/.exec(lines.join('\n'))?.[1] ?? '0');
  const add = (m: Map<string, number>, p: string, x: number) => m.set(p, (m.get(p) ?? 0) + x);
  let summary = false;
  for (const l of lines.slice(1)) {
    if (l === '*** SUMMARY ***') summary = true;
    if (summary) continue;
    if (/^\*\*\* (FLOP|TURN|RIVER|[4-7]th STREET|(FIRST|SECOND|THIRD) DRAW|(SECOND|THIRD|FOURTH)-BET|(FIRST|SECOND|THIRD)-DRAW) \*\*\*/.test(l)) level = new Map();
    const unc = /^Uncalled bet \((\S+)\) returned to (.+)$/.exec(l);
    if (unc) add(put, unc[2], -amount(unc[1]));
    const who = names.find((n) => l.startsWith(`${n}: `) || l.startsWith(`${n} `));
    if (who === undefined) continue;
    const rest = l.slice(who.length).replace(/^:? /, '').replace(/ and is all-in$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^collected (\S+) from/.exec(rest))) add(won, who, amount(m[1]));
    else if ((m = /^posts (?:the )?ante (\S+)$/.exec(rest))) add(put, who, amount(m[1]));
    else if ((m = /^posts small & big blinds (\S+)$/.exec(rest))) {
      add(put, who, amount(m[1]));
      level.set(who, bigBlind);
    } else if ((m = /^posts (?:small|big) blind (\S+) out of position$/.exec(rest))) {
      // Winamax: a dead small blind, a live big blind; both together are the big blind live.
      add(put, who, amount(m[1]));
      level.set(who, Math.min(bigBlind, put.get(who) ?? 0));
    } else if ((m = /^(?:posts (?:small|big) blind|calls|bets|brings in(?: for)?) (\S+)$/.exec(rest))) {
      add(put, who, amount(m[1]));
      add(level, who, amount(m[1]));
    } else if ((m = /^(?:raises \S+ to|completes it to) (\S+)$/.exec(rest))) {
      const to = amount(m[1]);
      add(put, who, to - (level.get(who) ?? 0));
      level.set(who, to);
    }
  }
  // Older PokerStars files return an uncalled bet without a line: it is the excess of the largest
  // amount put in over the next largest, back to whoever put it in.
  if (/^PokerStars/.test(head) && !lines.some((l) => l.startsWith('Uncalled bet'))) {
    const top = [...put].sort((a, b) => b[1] - a[1]);
    if (top.length > 1 && top[0][1] > top[1][1]) put.set(top[0][0], top[1][1]);
  }
  const nets = new Map<string, number>();
  for (const n of names) nets.set(n, (won.get(n) ?? 0) - (put.get(n) ?? 0));
  return nets;
}

const corpus = (['pokerstars', 'winamax', 'written'] as const).flatMap((site) => readdirSync(join(ROOT, site)).filter((f) => f.endsWith('.txt')).map((f) => ({ site, file: f, path: join(ROOT, site, f) })));

/** What each file gives: hands read, and refusals by kind (pinned from the real files, see README). */
const EXPECTED: Record<string, { read: number; refused: Record<string, number> }> = {
  'holdem-limit-2005-no-max-seats.txt': { read: 1, refused: {} },
  'holdem-nl-eur-2009-game.txt': { read: 69, refused: {} },
  'holdem-nl-usd-2025.txt': { read: 1, refused: {} },
  'holdem-nl-zoom-archive-2013.txt': { read: 1, refused: {} },
  'omaha-hilo-pl-2009.txt': { read: 15, refused: {} },
  'omaha-pl-sidepots-2010.txt': { read: 2, refused: { money: 1 } },
  'omaha5-pl-2013.txt': { read: 1, refused: {} },
  'outside-5-card-draw-2011.txt': { read: 0, refused: { game: 1 } },
  'outside-6plus-2019.txt': { read: 0, refused: { game: 1 } },
  'outside-badugi-2010.txt': { read: 0, refused: { game: 4 } },
  'outside-courchevel-2013.txt': { read: 0, refused: { game: 1 } },
  'razz-2009.txt': { read: 8, refused: { rules: 1 } },
  'run-it-twice-2012.txt': { read: 0, refused: { unsupported: 1 } },
  'stud-2009.txt': { read: 8, refused: { rules: 3 } },
  'stud-hilo-2009.txt': { read: 2, refused: { rules: 5 } },
  'tournament-limit-sitting-out-2010.txt': { read: 1, refused: {} },
  'tournament-nl-usd-2010.txt': { read: 61, refused: {} },
  'tournament-play-money-2011.txt': { read: 9, refused: {} },
  'triple-draw-2009.txt': { read: 17, refused: {} },
  'holdem-nl-play-2012.txt': { read: 1, refused: {} },
  'holdem-nl-go-fast-2017.txt': { read: 1, refused: {} },
  'holdem-nl-side-pot-rake-2011.txt': { read: 0, refused: { money: 1 } },
  'omaha-hilo-pl-2016.txt': { read: 1, refused: {} },
  'omaha-pl-2010.txt': { read: 47, refused: { rules: 11, money: 1, format: 1 } },
  'omaha-pl-blinds-out-of-position-2016.txt': { read: 1, refused: {} },
  'omaha-pl-dead-small-blind-2014.txt': { read: 0, refused: { unsupported: 1 } },
  'outside-omaha5-hilo-2016.txt': { read: 0, refused: { game: 1 } },
  'razz-2016.txt': { read: 1, refused: {} },
  'tournament-freeroll-2011.txt': { read: 16, refused: { rules: 1 } },
  'tournament-sng-2011.txt': { read: 5, refused: {} },
  'triple-draw-2016.txt': { read: 1, refused: {} },
  'triple-draw-play-2016.txt': { read: 1, refused: {} },
  // Written for the line kinds (README): every line understood or passed over on purpose.
  'pokerstars-line-kinds.txt': { read: 2, refused: {} },
  'winamax-line-kinds.txt': { read: 1, refused: {} },
};

function tally(hands: readonly SiteHandResult[]): { read: number; refused: Record<string, number> } {
  const refused: Record<string, number> = {};
  for (const h of hands) if (!h.ok) refused[h.kind] = (refused[h.kind] ?? 0) + 1;
  return { read: hands.filter((h) => h.ok).length, refused };
}

describe('real PokerStars and Winamax files, hand by hand', () => {
  it('the corpus holds every file the README lists, of both sites', () => {
    expect(corpus.map((c) => c.file).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const { site, file, path } of corpus) {
    it(`${site}/${file}: every hand read, or refused with a line and reason; nets are the file's own`, () => {
      const text = fixtureText(path);
      const { hands, stray } = readSiteText(text);
      expect(stray).toBeNull();
      const raw = handsOf(text);
      expect(hands).toHaveLength(raw.length);
      expect(tally(hands)).toEqual(EXPECTED[file]);
      hands.forEach((h, k) => {
        const headId = /#(\S+?):? /.exec(raw[k][0])?.[1] ?? '';
        if (!h.ok) {
          expect(h.reason.length).toBeGreaterThan(10);
          expect(h.line).toBeGreaterThan(0);
          expect(h.handId === null || headId.startsWith(h.handId)).toBe(true);
          return;
        }
        expect(h.handId).toBe(headId.replace(/:$/, ''));
        const nets = lineNets(raw[k]);
        for (const s of h.hand.record.seats) expect([s.player, s.net]).toEqual([s.player, nets.get(s.player) ?? 0]);
        // Money is conserved: what the players lost is what they won plus the rake.
        expect(h.hand.record.seats.reduce((a, s) => a + s.net, 0) + h.hand.record.rake).toBe(0);
      });
    });
  }

  it('keeps the currency, the money kind and the time zone the site writes', () => {
    const eur = readSiteText(fixtureText(join(ROOT, 'pokerstars/holdem-nl-eur-2009-game.txt'))).hands[0];
    const usd = readSiteText(fixtureText(join(ROOT, 'pokerstars/holdem-nl-usd-2025.txt'))).hands[0];
    const play = readSiteText(fixtureText(join(ROOT, 'winamax/holdem-nl-play-2012.txt'))).hands[0];
    const tour = readSiteText(fixtureText(join(ROOT, 'pokerstars/tournament-nl-usd-2010.txt'))).hands[0];
    if (!eur.ok || !usd.ok || !play.ok || !tour.ok) throw new Error('a sample hand was refused');
    expect([eur.currency, eur.hand.meta.money, eur.hand.meta.tableName]).toEqual(['EUR', 'real', 'Lampland']);
    // 2009/11/20 7:12:10 ET is 12:12:10 UTC (Eastern standard time, UTC-5).
    expect(new Date(eur.hand.meta.endedAt!).toISOString()).toBe('2009-11-20T12:12:10.000Z');
    // 2025/04/24 17:21:34 CET (Paris, summer: UTC+2).
    expect([usd.currency, new Date(usd.hand.meta.endedAt!).toISOString()]).toEqual(['USD', '2025-04-24T15:21:34.000Z']);
    expect([play.currency, play.hand.meta.money]).toEqual([null, 'play']);
    expect(tour.currency).toBeNull();
    expect(tour.hand.meta.tournament?.tournamentId).toMatch(/^\d+$/);
  });

  it('keeps names with spaces, parentheses and accents, and who sat the hand out', () => {
    const [stars] = readSiteText(fixtureText(join(ROOT, 'written/pokerstars-line-kinds.txt'))).hands;
    const [wmx] = readSiteText(fixtureText(join(ROOT, 'written/winamax-line-kinds.txt'))).hands;
    if (!stars.ok || !wmx.ok) throw new Error('a written hand was refused');
    expect(stars.hand.record.seats.map((s) => [s.player, s.dealtIn])).toEqual([
      ['Jean (Paris)', true],
      ['Ana María', true],
      ['Zoé_77', true],
      ['newcomer', true],
      ['Léa B', false],
    ]);
    // 02:30 CET on the night Paris skips 02:00-03:00: the bracketed ET time decides (21:30 EDT).
    expect(new Date(stars.hand.meta.endedAt!).toISOString()).toBe('2024-03-31T01:30:00.000Z');
    expect([wmx.handId, wmx.hand.meta.tableName, wmx.currency]).toEqual(['5000001-12-1700000000', 'Nice 05', 'EUR']);
    expect(wmx.hand.record.seats.map((s) => [s.player, s.dealtIn, s.net])).toEqual([
      ['Jean (Paris)', true, -700],
      ['Ana María', true, -50],
      ['Zoé 77', true, 780],
      ['new one', true, -100],
      ['Léa B', false, 0],
    ]);
  });
});
