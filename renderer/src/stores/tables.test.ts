/**
 * A popped-out table's tile gives way only when the table opened somewhere (issue 11 item 5): Electron
 * refuses a pop-out for a table the player is not seated at or beyond 24 windows, and denies the page's
 * own window.open; the tile must then stay, not leave the player with neither tile nor window.
 */
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from 'vue';
import type { CercleApi } from '../../../shared/api';
import { API_KEY } from '../useApi';
import { useTablesStore } from './tables';

function storeWith(opened: boolean, windowOpen: (url: string, name: string) => unknown) {
  vi.stubGlobal('window', { open: vi.fn(windowOpen) });
  const api = { popOut: vi.fn(async () => ({ opened })), on: vi.fn() } as unknown as CercleApi;
  const app = createApp({});
  app.provide(API_KEY, api);
  app.use(createPinia());
  return { store: app.runWithContext(() => useTablesStore()), api };
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
