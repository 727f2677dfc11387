/**
 * The tournament table in the tables store: a move replaces the old table's tile by
 * the new table's in the same place, without a reload, with the reason kept for the message; a
 * popped-out table stays popped out as the new one (its window follows `current`); the old table's
 * last pushes do not bring its tile back; a tournament table the player is out of keeps its tile until
 * closed (the finish is shown on it); leaving forfeits through `tournamentUnregister`; a refused rebuy
 * is worded; the details are read once and again only when the field changes.
 */
import { createPinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { handFrames } from '../../../tests/support/renderer/frames';
import { createApp } from 'vue';
import type { CercleApi, TableState, TournamentPlay } from '../../../shared/api';
import type { TournamentStanding } from '../../../shared/protocol/tournament';
import { tableState } from '../table/test-support';
import { API_KEY } from '../useApi';
import { useNoticesStore } from './notices';
import { useSettingsStore } from './settings';
import { useTableDecisionsStore } from './tableDecisions';
import { orderAfterMove, useTablesStore } from './tables';
import { loadTables } from './tablesLoad';
import { useTableWindowsStore } from './tableWindows';
import { useTournamentTablesStore } from './tournamentTables';

type Listener = (p: unknown) => void;

const at = (id: string, over: Partial<TableState> = {}): TableState => tableState(null, 0, { tableId: id, tournamentId: 'T1', ...over });
const cash = (id: string): TableState => tableState(null, 0, { tableId: id });

function standing(over: Partial<TournamentStanding> = {}): TournamentStanding {
  return { state: 'running', level: 0, onBreak: false, nextChangeInMs: 60_000, handForHand: false, entries: 18, remaining: 18, chips: 180_000, pool: 18_000, paid: 3, you: { stack: 10_000, rank: 4, rebuy: false, addOn: false, bounties: 0 }, ...over };
}
function play(over: Partial<TournamentPlay> = {}): TournamentPlay {
  return {
    tournamentId: 'T1',
    summary: {} as TournamentPlay['summary'],
    status: 'playing',
    standing: standing(),
    standingAt: Date.now(),
    seat: { tableId: 'A', seat: 0 },
    move: null,
    finished: null,
    spent: 1000,
    rebuys: 0,
    addOns: 0,
    ...over,
  };
}

const { flush } = handFrames();
// A browser's window.open refused (null): the popped-out table's own window is main's (api.popOut).
beforeEach(() => {
  vi.stubGlobal('window', { open: vi.fn(() => null) });
});

async function storeWith(tables: TableState[], extra: Partial<Record<keyof CercleApi, unknown>> = {}) {
  const listeners = new Map<string, Listener[]>();
  const api = {
    on: vi.fn((name: string, l: Listener) => listeners.set(name, [...(listeners.get(name) ?? []), l])),
    tables: vi.fn(async () => tables),
    myTournaments: vi.fn(async () => []),
    popOut: vi.fn(async () => ({ opened: true })),
    tournamentDetails: vi.fn(async () => ({ ok: true, details: { summary: { entries: 18 }, prizes: [9000, 5400, 3600], structure: {} } })),
    tournamentUnregister: vi.fn(async () => ({ ok: true, refunded: null })),
    tournamentRebuy: vi.fn(async () => ({ ok: false, code: 'REGISTRATION_CLOSED', message: 'a rebuy is not allowed now', rule: 'T 5-2' })),
    ...extra,
  } as unknown as CercleApi;
  const app = createApp({});
  app.provide(API_KEY, api);
  app.use(createPinia());
  const store = app.runWithContext(() => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, sounds: false };
    return useTablesStore();
  });
  const [tournament, windows, decisions] = app.runWithContext(() => [useTournamentTablesStore(), useTableWindowsStore(), useTableDecisionsStore()] as const);
  const notices = app.runWithContext(() => useNoticesStore());
  await app.runWithContext(() => loadTables());
  const emit = (name: string, p: unknown): void => {
    for (const l of listeners.get(name) ?? []) l(p);
    flush();
  };
  return { store, tournament, windows, decisions, api, emit, notices };
}

