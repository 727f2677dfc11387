import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Accounts } from '../../../operator/accounts';
import { PracticeHost } from '../../../operator/practice/host';
import { openOperatorDatabase } from '../../../operator/schema';
import { cashTableHooks } from '../../../operator/tables/cash';
import { SeatLedger } from '../../../operator/tables/seats';
import { Table } from '../../../operator/tables/table';
import { ManualTimers } from '../../../operator/tables/timers';
import type { TablePlayer, TableSpec } from '../../../operator/tables/types';
import { tempDir } from '../../../tests/support/operator/temp-dir';
import { TraceVault } from '../../../operator/trace/vault';
import { Wallet } from '../../../operator/wallet';
import type { HistoryHand, Move, TableEvent, TableView } from '../../../shared/protocol/messages';
import { parseServerMessage } from '../../../shared/protocol/parse';
import { legalActions, type HandState } from '../../../shared/rules/engine';
import { makeTableRules, type TableRules } from '../../../shared/rules/tableRules';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../../shared/rules/variants';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { TableModel, type HandSink } from './table';

// The frames come from the real operator: a `Table` of operator/tables with
// practice players around our seat, its frames to our account read through the wire's parser.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function rulesFor(v: VariantCode): TableRules {
  const limit = VARIANTS[v].betting === 'limit';
  if (VARIANTS[v].forcedBets === 'ante-bring-in') return makeTableRules(v, { ante: 10, bringIn: 20, smallBet: 40 });
  return makeTableRules(v, limit ? { smallBlind: 20, bigBlind: 40 } : { smallBlind: 50, bigBlind: 100 });
}

type Snapshot = { type: 'snapshot'; seq: number; table: TableView };
type EventFrame = { type: 'event'; seq: number; event: TableEvent };
type Frame = Snapshot | EventFrame;

