/**
 * No ghost tables: while the link is down (main's link to the operator, or the page's to the browser
 * host) a table says so (`linkGone` 'down') and waits for no decision of ours; when the link is back the
 * page reads main's tables as the truth: a table main still has resumes as main has it, one it no longer
 * has closes with its last hand kept (`linkGone` 'lost') until the player closes it.
 */
import { createPinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';
import { handFrames } from '../../../tests/support/renderer/frames';
import { createApp, nextTick } from 'vue';
import type { CercleApi, LastHand, SessionInfo, TableState } from '../../../shared/api';
import { tableState } from '../table/test-support';
import { API_KEY } from '../useApi';
import { useSessionStore } from './session';
import { useSettingsStore } from './settings';
import { useTableDecisionsStore } from './tableDecisions';
import { useTablesStore } from './tables';
import { loadTables } from './tablesLoad';

type Listener = (p: unknown) => void;

const LAST: LastHand = { handId: 'h-6', endedAt: 1, record: { handId: 'h-6' } as LastHand['record'] };

/** Seat 0 is ours, and the turn is ours: the table waits for our decision. */
function ourTurn(id: string, over: Partial<TableState> = {}): TableState {
  const s = tableState(null, 0, { tableId: id, seq: 40, lastHand: LAST, ...over });
  return { ...s, view: { ...s.view!, tableId: id, turn: { seat: 0, actionMs: 15_000, timeBankMs: 0 } } };
}

function sessionIn(state: SessionInfo['link']['state']): SessionInfo {
  return {
    link: { state, attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null },
    operator: { mode: 'embedded', url: '' },
    account: { username: 'guest-1', guest: true },
    balances: { real: 0, play: 1000 },
  };
}

const { flush } = handFrames();

async function storeWith(initial: TableState[]) {
  const listeners = new Map<string, Listener[]>();
  let tables = initial;
  const api = {
    on: vi.fn((name: string, l: Listener) => listeners.set(name, [...(listeners.get(name) ?? []), l])),
    tables: vi.fn(async () => tables),
    myTournaments: vi.fn(async () => []),
  } as unknown as CercleApi;
  const app = createApp({});
  app.provide(API_KEY, api);
  app.use(createPinia());
  const [store, session, decisions] = app.runWithContext(() => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, sounds: false };
    return [useTablesStore(), useSessionStore(), useTableDecisionsStore()] as const;
  });
  session.session = sessionIn('connected');
  await app.runWithContext(() => loadTables());
  const emit = (name: string, p: unknown): void => {
    for (const l of listeners.get(name) ?? []) l(p);
    flush();
  };
  /** What main lists from now on. */
  const mainHas = (list: TableState[]): void => void (tables = list);
  /** Lets the refresh started by the link's return run to its end. */
  const settle = async (): Promise<void> => {
    await nextTick();
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return { store, session, decisions, api, emit, mainHas, settle };
}

describe('a table while its link is down', () => {
  it('the operator link down: the table says so and waits for nothing', async () => {
    const { store, session, decisions } = await storeWith([ourTurn('A')]);
    expect(decisions.waiting).toEqual(['A']);
    expect(store.linkGone('A')).toBeNull();
    session.session = sessionIn('reconnecting');
    expect(store.linkGone('A')).toBe('down');
    expect(decisions.waiting).toEqual([]);
  });

  it('the browser host down: the same, whatever the stale session says', async () => {
    const { store, session, decisions } = await storeWith([ourTurn('A')]);
    session.host = { up: false, retryAt: Date.now() + 1000, attempt: 1 };
    expect(store.linkGone('A')).toBe('down');
    expect(decisions.waiting).toEqual([]);
  });
});

describe('the link back: main’s tables are the truth', () => {
  it('a table main still has resumes as main has it, even numbered anew', async () => {
    const { store, session, decisions, api, mainHas, settle } = await storeWith([ourTurn('A')]);
    session.session = sessionIn('reconnecting');
    // The operator started again: its frames are numbered anew (a lower seq than the one shown).
    mainHas([tableState(null, 0, { tableId: 'A', seq: 3, lastHand: LAST })]);
    session.session = sessionIn('connected');
    await settle();
    expect(api.tables).toHaveBeenCalledTimes(2);
    expect(store.states.get('A')?.seq).toBe(3);
    expect(store.linkGone('A')).toBeNull();
    expect(decisions.waiting).toEqual([]); // main says it no longer waits for us
  });

  it('a table main no longer has closes, its last hand kept, until the player closes it', async () => {
    const { store, session, decisions, mainHas, settle } = await storeWith([ourTurn('A'), ourTurn('B')]);
    session.session = sessionIn('reconnecting');
    mainHas([ourTurn('B')]);
    session.session = sessionIn('connected');
    await settle();
    const a = store.states.get('A')!;
    expect(a.status).toBe('gone');
    expect(a.lastHand?.handId).toBe('h-6');
    expect(a.view?.turn).toBeNull();
    expect(a.view?.hand).toBeNull(); // the hand in play is not shown frozen
    expect(a.pending).toBeNull();
    expect(store.linkGone('A')).toBe('lost');
    expect(store.order).toEqual(['A', 'B']);
    expect(decisions.waiting).toEqual(['B']);
    // No "Vous avez quitté …": the player did not leave.
    expect(store.left).toEqual([]);
    store.closeTile('A');
    expect(store.order).toEqual(['B']);
    expect(store.linkGone('A')).toBeNull();
  });

  it('the host back: the stale session is not trusted; once main says connected, its tables are the truth', async () => {
    const { store, session, api, mainHas, settle } = await storeWith([ourTurn('A')]);
    session.host = { up: false, retryAt: Date.now() + 1000, attempt: 1 };
    mainHas([]);
    session.host = { up: true, retryAt: null, attempt: 0 };
    await settle();
    // Main started again, its session not read yet: the last one pushed (connected) is stale.
    expect(store.linkGone('A')).toBe('down');
    expect(api.tables).toHaveBeenCalledTimes(1);
    session.session = sessionIn('starting');
    expect(store.linkGone('A')).toBe('down');
    session.session = sessionIn('connected');
    await settle();
    expect(store.states.get('A')?.status).toBe('gone');
    expect(store.linkGone('A')).toBe('lost');
  });

  it('a lost table pushed again by main (seated there again) is live again', async () => {
    const { store, session, emit, mainHas, settle } = await storeWith([ourTurn('A')]);
    session.session = sessionIn('reconnecting');
    mainHas([]);
    session.session = sessionIn('connected');
    await settle();
    expect(store.linkGone('A')).toBe('lost');
    emit('table', ourTurn('A', { seq: 1 }));
    expect(store.states.get('A')?.status).toBe('live');
    expect(store.linkGone('A')).toBeNull();
  });

  it('a push applied while main’s list was on its way is kept (it is newer)', async () => {
    const { store, api, emit, mainHas } = await storeWith([]);
    mainHas([]);
    let answer: (v: TableState[]) => void = () => undefined;
    vi.mocked(api.tables).mockImplementationOnce(() => new Promise((r) => (answer = r)));
    const reading = store.refresh();
    emit('table', ourTurn('C'));
    answer([]);
    await reading;
    expect(store.states.get('C')?.status).toBe('live');
    expect(store.linkGone('C')).toBeNull();
  });
});
