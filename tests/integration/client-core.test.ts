/**
 * The client's game side as main runs it (electron/services/client/core.ts) against a real embedded
 * operator on loopback TLS, a real SQLite history and the real link: what the pages receive through
 * the client API's handlers and pushed events while a player joins a table, plays hands and leaves.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedOperator, type EmbeddedOperator } from '../../operator/embedded';
import { tempDir } from '../support/operator/temp-dir';
import { ClientCore, memoryVault } from '../../electron/services/client';
import { createHandlers } from '../../electron/services/client-api';
import type { EmbeddedOperatorProcess } from '../../electron/services/embedded';
import { SettingsStore } from '../../electron/services/settings';
import { dispatchCall, events, type EventName, type TableState } from '../../shared/api';
import type { Move } from '../../shared/protocol/messages';
import { handOf } from '../../shared/protocol/hand';
import { legalActions, type Action } from '../../shared/rules/engine';
import { validate, type Schema } from '../../shared/validate';
import { rulesVersion, type PlayConditions } from '../../shared/protocol/conditions';
import type { TableInfo } from '../../shared/protocol/messages';

let dir: ReturnType<typeof tempDir>;
let op: EmbeddedOperator;
let core: ClientCore;
let handlers: ReturnType<typeof createHandlers>;
const pushed: { event: EventName; payload: unknown }[] = [];
const invalid: string[] = [];
const lines: string[] = [];

/** The embedded operator in this process (the child-process launcher has its own test). */
function inProcess(o: EmbeddedOperator): EmbeddedOperatorProcess {
  let done!: (v: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => (done = r));
  return {
    url: o.url,
    pins: [o.pin],
    guest: o.guest,
    firstRun: true,
    pid: process.pid,
    exited,
    stop: async () => {
      await o.close();
      done({ code: 0, signal: null });
    },
  };
}

