/**
 * The jobs' tournament paths (issue 17 item 5): imported tournament hands keep their tournament and
 * level; an exported tournament hand gets its entry and name from the stored tournament (looked up
 * once); the summaries written are the tournaments over in the period, oldest first, with the name
 * the player's hands give them; and, in a real worker thread on a real SQLite file, a file of
 * summaries on a history that does not keep tournaments yet fails with the reason and stores nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TournamentFilter, TournamentRecordView } from '../../../shared/api';
import { exportHands, importHands, readPokerstarsSummaries, writePokerstarsSummaries } from '../../../shared/exchange';
import { prng, randomRecord } from '../../../shared/history/test-support';
import { HistoryJobs } from './jobs';
import { HistoryStore } from './store';
import { bookOf, exchangeMetaOf, storeTournaments, summariesOf, summaryTournaments, tournamentLookup, type TournamentBook } from './tournament-exchange';
import { importedHands } from './worker';

const T = (id: string, endedAt: number | null, place: number | null): TournamentRecordView => ({
  tournamentId: id,
  name: `Tournoi ${id}`,
  variant: 'THNL',
  money: 'real',
  format: 'sit-and-go',
  kinds: '',
  buyIn: 450,
  fee: 50,
  entries: 6,
  registeredAt: 1_000,
  startedAt: endedAt === null ? null : endedAt - 3_600_000,
  endedAt,
  place,
  prize: place === 1 ? 1800 : 0,
  bounties: 0,
  rebuys: 0,
  addOns: 0,
  reEntries: 0,
  spent: 500,
  hands: 10,
});

/** A neighbour of the code under test: the store's tournaments, in memory. */
class Book implements TournamentBook {
  lookups = 0;
  constructor(readonly list: TournamentRecordView[]) {}
  getTournament(id: string): TournamentRecordView | null {
    this.lookups++;
    return this.list.find((t) => t.tournamentId === id) ?? null;
  }
  listTournaments(f: TournamentFilter): TournamentRecordView[] {
    return this.list.filter((t) => (f.from === undefined || (t.endedAt ?? 0) >= f.from) && (f.to === undefined || (t.endedAt ?? 0) < f.to) && (f.money === undefined || t.money === f.money));
  }
  putTournament(t: TournamentRecordView): void {
    this.list.push(t);
  }
}

