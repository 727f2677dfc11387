/**
 * A popped-out table's tile gives way only when the table opened somewhere: Electron
 * refuses a pop-out for a table the player is not seated at or beyond 24 windows, and denies the page's
 * own window.open; the tile must then stay, not leave the player with neither tile nor window.
 * Auto-muck sends a muck for a beaten hand only when the setting is on.
 */
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from 'vue';
import { DEFAULT_SETTINGS, type CercleApi, type TableState } from '../../../shared/api';
import { makeTableRules } from '../../../shared/rules/tableRules';
import { tableState, toOurShowdown } from '../table/test-support';
import { API_KEY } from '../useApi';
import { useSettingsStore } from './settings';
import { useTableDecisionsStore } from './tableDecisions';
import { useTablesStore } from './tables';
import { useTableWindowsStore } from './tableWindows';

/** An app with a fresh Pinia and `api` as its client API: the stores' context. */
function appWith(api: CercleApi) {
  const app = createApp({});
  app.provide(API_KEY, api);
  app.use(createPinia());
  return app;
}

function storeWith(opened: boolean, windowOpen: (url: string, name: string) => unknown) {
  vi.stubGlobal('window', { open: vi.fn(windowOpen) });
  const api = { popOut: vi.fn(async () => ({ opened })), on: vi.fn() } as unknown as CercleApi;
  const app = appWith(api);
  return { store: app.runWithContext(() => useTableWindowsStore()), api };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('popping a table out', () => {
  it('Electron opened its window: the tile gives way, no window.open', async () => {
    const { store } = storeWith(true, () => null);
    expect(await store.popOut('t1')).toBe(true);
    expect(store.poppedOut.has('t1')).toBe(true);
    expect(window.open).not.toHaveBeenCalled();
  });

  it('refused by main and window.open denied (Electron): the tile stays', async () => {
    const { store } = storeWith(false, () => null);
    expect(await store.popOut('t1')).toBe(false);
    expect(store.poppedOut.has('t1')).toBe(false);
  });

  it('the browser host opened a tab: the tile gives way', async () => {
    const { store } = storeWith(false, () => ({}));
    expect(await store.popOut('t1')).toBe(true);
    expect(window.open).toHaveBeenCalledWith('#/table/t1', 'cercle-table-t1');
    expect(store.poppedOut.has('t1')).toBe(true);
  });
});

describe('auto-muck', () => {
  const NL = makeTableRules('THNL', { smallBlind: 5, bigBlind: 10 });
  /** The table at our turn to show or muck (seat 1), seat 0's aces already shown. */
  function atShowdown(ours: string): TableState {
    const full = toOurShowdown(NL, [1000, 1000, 1000], ['AsAh', ours, 'KsQd'], ['2d5s9c', 'Jh', '3h'], 1);
    const st = tableState(full, 1);
    st.view!.turn = { seat: 1, actionMs: 20_000, timeBankMs: 0 };
    return st;
  }
  function storeAt(st: TableState, autoMuck: boolean) {
    const api = { tables: vi.fn(async () => [st]), act: vi.fn(async () => ({ ok: true })), on: vi.fn() } as unknown as CercleApi;
    const app = appWith(api);
    const store = app.runWithContext(() => {
      const settings = useSettingsStore();
      settings.settings = { ...settings.settings, autoMuck, sounds: false };
      useTableDecisionsStore(); // auto-muck reacts to the tables' stream from when it is made
      return useTablesStore();
    });
    return { store, api };
  }

  it('on: a beaten hand is mucked once, without a click', async () => {
    const { store, api } = storeAt(atShowdown('7c4d'), true);
    await store.refresh();
    await store.refresh(); // the same hand again: no second request
    expect(api.act).toHaveBeenCalledTimes(1);
    expect(api.act).toHaveBeenCalledWith(expect.objectContaining({ tableId: 't1', move: { type: 'muck' } }));
  });

  it('on: a hand that may win is left to the player', async () => {
    const { store, api } = storeAt(atShowdown('AcAd'), true);
    await store.refresh();
    expect(api.act).not.toHaveBeenCalled();
  });

  it('off (the default): nothing is sent', async () => {
    expect(DEFAULT_SETTINGS.autoMuck).toBe(false);
    const { store, api } = storeAt(atShowdown('7c4d'), false);
    await store.refresh();
    expect(api.act).not.toHaveBeenCalled();
  });
});
