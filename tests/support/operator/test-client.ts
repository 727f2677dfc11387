/**
 * A small WSS client for the operator's tests and benchmarks: it pins the operator's SPKI (the way
 * the desktop client connects), validates every frame it receives with `parseServerMessage`, and
 * offers request/answer matching by `rid`. Not used by the operator itself.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import WebSocket from 'ws';
import type { ClientMessage, Move, ServerMessage, ServerMessageOf, TableEvent } from '../../../shared/protocol/messages';
import { handOf } from '../../../shared/protocol/hand';
import { apply, legalActions, type HandState, type LegalActions } from '../../../shared/rules/engine';
import { parseServerMessage } from '../../../shared/protocol/parse';
import { rulesVersion } from '../../../shared/protocol/conditions';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';

type Waiter = { pred: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/** A request without its `rid` (the client numbers requests). */
type Request = ClientMessage extends infer M ? (M extends { rid: number } ? Omit<M, 'rid'> : never) : never;

/**
 * `forwardedFor`: the X-Forwarded-For header (an operator with trustProxy takes it as the address);
 * `localAddress`: the loopback address to connect from (127.0.0.2…: all of 127/8 is loopback on Linux).
 */
export interface ClientOptions {
  forwardedFor?: string;
  localAddress?: string;
}

export class TestClient {
  readonly received: ServerMessage[] = [];
  readonly invalid: string[] = [];
  private waiters: Waiter[] = [];
  private nextRid = 1;
  onMessage: ((m: ServerMessage) => void) | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      const parsed = parseServerMessage(text);
      if (!parsed.ok) {
        this.invalid.push(`${parsed.code}: ${parsed.message}: ${text.slice(0, 300)}`);
        return;
      }
      const m = parsed.message;
      this.received.push(m);
      this.onMessage?.(m);
      for (const w of [...this.waiters]) {
        if (w.pred(m)) {
          clearTimeout(w.timer);
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(m);
        }
      }
    });
    ws.on('close', () => {
      for (const w of this.waiters) {
        clearTimeout(w.timer);
        w.reject(new Error('connection closed'));
      }
      this.waiters = [];
    });
  }

  /** Connects over TLS, refusing any server whose public key does not match `pin` (`sha256/<base64>`). */
  static connect(url: string, pin: string, options: ClientOptions = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        rejectUnauthorized: false, // self-signed: trust comes from the pinned key below
        maxPayload: 4 * 1024 * 1024,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        headers: options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {},
      });
      ws.once('upgrade', (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate(true);
        const spki = new X509Certificate(cert.raw).publicKey.export({ type: 'spki', format: 'der' });
        const got = `sha256/${createHash('sha256').update(spki).digest('base64')}`;
        if (got !== pin) {
          ws.terminate();
          reject(new Error(`pin mismatch: ${got}`));
        }
      });
      ws.once('open', () => resolve(new TestClient(ws)));
      ws.once('error', reject);
    });
  }

  /** Connects, says hello and authenticates as a new guest. */
  static async guest(url: string, pin: string, options: ClientOptions = {}): Promise<TestClient> {
    const c = await TestClient.connect(url, pin, options);
    await c.hello();
    await c.request({ type: 'guest' });
    return c;
  }

  sendRaw(frame: string | Buffer): void {
    this.ws.send(frame);
  }

  send(m: ClientMessage): void {
    this.ws.send(JSON.stringify(m));
  }

  async hello(client = '0.1.0'): Promise<ServerMessage> {
    const w = this.waitFor((m) => m.type === 'welcome' || m.type === 'error');
    this.send({ type: 'hello', protocol: PROTOCOL_VERSION, client });
    return w;
  }

  /** Sends a request with a fresh rid and resolves with the answer carrying it (`error` included). */
  request(m: Request, timeoutMs = 10_000): Promise<ServerMessage> {
    const rid = this.nextRid++;
    const w = this.waitFor((x) => 'rid' in x && x.rid === rid, timeoutMs);
    this.send({ ...m, rid });
    return w;
  }

  /**
   * Joins a table as a client does (R-INFO): reads the lobby (the table's rules and the
   * conditions of play), then sends `table.join` with the version of what it read.
   */
  async join(tableId: string, buyIn: number, options: { waitForBigBlind?: boolean; rulesVersion?: string } = {}): Promise<ServerMessage> {
    let version = options.rulesVersion;
    if (version === undefined) {
      const lobby = await this.request({ type: 'lobby.subscribe' });
      await this.request({ type: 'lobby.unsubscribe' });
      if (lobby.type !== 'lobby') throw new Error(`no lobby: ${JSON.stringify(lobby)}`);
      const table = lobby.tables.find((t) => t.tableId === tableId);
      // An unknown table: any well-formed version, for the operator to refuse the table itself.
      version = table ? rulesVersion(table, lobby.conditions.version) : '0'.repeat(14);
    }
    return this.request({ type: 'table.join', tableId, buyIn, waitForBigBlind: options.waitForBigBlind ?? false, rulesVersion: version });
  }

  /** The next message matching `pred`; with `past`, also one already received. */
  waitFor(pred: (m: ServerMessage) => boolean, timeoutMs = 10_000, past = false): Promise<ServerMessage> {
    if (past) {
      const seen = this.received.find(pred);
      if (seen) return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x.timer !== timer);
        // What came last says where it stopped (a stall met once in CI under load).
        const last = this.received.slice(-8).map((m) => describeMessage(m));
        reject(new Error(`timed out waiting for a message after ${timeoutMs} ms; ${this.received.length} received, the last: ${last.join(' | ')}`));
      }, timeoutMs);
      this.waiters.push({ pred, resolve, reject, timer });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  /** Drops the connection without a closing handshake (a network failure). */
  cut(): void {
    this.ws.terminate();
  }
}