describe('a move to another table', () => {
  it('orderAfterMove: the new table takes the old one’s place', () => {
    expect(orderAfterMove(['A', 'C', 'D'], 'C', 'B')).toEqual(['A', 'B', 'D']);
    // The new table's first state came first (added at the end): it moves to the old place.
    expect(orderAfterMove(['A', 'C', 'D', 'B'], 'C', 'B')).toEqual(['A', 'B', 'D']);
    expect(orderAfterMove(['A'], null, 'B')).toEqual(['A', 'B']);
    expect(orderAfterMove(['A'], 'X', 'B')).toEqual(['A', 'B']);
  });

  it('replaces the tile in place, says why, and the old table does not come back', async () => {
    const { store, tournament, emit } = await storeWith([cash('C1'), at('A'), cash('C2')]);
    expect(store.order).toEqual(['C1', 'A', 'C2']);
    const when = Date.now();
    emit('tournament', play({ seat: { tableId: 'B', seat: 3 }, move: { from: 'A', to: 'B', why: 'balance', at: when } }));
    expect(store.order).toEqual(['C1', 'B', 'C2']);
    // The tile keeps its key (the table in it is updated, not drawn anew), the old table standing in.
    expect(store.tileKey('B')).toBe('A');
    expect(store.standIn.get('B')).toBe('A');
    expect(tournament.moves.get('B')).toMatchObject({ from: 'A', why: 'balance' });
    // The old table's stream ends after the move: its pushes show nothing.
    emit('table', at('A'));
    emit('table', at('A', { status: 'gone' }));
    expect(store.order).toEqual(['C1', 'B', 'C2']);
    expect(store.left).toEqual([]);
    // The new table's first state fills the tile in place.
    emit('table', at('B'));
    expect(store.order).toEqual(['C1', 'B', 'C2']);
    expect(store.states.get('B')?.tournamentId).toBe('T1');
    expect(store.standIn.size).toBe(0);
    expect(store.states.has('A')).toBe(false);
    // The same move told again (the next standing) is not followed twice.
    tournament.moves.delete('B');
    emit('tournament', play({ seat: { tableId: 'B', seat: 3 }, move: { from: 'A', to: 'B', why: 'balance', at: when } }));
    expect(store.order).toEqual(['C1', 'B', 'C2']);
    expect(tournament.moves.has('B')).toBe(false);
  });

  it('the new table’s state before the move event: it still ends in the old place', async () => {
    const { store, tournament, emit } = await storeWith([at('A'), cash('C1')]);
    emit('table', at('B'));
    expect(store.order).toEqual(['A', 'C1', 'B']);
    emit('tournament', play({ move: { from: 'A', to: 'B', why: 'broken', at: Date.now() } }));
    expect(store.order).toEqual(['B', 'C1']);
    expect(tournament.moves.get('B')?.why).toBe('broken');
  });

  it('a popped-out table stays popped out as the new table; its window follows (current)', async () => {
    const { store, windows, emit } = await storeWith([at('A')]);
    expect(await windows.popOut('A')).toBe(true);
    emit('tournament', play({ move: { from: 'A', to: 'B', why: 'balance', at: Date.now() } }));
    expect([...windows.poppedOut]).toEqual(['B']);
    expect(store.current('A')).toBe('B');
    emit('tournament', play({ move: { from: 'B', to: 'D', why: 'broken', at: Date.now() + 1 } }));
    expect(store.current('A')).toBe('D');
    // The window closes saying the table it was opened for: the tile of where it went comes back.
    windows.bringBack('A');
    expect(windows.poppedOut.size).toBe(0);
  });

  it('a move while the window is being opened: the tile of the table the window follows to gives way', async () => {
    // Asking main for a window takes a round trip; the tournament can move the player meanwhile, and the
    // new window follows the move (current), so the new table's tile is the one that gives way.
    let answer: (r: { opened: boolean }) => void = () => undefined;
    const { store, windows, emit } = await storeWith([at('A')], { popOut: vi.fn(() => new Promise((r) => (answer = r))) });
    const opening = windows.popOut('A');
    emit('tournament', play({ move: { from: 'A', to: 'B', why: 'balance', at: Date.now() } }));
    answer({ opened: true });
    expect(await opening).toBe(true);
    expect(store.order).toEqual(['B']);
    expect([...windows.poppedOut]).toEqual(['B']);
  });

  it('moved back to a table left before: its state pushed before the move event is shown, not lost', async () => {
    // B → A, then A → B again, and B's first state of the return came before the move that says so
    // (the table's stream and the tournament's events are not ordered with each other). Our turn may
    // be in that state, and nothing more is pushed from B until we act: it must not be dropped.
    const { store, emit } = await storeWith([at('B')]);
    emit('tournament', play({ seat: { tableId: 'A', seat: 1 }, move: { from: 'B', to: 'A', why: 'balance', at: Date.now() } }));
    emit('table', at('A'));
    emit('table', at('B', { status: 'gone' }));
    expect(store.order).toEqual(['A']);
    const back = at('B', { seq: 40, view: { ...at('B').view!, turn: { seat: 0, actionMs: 15_000, timeBankMs: 30_000 } } });
    emit('table', back);
    expect(store.states.has('B')).toBe(false);
    emit('tournament', play({ seat: { tableId: 'B', seat: 0 }, move: { from: 'A', to: 'B', why: 'broken', at: Date.now() + 1 } }));
    expect(store.order).toEqual(['B']);
    expect(store.states.get('B')?.seq).toBe(40);
    expect(store.states.get('B')?.view?.turn?.seat).toBe(0);
    expect(store.standIn.size).toBe(0);
    // A window opened for either table shows where the player is now: the way back leaves no loop.
    expect(store.current('A')).toBe('B');
    expect(store.current('B')).toBe('B');
  });

  it('a table closed and then watched again does not show its old last state', async () => {
    const { store, tournament, emit } = await storeWith([at('A')], { watchTable: vi.fn(async () => ({ ok: true })) });
    emit('table', at('A', { status: 'gone' }));
    store.closeTile('A');
    emit('table', at('A', { status: 'gone' }));
    await tournament.watch('A');
    flush();
    expect(store.order).toEqual([]);
  });

  it('a move read again after a reload (long ago) replaces nothing and says nothing', async () => {
    const { store, tournament } = await storeWith([at('B')], { myTournaments: vi.fn(async () => [play({ move: { from: 'A', to: 'B', why: 'balance', at: Date.now() - 3_600_000 } })]) });
    expect(store.order).toEqual(['B']);
    expect(tournament.moves.size).toBe(0);
  });
});

