/**
 * Main's tournaments and the money they move (R-TRACKER): the real history store
 * (a SQLite file) and the real tracker, with the operator link as the neighbour stood in for (its
 * tournament news and the lobby's list; the whole path against a real operator is in
 * tests/integration/client-tournament.test.ts). Main stopped while a tournament runs: when it starts
 * again the record goes on from the history's, so the entry is not taken off and a bounty won before
 * is not counted again; the history and the session then agree on what the tournament moved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerMessageOf } from '../../../shared/protocol/messages';
import type { TournamentStanding, TournamentSummary } from '../../../shared/protocol/tournament';
import { HistoryStore } from '../history/store';
import { Tracker } from '../history/tracker';
import type { OperatorLink } from '../link/link';
import { tournamentRecords } from './tournament-records';
import { ClientTournaments } from './tournaments';

const T0 = Date.UTC(2026, 0, 14, 20, 0);
const SUMMARY: TournamentSummary = {
  tournamentId: 'k-1',
  name: 'SNG k',
  variant: 'THNL',
  money: 'play',
  buyIn: 1000,
  fee: 100,
  bounty: 200,
  format: 'sit-and-go',
  kinds: 'G',
  seats: 6,
  state: 'running',
  entries: 6,
  players: 6,
  remaining: 6,
  minEntrants: 6,
  maxEntrants: 6,
  startAt: null,
  pool: 4800,
  version: 'v1',
};

type News = ServerMessageOf<'tournament.seat' | 'tournament.state' | 'tournament.finished'>;

/** The link as ClientTournaments uses it: the lobby's list, a registration, and the news it is told. */
function fakeLink(): { link: OperatorLink; tell: (m: News) => void } {
  let listener: ((m: News) => void) | null = null;
  const link = {
    on: (event: string, cb: (m: News) => void) => {
      if (event === 'tournament') listener = cb;
      return () => undefined;
    },
    isWatching: () => false,
    tournaments: {
      list: async () => ({ ok: true, tournaments: [SUMMARY] }),
      register: async () => ({ ok: true }),
    },
  } as unknown as OperatorLink;
  return { link, tell: (m) => listener?.(m) };
}

const standing = (bounties: number): TournamentStanding => ({
  state: 'running',
  level: 1,
  onBreak: false,
  nextChangeInMs: 60_000,
  handForHand: false,
  entries: 6,
  remaining: 4,
  chips: 9000,
  pool: 4800,
  paid: 2,
  you: { stack: 2500, rank: 1, rebuy: false, addOn: false, bounties },
});

/** Main's tournament service over a real history store, its link faked (`tell` gives it the operator's news); a log line fails the test. */
function clientOn(store: HistoryStore, now: () => number): { tracker: Tracker; client: ClientTournaments; tell: (m: News) => void } {
  const tracker = new Tracker(store, { now });
  const { link, tell } = fakeLink();
  const client = new ClientTournaments({
    link: () => link,
    broadcast: () => undefined,
    tracker,
    putTournament: tournamentRecords(store).putTournament,
    storedTournament: (id) => store.tournament(id),
    balancesMoved: () => undefined,
    now,
    log: (line) => {
      throw new Error(line);
    },
  });
  client.attach(link);
  return { tracker, client, tell };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-client-tournaments-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a tournament running when main stops', () => {
  it('goes on from the history’s record: the entry not taken off, a bounty won before not counted again', async () => {
    let now = T0;
    const store = HistoryStore.open(join(dir, 'history.sqlite'), { now: () => now });
    try {
      const start = () => clientOn(store, () => now);

      // Registered, then a bounty of 400 won while it runs.
      const first = start();
      expect(await first.client.register({ tournamentId: 'k-1', version: 'v1' })).toEqual({ ok: true });
      now += 10 * 60_000;
      first.tell({ type: 'tournament.state', tournamentId: 'k-1', standing: standing(400) });
      await first.client.settled();
      expect(first.tracker.session().play).toMatchObject({ entries: 1100, prizes: 400 });
      expect(store.tournament('k-1')).toMatchObject({ spent: 1100, bounties: 400, endedAt: null });

      // Main stops and starts again (a new session); the operator tells the standing again, then the finish.
      now += 5 * 60_000;
      const second = start();
      second.tell({ type: 'tournament.state', tournamentId: 'k-1', standing: standing(400) });
      await second.client.settled();
      expect(second.tracker.session().play).toMatchObject({ entries: 0, prizes: 0 });
      expect(store.tournament('k-1')).toMatchObject({ registeredAt: T0, spent: 1100, bounties: 400 });
      now += 20 * 60_000;
      second.tell({ type: 'tournament.finished', tournamentId: 'k-1', place: 1, tied: 1, prize: 3000, bounties: 600 });
      await second.client.settled();
      // This session: the last bounty (200) and the prize; nothing of before counted again.
      expect(second.tracker.session().play).toMatchObject({ entries: 0, prizes: 3200, result: 3200 });
      expect(store.tournament('k-1')).toMatchObject({ registeredAt: T0, spent: 1100, prize: 3000, bounties: 600, place: 1, endedAt: now });
      // The history's money: the entry once, the wins once, each when it happened.
      const before = store.results({ from: T0, to: T0 + 15 * 60_000 });
      expect(before.ok && before.play).toMatchObject({ entries: 1100, prizes: 400 });
      const after = store.results({ from: T0 + 15 * 60_000, to: now + 1 });
      expect(after.ok && after.play).toMatchObject({ entries: 0, prizes: 3200 });
      expect(store.tournamentResults({}, 'format')).toMatchObject({ ok: true, play: { count: 1, spent: 1100, prizes: 3000, bounties: 600, net: 2500 } });
    } finally {
      store.close();
    }
  });
});

describe('a tied finish kept with the record (T 8-16; schema version 8)', () => {
  it('stored from tournament.finished, kept when the operator’s result (without it) is synced, and read back by the list', async () => {
    const now = T0;
    const store = HistoryStore.open(join(dir, 'history.sqlite'), { now: () => now });
    try {
      const { client, tell } = clientOn(store, () => now);
      const records = tournamentRecords(store);
      expect(await client.register({ tournamentId: 'k-1', version: 'v1' })).toEqual({ ok: true });
      tell({ type: 'tournament.finished', tournamentId: 'k-1', place: 2, tied: 3, prize: 466, bounties: 0 });
      await client.settled();
      expect(store.tournament('k-1')).toMatchObject({ place: 2, tied: 3, prize: 466 });
      expect(store.tournamentHistory({}, 10, null)).toMatchObject({ ok: true, tournaments: [{ tournamentId: 'k-1', place: 2, tied: 3 }] });

      // The operator's result of the same finish has no tie: the one kept here stays.
      const { tied: _tied, ...fromOperator } = store.tournament('k-1')!;
      records.syncTournament({ ...fromOperator, startedAt: T0, endedAt: T0 + 1 });
      expect(store.tournament('k-1')).toMatchObject({ place: 2, tied: 3 });
      // A tie must share places of the field, from a place: refused otherwise, the record kept.
      const entries = store.tournament('k-1')!.entries;
      expect(store.putTournament({ ...store.tournament('k-1')!, tied: entries }).ok).toBe(false);
      expect(store.putTournament({ ...store.tournament('k-1')!, place: null }).ok).toBe(false);
      expect(store.tournament('k-1')).toMatchObject({ place: 2, tied: 3 });
    } finally {
      store.close();
    }
  });
});