/**
 * A player over the wire for tests and benchmarks: it keeps each table's hand as its own seat sees
 * it, by applying the events to the snapshot's state with the rules engine (the client's way, DESIGN.md
 * §1), checks that every table stream arrives without gaps, and on its turn sends a random legal move.
 */
export class AutoPlayer {
  /** Per table: the last frame number, own seat, the hand as this seat sees it, whose turn the operator announced. */
  readonly tables = new Map<string, { seq: number; seat: number | null; hand: HandState | null; busy: boolean; turn: number | null; hands: number; actedIn: number }>();
  readonly problems: string[] = [];
  handsEnded = 0;
  private actions = 0;
  /** Action ids are unique per table for this player, across connections (a repeat would be deduplicated). */
  private readonly idPrefix = Math.random().toString(36).slice(2, 10);
  /** Called for every table event received (after it is applied). */
  onEvent: ((tableId: string, e: TableEvent, seq: number) => void) | null = null;
  /** Pause acting (a player away from the keyboard). */
  paused = false;
  /** Milliseconds from each action sent to the next frame of that table received (benchmarks). */
  readonly latencies: number[] = [];
  private sentAt = new Map<string, number>();
  /** When its stack reaches 0 between hands, buy this many chips back and sit in (0: never). */
  rebuy = 0;
  private rebuying = new Set<string>();

  constructor(
    readonly client: TestClient,
    private readonly rng: () => number,
  ) {
    client.onMessage = (m) => this.receive(m);
  }

  private receive(m: ServerMessage): void {
    if (m.type === 'table.snapshot') {
      const t = { seq: m.seq, seat: m.table.you?.seat ?? null, hand: m.table.hand ? handOf(m.table.hand) : null, busy: false, turn: m.table.turn?.seat ?? null, hands: 0, actedIn: -1 };
      this.tables.set(m.tableId, t);
      this.maybeAct(m.tableId);
      return;
    }
    if (m.type === 'table.left') {
      this.tables.delete(m.tableId);
      return;
    }
    if (m.type === 'table.actionResult') return this.answered(m);
    if (m.type !== 'table.event') return;
    const t = this.tables.get(m.tableId);
    if (!t) return; // events of a seat just taken, before its snapshot
    const sent = this.sentAt.get(m.tableId);
    if (sent !== undefined) {
      this.latencies.push(performance.now() - sent);
      this.sentAt.delete(m.tableId);
    }
    if (m.seq !== t.seq + 1) this.problems.push(`${m.tableId}: event ${m.seq} after ${t.seq}`);
    t.seq = m.seq;
    const e = m.event;
    switch (e.type) {
      case 'handStart':
        t.hand = handOf(e.hand);
        t.hands++;
        t.turn = null;
        break;
      case 'turn':
        t.turn = e.turn.seat;
        break;
      case 'action': {
        t.turn = null;
        if (!t.hand) {
          this.problems.push(`${m.tableId}: an action without a hand`);
          break;
        }
        const r = apply(t.hand, e.action);
        if (!r.ok) this.problems.push(`${m.tableId}: the client's engine refused ${JSON.stringify(e.action)}: ${r.rule} ${r.message}`);
        else t.hand = r.state;
        break;
      }
      case 'handEnd':
      case 'handCancelled':
        t.hand = null;
        this.handsEnded++;
        break;
      case 'you':
        t.seat = e.you?.seat ?? null;
        break;
      case 'seat':
        if (e.seat === t.seat && e.player.stack === 0 && this.rebuy > 0 && !this.rebuying.has(m.tableId)) {
          this.rebuying.add(m.tableId);
          const tableId = m.tableId;
          void this.client
            .request({ type: 'table.topUp', tableId, amount: this.rebuy })
            .then(() => this.client.request({ type: 'table.sitIn', tableId, waitForBigBlind: false }))
            .catch(() => undefined)
            .finally(() => this.rebuying.delete(tableId));
        }
        break;
    }
    this.onEvent?.(m.tableId, e, m.seq);
    this.maybeAct(m.tableId);
  }

