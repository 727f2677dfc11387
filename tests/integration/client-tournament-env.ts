/**
 * The client tournament tests' environment: a real operator on loopback TLS offering the
 * tournaments a test gives it (practice players fill play-money sit & go's), and a ClientCore signed in
 * to it with its own data folder, whose pushes are checked against the contract; a seat player that
 * acts from the pushed table states with a simple policy; the check that no pushed view holds an
 * opponent's hidden card (DESIGN.md §1, R-HIDDEN).
 */
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { ClientCore, memoryVault, type ClientCoreOptions, type TokenVault } from '../../electron/services/client';
import { createHandlers } from '../../electron/services/client-api';
import { SettingsStore } from '../../electron/services/settings';
import { dispatchCall, events, type EventName, type TableState } from '../../shared/api';
import { handOf } from '../../shared/protocol/hand';
import { legalActions } from '../../shared/rules/engine';
import { policyMove, type Policy } from '../support/tournament-policy';
import { validate, type Schema } from '../../shared/validate';
import type { RunningOperator } from '../../operator/server/operator';
import { tempDir } from '../support/operator/temp-dir';

export interface TestClient {
  core: ClientCore;
  pushed: { event: EventName; payload: unknown }[];
  /** Pushes that failed the contract's validator (must stay empty). */
  invalid: string[];
  call<T>(name: string, args?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function until(cond: () => boolean, ms: number, why: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${why}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A client with its own data folder whose settings name `op` (another operator, by URL and pin), not
 * started; its handlers answer `call` as the page's calls are answered.
 */
/**
 * A client core with its own data folder and the page's handlers. With an operator given, the settings
 * name it (custom); with `null`, the client uses its embedded operator, started by `launchEmbedded`.
 */
export function clientFor(
  op: { url: string; pin: string } | null,
  dataDir: string,
  vault: TokenVault = memoryVault(),
  launchEmbedded: ClientCoreOptions['launchEmbedded'] = () => Promise.reject(new Error('no embedded operator here')),
): TestClient & { settings: SettingsStore } {
  const settings = new SettingsStore(dataDir);
  settings.update({ operator: op ? { mode: 'custom', url: op.url, pins: [op.pin] } : { mode: 'embedded', url: '', pins: [] } });
  const pushed: TestClient['pushed'] = [];
  const invalid: string[] = [];
  const core = new ClientCore({
    dataDir,
    version: '0.1.0',
    settings: () => settings.get(),
    launchEmbedded,
    vault,
    broadcast: (event, payload) => {
      // Every push must pass the contract's validator, as the preload and the page check it.
      const v = validate(events[event] as Schema<unknown>, payload, event);
      if (!v.ok) invalid.push(v.error);
      pushed.push({ event, payload: structuredClone(payload) });
    },
    log: () => undefined,
  });
  const handlers = createHandlers({
    info: { name: 'Cercle', version: '0.1.0', host: 'browser', platform: process.platform, dataDir },
    settings,
    core,
    openExternal: async () => undefined,
  });
  const call = async <T>(name: string, args: unknown = {}): Promise<T> => {
    const r = await dispatchCall(handlers, name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };
  return { core, settings, pushed, invalid, call, close: () => core.close() };
}

/** A client with its own data folder, connected to `op` and signed in as `username` (registered when `register`). */
export async function signedInClient(op: RunningOperator, dataDir: string, username: string, register: boolean): Promise<TestClient> {
  const client = clientFor(op, dataDir);
  const { core, call } = client;
  await core.start();
  await until(() => core.session.view().link.state === 'connected', 10_000, 'connected');
  expect(await call('login', { username, password: 'correct horse battery', register })).toEqual({ ok: true });
  await until(() => core.session.view().account !== null && core.session.view().balances !== null, 5_000, 'signed in');
  return client;
}

/**
 * Plays our seat at every live table from the table states main holds, as the page would: only what
 * the rules package offers. `shove`: all in whenever a bet is open, else call; `passive`: check, else
 * fold. Stops when `stop()` is called.
 */
let autoplays = 0;

/**
 * Our seat at every table plays `policy` at once. Each state it decides on is checked like a pushed
 * one (no card of another seat unless shown: `checked()` counts the cards): under load, main's pushes
 * coalesce and may all fall between hands, while a decision is always taken in a hand.
 */
export function autoplay(c: TestClient, policy: Policy): { stop: () => Promise<void>; acted: () => number; checked: () => number } {
  // Action ids unique per run: a client played again after a pause is not refused ACTION_ID_REUSED.
  const run = ++autoplays;
  let running = true;
  let acted = 0;
  let checked = 0;
  // The frame each table was last acted on: a refused decision is not sent again on the same view (the
  // loop would send it every 10 ms until the operator's rate limit refuses it: seen once in CI).
  const tried = new Map<string, number | null>();
  const loop = (async () => {
    while (running) {
      for (const st of c.core.tables.list()) {
        const v = st.view;
        if (st.status !== 'live' || st.watching || !v?.hand || !v.you || st.pending !== null) continue;
        if (tried.has(st.tableId) && tried.get(st.tableId) === st.seq) continue;
        const legal = legalActions(handOf(v.hand));
        if (legal.seat !== v.you.seat || legal.next === 'deal' || legal.next === 'done') continue;
        checked += hiddenCardsChecked(st);
        const move = policyMove(legal, policy);
        tried.set(st.tableId, st.seq);
        const r = await c.call<{ ok: boolean; code?: string }>('act', { tableId: st.tableId, actionId: `a-${run}-${++acted}`, move });
        // A decision can race the clock, the hand moving on or the table closing (the tournament's end); anything else is a bug.
        if (!r.ok) expect(['STALE', 'NOT_YOUR_TURN', 'ILLEGAL_ACTION', 'NO_HAND', 'DISCONNECTED', 'UNKNOWN_TABLE', 'NOT_SEATED']).toContain(r.code);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
    acted: () => acted,
    checked: () => checked,
  };
}

/** Every pushed table view: no card of another seat unless it was shown or dealt face up (R-HIDDEN). Returns the cards checked. */
export function expectNoHiddenCard(pushed: TestClient['pushed']): number {
  let checked = 0;
  for (const p of pushed) if (p.event === 'table') checked += hiddenCardsChecked(p.payload as TableState);
  return checked;
}

/** One table state: no card of another seat unless it was shown or dealt face up (R-HIDDEN). Returns the cards checked. */
function hiddenCardsChecked(state: TableState): number {
  const v = state.view;
  if (!v?.hand) return 0;
  let checked = 0;
  const mine = v.you?.seat ?? null;
  const hand = handOf(v.hand);
  hand.seats.forEach((s, seat) => {
    if (seat === mine || s.shown) return;
    s.hole.forEach((card, i) => {
      if (s.up[i] !== true) expect(card).toBeNull();
      checked++;
    });
  });
  for (const a of v.hand.actions) if (a.type === 'draw' && a.seat !== mine) for (const card of a.discards) expect(card).toBeNull();
  return checked;
}


/**
 * Clients each with their own data folder (`<prefix>…`), closed and their folders removed after each
 * test of the file that calls this (at its top level).
 */
export function testClients(prefix: string): (op: RunningOperator, username: string, register?: boolean) => Promise<TestClient> {
  const clients: TestClient[] = [];
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const d of dirs.splice(0)) d.cleanup();
  });
  return async (op, username, register = true) => {
    const d = tempDir(prefix);
    dirs.push(d);
    const c = await signedInClient(op, join(d.dir, 'client'), username, register);
    clients.push(c);
    return c;
  };
}
