// The import of site hand histories into a real history file (site-import.ts, cercle import): per
// hand, not per file; hostile files refused with a reason and nothing else lost; re-importing adds
// nothing. Real files from tests/fixtures/hand-histories (README there: their source).

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/cli';
import type { CliIo } from '../../cli/command';
import { importSiteFiles } from './site-import';
import { HistoryStore } from './store';

const FIXTURES = join(__dirname, '../../../tests/fixtures/hand-histories');
const usd2025 = () => readFileSync(join(FIXTURES, 'pokerstars/holdem-nl-usd-2025.txt'), 'utf8');
const eur2009 = () => readFileSync(join(FIXTURES, 'pokerstars/holdem-nl-eur-2009-game.txt'), 'utf8');

let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-site-import-'));
  store = HistoryStore.open(join(dir, 'history.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string | Buffer): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

/** The first `n` hands of a text (a hand starts at its header). */
function firstHands(text: string, n: number): string {
  const at = [...text.matchAll(/^PokerStars Game #/gm)].map((m) => m.index);
  return text.slice(0, at[n] ?? text.length);
}

describe('importing site hand histories, hand by hand', () => {
  it('a file mixing good, outside-the-decree and broken hands imports every good one and names each other', async () => {
    const good = firstHands(eur2009(), 3);
    const badugi = readFileSync(join(FIXTURES, 'pokerstars/outside-badugi-2010.txt'), 'utf8');
    // A hand whose collected amount does not match its bets (one cent more).
    const cheat = usd2025().replace('Hero collected $5.50 from pot', 'Hero collected $5.51 from pot').replace('and won ($5.50)', 'and won ($5.51)');
    const f = write('mixed.txt', `${good}\n\n${badugi}\n\n${cheat}\n\n${usd2025()}`);
    const s = await importSiteFiles(store, [f], ['Hero']);
    expect(s.hands).toBe(3 + 4 + 2);
    expect(s.imported).toBe(3 + 1);
    expect(s.byKind).toEqual({ game: 4, money: 1 });
    const money = s.refused.find((r) => r.kind === 'money')!;
    expect(money).toMatchObject({ file: f, handId: '255867983097' });
    expect(money.reason).toMatch(/collect/);
    expect(s.refused.filter((r) => r.kind === 'game').every((r) => /Badugi/.test(r.reason) && r.line > 0)).toBe(true);
    expect(s.currencies).toEqual({ EUR: 3, USD: 1 });
    expect(store.count()).toBe(4);
  });

  it('importing the same files again adds nothing', async () => {
    const f = write('a.txt', firstHands(eur2009(), 5));
    const first = await importSiteFiles(store, [f], ['Hero']);
    const again = await importSiteFiles(store, [f], ['Hero']);
    expect([first.imported, first.already]).toEqual([5, 0]);
    expect([again.imported, again.already]).toEqual([0, 5]);
    expect(store.count()).toBe(5);
  });

  it('a hand cut short mid-hand is refused as truncated; the hands before it are kept', async () => {
    const two = firstHands(eur2009(), 2);
    const cut = eur2009().slice(two.length).split('\n').slice(0, 14).join('\n');
    const s = await importSiteFiles(store, [write('cut.txt', `${two}${cut}`)], ['Hero']);
    expect(s.imported).toBe(2);
    expect(s.refused).toHaveLength(1);
    expect(s.refused[0].kind).toBe('truncated');
    expect(s.refused[0].reason).toMatch(/SUMMARY/);
  });

  it('hostile files: another format, binary, a 500-character name, 100,000 players', async () => {
    const pojeu = write('other.txt', '<?xml version="1.0"?>\n<Evenements>\n</Evenements>\n');
    const binary = write('binary.txt', Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0xff, 0xfe, 0, 1, 2]));
    const longName = write('long.txt', usd2025().replaceAll('Player3', 'x'.repeat(500)));
    const seats = Array.from({ length: 100_000 }, (_, k) => `Seat ${k + 1}: p${k} ($1 in chips)`).join('\n');
    const crowd = write('crowd.txt', `${usd2025().split('\n').slice(0, 2).join('\n')}\n${seats}\n`);
    const s = await importSiteFiles(store, [pojeu, binary, longName, crowd, write('ok.txt', usd2025())], ['Hero']);
    const why = (f: string) => s.refused.filter((r) => r.file === f).map((r) => `${r.kind}: ${r.reason}`);
    expect(why(pojeu)).toEqual(['format: no PokerStars or Winamax hand: line 1 is not a PokerStars or Winamax hand header']);
    expect(why(binary)).toEqual(['format: a binary file, not a hand history']);
    expect(why(longName)[0]).toMatch(/^limits: the player name at seat 3 has 500 characters; at most 64/);
    expect(why(crowd)[0]).toMatch(/^limits: the hand has more than 4000 lines/);
    // Nothing else is lost: the good file beside them is imported.
    expect(s.imported).toBe(1);
  });

  it('Winamax hands keep their own ids and table names, and names with spaces', async () => {
    const f = join(FIXTURES, 'winamax/omaha-pl-blinds-out-of-position-2016.txt');
    const s = await importSiteFiles(store, [f], ['Hero']);
    expect(s.imported).toBe(1);
    const h = store.getHand('9260931-103-1479198677');
    if (!h.ok) throw new Error(h.reason);
    expect(h.record.handId).toBe('9260931-103-1479198677');
    expect(h.record.seats.map((x) => x.player)).toEqual(['Hero', 'Player1', 'Player2', 'Player3', 'Player4']);
  });
});

describe('cercle import', () => {
  function io(): CliIo & { lines_: string[]; errs: string[] } {
    const out: string[] = [];
    const errs: string[] = [];
    return { out: (l) => out.push(l), err: (l) => errs.push(l), lines: async function* () {}, lines_: out, errs };
  }

  it('prints the summary and each refused hand; exit 0, then 0 when all is there, 1 when nothing reads, 2 bad usage', async () => {
    const data = join(dir, 'data');
    const folder = join(dir, 'hh');
    mkdirSync(folder);
    copyFileSync(join(FIXTURES, 'pokerstars/holdem-nl-usd-2025.txt'), join(folder, 'a.txt'));
    copyFileSync(join(FIXTURES, 'pokerstars/outside-6plus-2019.txt'), join(folder, 'b.txt'));
    let o = io();
    expect(await runCli(['import', '--data', data, '--hero', 'Hero', folder], o)).toBe(0);
    expect(o.lines_[1]).toBe('imported: 1, already there: 0, observed (without the player, in no result): 0, refused: 1 (game 1)');
    expect(o.lines_.some((l) => /^refused: .*b\.txt:1 hand 195853866630: game: '6\+ Hold'em No Limit' is not a game of the decree$/.test(l))).toBe(true);
    o = io();
    expect(await runCli(['import', '--data', data, folder], o)).toBe(0);
    expect(o.lines_[1]).toMatch(/^imported: 0, already there: 1,/);
    o = io();
    expect(await runCli(['import', '--data', data, join(folder, 'b.txt')], o)).toBe(1);
    expect(await runCli(['import', '--data', data], io())).toBe(2);
    expect(await runCli(['import', '--data', data, '--bogus', folder], io())).toBe(2);
    o = io();
    expect(await runCli(['import', '--data', data, join(dir, 'missing.txt')], o)).toBe(2);
    expect(o.errs[0]).toMatch(/no such file or folder/);
  });
});

describe('the History page import (worker thread)', () => {
  it('a PokerStars file of the site is read hand by hand: good hands stored, the refused counted and the first named', async () => {
    const { HistoryJobs } = await import('./jobs');
    const events: unknown[] = [];
    const jobs = new HistoryJobs({ store, dataDir: dir, emit: (v) => events.push(v), now: () => Date.UTC(2026, 10, 1), progressMs: 0 });
    try {
      const badugi = readFileSync(join(FIXTURES, 'pokerstars/outside-badugi-2010.txt'), 'utf8');
      const f = write('mixed.txt', `${firstHands(eur2009(), 4)}\n\n${badugi}`);
      const r = jobs.importFile(f, 'auto');
      if (!r.ok) throw new Error(r.reason);
      await jobs.ended(r.jobId);
      const v = jobs.view(r.jobId)!;
      expect([v.state, v.stored, v.duplicates, v.skipped, v.refused]).toEqual(['done', 4, 0, 0, 4]);
      expect(v.line).toBeGreaterThan(1);
      expect(v.message).toMatch(/^4 hand\(s\) refused \(game 4\); first at line \d+, hand \d+: 'Badugi Limit' is not a game of the decree$/);
      expect(store.count()).toBe(4);
      // A site's file with no hand that can be read: the import failed, at the first refused hand's line.
      const bad = write('badugi.txt', badugi);
      const r2 = jobs.importFile(bad, 'auto');
      if (!r2.ok) throw new Error(r2.reason);
      await jobs.ended(r2.jobId);
      const v2 = jobs.view(r2.jobId)!;
      expect([v2.state, v2.stored, v2.refused, v2.line]).toEqual(['failed', 0, 0, 1]);
      expect(v2.message).toMatch(/^4 hand\(s\) refused \(game 4\); first at line 1,/);
      expect(store.count()).toBe(4);
    } finally {
      await jobs.close();
    }
  });
});
