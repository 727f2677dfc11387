// The player's results keep each money apart and leave observed hands out (R-RESULTS): real site files
// (tests/fixtures/hand-histories, README there: their source) imported into a real history file; the
// expected nets are computed here from the files' own lines, not by the readers.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resultsSeries, resultsSessions } from './results';
import { UNDO_V9 } from './schema/undo';
import { importSiteFiles } from './site-import';
import { HISTORY_MIGRATIONS, HistoryStore } from './store';

const FIXTURES = join(__dirname, '../../../tests/fixtures/hand-histories');
const USD = join(FIXTURES, 'pokerstars/holdem-nl-usd-2025.txt');
const EUR = join(FIXTURES, 'winamax/omaha-pl-2010.txt');
const ALL = { from: 0, to: Date.UTC(2100, 0, 1) };

/** `$1.50`, `0.05€`, `5€` as whole cents, without a float. */
function cents(text: string): number {
  const [units, part = ''] = text.replace(/[$€£]/g, '').split('.');
  return Number(units) * 100 + Number(part.padEnd(2, '0'));
}

/**
 * The player's net in each hand of a PokerStars or Winamax cash file, from its lines: what they
 * collected and got back, less what they put in (blinds, calls, bets, a raise's total on its street).
 */
function netsFromLines(text: string, hero: string): Map<string, number> {
  const nets: number[] = [];
  const ids: string[] = [];
  let street = 0;
  let spent = 0;
  let back = 0;
  const close = (): void => {
    if (nets.length > 0) nets[nets.length - 1] = back - spent - street;
  };
  const amount = '([$€£]?[\\d.]+€?)';
  for (const line of text.split(/\r?\n/)) {
    if (/^(PokerStars Hand #|Winamax Poker - )/.test(line)) {
      close();
      nets.push(0);
      ids.push(/(?:Hand #|HandId: #)([\w-]+)/.exec(line)![1]);
      [street, spent, back] = [0, 0, 0];
      continue;
    }
    if (/^\*\*\* (FLOP|TURN|RIVER) \*\*\*/.test(line)) {
      spent += street;
      street = 0;
    }
    const act = new RegExp(`^${hero}:? (posts (?:small|big) blind|calls|bets|raises ${amount} to|collected) ${amount}`).exec(line);
    if (act !== null) {
      const x = cents(act[3]);
      if (act[1] === 'collected') back += x;
      else if (act[1].startsWith('raises')) street = x;
      else street += x;
    }
    const returned = new RegExp(`^Uncalled bet \\(${amount}\\) returned to ${hero}$`).exec(line);
    if (returned !== null) back += cents(returned[1]);
  }
  close();
  return new Map(ids.map((id, k) => [id, nets[k]]));
}

const sum = (xs: Iterable<number>): number => [...xs].reduce((a, b) => a + b, 0);
/** The nets of the hands the import stored (a hand it refused, with its reason, is in no result). */
const kept = (nets: Map<string, number>, refused: readonly { handId: string | null }[]): number =>
  sum([...nets].filter(([id]) => !refused.some((r) => r.handId === id)).map(([, n]) => n));

let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-currencies-'));
  store = HistoryStore.open(join(dir, 'history.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('currencies kept apart', () => {
  it('a PokerStars dollar file and a Winamax euro file give two totals, each the sum of the player’s nets in its file', async () => {
    const usdNets = netsFromLines(readFileSync(USD, 'utf8'), 'Hero');
    const eurNets = netsFromLines(readFileSync(EUR, 'utf8'), 'Hero');
    expect([usdNets.size, eurNets.size]).toEqual([1, 60]);
    const s = await importSiteFiles(store, [USD, EUR], ['Hero']);
    // The euro file holds hands the readers refuse (named, with their reason): they are in no result.
    expect([s.imported + s.refused.length, s.observed]).toEqual([61, 0]);
    expect(s.currencies).toEqual({ USD: 1, EUR: 60 - s.refused.length });
    const usd = kept(usdNets, s.refused);
    const eur = kept(eurNets, s.refused);
    // The figures the assertions rest on, from the files' lines (the euro file's are a winning 1.33 €).
    expect(usd).toBe(550 - (2 + 13 + 48 + 254) + 34);
    expect(eur).toBe(133);
    const eurHands = 60 - s.refused.length;

    const r = store.results(ALL);
    if (!r.ok) throw new Error(r.reason);
    // Euros alone in the euro total; the dollars in their own line, never added to it.
    expect([r.real.hands, r.real.net]).toEqual([eurHands, eur]);
    expect(r.play.hands).toBe(0);
    expect(r.groups.map((g) => [g.money, g.hands, g.net])).toEqual([['usd', 1, usd]]);
    // Grouped by game and stakes, each group is of one money.
    const byStakes = store.results({ ...ALL, groupBy: 'stakes' });
    if (!byStakes.ok) throw new Error(byStakes.reason);
    expect(sum(byStakes.groups.filter((g) => g.money === 'usd').map((g) => g.net))).toBe(usd);
    expect(sum(byStakes.groups.filter((g) => g.money === 'real').map((g) => g.net))).toBe(eur);

    // The graph and the sessions, per money.
    expect(resultsSeries(store, { ...ALL, money: 'usd' }, 100).total.at(-1)).toBe(usd);
    expect(resultsSeries(store, { ...ALL, money: 'real' }, 100).total.at(-1)).toBe(eur);
    const sessions = resultsSessions(store, ALL, 30);
    expect(sessions.filter((x) => x.money === 'usd').map((x) => x.net)).toEqual([usd]);
    expect(sum(sessions.filter((x) => x.money === 'real').map((x) => x.net))).toBe(eur);
    // The history list says each hand's money.
    const page = store.page({ money: 'usd' }, { sort: 'time', dir: 'asc', limit: 200 });
    if (!page.ok) throw new Error(page.reason);
    expect(page.hands.map((h) => [h.handId, h.money, h.net])).toEqual([['255867983097', 'usd', usd]]);
  });

  it('tournament hands are in tournament chips, play-money files in play money: neither in the euros', async () => {
    const s = await importSiteFiles(store, [join(FIXTURES, 'winamax/tournament-sng-2011.txt'), join(FIXTURES, 'winamax/holdem-nl-play-2012.txt')], ['Hero']);
    expect(s.currencies).toEqual({ 'tournament chips': 5, 'play money': 1 });
    const page = store.page({}, { sort: 'time', dir: 'asc', limit: 200 });
    if (!page.ok) throw new Error(page.reason);
    expect(page.hands.map((h) => h.money).sort()).toEqual(['chips', 'chips', 'chips', 'chips', 'chips', 'play']);
    const r = store.results(ALL);
    if (!r.ok) throw new Error(r.reason);
    expect(r.real.hands).toBe(0);
    expect(r.play.hands).toBe(1);
  });
});

describe('observed hands', () => {
  /** The dollar hand as someone who was not at the table saw it: no hidden cards dealt, no player's name. */
  const watched = (): string => readFileSync(USD, 'utf8').replace(/^Dealt to Hero .*\n/m, '').replaceAll('Hero', 'Someone');

  it('a file without the player gives observed hands: stored, viewable, in no result; importing it again adds nothing', async () => {
    const f = join(dir, 'watched.txt');
    writeFileSync(f, watched());
    const s = await importSiteFiles(store, [f], ['Hero']);
    expect([s.imported, s.observed, s.already]).toEqual([1, 1, 0]);
    expect(store.count()).toBe(1);
    const h = store.getHand('255867983097');
    if (!h.ok) throw new Error(h.reason);
    expect(h.summary).toMatchObject({ heroSeat: null, net: 0, rake: 0, money: 'usd', cards: [] });
    expect(h.record.seats.find((x) => x.player === 'Someone')?.net).toBe(netsFromLines(readFileSync(USD, 'utf8'), 'Hero').get('255867983097'));
    const page = store.page({}, { sort: 'time', dir: 'asc', limit: 10 });
    expect(page.ok && page.hands.map((x) => x.handId)).toEqual(['255867983097']);
    // No result moves.
    const r = store.results(ALL);
    if (!r.ok) throw new Error(r.reason);
    expect([r.real.hands, r.play.hands, r.groups]).toEqual([0, 0, []]);
    expect(resultsSeries(store, { ...ALL, money: 'usd' }, 100).hands).toEqual([]);
    expect(resultsSessions(store, ALL, 30)).toEqual([]);
    const again = await importSiteFiles(store, [f], ['Hero']);
    expect([again.imported, again.observed, again.already]).toEqual([0, 0, 1]);
    expect(store.count()).toBe(1);
  });
});

describe('my names: observed hands given back', () => {
  it('when the player names themselves, their observed hands become theirs, in their results, once', async () => {
    const f = join(dir, 'watched.txt');
    writeFileSync(f, readFileSync(USD, 'utf8').replace(/^Dealt to Hero .*\n/m, '').replaceAll('Hero', 'Moi à Paris'));
    expect((await importSiteFiles(store, [f], ['Hero'])).observed).toBe(1);
    expect(store.claimObserved(['Hero'])).toBe(0);
    expect(store.claimObserved(['Moi à Paris'])).toBe(1);
    const net = netsFromLines(readFileSync(USD, 'utf8'), 'Hero').get('255867983097');
    const h = store.getHand('255867983097');
    expect(h.ok && [h.summary.heroSeat, h.summary.net, h.summary.money]).toEqual([5, net, 'usd']); // seat 6 of the file, 0-based
    const r = store.results(ALL);
    expect(r.ok && r.groups.map((g) => [g.money, g.hands, g.net])).toEqual([['usd', 1, net]]);
    expect(resultsSeries(store, { ...ALL, money: 'usd' }, 100).total.at(-1)).toBe(net);
    expect(store.page({ player: 'Moi à Paris' }, { sort: 'time', dir: 'asc', limit: 10 }).ok).toBe(true);
    // Once: nothing observed is left, and importing the file again adds nothing.
    expect(store.claimObserved(['Moi à Paris'])).toBe(0);
    expect((await importSiteFiles(store, [f], ['Moi à Paris'])).already).toBe(1);
    expect(store.count()).toBe(1);
  });
});

describe('schema version 9 (moneys apart, observed hands)', () => {
  it('a real version 8 file is brought to version 9: its hands and results unchanged, the observed hands’ index added', async () => {
    const file = join(dir, 'v8.sqlite');
    const old = HistoryStore.open(file);
    const imported = await importSiteFiles(old, [EUR], ['Hero']);
    const before = old.results({ ...ALL, groupBy: 'stakes' });
    const series = resultsSeries(old, { money: 'real' }, 1000);
    old.close();
    const db = new Database(file);
    db.exec(UNDO_V9);
    db.pragma('user_version = 8');
    db.close();
    const again = HistoryStore.open(file);
    try {
      expect(again.count()).toBe(imported.imported);
      expect(again.results({ ...ALL, groupBy: 'stakes' })).toEqual(before);
      expect(resultsSeries(again, { money: 'real' }, 1000)).toEqual(series);
    } finally {
      again.close();
    }
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(HISTORY_MIGRATIONS.length);
    expect(raw.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'hands_observed'").pluck().get()).toBe(1);
    raw.close();
  });
});