/** An operator table (practice players in every other seat but `others` of them) and our seat at it. */
function operatorTable(v: VariantCode, others: number) {
  const t = tempDir('cercle-link-table-');
  const db = openOperatorDatabase(join(t.dir, 'operator.sqlite'), { synchronous: 'NORMAL' });
  const vault = TraceVault.open({ path: join(t.dir, 'trace.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
  cleanups.push(() => {
    vault.close();
    db.close();
    t.cleanup();
  });
  const wallet = new Wallet(db);
  const accounts = new Accounts(db);
  const timers = new ManualTimers();
  const errors: unknown[] = [];
  const rules = rulesFor(v);
  const spec: TableSpec = { tableId: 't1', name: 'T1', money: 'play', practice: true, seats: Math.min(6, VARIANTS[v].maxSeats), buyIn: { min: 2000, max: 10_000 }, mode: 'cash', rules };
  const hooks = cashTableHooks(spec, { wallet, seats: new SeatLedger(db), vault, error: (x) => errors.push(x), log: () => undefined });
  const table = new Table(spec, hooks, { timers, idOper: '0099', betweenHandsMs: 0, practiceDelayMs: [0, 0] });
  const host = new PracticeHost({ accounts, wallet, timers, brain: { samples: 4 } });
  hooks.afterHand = () => host.tend(table);
  const g = accounts.createGuest({ ip: '203.0.113.9' });
  if (!g.ok) throw new Error('guest');
  wallet.grantPlay(g.account.id, 100_000, { idempotencyKey: 'hero' });
  const hero: TablePlayer = { accountId: g.account.id, name: g.account.username, practice: false, ip: '203.0.113.9', sessionId: g.session.sessionId };
  /** Every frame sent to our account, as the link's parser reads it. */
  const frames: EventFrame[] = [];
  let onFrame: (f: EventFrame) => void = () => undefined;
  const attach = () =>
    table.attach(hero.accountId, (text) => {
      const parsed = parseServerMessage(text);
      if (!parsed.ok) throw new Error(`the operator sent a frame the wire refuses: ${parsed.message}`);
      const m = parsed.message;
      if (m.type !== 'table.event') return;
      const f: EventFrame = { type: 'event', seq: m.seq, event: m.event };
      frames.push(f);
      onFrame(f);
    });
  const snapshot = (): Snapshot => {
    // Through the wire's parser too, as the link gets it.
    const s = table.snapshot(hero.accountId);
    const parsed = parseServerMessage(JSON.stringify({ type: 'table.snapshot', rid: null, tableId: 't1', seq: s.seq, table: s.table }));
    if (!parsed.ok || parsed.message.type !== 'table.snapshot') throw new Error(`the operator's snapshot is refused: ${parsed.ok ? '' : parsed.message}`);
    return { type: 'snapshot', seq: parsed.message.seq, table: parsed.message.table };
  };
  return { table, timers, host, hero, frames, errors, others, attach, snapshot, listen: (f: (x: EventFrame) => void) => (onFrame = f) };
}

/** Our move from the model's own engine state: check or call small, else fold; show, stand pat. */
function ourMove(hand: HandState, seat: number): Move | null {
  const legal = legalActions(hand);
  if (legal.seat !== seat || legal.next === 'deal' || legal.next === 'done') return null;
  if (legal.next === 'show') return legal.muck ? { type: 'muck' } : { type: 'show' };
  if (legal.next === 'draw') return { type: 'draw', discards: [] };
  if (legal.bringIn !== null) return { type: 'bringIn' };
  if (legal.check) return { type: 'check' };
  return legal.call !== null && legal.call <= 100 ? { type: 'call' } : { type: 'fold' };
}

function sink() {
  const calls: string[] = [];
  const stored = new Set<string>();
  const s: HandSink = {
    handEnded: (meta, record) => {
      calls.push(`hand ${record.handId} seat ${meta.heroSeat}`);
      if (stored.has(record.handId!)) return { stored: false, duplicate: true };
      stored.add(record.handId!);
      return { stored: true, duplicate: false };
    },
    buyIn: (_t, money, amount) => (calls.push(`buyIn ${money} ${amount}`), { ok: true }),
    topUp: (_t, amount) => (calls.push(`topUp ${amount}`), { ok: true }),
    cashOut: (_t, amount) => (calls.push(`cashOut ${amount}`), { ok: true }),
    chipsNow: () => ({ ok: true }),
  };
  return { sink: s, calls };
}

function model(s: HandSink | null) {
  const asked: string[] = [];
  const m = new TableModel('t1', { sink: s, now: () => 1_700_000_000_000, requestSnapshot: (id) => asked.push(id), log: () => undefined });
  return { m, asked };
}

function feed(m: TableModel, f: Frame): string {
  if (f.type === 'event') return m.receive(f.seq, f.event);
  m.applySnapshot(f.seq, f.table);
  return 'applied';
}

/** Plays `hands` hands at a real operator table, our seat decided from the model's state; returns the frames. */
function play(v: VariantCode, hands: number, m: TableModel) {
  const op = operatorTable(v, Math.min(6, VARIANTS[v].maxSeats) - 1);
  const joined = op.table.join(op.hero, 2000, { waitForBigBlind: false });
  if (!joined.ok) throw new Error(`join: ${joined.code}`);
  m.joined(joined.stack);
  const first = op.snapshot();
  m.applySnapshot(first.seq, first.table);
  const results: string[] = [];
  let acted = 0;
  op.listen((f) => {
    results.push(m.receive(f.seq, f.event));
    const e = f.event;
    if (e.type === 'turn' && e.turn.seat === m.heroSeat && m.hand) {
      const move = ourMove(m.hand, m.heroSeat);
      if (move && op.table.act(op.hero.accountId, `a${++acted}`, move).ok) return;
    }
  });
  op.attach();
  op.host.manage(op.table, op.others);
  for (let i = 0; op.table.handsPlayed < hands; i++) {
    if (i > 200_000) throw new Error('the table did not play');
    op.timers.runDue(1);
  }
  return { op, first, results, acted };
}

describe('the table model, on frames from the real operator table', () => {
  it.each(VARIANT_CODES)('%s: follows the hands with the engine, and hands each finished hand over once', (v) => {
    const { sink: s, calls } = sink();
    const { m, asked } = model(s);
    const { op, first, results, acted } = play(v, 3, m);
    expect(op.errors).toEqual([]);
    expect(new Set(results)).toEqual(new Set(['applied']));
    expect(m.problems).toEqual([]);
    expect(asked).toEqual([]);
    expect(acted).toBeGreaterThan(0);
    const handed = calls.filter((c) => c.startsWith('hand'));
    expect(handed.length).toBeGreaterThanOrEqual(2);
    expect(new Set(handed).size).toBe(handed.length);
    expect(calls[0]).toBe('buyIn play 2000');
    // The same frames again (a replay after a reconnection): nothing applied, nothing stored twice.
    for (const f of op.frames) expect(feed(m, f)).toBe('duplicate');
    // The first snapshot again, then the whole stream: still once each (the stacks it states are old:
    // the model says so, which is not checked here).
    feed(m, first);
    for (const f of op.frames) feed(m, f);
    expect(calls.filter((c) => c.startsWith('hand'))).toEqual(handed);
  });

  it('a gap in the stream drops it and asks for a snapshot; an action the engine refuses does too', () => {
    const { m } = model(null);
    const { op } = play('THNL', 1, m);
    const start = op.frames.findIndex((f) => f.event.type === 'handStart');
    // The first decision of a player in the hand (practice players decide at random: any kind).
    const action = op.frames.findIndex((f, i) => i > start && f.event.type === 'action' && f.event.action.type !== 'deal' && f.event.action.type !== 'reshuffle');
    const handStart = op.frames[start].event as Extract<TableEvent, { type: 'handStart' }>;
    const call = (op.frames[action].event as Extract<TableEvent, { type: 'action' }>).action as { seat: number };
    const { m: fresh, asked } = model(null);
    // A snapshot as of the frame before the hand starts (the table between hands), then the stream.
    fresh.applySnapshot(op.frames[start].seq - 1, { ...op.snapshot().table, hand: null, turn: null });
    expect(feed(fresh, op.frames[start])).toBe('applied');
    expect(feed(fresh, op.frames[start + 2])).toBe('gap');
    expect(asked).toEqual(['t1']);
    expect(fresh.status).toBe('syncing');
    expect(feed(fresh, op.frames[start + 3])).toBe('dropped');
    // Back in step, up to that decision; then the decision forged into a bet the engine refuses.
    fresh.applySnapshot(op.frames[start].seq, { ...op.snapshot().table, hand: handStart.hand, handNo: handStart.handNo, turn: null });
    for (let i = start + 1; i < action; i++) expect(feed(fresh, op.frames[i])).toBe('applied');
    expect(fresh.receive(op.frames[action].seq, { type: 'action', action: { type: 'bet', seat: call.seat, to: 1 }, by: 'player' })).toBe('desync');
    expect(fresh.problems.join()).toMatch(/engine refused/);
    expect(asked).toEqual(['t1', 't1']);
  });

  it('a stack grown between hands is a top-up; leaving cashes out what is in front of us', () => {
    const op = operatorTable('THNL', 0);
    const { sink: s, calls } = sink();
    const { m } = model(s);
    const joined = op.table.join(op.hero, 2000, { waitForBigBlind: false });
    if (!joined.ok) throw new Error('join');
    m.joined(joined.stack);
    op.listen((f) => f.type === 'event' && m.receive(f.seq, f.event));
    op.attach();
    const snap = op.snapshot();
    m.applySnapshot(snap.seq, snap.table);
    expect(op.table.topUp(op.hero.accountId, 500)).toMatchObject({ ok: true, applied: true });
    const left = op.table.leave(op.hero.accountId);
    if (!left.ok) throw new Error('leave');
    m.gone(left.cashedOut);
    expect(calls).toEqual(['buyIn play 2000', 'topUp 500', 'cashOut 2500']);
    expect(m.problems).toEqual([]);
  });
});

describe('the end of a hand', () => {
  it('leaves each seat with the stack the record says, before any seat event (a player leaving with the hand gets none)', () => {
    const op = operatorTable('THNL', 5);
    const { m } = model(null);
    const joined = op.table.join(op.hero, 2000, { waitForBigBlind: false });
    if (!joined.ok) throw new Error('join');
    m.joined(joined.stack);
    const first = op.snapshot();
    m.applySnapshot(first.seq, first.table);
    // The frames up to the first hand's end, and none after it (the seat events that follow).
    let ended: TableEvent | null = null;
    let acted = 0;
    op.listen((f) => {
      if (ended) return;
      m.receive(f.seq, f.event);
      if (f.event.type === 'handEnd') ended = f.event;
      const hand = m.hand;
      if (f.event.type === 'turn' && f.event.turn.seat === m.heroSeat && hand) {
        const move = ourMove(hand, m.heroSeat);
        if (move) op.table.act(op.hero.accountId, `x${++acted}`, move);
      }
    });
    op.attach();
    op.host.manage(op.table, op.others);
    for (let i = 0; ended === null; i++) {
      if (i > 200_000) throw new Error('no hand ended');
      op.timers.runDue(1);
    }
    const record = (ended as TableEvent & { type: 'handEnd' }).record;
    // Blinds at least moved chips: the stacks after differ from those before.
    expect(record.seats.some((r) => r.stackAfter !== r.stackBefore)).toBe(true);
    for (const r of record.seats) expect(m.view!.seats[r.seat]?.stack, `seat ${r.seat}`).toBe(r.stackAfter);
  });
});

describe('hands missed while the stream was lost (backfill)', () => {
  it('a top-up applied while we were away is counted once, found between two missed hands', () => {
    // Our seat at a real operator table. A shadow model follows every frame to decide our moves; the
    // model under test loses the stream for a few hands, during which a top-up asked in a hand is
    // applied when it ends. Back, it gets a snapshot and the missed hands from history (as the link
    // fetches them): the chips added between two of them are a top-up (R-TRACKER), not lost.
    const op = operatorTable('THNL', 5);
    const { sink: s, calls } = sink();
    const { m } = model(s);
    const { m: shadow } = model(null);
    const joined = op.table.join(op.hero, 2000, { waitForBigBlind: false });
    if (!joined.ok) throw new Error('join');
    m.joined(joined.stack);
    const first = op.snapshot();
    m.applySnapshot(first.seq, first.table);
    shadow.applySnapshot(first.seq, first.table);
    let away = false;
    let acted = 0;
    const missed: HistoryHand[] = [];
    op.listen((f) => {
      shadow.receive(f.seq, f.event);
      if (!away) m.receive(f.seq, f.event);
      else if (f.event.type === 'handEnd') missed.unshift({ handId: f.event.record.handId!, tableId: 't1', endedAt: 1_700_000_000_000 + missed.length, record: f.event.record, tournament: null });
      const e = f.event;
      if (e.type === 'turn' && e.turn.seat === shadow.heroSeat && shadow.hand) {
        const move = ourMove(shadow.hand, shadow.heroSeat);
        if (move) op.table.act(op.hero.accountId, `a${++acted}`, move);
      }
    });
    op.attach();
    op.host.manage(op.table, op.others);
    const playUntil = (done: () => boolean) => {
      for (let i = 0; !done(); i++) {
        if (i > 400_000) throw new Error('the table did not play');
        op.timers.runDue(1);
      }
    };
    playUntil(() => op.table.handsPlayed >= 2 && op.table.handInProgress);
    away = true;
    // Asked during a hand: applied when it ends (between two of the hands we miss).
    expect(op.table.topUp(op.hero.accountId, 500)).toMatchObject({ ok: true, applied: false });
    const at = op.table.handsPlayed;
    playUntil(() => op.table.handsPlayed >= at + 3 && !op.table.handInProgress);
    expect(missed.length).toBeGreaterThanOrEqual(3);
    away = false;
    const back = op.snapshot();
    expect(m.applySnapshot(back.seq, back.table)).toEqual({ missedHands: true });
    expect(m.backfill(missed, op.hero.name)).toBe(missed.length);
    m.release();
    const left = op.table.leave(op.hero.accountId);
    if (!left.ok) throw new Error('leave');
    m.gone(left.cashedOut);
    expect(calls.filter((c) => c.startsWith('topUp'))).toEqual(['topUp 500']);
    expect(m.problems).toEqual([]);
  });
});

describe('a tournament table', () => {
  it('stores each hand with the tournament and the level it started at, moves no chips in the tracker, and ends without a cash-out', () => {
    const op = operatorTable('THNL', 2);
    const calls: string[] = [];
    const levels: (number | null)[] = [];
    const s: HandSink = {
      handEnded: (meta) => {
        levels.push(meta.tournament?.level ?? null);
        expect(meta.tournament?.tournamentId).toBe('T-1');
        return { stored: true, duplicate: false };
      },
      buyIn: () => (calls.push('buyIn'), { ok: true }),
      topUp: () => (calls.push('topUp'), { ok: true }),
      cashOut: () => (calls.push('cashOut'), { ok: true }),
      chipsNow: () => (calls.push('chipsNow'), { ok: true }),
    };
    const { m } = model(null);
    // The clock's level as the client core knows it: it moves on after each hand, during the next
    // hand's deal too (a standing can come mid-hand): the hand keeps the level it started at (T 6-1).
    let level = 0;
    m.feed(s, (id) => (id === 'T-1' ? level : null));
    const joined = op.table.join(op.hero, 2000, { waitForBigBlind: false });
    if (!joined.ok) throw new Error('join');
    const snap = op.snapshot();
    // The operator's table is a cash table here: its view named as a tournament's, as protocol 4 sends it.
    m.applySnapshot(snap.seq, { ...snap.table, tournament: { tournamentId: 'T-1' } });
    expect(m.tournamentId).toBe('T-1');
    op.listen((f) => {
      m.receive(f.seq, f.event);
      if (f.event.type === 'handStart' || f.event.type === 'handEnd') level++;
      if (f.event.type === 'turn' && f.event.turn.seat === m.heroSeat && m.hand) {
        const move = ourMove(m.hand, m.heroSeat);
        if (move) op.table.act(op.hero.accountId, `a${f.seq}`, move);
      }
    });
    op.attach();
    op.host.manage(op.table, op.others);
    for (let i = 0; op.table.handsPlayed < 3; i++) {
      if (i > 200_000) throw new Error('the table did not play');
      op.timers.runDue(1);
    }
    expect(m.problems).toEqual([]);
    // Hand n started at level 2(n−1): the level moved during the hand and after it, not counted.
    expect(levels.length).toBeGreaterThanOrEqual(3);
    expect(levels).toEqual(levels.map((_, i) => 2 * i));
    let gone: unknown = undefined;
    m.onChange((c) => c.type === 'gone' && (gone = c.cashedOut));
    m.gone(1500);
    expect(gone).toBeNull();
    // Tournament chips are not money: nothing bought, in play or cashed out (R-TRACKER).
    expect(calls).toEqual([]);
  });
});

describe('reconnection delays', () => {
  it('grow exponentially up to the maximum, with jitter taking off at most its fraction', () => {
    const o = { ...DEFAULT_BACKOFF, initialMs: 100, maxMs: 1_000, jitter: 0.5 };
    expect([1, 2, 3, 4, 5, 10].map((n) => backoffDelay(n, o, () => 0))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, o, () => 0.999_999)).toBe(200);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(4, o);
      expect(d).toBeGreaterThanOrEqual(400);
      expect(d).toBeLessThanOrEqual(800);
    }
  });
});
