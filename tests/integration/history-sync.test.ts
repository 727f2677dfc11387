/**
 * Hands played on another device appear here (R-HISTORY; electron/services/history/sync.ts): a real
 * embedded operator on loopback TLS; "another device" is another OperatorLink signed in as the same
 * guest, with its own history file, playing a few hands; then this client (ClientCore over an empty
 * data folder) connects, reads the operator's history of the account and stores every hand once, with
 * its seat, table, time and money kind. A second connection stores nothing again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedOperator, type EmbeddedOperator } from '../../operator/embedded';
import { tempDir } from '../support/operator/temp-dir';
import { ClientCore, memoryVault } from '../../electron/services/client';
import type { EmbeddedOperatorProcess } from '../../electron/services/embedded';
import { HistoryStore } from '../../electron/services/history/store';
import { Tracker } from '../../electron/services/history/tracker';
import { OperatorLink } from '../../electron/services/link';
import { SettingsStore } from '../../electron/services/settings';
import { events, type EventName, type HistoryJobView } from '../../shared/api';
import type { Move } from '../../shared/protocol/messages';
import { legalActions } from '../../shared/rules/engine';
import { validate, type Schema } from '../../shared/validate';
import { joinAsShown } from './join-as-shown';

let dir: ReturnType<typeof tempDir>;
let op: EmbeddedOperator;
const lines: string[] = [];

function inProcess(o: EmbeddedOperator): EmbeddedOperatorProcess {
  return { url: o.url, pins: [o.pin], guest: o.guest, firstRun: true, pid: process.pid, exited: new Promise(() => undefined), stop: async () => undefined };
}

async function until(cond: () => boolean, ms = 20_000, why = ''): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  dir = tempDir('cercle-history-sync-');
  op = await startEmbeddedOperator({ dataDir: join(dir.dir, 'op'), log: (l) => void lines.push(l), timing: { practiceDelayMs: [0, 10], betweenHandsMs: 50 } });
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

describe('hands missing locally come from the operator', () => {
  it('stores the hands the account played with another client, once', async () => {
    // The other device: the same account, its own history.
    const otherStore = HistoryStore.open(join(dir.dir, 'other', 'history.sqlite'));
    const link = new OperatorLink({ url: op.url, pins: [op.pin], clientVersion: '0.1.0', token: op.guest.token, log: (l) => void lines.push(l) });
    const otherTracker = new Tracker(otherStore);
    link.on('model', (m) => m.feed(otherTracker)); // as the client core feeds its tracker
    await link.connect();
    const lobby = await link.lobby();
    if (!lobby.ok) throw new Error(lobby.message);
    const table = lobby.tables.find((t) => t.variant === 'THNL')!;
    expect((await joinAsShown(link, table.tableId, table.buyIn.min)).ok).toBe(true);
    let busy = false;
    // Acts whenever it is our turn: on each table change, and again when an answer comes back (a turn
    // that arrived while the previous move was in flight would otherwise wait for the action clock).
    const maybeAct = (): void => {
      const m = link.table(table.tableId);
      const hand = m?.hand;
      if (busy || !m || !hand || m.heroSeat === null || m.view?.turn?.seat !== m.heroSeat) return;
      const legal = legalActions(hand);
      if (legal.seat !== m.heroSeat || legal.next === 'deal' || legal.next === 'done') return;
      const move: Move = legal.next === 'show' ? { type: 'show' } : legal.check ? { type: 'check' } : legal.call !== null && legal.call <= 100 ? { type: 'call' } : { type: 'fold' };
      busy = true;
      void link.act(table.tableId, move).finally(() => {
        busy = false;
        maybeAct();
      });
    };
    const off = link.on('table', maybeAct);
    await until(() => otherStore.count() >= 5, 40_000, 'five hands played on the other device');
    off();
    await link.leave(table.tableId);
    await until(() => link.tables().length === 0, 20_000, 'left');
    await link.close();
    const played = otherStore.page({}, { sort: 'time', dir: 'asc', limit: 200 });
    if (!played.ok) throw new Error(played.reason);
    otherStore.close();
    expect(played.hands.length).toBeGreaterThanOrEqual(5);

    // This client: an empty history; it connects as the same account.
    const pushed: HistoryJobView[] = [];
    const invalid: string[] = [];
    const settings = new SettingsStore(join(dir.dir, 'here'));
    const core = new ClientCore({
      dataDir: join(dir.dir, 'here'),
      version: '0.1.0',
      settings: () => settings.get(),
      launchEmbedded: async () => inProcess(op),
      vault: memoryVault(),
      broadcast: (event: EventName, payload) => {
        const v = validate(events[event] as Schema<unknown>, payload, event);
        if (!v.ok) invalid.push(v.error);
        if (event === 'historyJob') pushed.push(structuredClone(payload) as HistoryJobView);
      },
      log: (l) => void lines.push(l),
    });
    try {
      expect(core.history.store.count()).toBe(0);
      await core.start();
      await until(() => pushed.some((j) => j.kind === 'sync' && j.state !== 'running'), 20_000, 'the sync');
      const sync = pushed.find((j) => j.kind === 'sync' && j.state !== 'running')!;
      expect(sync).toMatchObject({ state: 'done', duplicates: 0 });
      expect(sync.stored).toBeGreaterThanOrEqual(played.hands.length);
      for (const h of played.hands) {
        const here = core.history.store.getHand(h.handId);
        if (!here.ok) throw new Error(here.reason);
        expect({ ...here.summary, playedAt: 0 }).toEqual({ ...h, playedAt: 0 });
        expect(Math.abs(here.summary.playedAt - h.playedAt)).toBeLessThan(5_000); // the operator's end vs the other client's clock
      }
      const count = core.history.store.count();
      expect(count).toBe(sync.stored);
      // Results over the synced hands are there at once (the totals are the store's).
      expect(core.results.period({ from: 0, to: Date.now() + 1, groupBy: 'stakes' })).toMatchObject({ ok: true, play: { hands: count } });

      // Connecting again: nothing is stored twice.
      pushed.length = 0;
      await core.session.reconnect();
      await until(() => pushed.some((j) => j.kind === 'sync' && j.state !== 'running'), 20_000, 'the second sync');
      expect(pushed.find((j) => j.kind === 'sync' && j.state !== 'running')).toMatchObject({ state: 'done', stored: 0 });
      expect(core.history.store.count()).toBe(count);
      expect(invalid).toEqual([]);
    } finally {
      await core.close();
    }
  }, 90_000);
});