  /** Our move's answer: a refusal is a problem unless a race of the test's random player explains it. */
  private answered(m: ServerMessageOf<'table.actionResult'>): void {
    const t = this.tables.get(m.tableId);
    if (t) t.busy = false;
    // A move that crossed our leaving (sent before `table.left` reached us, read after it) is refused
    // NOT_SEATED: a race of the test's random player, not a fault (met under load in a full run).
    const crossedLeave = !t && m.code === 'NOT_SEATED';
    // A move that crossed its hand's end (the clock acted for us, the hand ended, and only then did
    // our move arrive) is refused NO_HAND: that end was read before this answer, the same race as
    // NOT_YOUR_TURN on a loaded machine with the clock sped up.
    const crossedEnd = t !== undefined && m.code === 'NO_HAND' && (t.hand === null || t.hands !== t.actedIn);
    if (!m.ok && m.code !== 'NOT_YOUR_TURN' && !crossedLeave && !crossedEnd) this.problems.push(`${m.tableId}: action refused: ${m.code} ${m.rule ?? ''} ${m.message ?? ''}`);
    this.maybeAct(m.tableId);
  }

  private maybeAct(tableId: string): void {
    const t = this.tables.get(tableId);
    // Act when the operator says it is this seat's turn (a choice without options, such as an all-in
    // showdown, is made by the operator without a turn).
    if (!t || !t.hand || t.busy || t.seat === null || this.paused || t.turn !== t.seat) return;
    const legal = legalActions(t.hand);
    if (legal.seat !== t.seat || legal.next === 'deal' || legal.next === 'done') return;
    t.busy = true;
    t.actedIn = t.hands;
    this.sentAt.set(tableId, performance.now());
    this.client.send({ type: 'table.action', rid: 0, tableId, actionId: `${this.idPrefix}-${++this.actions}`, move: this.choose(t.hand, legal) });
  }

  /** Acts again where it is this player's turn (after a pause). */
  resume(): void {
    this.paused = false;
    for (const id of this.tables.keys()) this.maybeAct(id);
  }

  private choose(hand: HandState, legal: LegalActions): Move {
    const r = this.rng;
    if (legal.next === 'show') return legal.muck && r() < 0.3 ? { type: 'muck' } : { type: 'show' };
    if (legal.next === 'draw') {
      const hole = (hand.seats[legal.seat!].hole as number[]).slice();
      const k = Math.floor(r() * ((legal.draw?.max ?? 0) + 1));
      const discards: number[] = [];
      for (let i = 0; i < k; i++) discards.push(hole.splice(Math.floor(r() * hole.length), 1)[0]);
      return { type: 'draw', discards };
    }
    const x = r();
    if (legal.bringIn !== null) return legal.bet && x < 0.3 ? { type: 'bet', to: legal.bet.min } : { type: 'bringIn' };
    if (legal.bet && x < 0.2) {
      const b = legal.bet;
      const y = r();
      const to = b.exact ? (y < 0.5 ? b.min : b.max) : y < 0.5 ? b.min : y < 0.6 ? b.max : b.min + Math.floor(r() * (b.max - b.min + 1));
      return { type: 'bet', to };
    }
    if (legal.fold && x < 0.35) return { type: 'fold' };
    if (legal.call !== null) return { type: 'call' };
    if (legal.check) return { type: 'check' };
    return { type: 'fold' };
  }
}

/** A message in a few words: its type, table and event (for a timeout's report). */
function describeMessage(m: ServerMessage): string {
  const r = m as { type: string; tableId?: string; event?: { type: string }; tournamentId?: string };
  return [r.type, r.tableId ?? r.tournamentId, r.event?.type].filter((x) => x !== undefined).join(' ');
}