describe('out of the tournament, and leaving it', () => {
  it('the table the player is out of keeps its tile (the finish shows on it) until closed', async () => {
    const { store, emit } = await storeWith([at('A'), cash('C1')]);
    emit('table', at('A', { status: 'gone' }));
    expect(store.order).toEqual(['A', 'C1']);
    expect(store.states.get('A')?.status).toBe('gone');
    expect(store.states.get('A')?.view).not.toBeNull();
    expect(store.left).toEqual([]);
    store.closeTile('A');
    expect(store.order).toEqual(['C1']);
    emit('table', at('A'));
    expect(store.order).toEqual(['C1']);
    // A cash table is never closed that way: it is left.
    store.closeTile('C1');
    expect(store.order).toEqual(['C1']);
  });

  it('a table seated at and left within one frame still gets its tile, its last hand and the finish in view', async () => {
    // Out on the first hand while the page was busy: the frame that applies the table's pushes finds
    // its last one (gone) first. The player must still see where and how the tournament ended.
    const { store, decisions, emit } = await storeWith([cash('C1')]);
    const ours = at('A');
    const last = { handId: 'A-1', endedAt: Date.now(), record: { handId: 'A-1' } as NonNullable<TableState['lastHand']>['record'] };
    emit('table', at('A', { status: 'gone', view: { ...ours.view!, hand: null, turn: { seat: 0, actionMs: 15_000, timeBankMs: 30_000 } }, lastHand: last }));
    expect(store.order).toEqual(['C1', 'A']);
    const kept = store.states.get('A')!;
    expect(kept.status).toBe('gone');
    expect(kept.view?.turn).toBeNull();
    expect(kept.lastHand?.handId).toBe('A-1');
    expect(decisions.waiting).toEqual([]);
    // Without a view there is nothing to show: no tile.
    emit('table', at('B', { status: 'gone', view: null }));
    expect(store.order).toEqual(['C1', 'A']);
  });

  it('a table the player is out of waits for no decision, even when the last state shown was our turn (pushes coalesced)', async () => {
    // Our turn shown, then the hand ran out and we were out: the pushes in between were coalesced
    // (a tile is redrawn at most so often), so the tile kept the state where we were to act.
    const ours = at('A');
    const turn = at('A', { view: { ...ours.view!, turn: { seat: 0, actionMs: 15_000, timeBankMs: 30_000 } } });
    const { store, decisions, emit } = await storeWith([turn, cash('C1')]);
    expect(decisions.waiting).toEqual(['A']);
    emit('table', at('A', { status: 'gone', view: { ...ours.view!, hand: null } }));
    expect(store.states.get('A')?.status).toBe('gone');
    expect(decisions.waiting).toEqual([]);
  });

  it('the tile kept shows the table as main last pushed it: the hand run out and its record, not the state before', async () => {
    // Shown: our all-in waiting on the opponent. Main's last push, the table gone, brings the view
    // after the hand (no hand in play) and the hand's record, which the tile's result panel shows.
    const ours = at('A');
    const allIn = at('A', { view: { ...ours.view!, turn: { seat: 1, actionMs: 15_000, timeBankMs: 30_000 } } });
    const { store, emit } = await storeWith([allIn, cash('C1')]);
    const last = { handId: 'A-42', endedAt: Date.now(), record: { handId: 'A-42' } as NonNullable<TableState['lastHand']>['record'] };
    const after = { ...ours.view!, hand: null, handNo: 8 };
    emit('table', at('A', { status: 'gone', view: after, lastHand: last }));
    const kept = store.states.get('A')!;
    expect(kept.status).toBe('gone');
    expect(kept.view).toEqual({ ...after, turn: null });
    expect(kept.lastHand?.handId).toBe('A-42');
    // A push without a view (an older main) keeps what was shown, without its turn.
    const { store: older, emit: emitOlder } = await storeWith([allIn]);
    emitOlder('table', at('A', { status: 'gone', view: null }));
    expect(older.states.get('A')?.view).toEqual({ ...allIn.view!, turn: null });
  });

  it('leaving forfeits the entry through tournamentUnregister, then the tile closes (R-TOURN-LEAVE)', async () => {
    const { store, tournament, api } = await storeWith([at('A')]);
    expect((await tournament.forfeit('A')).ok).toBe(true);
    expect(api.tournamentUnregister).toHaveBeenCalledWith({ tournamentId: 'T1' });
    expect(store.order).toEqual([]);
  });

  it('a refused rebuy is worded in French, with the rule', async () => {
    const { tournament, notices } = await storeWith([at('A')]);
    await tournament.purchase('T1', 'rebuy');
    expect(notices.list.map((n) => n.text)).toEqual(['Recave refusée : Les inscriptions à ce tournoi sont fermées. Règle T 5-2.']);
  });
});

describe('the details for the bar', () => {
  it('read once, and again only when the field or the paid places change', async () => {
    const { tournament, api, emit } = await storeWith([at('A')]);
    emit('tournament', play());
    await vi.waitFor(() => expect(tournament.details.has('T1')).toBe(true));
    emit('tournament', play({ standing: standing({ remaining: 17, chips: 180_000 }) }));
    await Promise.resolve();
    expect(api.tournamentDetails).toHaveBeenCalledTimes(1);
    emit('tournament', play({ standing: standing({ entries: 19 }) }));
    await vi.waitFor(() => expect(api.tournamentDetails).toHaveBeenCalledTimes(2));
  });
});
