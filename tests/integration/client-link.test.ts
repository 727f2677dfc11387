/**
 * The client's operator link (electron/services/link) against a real operator on loopback, over real
 * TLS, with a real history file: pinning, heartbeats, reconnection in the middle of a hand, actions
 * sent once by id, and the tracker's session net against the stored hands and the wallet.
 * Table time runs 50 times faster than the wall clock; practice players decide at once.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { tablesOf } from '../../operator/config/config';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { scaledTimers } from '../../operator/tables/timers';
import { tempDir } from '../support/operator/temp-dir';
import { GENERATED_CERT_FILE, GENERATED_KEY_FILE } from '../../operator/tls';
import { HistoryStore } from '../../electron/services/history/store';
import { Tracker } from '../../electron/services/history/tracker';
import { OperatorLink, type LinkState, type OperatorLinkOptions } from '../../electron/services/link';
import type { Move, ServerMessageOf } from '../../shared/protocol/messages';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { legalActions } from '../../shared/rules/engine';
import { autoPlay, localHandIds, operatorHandIds, ourTurn, storedIds, until } from '../support/client-link';
import { joinAsShown } from './join-as-shown';

const WRONG_PIN = 'sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;
/** A second operator keeping only 4 frames per player: a reconnection there always gets a snapshot. */
let opSmallRing: RunningOperator;
const lines: string[] = [];

function lobbyOf(idOper: string, actionSeconds: number) {
  const table = (id: string, variant: string, stakes: Record<string, number>) => ({
    id,
    name: id,
    variant,
    money: 'play',
    stakes,
    seats: 6,
    buyIn: { min: 1000, max: 5000 },
    practicePlayers: 3,
    actionSeconds,
    timeBankSeconds: actionSeconds,
  });
  return tablesOf({
    version: 1,
    operator: { idOper, idCoffre: 1, name: 'Test' },
    tables: [
      table('holdem', 'THNL', { smallBlind: 25, bigBlind: 50 }),
      table('holdem-2', 'THNL', { smallBlind: 25, bigBlind: 50 }),
      table('omaha', 'O4JPL', { smallBlind: 25, bigBlind: 50 }),
      table('stud', '7SJL', { ante: 10, bringIn: 20, smallBet: 50 }),
      table('draw', '2T7TD', { smallBlind: 25, bigBlind: 50 }),
    ],
  });
}

beforeAll(async () => {
  dir = tempDir('cercle-client-link-');
  const common = {
    timers: scaledTimers(50),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] as [number, number], disconnectGraceMs: 600_000 },
    // The operator pings every 250 ms and drops a client that did not answer the previous ping.
    heartbeatMs: 250,
    durability: 'normal' as const,
    log: (l: string) => void lines.push(`operator: ${l}`),
  };
  // Decisions have 2 s (+ 2 s of time bank) here: the tests act on our turn well within it, even on a busy machine.
  op = await startOperator({ ...common, dataDir: join(dir.dir, 'op'), lobby: lobbyOf('0091', 100) });
  // 400 ms here: while the client is away, the clock plays for it and the hands go on without it.
  opSmallRing = await startOperator({ ...common, dataDir: join(dir.dir, 'op-small'), lobby: lobbyOf('0092', 20), table: { ...common.table, ringSize: 4 } });
});

afterAll(async () => {
  await op?.close();
  await opSmallRing?.close();
  dir?.cleanup();
});

/** A link; with `tracker`, fed to each table model as the client core does (the link never holds it). */
function linkTo(o: RunningOperator, extra: Partial<OperatorLinkOptions> & { tracker?: Tracker } = {}): OperatorLink {
  const { tracker, ...options } = extra;
  const link = new OperatorLink({
    url: o.url,
    pins: [o.pin],
    clientVersion: '0.1.0',
    backoff: { initialMs: 30, maxMs: 200 },
    heartbeat: { intervalMs: 100, timeoutMs: 3_000 },
    log: (l) => void lines.push(l),
    ...options,
  });
  if (tracker) link.on('model', (m) => m.feed(tracker));
  return link;
}

/** Cuts the account's connection on the operator's side, as a network failure would. */
function cut(o: RunningOperator, accountId: number): void {
  const c = o.context.byAccount.get(accountId);
  if (!c) throw new Error('no connection to cut');
  c.ws.terminate();
}


