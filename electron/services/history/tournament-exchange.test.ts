/**
 * The jobs' tournament paths: imported tournament hands keep their tournament and
 * level; an exported tournament hand gets its entry and name from the stored tournament (looked up
 * once); the summaries written are the tournaments over in the period, oldest first, with the name
 * the player's hands give them; and, in real worker threads on real SQLite files (schema v6),
 * tournament hands exported in each format and imported into another history with their tournament
 * and level, summaries exported and imported (duplicates the second time, a bad one refused at its line).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TournamentFilter, TournamentRecordView } from '../../../shared/api';
import { exportHands, importHands, readPokerstarsSummaries, tournamentNumber, writePokerstarsSummaries } from '../../../shared/exchange';
import { prng, randomRecord } from '../../../shared/history/test-support';
import { HistoryJobs, type HistoryJobView } from './jobs';
import { HistoryStore } from './store';
import { exchangeMetaOf, localTournamentId, summariesOf, summaryTournaments, tournamentLookup, type TournamentBook } from './tournament-exchange';
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

describe('a PokerStars tournament number in this history', () => {
  it('is the stored tournament that has it; an unknown number or another id is itself', () => {
    const local = localTournamentId(new Book([T('sng-thnl-6-9', 9_000, 2), T('42', 9_000, 1)]));
    expect(local(String(tournamentNumber('sng-thnl-6-9')))).toBe('sng-thnl-6-9');
    expect(local('42')).toBe('42');
    expect(local('43')).toBe('43');
    expect(local('sng-other')).toBe('sng-other');
  });
});

describe('summaries stored (the store on a real SQLite file)', () => {
  it('those not stored yet are stored, those stored (or twice in the file) are duplicates and stay as they are; a stub made by hands is filled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cercle-tadd-'));
    const store = HistoryStore.open(join(dir, 'history.sqlite'));
    try {
      const kept = T('a', 9_000_000, 2);
      expect(store.putTournament(kept)).toEqual({ ok: true });
      // A hand of tournament c came before its record: a stub row, not a stored tournament.
      const record = randomRecord('THNL', prng(5), '77');
      expect(store.addHand({ playedAt: 8_000, tableId: 'c-t1', money: 'real', heroSeat: record.seats.find((s) => s.dealtIn)!.seat, tournament: { tournamentId: 'c', level: 0 } }, record)).toMatchObject({ stored: true });
      expect(store.addTournaments([{ ...kept, prize: 5 }, T('b', 9_000_000, 1), T('b', 9_000_000, 1), T('c', 9_000_000, 3)])).toEqual({ ok: true, stored: 2, duplicates: 2 });
      const page = store.tournamentHistory({}, 10, null);
      expect(page.ok && page.tournaments.map((t) => [t.tournamentId, t.prize, t.hands]).sort()).toEqual([
        ['a', 0, 0],
        ['b', 1800, 0],
        ['c', 0, 1],
      ]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the jobs in real worker threads on real SQLite files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cercle-tsum-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function withJobs(name: string, fn: (store: HistoryStore, run: (r: { ok: boolean; jobId?: string; reason?: string }) => Promise<HistoryJobView>, jobs: HistoryJobs) => Promise<void>): Promise<void> {
    const store = HistoryStore.open(join(dir, name, 'history.sqlite'));
    const jobs = new HistoryJobs({ store, dataDir: join(dir, name), emit: () => undefined, progressMs: 0, heroNames: () => ['account'] });
    const run = async (r: { ok: boolean; jobId?: string; reason?: string }) => {
      if (!r.ok || r.jobId === undefined) throw new Error(r.reason);
      await jobs.ended(r.jobId);
      return jobs.view(r.jobId)!;
    };
    try {
      await fn(store, run, jobs);
    } finally {
      await jobs.close();
      store.close();
    }
  }

  it('tournament hands exported in each format with their stored entry, and imported into another history with their tournament and level', async () => {
    const rng = prng(8);
    const stored = T('sng-thnl-6-9', Date.UTC(2026, 10, 25, 21), 2);
    const hands = [0, 1, 2].map((i) => ({ record: randomRecord('THNL', rng, String(4_000 + i)), level: i * 2 }));
    await withJobs('from', async (store, run, jobs) => {
      expect(store.putTournament(stored)).toEqual({ ok: true });
      for (const [i, h] of hands.entries()) {
        const hero = h.record.seats.find((s) => s.dealtIn)!.seat;
        expect(store.addHand({ playedAt: Date.UTC(2026, 10, 25, 20, i), tableId: 'sng-thnl-6-9-t1', money: 'real', heroSeat: hero, tournament: { tournamentId: stored.tournamentId, level: h.level } }, h.record)).toMatchObject({ stored: true });
      }
      // The summary names the player as the tournament's hands name the hero (not the account's name).
      const hero = hands[0].record.seats.find((s) => s.dealtIn)!.player;
      const summary = await run(jobs.exportHands({}, 'pokerstars-summary'));
      expect(readFileSync(summary.file!, 'utf8')).toBe(writePokerstarsSummaries([{ tournament: { ...stored, hands: 3 }, player: hero }]));
      for (const format of ['pokerstars', 'pojeu', 'phh'] as const) {
        const v = await run(jobs.exportHands({ kind: 'tournament' }, format));
        expect(v).toMatchObject({ state: 'done', done: 3 });
        const text = readFileSync(v.file!, 'utf8');
        if (format === 'pokerstars') expect(text.split('\n')[0]).toMatch(/^PokerStars Hand #4000: Tournament #\d+, €4\.50\+€0\.50 EUR Hold'em No Limit - Level I \(/);
        await withJobs(`to-${format}`, async (other, runOther, otherJobs) => {
          const file = join(dir, `in.${format}`);
          writeFileSync(file, text);
          const imported = await runOther(otherJobs.importFile(file, 'auto'));
          expect(imported, imported.message ?? '').toMatchObject({ state: 'done', stored: 3 });
          const page = other.page({ kind: 'tournament' }, { sort: 'time', dir: 'asc', limit: 10 });
          const id = format === 'pokerstars' ? String(tournamentNumber(stored.tournamentId)) : stored.tournamentId;
          expect(page.ok && page.hands.map((h) => h.tournament)).toEqual(hands.map((h) => ({ tournamentId: id, level: h.level })));
        });
        if (format === 'pokerstars') {
          // A history that has the tournament: the number is that tournament, the hands join it.
          await withJobs('joined', async (other, runOther, otherJobs) => {
            expect(other.putTournament(stored)).toEqual({ ok: true });
            const file = join(dir, 'joined.txt');
            writeFileSync(file, text);
            const imported = await runOther(otherJobs.importFile(file, 'auto'));
          expect(imported, imported.message ?? '').toMatchObject({ state: 'done', stored: 3 });
            const page = other.page({ kind: 'tournament' }, { sort: 'time', dir: 'asc', limit: 10 });
            expect(page.ok && page.hands.map((h) => h.tournament?.tournamentId)).toEqual([stored.tournamentId, stored.tournamentId, stored.tournamentId]);
          });
          // Its own export read back: nothing added.
          const file = join(dir, 'own.txt');
          writeFileSync(file, text);
          expect(await run(jobs.importFile(file, 'auto'))).toMatchObject({ state: 'done', stored: 0, duplicates: 3 });
        }
      }
    });
  });

  it('summaries: exported for the tournaments over in the period, imported into another history (then duplicates); a bad one names its line, nothing stored', async () => {
    const over = T('sng-thnl-6-7', Date.UTC(2026, 10, 25, 21), 1);
    let text = '';
    await withJobs('from', async (store, run, jobs) => {
      expect(store.putTournament(over)).toEqual({ ok: true });
      expect(store.putTournament({ ...T('running', null, null), registeredAt: Date.UTC(2026, 10, 25, 20) })).toEqual({ ok: true });
      const v = await run(jobs.exportHands({ from: Date.UTC(2026, 10, 25), to: Date.UTC(2026, 10, 26) }, 'pokerstars-summary'));
      expect(v).toMatchObject({ state: 'done', done: 1, total: 1 });
      expect(v.file).toMatch(/\.summaries\.txt$/);
      text = readFileSync(v.file!, 'utf8');
      // The account's name (no hands of it here), the tournament as stored.
      expect(text).toBe(writePokerstarsSummaries([{ tournament: over, player: 'account' }]));
      // Its own summaries read back: the number is the stored tournament, a duplicate; no second row.
      const file = join(dir, 'own-summaries.txt');
      writeFileSync(file, text);
      expect(await run(jobs.importFile(file, 'auto'))).toMatchObject({ state: 'done', stored: 0, duplicates: 1 });
      const list = store.tournamentHistory({}, 10, null);
      expect(list.ok && list.tournaments.map((t) => t.tournamentId).sort()).toEqual(['running', over.tournamentId]);
    });
    await withJobs('to', async (store, run, jobs) => {
      const file = join(dir, 'summaries.txt');
      writeFileSync(file, text.replace('6 players', 'six players'));
      expect(await run(jobs.importFile(file, 'auto'))).toMatchObject({ state: 'failed', line: 3, stored: 0 });
      writeFileSync(file, text);
      expect(await run(jobs.importFile(file, 'auto'))).toMatchObject({ state: 'done', stored: 1, duplicates: 0 });
      writeFileSync(file, text);
      expect(await run(jobs.importFile(file, 'pokerstars-summary'))).toMatchObject({ state: 'done', stored: 0, duplicates: 1 });
      const id = String(tournamentNumber(over.tournamentId));
      expect(store.tournament(id)).toMatchObject({ tournamentId: id, buyIn: 450, fee: 50, entries: 6, place: 1, prize: 1800, startedAt: over.startedAt, endedAt: over.endedAt });
    });
  });

  /** Three finished tournaments' summaries, their ids once imported (PokerStars numbers), and the line each summary starts at. */
  function threeSummaries(second: (t: TournamentRecordView) => TournamentRecordView = (t) => t) {
    const list = [T('sng-a', Date.UTC(2026, 10, 24, 21), 1), second(T('sng-b', Date.UTC(2026, 10, 24, 22), 3)), T('sng-c', Date.UTC(2026, 10, 24, 23), 2)];
    const text = writePokerstarsSummaries(list.map((tournament) => ({ tournament, player: 'account' })));
    const starts = text.split('\n').flatMap((l, i) => (l.startsWith('PokerStars Tournament #') ? [i + 1] : []));
    expect(starts).toHaveLength(3);
    return { text, ids: list.map((t) => String(tournamentNumber(t.tournamentId))), starts };
  }

  it('summaries: one transaction a file; the 2nd failing to store (SQLite refuses its row) leaves none of the file stored and is named; imported again once it can be: all stored, then all duplicates', async () => {
    const { text, ids, starts } = threeSummaries();
    await withJobs('fault', async (store, run, jobs) => {
      const file = join(dir, 'summaries.txt');
      writeFileSync(file, text);
      // The fault at the store's neighbour: SQLite itself refuses the second tournament's row (a trigger on the real file).
      const db = new Database(store.file);
      try {
        db.exec(`CREATE TRIGGER refuse_second BEFORE UPDATE ON tournaments WHEN NEW.tid = '${ids[1]}' BEGIN SELECT RAISE(ABORT, 'injected: no room for it'); END`);
        const failed = await run(jobs.importFile(file, 'auto'));
        expect(failed).toMatchObject({ state: 'failed', stored: 0, duplicates: 0, line: starts[1] });
        expect(failed.message).toContain(`summary 2 of 3 (tournament #${ids[1]}, line ${starts[1]})`);
        expect(failed.message).toContain('injected: no room for it');
        // Nothing of the file: not the first summary's tournament, not even an empty row for one.
        expect(db.prepare('SELECT count(*) FROM tournaments').pluck().get()).toBe(0);
        db.exec('DROP TRIGGER refuse_second');
      } finally {
        db.close();
      }
      expect(await run(jobs.importFile(file, 'auto'))).toMatchObject({ state: 'done', stored: 3, duplicates: 0 });
      expect(await run(jobs.importFile(file, 'pokerstars-summary'))).toMatchObject({ state: 'done', stored: 0, duplicates: 3 });
      const page = store.tournamentHistory({}, 10, null);
      expect(page.ok && page.tournaments.map((t) => t.tournamentId).sort()).toEqual([...ids].sort());
    });
  });

  it("summaries: the 2nd refused by the store's own check (it ends before it starts) is named, and none of its file is stored", async () => {
    const { text, ids, starts } = threeSummaries((t) => ({ ...t, startedAt: t.endedAt! + 60_000 }));
    await withJobs('refused', async (store, run, jobs) => {
      const file = join(dir, 'summaries.txt');
      writeFileSync(file, text);
      const failed = await run(jobs.importFile(file, 'auto'));
      expect(failed).toMatchObject({ state: 'failed', stored: 0, line: starts[1] });
      expect(failed.message).toContain(`summary 2 of 3 (tournament #${ids[1]}, line ${starts[1]})`);
      expect(failed.message).toContain('a tournament ends after its registration');
      const page = store.tournamentHistory({}, 10, null);
      expect(page.ok && page.tournaments).toEqual([]);
    });
  });
});