describe('tournament hands in the jobs', () => {
  it('an imported tournament hand keeps its tournament and level; a cash hand has none', () => {
    const rng = prng(4);
    const tournament = { tournamentId: 'sng-thnl-6-3', level: 4, buyIn: 450, fee: 50, name: 'SNG', money: 'real' as const };
    const text = exportHands('pojeu', [
      { record: randomRecord('THNL', rng, '1'), meta: { tableName: 'sng-thnl-6-3-t1', endedAt: 5_000, money: 'real', tournament } },
      { record: randomRecord('THNL', rng, '2'), meta: { tableName: 'cash', endedAt: 6_000, money: 'real' } },
    ]);
    const read = importHands('pojeu', text);
    if (!read.ok) throw new Error(read.message);
    const { list } = importedHands(read.hands, 'pojeu', ['p0'], 0);
    expect(list.map((h) => h.meta.tournament ?? null)).toEqual([{ tournamentId: 'sng-thnl-6-3', level: 4 }, null]);
  });

  it("an exported tournament hand takes the stored tournament's entry and name, looked up once per tournament", () => {
    const book = new Book([T('a', 9_000, 2)]);
    const of = tournamentLookup(book);
    expect(of({ tournamentId: 'a', level: 3 }, 'real')).toEqual({ tournamentId: 'a', level: 3, buyIn: 450, fee: 50, name: 'Tournoi a', money: 'real' });
    expect(of({ tournamentId: 'a', level: 4 }, 'real').level).toBe(4);
    expect(book.lookups).toBe(1);
    // A stored hand's meta: a cash hand has no tournament.
    const summary = { handId: 'h', playedAt: 7_000, tableId: 'a-t2', variant: 'THNL' as const, stakes: 20, money: 'real' as const, heroSeat: 0, net: 0, rake: 0, showdown: false, allIn: false, pot: 0, cards: [] };
    expect(exchangeMetaOf({ ...summary, tournament: { tournamentId: 'a', level: 5 } }, of)).toEqual({ tableName: 'a-t2', endedAt: 7_000, money: 'real', tournament: { tournamentId: 'a', level: 5, buyIn: 450, fee: 50, name: 'Tournoi a', money: 'real' } });
    expect(exchangeMetaOf({ ...summary, tournament: null }, of)).toEqual({ tableName: 'a-t2', endedAt: 7_000, money: 'real' });
    // Unknown to the store (or no tournaments table): written with a buy-in and fee of 0.
    expect(tournamentLookup(null)({ tournamentId: 'b', level: 0 }, 'play')).toEqual({ tournamentId: 'b', level: 0, buyIn: 0, fee: 0, money: 'play' });
  });

  it('the summaries of a period: the tournaments over, oldest first, named as their hands name the player; those running left out', () => {
    const book = new Book([T('late', 50_000_000, 1), T('early', 20_000_000, 4), T('running', null, null), T('before', 1_000_000, 2)]);
    const list = summaryTournaments(book, { from: 10_000_000, to: 60_000_000 });
    expect(list.map((t) => t.tournamentId)).toEqual(['early', 'late']);
    const { summaries, notOver } = summariesOf([...list, T('running', null, null)], (id) => (id === 'late' ? 'me-at-table' : null), ['account']);
    expect(notOver).toBe(1);
    expect(summaries.map((s) => s.player)).toEqual(['account', 'me-at-table']);
    const back = readPokerstarsSummaries(writePokerstarsSummaries(summaries));
    expect(back.ok && back.summaries.map((s) => [s.player, s.tournament.place])).toEqual([
      ['account', 4],
      ['me-at-table', 1],
    ]);
    expect(summaryTournaments(book, { tournamentId: 'before' }).map((t) => t.tournamentId)).toEqual(['before']);
  });
});

describe('summaries stored', () => {
  it('those not stored yet are stored, those stored (or twice in the file) are duplicates and stay as they are', () => {
    const kept = T('a', 9_000, 2);
    const book = new Book([kept]);
    expect(storeTournaments(book, [{ ...kept, prize: 5 }, T('b', 9_000, 1), T('b', 9_000, 1)])).toEqual({ stored: 1, duplicates: 2 });
    expect(book.list.map((t) => [t.tournamentId, t.prize])).toEqual([
      ['a', 0],
      ['b', 1800],
    ]);
  });
});

describe('a summaries file in a real import job', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cercle-tsum-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is recognised; on a history without tournaments it fails with the reason, nothing stored; a bad summary names its line', async () => {
    const store = HistoryStore.open(join(dir, 'history.sqlite'));
    const jobs = new HistoryJobs({ store, dataDir: dir, emit: () => undefined, progressMs: 0 });
    try {
      const text = writePokerstarsSummaries([{ tournament: T('77', 9_000_000, 2), player: 'me' }]);
      const run = async (body: string) => {
        const file = join(dir, `in-${Math.random()}.txt`);
        writeFileSync(file, body);
        const r = jobs.importFile(file, 'auto');
        if (!r.ok) throw new Error(r.reason);
        await jobs.ended(r.jobId);
        return jobs.view(r.jobId)!;
      };
      const withBook = bookOf(store) !== null;
      const v = await run(text);
      if (withBook) expect(v).toMatchObject({ state: 'done', stored: 1 });
      else expect(v).toMatchObject({ state: 'failed', message: expect.stringMatching(/does not keep tournaments yet/), stored: 0 });
      const bad = await run(text.replace('6 players', 'six players'));
      expect(bad).toMatchObject({ state: 'failed', line: 3 });
    } finally {
      await jobs.close();
      store.close();
    }
  });
});