async function until(cond: () => boolean, ms = 20_000, why = ''): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function call<T>(name: string, args: unknown = {}): Promise<T> {
  const r = await dispatchCall(handlers, name, args);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

beforeAll(async () => {
  dir = tempDir('cercle-client-core-');
  // Practice players that think fast, so a few hands take seconds (the product's default is 0.6-1.8 s).
  op = await startEmbeddedOperator({ dataDir: join(dir.dir, 'op'), log: (l) => void lines.push(l), timing: { practiceDelayMs: [0, 20], betweenHandsMs: 100 } });
  const settings = new SettingsStore(join(dir.dir, 'client'));
  core = new ClientCore({
    dataDir: join(dir.dir, 'client'),
    version: '0.1.0',
    settings: () => settings.get(),
    launchEmbedded: async () => inProcess(op),
    vault: memoryVault(),
    broadcast: (event, payload) => {
      // Every push must pass the contract's validator, as the preload and the page check it.
      const v = validate(events[event] as Schema<unknown>, payload, event);
      if (!v.ok) invalid.push(v.error);
      pushed.push({ event, payload: structuredClone(payload) }); // both transports serialize at once
    },
    log: (l) => void lines.push(l),
  });
  handlers = createHandlers({
    info: { name: 'Cercle', version: '0.1.0', host: 'browser', platform: process.platform, dataDir: dir.dir },
    settings,
    core,
    openExternal: async () => undefined,
  });
  await core.start();
});

afterAll(async () => {
  await core?.close();
  dir?.cleanup();
});

describe('the client core over a real embedded operator', () => {
  it('signs the guest in, shows the lobby of every variant, plays hands and keeps the tracker equal to the stored hands and the wallet', async () => {
    await until(() => core.session.view().link.state === 'connected' && core.tables.lobby().length > 0, 10_000, 'connected with a lobby');
    const session = await call<{ account: { guest: boolean }; balances: { play: number } }>('session');
    expect(session.account.guest).toBe(true);
    const startBalance = session.balances.play;
    expect(startBalance).toBeGreaterThan(0);
    const lobby = await call<TableInfo[]>('lobby');
    expect(new Set(lobby.map((t) => t.variant)).size).toBe(11);
    // The operator's conditions of play came with the lobby (R-RULES).
    const conditions = await call<PlayConditions>('conditions');
    expect(conditions.fr.length).toBe(conditions.en.length);
    expect(conditions.en.join(' ')).toContain('time-outs in a row');

    // A buy-in outside the table's limits is refused with its bounds, and nothing moves.
    const table = lobby.find((t) => t.variant === 'THNL')!;
    const rulesVersionShown = rulesVersion(table, conditions.version);
    const tooBig = await call<{ ok: boolean; code?: string; max?: number }>('join', { tableId: table.tableId, buyIn: 10 ** 9, waitForBigBlind: false, rulesVersion: rulesVersionShown });
    expect(tooBig.ok).toBe(false);
    expect(core.session.view().balances?.play).toBe(startBalance);
    // Rules other than the table's (R-INFO): refused by the operator, the code reaches the page.
    const stale = rulesVersion({ ...table, rules: { ...table.rules, actionSeconds: table.rules.actionSeconds + 5 } }, conditions.version);
    expect(await call('join', { tableId: table.tableId, buyIn: table.buyIn.min, waitForBigBlind: false, rulesVersion: stale })).toMatchObject({ ok: false, code: 'RULES_CHANGED' });
    expect(core.session.view().balances?.play).toBe(startBalance);

    expect(await call('join', { tableId: table.tableId, buyIn: table.buyIn.min, waitForBigBlind: false, rulesVersion: rulesVersionShown })).toEqual({ ok: true });
    await until(() => core.session.view().balances?.play === startBalance - table.buyIn.min, 5_000, 'balance after the buy-in');

    // Play our seat from the pushed table states, as the page does: only what the rules package offers.
    let acted = 0;
    const endedHands = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (endedHands.size < 6 && Date.now() < deadline) {
      const state = (await call<TableState[]>('tables')).find((t) => t.tableId === table.tableId);
      if (state?.lastHand) endedHands.add(state.lastHand.handId);
      const v = state?.view;
      if (v?.hand && v.you && v.turn?.seat === v.you.seat && state!.pending === null) {
        const legal = legalActions(handOf(v.hand));
        if (legal.seat === v.you.seat && legal.next !== 'deal' && legal.next !== 'done') {
          const move: Move =
            legal.next === 'show' ? { type: 'show' } : legal.next === 'draw' ? { type: 'draw', discards: [] } : legal.check
                    ? { type: 'check' }
                    : // Small calls only: the practice players bet big and a seat calling everything busts in two hands.
                      legal.call !== null && legal.call <= 100
                      ? { type: 'call' }
                      : { type: 'fold' };
          const r = await call<{ ok: boolean; code?: string }>('act', { tableId: table.tableId, actionId: `t-${acted}`, move });
          // A decision can race the clock or the hand moving on; anything else is a bug.
          if (!r.ok) expect(['STALE', 'NOT_YOUR_TURN', 'ILLEGAL_ACTION', 'HAND_OVER']).toContain(r.code);
          acted++;
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(endedHands.size).toBeGreaterThanOrEqual(6);
    expect(acted).toBeGreaterThan(0);

    // A move that is not legal now is refused with its rule, and every detail of the refusal (the chips
    // a call adds, the allowed range, the whole English message) reaches the page's table state
    // unchanged (the operator makes the same refusal: client-link.test.ts).
    const ourTurn = async (): Promise<TableState | undefined> => {
      const st = (await call<TableState[]>('tables')).find((t) => t.tableId === table.tableId);
      const h = st?.view?.hand;
      if (!h || !st.view!.you || st.pending !== null) return undefined;
      const l = legalActions(handOf(h));
      return l.seat === st.view!.you.seat && l.next === 'act' ? st : undefined;
    };
    let turnState: TableState | undefined;
    for (const end = Date.now() + 20_000; !turnState && Date.now() < end; await new Promise((r) => setTimeout(r, 10))) turnState = await ourTurn();
    if (!turnState) throw new Error('our turn never came');
    const legal = legalActions(handOf(turnState.view!.hand!));
    const illegalMove: Move = legal.call !== null && !legal.check ? { type: 'check' } : { type: 'bet', to: legal.bet!.min - 1 };
    const illegal = await call<Record<string, unknown>>('act', { tableId: table.tableId, actionId: 'illegal-1', move: illegalMove });
    const expected =
      illegalMove.type === 'check'
        ? { code: 'ILLEGAL_ACTION', rule: 'R-TERMS', message: `a check cannot answer a bet: call ${legal.call} or fold`, call: legal.call }
        : { code: 'ILLEGAL_ACTION', min: legal.bet!.min, max: legal.bet!.max };
    expect(illegal).toMatchObject({ ok: false, ...expected });
    const shown = (await call<TableState[]>('tables')).find((t) => t.tableId === table.tableId)!.error;
    expect(shown).toStrictEqual({ code: illegal.code, message: illegal.message, rule: illegal.rule, ...(illegal.min === undefined ? {} : { min: illegal.min, max: illegal.max }), ...(illegal.call === undefined ? {} : { call: illegal.call }) });

    // Leave: the chips go back; the wallet moved by exactly the session's play result (R-TRACKER).
    const left = await call<{ ok: boolean; cashedOut?: number }>('leave', { tableId: table.tableId });
    expect(left.ok).toBe(true);
    await until(() => core.tables.list().length === 0, 20_000, 'the table gone after leaving');
    await until(() => {
      const t = core.results.trackerView().session.play;
      return t.onTables === 0 && core.session.view().balances?.play === startBalance + t.result;
    }, 10_000, 'the balance to equal the start plus the session result');

    const tracker = core.results.trackerView();
    const period = core.results.period({ from: 0, to: Date.now() + 1, groupBy: 'stakes' });
    expect(period.ok).toBe(true);
    // The session's hands are the stored hands; today's result is the same sum.
    expect(tracker.session.play.hands).toBe(period.play!.hands);
    expect(tracker.session.play.net).toBe(period.play!.net);
    expect(tracker.today?.play.net).toBe(period.play!.net);
    expect(tracker.session.play.hands).toBeGreaterThanOrEqual(endedHands.size);
    expect(op.operator.wallet.audit().problems).toEqual([]);

    // What the pages were pushed: valid against the contract, table states for our table, the tracker, the session.
    expect(invalid).toEqual([]);
    const kinds = new Set(pushed.map((p) => p.event));
    for (const k of ['session', 'lobby', 'table', 'tracker'] as const) expect(kinds.has(k)).toBe(true);
    const gone = pushed.filter((p) => p.event === 'table' && (p.payload as TableState).status === 'gone');
    expect(gone).toHaveLength(1);
  }, 60_000);

  /** Whether card `i` of this deal is dealt face up (Stud's up cards are public). */
  function dealtUp(view: NonNullable<NonNullable<TableState['view']>['hand']>, deal: Action, i: number): boolean {
    const folded = handOf({ ...view, actions: view.actions.slice(0, view.actions.indexOf(deal) + 1) });
    const e = folded.log[folded.log.length - 1];
    return e.kind === 'deal' && e.up[i] === true;
  }

  it('never pushes an opponent hidden card: every hole card in a pushed view is ours or shown', () => {
    let checked = 0;
    for (const p of pushed) {
      if (p.event !== 'table') continue;
      const v = (p.payload as TableState).view;
      if (!v?.hand || !v.you) continue;
      // The pushed view's own cards (the hand travels as a view), then the state the page folds from it.
      for (const a of v.hand.actions) {
        if (a.type === 'deal' && a.seat !== null && a.seat !== v.you.seat) a.cards.forEach((c, i) => c === null || dealtUp(v.hand!, a, i) || expect.fail(`card ${c} of seat ${a.seat} pushed`));
        if (a.type === 'draw' && a.seat !== v.you.seat) for (const c of a.discards) expect(c).toBeNull();
      }
      handOf(v.hand).seats.forEach((s, seat) => {
        if (seat === v.you!.seat || s.shown) return;
        // Stud's up cards are public; every other card of another seat must be hidden (null).
        s.hole.forEach((c, i) => {
          const up = s.up[i] === true;
          if (!up) expect(c).toBeNull();
          checked++;
        });
      });
    }
    expect(checked).toBeGreaterThan(0);
  });

  // A nickname chosen at sign-in, through the client's own call, names our seat at the table.
  it('renames the guest, refuses a reserved or malformed name, then sits under the new name and cannot rename while seated', async () => {
    await until(() => core.session.view().link.state === 'connected' && core.tables.list().length === 0, 20_000, 'connected, seated nowhere');
    const before = core.session.view().account!.username;
    expect(before).toMatch(/^guest-/);
    expect(await call('rename', { username: 'practice-Zoé' })).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    expect(await call('rename', { username: 'Zoé Lefèvre' })).toMatchObject({ ok: false, code: 'INVALID_USERNAME' });
    expect(core.session.view().account!.username).toBe(before);
    const syncs = () => core.history.jobList().filter((j) => j.kind === 'sync' && j.state === 'done').length;
    const syncedBefore = syncs();
    expect(await call('rename', { username: 'Zoé_Lefèvre' })).toEqual({ ok: true });
    // R-HISTORY: the hands of the old name were fetched before it changed (history/sync.ts finds our seat by name).
    expect(syncs()).toBe(syncedBefore + 1);
    expect(core.session.view().account).toMatchObject({ username: 'Zoé_Lefèvre', guest: true });

    const lobby = await call<TableInfo[]>('lobby');
    const conditions = await call<PlayConditions>('conditions');
    const table = lobby.find((t) => t.variant === 'THNL')!;
    expect(await call('join', { tableId: table.tableId, buyIn: table.buyIn.min, waitForBigBlind: false, rulesVersion: rulesVersion(table, conditions.version) })).toEqual({ ok: true });
    let names: string[] = [];
    await until(() => {
      const v = core.tables.list().find((t) => t.tableId === table.tableId)?.view;
      names = v?.seats.flatMap((s) => (s ? [s.name] : [])) ?? [];
      return v?.you !== undefined && v.you !== null && v.seats[v.you.seat]?.name === 'Zoé_Lefèvre';
    }, 10_000, 'our seat named Zoé_Lefèvre');
    expect(names).not.toContain(before);
    expect(await call('rename', { username: 'Zoé_2' })).toMatchObject({ ok: false, code: 'NAME_WHILE_SEATED' });
    expect(core.session.view().account!.username).toBe('Zoé_Lefèvre');
  }, 30_000);
});

describe('another operator, chosen in the settings', () => {
  it('connects by URL and pin, signs in with an account, keeps the token only in the vault, and refuses a wrong pin', async () => {
    const t = tempDir('cercle-client-custom-');
    const other = await startEmbeddedOperator({ dataDir: join(t.dir, 'op') });
    const settings = new SettingsStore(join(t.dir, 'client'));
    settings.update({ operator: { mode: 'custom', url: other.url, pins: [other.pin] } });
    const saved: (string | null)[] = [];
    const vault = { load: () => null, save: (token: string | null) => void saved.push(token) };
    const c = new ClientCore({
      dataDir: join(t.dir, 'client'),
      version: '0.1.0',
      settings: () => settings.get(),
      launchEmbedded: () => Promise.reject(new Error('the embedded operator is not used here')),
      vault,
      broadcast: () => undefined,
      log: () => undefined,
    });
    try {
      await c.start();
      await until(() => c.session.view().link.state === 'connected', 10_000, 'connected to the custom operator');
      expect(c.session.view().operator).toEqual({ mode: 'custom', url: other.url });
      expect(c.session.view().account).toBeNull();
      expect(await c.session.login({ username: 'alice', password: 'correct horse battery', register: true })).toEqual({ ok: true });
      await until(() => c.session.view().account !== null, 5_000, 'signed in');
      expect(c.session.view().account).toEqual({ username: 'alice', guest: false });
      // The token went to the vault (safeStorage in Electron), and nowhere the pages can read it.
      expect(saved.at(-1)).toMatch(/\S{16,}/);
      expect(JSON.stringify(c.session.view())).not.toContain(saved.at(-1)!);
      expect(await c.session.login({ username: 'alice', password: 'wrong', register: false })).toMatchObject({ ok: false });

      // A wrong pin: the link refuses the operator and says why; nothing is sent.
      settings.update({ operator: { mode: 'custom', url: other.url, pins: ['sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='] } });
      await c.session.reconnect();
      await until(() => c.session.view().link.state === 'offline', 10_000, 'offline after a wrong pin');
      expect(c.session.view().link.reason).toMatch(/pin/i);
    } finally {
      await c.close();
      await other.close();
      t.cleanup();
    }
  }, 30_000);
});

describe('quitting while the embedded operator starts', () => {
  // The CI run of 2026-11-26 00:08: the desktop app quit right after its window showed, while the embedded
  // operator was still starting; main exited, the operator went on writing in the data folder, and the
  // test's cleanup met a folder that was not empty. A quit now waits for the launch and stops what it started.
  it('waits for the launch under way and stops the operator it started (R-CASH: its tables cash out)', async () => {
    const t = tempDir('cercle-client-quit-');
    const settings = new SettingsStore(join(t.dir, 'client'));
    let launched!: (p: EmbeddedOperatorProcess) => void;
    const stops: string[] = [];
    const c = new ClientCore({
      dataDir: join(t.dir, 'client'),
      version: '0.1.0',
      settings: () => settings.get(),
      launchEmbedded: () => new Promise<EmbeddedOperatorProcess>((r) => (launched = r)),
      vault: memoryVault(),
      broadcast: () => undefined,
      log: () => undefined,
    });
    try {
      const starting = c.start();
      await until(() => launched !== undefined, 5_000, 'the launch began');
      let closed = false;
      const closing = c.close().then(() => (closed = true));
      // Every turn of the event loop a promise-only close could settle in, with no clock involved.
      for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
      expect(closed).toBe(false); // not before the operator it is starting has stopped
      launched({
        url: 'wss://127.0.0.1:1',
        pins: ['sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='],
        guest: { token: 'x'.repeat(32), username: 'Invité', accountId: 1 },
        firstRun: false,
        pid: 1,
        exited: new Promise(() => undefined),
        stop: async () => {
          await new Promise((r) => setTimeout(r, 20));
          stops.push('stopped');
        },
      });
      await closing;
      await starting;
      expect(stops).toEqual(['stopped']);
      expect(c.session.view().link.state).not.toBe('connected'); // no link was made after the quit
    } finally {
      t.cleanup();
    }
  });
});