describe('pinning (the pin is the trust; the name is still checked)', () => {
  it('a wrong pin is refused before anything is exchanged, and the link goes offline', async () => {
    let connections = 0;
    const add = op.context.connections.add.bind(op.context.connections);
    op.context.connections.add = (c) => {
      connections++;
      return add(c);
    };
    try {
      const link = linkTo(op, { pins: [WRONG_PIN] });
      let messages = 0;
      link.on('message', () => messages++);
      const states: LinkState[] = [];
      link.on('state', (s) => states.push(s.state));
      await expect(link.connect()).rejects.toThrow(/matches none of the pinned keys/);
      expect(link.status).toMatchObject({ state: 'offline', why: 'pin' });
      expect(link.status.reason).toMatch(/pinned/);
      expect(states).toEqual(['connecting', 'offline']);
      expect(messages).toBe(0);
      // The operator never saw a WebSocket: not even the upgrade request was sent.
      await new Promise((r) => setTimeout(r, 50));
      expect(connections).toBe(0);
      expect(await link.guest()).toMatchObject({ ok: false, code: 'OFFLINE' });
      await link.close();
    } finally {
      op.context.connections.add = add;
    }
  });

  it('a right key for the wrong name is refused too, and the peer receives no byte', async () => {
    const d = join(dir.dir, 'op');
    let bytes = 0;
    const server = createTlsServer({ cert: readFileSync(join(d, GENERATED_CERT_FILE)), key: readFileSync(join(d, GENERATED_KEY_FILE)) }, (s) => {
      s.on('data', (b: Buffer) => (bytes += b.length));
      s.on('error', () => undefined);
    });
    // The certificate names 127.0.0.1 and localhost; 127.0.0.2 is loopback too, but another name.
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', () => r()));
    try {
      const link = linkTo(op, { url: `wss://127.0.0.2:${(server.address() as AddressInfo).port}` });
      await expect(link.connect()).rejects.toThrow(/not valid for 127\.0\.0\.2/);
      await new Promise((r) => setTimeout(r, 50));
      expect(bytes).toBe(0);
      await link.close();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('with several pins, one of them right, the link connects; it answers the heartbeat and stays up', async () => {
    const link = linkTo(op, { pins: [WRONG_PIN, op.pin] });
    const states: LinkState[] = [];
    link.on('state', (s) => states.push(s.state));
    await link.connect();
    const g = await link.guest();
    expect(g).toMatchObject({ ok: true, type: 'authed', account: { guest: true } });
    const lobby = await link.lobby();
    expect(lobby.ok && lobby.tables.map((t) => t.tableId)).toContain('holdem');
    // The operator pings every 250 ms and drops a silent client: a second later we are still here.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(states).toEqual(['connecting', 'connected']);
    expect(await link.ping()).toBeGreaterThanOrEqual(0);
    await link.close();
    expect(link.state).toBe('offline');
  });

  it('a client older than the operator accepts is told so, and does not retry', async () => {
    const link = linkTo(op, { clientVersion: '0.0.1' });
    await expect(link.connect()).rejects.toThrow(/update/);
    expect(link.status).toMatchObject({ state: 'update-required', minVersion: '0.1.0' });
    await link.close();
  });
});

describe('why the link is down, as a code the status bar words in the player’s language', () => {
  it('the account signed in elsewhere: offline, replaced, no retry; unreachable while retrying, then given up', async () => {
    const here = linkTo(op);
    await here.connect();
    expect((await here.register('relie_ici', 'un mot de passe assez long 42')).ok).toBe(true);
    const states: string[] = [];
    here.on('state', (s) => states.push(`${s.state}:${s.why}`));
    const elsewhere = linkTo(op);
    await elsewhere.connect();
    expect((await elsewhere.login('relie_ici', 'un mot de passe assez long 42')).ok).toBe(true);
    await until(() => here.status.state === 'offline', 5_000, () => states.join(' '));
    expect(here.status).toMatchObject({ state: 'offline', why: 'replaced' });
    // No retry: it would take the session back from where the player just signed in.
    await new Promise((r) => setTimeout(r, 300));
    expect(states).toEqual(['offline:replaced']);
    await elsewhere.close();
    await here.close();

    // Nobody listens at this port: retried as 'unreachable', then given up.
    const free = createTlsServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((r) => free.close(() => r()));
    const gone = linkTo(op, { url: `wss://127.0.0.1:${port}`, maxAttempts: 2 });
    const seen: string[] = [];
    gone.on('state', (s) => seen.push(`${s.state}:${s.why}`));
    await expect(gone.connect()).rejects.toThrow();
    expect(seen).toEqual(['connecting:null', 'reconnecting:unreachable', 'reconnecting:null', 'reconnecting:unreachable', 'reconnecting:null', 'offline:gave-up']);
    await gone.close();
  });
});

describe('a dead or babbling operator', () => {
  it('a bad frame is logged and dropped; a line that goes silent is detected and reconnected', async () => {
    const d = join(dir.dir, 'op');
    const server: HttpsServer = createHttpsServer({ cert: readFileSync(join(d, GENERATED_CERT_FILE)), key: readFileSync(join(d, GENERATED_KEY_FILE)) });
    // An "operator" that answers hello with garbage, then a welcome, then nothing at all (not even pongs).
    const wss = new WebSocketServer({ server, autoPong: false });
    let connections = 0;
    wss.on('connection', (ws) => {
      connections++;
      ws.on('message', () => {
        ws.send('{"type":"welcome","protocol":"one"}');
        ws.send('not json at all');
        ws.send(JSON.stringify({ type: 'welcome', protocol: PROTOCOL_VERSION, server: '0.1.0', heartbeatMs: 15_000, maxFrameBytes: 8192, time: Date.now() }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const link = linkTo(op, { url: `wss://127.0.0.1:${(server.address() as AddressInfo).port}`, heartbeat: { intervalMs: 50, timeoutMs: 400 } });
      const states: LinkState[] = [];
      link.on('state', (s) => states.push(s.state));
      await link.connect();
      expect(link.badFrames).toBe(2);
      expect(lines.some((l) => l.includes('dropped a frame from the operator'))).toBe(true);
      await until(() => states.includes('reconnecting') && connections >= 2, 5_000);
      expect(lines.some((l) => l.includes('no sign of life'))).toBe(true);
      await link.close();
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('an operator older than the client', () => {
  it('is told apart at its welcome: the link goes offline saying the operator must be updated, and does not retry', async () => {
    const d = join(dir.dir, 'op');
    const server: HttpsServer = createHttpsServer({ cert: readFileSync(join(d, GENERATED_CERT_FILE)), key: readFileSync(join(d, GENERATED_KEY_FILE)) });
    // An operator of the previous protocol: its frames would be refused one by one (a finish without its tie).
    const wss = new WebSocketServer({ server });
    let connections = 0;
    wss.on('connection', (ws) => {
      connections++;
      ws.on('message', () => ws.send(JSON.stringify({ type: 'welcome', protocol: PROTOCOL_VERSION - 1, server: '0.0.9', heartbeatMs: 15_000, maxFrameBytes: 8192, time: Date.now() })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const link = linkTo(op, { url: `wss://127.0.0.1:${(server.address() as AddressInfo).port}` });
      await expect(link.connect()).rejects.toThrow(/operator must be updated/);
      expect(link.status).toMatchObject({ state: 'offline', why: 'operator-old' });
      expect(link.status.reason).toContain(`protocol ${PROTOCOL_VERSION - 1}`);
      // No retry: an older operator stays older.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(connections).toBe(1);
      await link.close();
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('playing through the link', () => {
  it('a reconnection in the middle of a hand resynchronises, and the hand is stored once in a real history file', async () => {
    const store = HistoryStore.open(join(dir.dir, 'reconnect.sqlite'));
    const tracker = new Tracker(store);
    const link = linkTo(op, { tracker });
    const stored = storedIds(link);
    await link.connect();
    const g = await link.guest();
    if (!g.ok) throw new Error(g.code);
    expect(await joinAsShown(link, 'holdem', 2000)).toMatchObject({ ok: true, type: 'table.joined' });
    const play = autoPlay(link, 'holdem', 7);
    await until(() => stored.size >= 3);

    // Our turn in a hand we are dealt into: the connection dies.
    play.pause();
    const model = link.table('holdem')!;
    await ourTurn(link, model, play);
    const handId = model.hand!.handId!;
    const states: LinkState[] = [];
    link.on('state', (s) => states.push(s.state));
    let snapshots = 0;
    link.on('message', (m) => m.type === 'table.snapshot' && snapshots++);
    cut(op, g.account.id);
    play.resume();
    await until(() => stored.has(handId) && link.state === 'connected', 20_000, () => `${link.state} ${JSON.stringify(model.problems)}`);
    expect(states[0]).toBe('reconnecting');
    // The missed frames were replayed from the last seq (no snapshot needed), and applied in order.
    expect(snapshots).toBe(0);
    await until(() => stored.size >= 6);

    // Once more, with our action applied but its answer lost: the link sends it again with the same
    // id after the resume, and the operator answers `replayed` without applying it twice.
    play.pause();
    await ourTurn(link, model, play);
    const server = op.context.byAccount.get(g.account.id)!;
    // The operator's socket dies right after reading our action: it is applied, its answer is lost.
    const cutOnAction = (data: unknown): void => {
      if (!String(data).includes('"lost-answer-1"')) return;
      server.ws.off('message', cutOnAction);
      server.ws.terminate();
    };
    server.ws.prependListener('message', cutOnAction);
    const legal = legalActions(model.hand!);
    const move: Move = legal.check ? { type: 'check' } : legal.call !== null ? { type: 'call' } : { type: 'fold' };
    const seat = model.heroSeat!;
    let decided = 0;
    const off = link.on('table', (e) => {
      const c = e.change;
      if (e.tableId === 'holdem' && c.type === 'event' && c.event.type === 'action' && c.event.by === 'player' && 'seat' in c.event.action && c.event.action.seat === seat) decided++;
    });
    const lostAnswer = await link.act('holdem', move, { actionId: 'lost-answer-1' });
    // The operator had the id: its first answer comes back, marked replayed.
    expect(lostAnswer).toEqual({ ok: true, actionId: 'lost-answer-1', replayed: true });
    await new Promise((r) => setTimeout(r, 100));
    off();
    // Applied once as our decision (the clock acting for us meanwhile would be `by: 'clock'`).
    expect(decided).toBe(1);
    play.resume();
    await until(() => stored.size >= 9);

    // Leave (the hand in progress ends first), then: every hand stored exactly once, the local
    // history holding the operator's list of our hands.
    expect(await link.leave('holdem')).toMatchObject({ ok: true });
    await until(() => link.table('holdem') === undefined, 10_000);
    expect(model.status).toBe('gone');
    const local = localHandIds(store);
    expect(new Set(local).size).toBe(local.length);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(local.sort()).toEqual(operatorHandIds(op, g.account.id).sort());
    expect(store.getHand(handId)).toMatchObject({ ok: true, summary: { handId, tableId: 'holdem' } });
    expect(model.problems).toEqual([]);
    // Every action answered (one sent as we left is answered after `table.left`).
    await until(() => link.pendingActions().length === 0, 5_000);
    expect(play.unexpected()).toEqual([]);
    play.stop();
    await link.close();
    store.close();
  });

  it('an illegal move is refused with every detail by the operator as by the client; an action id sent twice is applied once; the same id for another move is refused', async () => {
    const link = linkTo(op);
    await link.connect();
    const g = await link.guest();
    if (!g.ok) throw new Error(g.code);
    await joinAsShown(link, 'holdem-2', 2000);
    const model = () => link.table('holdem-2')!;
    await until(() => {
      const m = link.table('holdem-2');
      return !!m?.hand && m.view!.turn?.seat === m.heroSeat && legalActions(m.hand).seat === m.heroSeat;
    });
    const seat = model().heroSeat!;
    const handId = model().hand!.handId;
    let ours = 0;
    link.on('table', (e) => {
      if (e.change.type === 'event' && e.change.event.type === 'action' && e.change.event.by === 'player' && 'seat' in e.change.event.action && e.change.event.action.seat === seat) ours++;
    });
    const legal = legalActions(model().hand!);
    // First a move that is not legal: the operator refuses it with every detail, the very refusal the
    // client's own check makes (one decision path). Facing a bet, a check (its
    // refusal names the call); else a bet below the minimum (the range). Nothing changes in the hand.
    const illegal: Move = legal.call !== null && !legal.check ? { type: 'check' } : { type: 'bet', to: legal.bet!.min - 1 };
    const local = await link.act('holdem-2', illegal, { actionId: 'refused-local' });
    const sent = await link.act('holdem-2', illegal, { actionId: 'refused-sent', check: false });
    expect(local).toMatchObject({ ok: false, local: true, code: 'ILLEGAL_ACTION' });
    expect(sent).toMatchObject({ ok: false, code: 'ILLEGAL_ACTION', replayed: false });
    const { actionId: _a, local: _l, ...judgedHere } = local as Extract<typeof local, { ok: false }>;
    const { actionId: _b, replayed: _r, tableId: _t, ...judgedThere } = sent as Extract<typeof sent, { ok: false }>;
    expect(judgedThere).toStrictEqual(judgedHere);
    if (illegal.type === 'check') expect(judgedThere).toMatchObject({ rule: 'R-TERMS', call: legal.call, message: `a check cannot answer a bet: call ${legal.call} or fold` });
    else expect(judgedThere).toMatchObject({ min: legal.bet!.min, max: legal.bet!.max });

    const move: Move = legal.call !== null ? { type: 'call' } : { type: 'check' };
    expect(await link.act('holdem-2', move, { actionId: 'twice-1' })).toEqual({ ok: true, actionId: 'twice-1', replayed: false });
    // The same id again (past the client's own check): the operator answers the first result.
    expect(await link.act('holdem-2', move, { actionId: 'twice-1', check: false })).toEqual({ ok: true, actionId: 'twice-1', replayed: true });
    expect(await link.act('holdem-2', { type: 'fold' }, { actionId: 'twice-1', check: false })).toMatchObject({ ok: false, code: 'ACTION_ID_REUSED' });
    await new Promise((r) => setTimeout(r, 100));
    expect(ours).toBe(1);
    // Out of turn, the client's engine refuses before sending (SPEC.md §1).
    if (model().hand?.handId === handId && model().view!.turn?.seat !== seat) {
      expect(await link.act('holdem-2', { type: 'check' })).toMatchObject({ ok: false, local: true });
    }
    await link.close();
  });

  it('after many hands, over reconnections with snapshots, the session net equals the stored hands and the wallet movement', async () => {
    const o = opSmallRing;
    const store = HistoryStore.open(join(dir.dir, 'session.sqlite'));
    const tracker = new Tracker(store);
    const link = linkTo(o, { tracker });
    const stored = storedIds(link);
    const problems: string[] = [];
    link.on('table', (e) => e.change.type === 'problem' && problems.push(`${e.tableId}: ${e.change.message}`));
    await link.connect();
    const g = await link.guest();
    if (!g.ok) throw new Error(g.code);
    const walletBefore = g.balances.play;
    const tables = ['holdem', 'stud', 'draw', 'omaha'];
    for (const t of tables) expect(await joinAsShown(link, t, 1500)).toMatchObject({ ok: true });
    const players = tables.map((t, i) => autoPlay(link, t, 100 + i));
    const handsAt = (t: string) => [...stored.keys()].filter((id) => id.startsWith(`${t}-`)).length;
    const played = () => Math.min(...tables.map(handsAt));
    await until(() => played() >= 8, 40_000, () => tables.map((t) => `${t}:${handsAt(t)}`).join(' '));

    // A top-up asked during a hand is added when it ends (seen as the stack growing between hands).
    const m = link.table('holdem')!;
    // The operator counts the stack as it stood when the hand began; adding what the hero committed
    // this hand never underestimates it. A hand may still end (and the stack grow) before the request
    // lands: then the refusal names the room left, and the top-up is asked again within it.
    const hero = m.heroSeat!;
    const committed = m.hand?.seats[hero]?.committed ?? 0;
    const room = 5000 - (m.view!.seats[hero]!.stack + committed + m.view!.you!.pendingTopUp);
    if (room > 0) {
      let r = await link.topUp('holdem', Math.min(room, 700));
      if (!r.ok && r.code === 'BUY_IN_RANGE' && typeof r.max === 'number' && r.max > 0) r = await link.topUp('holdem', r.max);
      expect(r.ok || (r.code === 'BUY_IN_RANGE' && r.max === 0)).toBe(true);
    }

    // Away long enough for the clock to play for us and for the 4 kept frames to run out: the resume
    // brings snapshots, and the hands that ended meanwhile come from the operator's history.
    let snapshots = 0;
    link.on('message', (x) => x.type === 'table.snapshot' && x.rid === null && snapshots++);
    o.context.closing = true; // connections are refused for a while (as by an operator restarting)
    cut(o, g.account.id);
    await new Promise((r) => setTimeout(r, 1_200));
    o.context.closing = false;
    await until(() => link.state === 'connected', 10_000);
    expect(snapshots).toBeGreaterThan(0);
    await until(() => stored.fromHistory > 0, 10_000);
    const after = played();
    await until(() => played() >= after + 8, 40_000, () => tables.map((t) => `${t}:${handsAt(t)}`).join(' '));

    // Leave every table (after the hand in progress), cashing out (R-CASH).
    for (const t of tables) expect(await link.leave(t)).toMatchObject({ ok: true });
    await until(() => tables.every((t) => link.table(t) === undefined), 20_000);
    for (const p of players) p.stop();

    const walletAfter = o.wallet.balance(g.account.id, 'play');
    const session = tracker.session();
    const all = store.results({ from: 0, to: Date.now() + 86_400_000 });
    if (!all.ok) throw new Error(all.reason);
    expect(session.play.inPlay).toBe(0);
    expect(session.play.onTables).toBe(0);
    expect(session.play.hands).toBe(store.count());
    expect(session.play.net).toBe(all.play.net);
    expect(session.play.result).toBe(walletAfter - walletBefore);
    expect(session.play.cashedOut - session.play.bought).toBe(walletAfter - walletBefore);
    // Every hand once, including those fetched after the snapshots.
    const local = localHandIds(store);
    expect(new Set(local).size).toBe(local.length);
    expect(local.sort()).toEqual(operatorHandIds(o, g.account.id).sort());
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    for (const p of players) expect(p.unexpected()).toEqual([]);
    expect(problems).toEqual([]);
    expect(players.reduce((n, p) => n + p.topUps, 0) + (room > 0 ? 1 : 0)).toBeGreaterThan(0);
    expect(o.wallet.audit().problems).toEqual([]);
    await link.close();
    store.close();
  });
});

describe('watching through the link', () => {
  it('a watched table comes back after the connection drops without the client asking again: the resume brings its fresh view', async () => {
    const link = linkTo(op);
    await link.connect();
    const g = await link.guest();
    if (!g.ok) throw new Error(g.code);
    // Every request the link sends, counted by type (its own re-watch would be one more table.watch).
    const requests = (link as unknown as { requests: { request: (body: { type: string }, ms?: number) => Promise<unknown> } }).requests;
    const send = requests.request.bind(requests);
    const sent: string[] = [];
    requests.request = (body, ms) => {
      sent.push(body.type);
      return send(body, ms);
    };
    expect(await link.watch('holdem-2')).toMatchObject({ ok: true });
    await until(() => link.table('holdem-2')?.status === 'live');
    const snapshots: ServerMessageOf<'table.snapshot'>[] = [];
    link.on('message', (m) => m.type === 'table.snapshot' && snapshots.push(m));

    const states: LinkState[] = [];
    link.on('state', (x) => states.push(x.state));
    cut(op, g.account.id);
    await until(() => states.includes('reconnecting') && link.state === 'connected' && link.table('holdem-2')?.status === 'live' && snapshots.length > 0, 20_000, () => `${link.state} ${link.table('holdem-2')?.status}`);
    // One fresh view, as no seat sees it, sent by the operator with the resume: no table.watch again.
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ rid: null, tableId: 'holdem-2', table: { you: null } });
    expect(sent.filter((t) => t === 'table.watch')).toEqual(['table.watch']);
    expect(link.isWatching('holdem-2')).toBe(true);
    expect(op.manager.get('holdem-2')!.isWatching(g.account.id)).toBe(true);
    await link.close();
  });
});
