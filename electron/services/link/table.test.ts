import { describe, expect, it } from 'vitest';
import type { TableEvent, TableView } from '../../../shared/protocol/messages';
import { randomConfig } from '../../../shared/history/test-support';
import type { Card } from '../../../shared/rules/cards';
import { actionFor, apply, legalActions, startHand, viewFor, type HandConfig } from '../../../shared/rules/engine';
import { Dealer, dealerAction, prng, randomPlayerAction } from '../../../shared/rules/engine/test-support';
import { recordOf } from '../../../shared/rules/record';
import { VARIANT_CODES } from '../../../shared/rules/variants';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { TableModel, type HandSink } from './table';

const HERO = 1;

/** The frames the operator sends our seat for one random hand (table.ts: `viewFor`, `actionFor`, shown cards). */
function handFrames(config: HandConfig, seed: number, handNo: number): TableEvent[] {
  const rng = prng(seed);
  const dealer = new Dealer(rng);
  let s = startHand(config);
  const events: TableEvent[] = [{ type: 'handStart', handNo, hand: viewFor(s, HERO) }];
  for (let steps = 0; legalActions(s).next !== 'done'; steps++) {
    if (steps > 10_000) throw new Error('the hand did not end');
    const legal = legalActions(s);
    const a = legal.next === 'deal' ? dealerAction(s, legal, dealer, rng, true) : randomPlayerAction(s, legal, rng);
    const r = apply(s, a);
    if (!r.ok) throw new Error(`refused ${JSON.stringify(a)}: ${r.rule}`);
    let seen = actionFor(s, a, HERO);
    // As the operator does: shown cards from our view of the state after.
    if (seen.type === 'show') seen = { ...seen, cards: viewFor(r.state, HERO).seats[seen.seat].hole as Card[] };
    events.push({ type: 'action', action: seen, by: 'player' });
    s = r.state;
  }
  events.push({ type: 'handEnd', handNo, record: recordOf(viewFor(s, HERO)) });
  return events;
}

function tableView(config: HandConfig): TableView {
  return {
    tableId: 't1',
    name: 'T1',
    money: 'play',
    practice: true,
    rules: config.rules,
    buyIn: { min: 1, max: 1_000_000 },
    seats: config.seats.map((s) => (s === null ? null : { name: s.player, practice: false, stack: s.stack, status: 'active' as const, connected: true })),
    handNo: 0,
    hand: null,
    turn: null,
    you: { seat: HERO, waitForBigBlind: false, leaving: false, pendingTopUp: 0, timeBankMs: 0 },
  };
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

describe('the table model', () => {
  it('follows a hand of every variant with the engine, and hands each finished hand over once', () => {
    let followed = 0;
    for (const [i, code] of VARIANT_CODES.entries()) {
      const rng = prng(40 + i);
      const config = { ...randomConfig(code, rng, { maxSeats: 4 }), handId: `t1-run-${i}` };
      if (config.seats[HERO] === null || !config.plan.dealtIn.includes(HERO)) continue;
      const frames = handFrames(config, 90 + i, 1);
      const { sink: s, calls } = sink();
      const { m, asked } = model(s);
      m.joined(config.seats[HERO]!.stack);
      m.applySnapshot(10, tableView(config));
      frames.forEach((e, k) => expect(m.receive(11 + k, e)).toBe('applied'));
      // The same frames again (a replay after a reconnection): nothing applied, nothing stored twice.
      frames.forEach((e, k) => expect(m.receive(11 + k, e)).toBe('duplicate'));
      expect(m.problems).toEqual([]);
      expect(asked).toEqual([]);
      expect(calls.filter((c) => c.startsWith('hand'))).toEqual([`hand t1-run-${i} seat ${HERO}`]);
      // A snapshot taken before the end, then the end again: still once.
      m.applySnapshot(10, tableView(config));
      frames.forEach((e, k) => m.receive(11 + k, e));
      expect(calls.filter((c) => c.startsWith('hand'))).toHaveLength(1);
      expect(calls[0]).toBe(`buyIn play ${config.seats[HERO]!.stack}`);
      followed++;
    }
    expect(followed).toBeGreaterThanOrEqual(6);
  });

  it('a gap in the stream drops it and asks for a snapshot; an action the engine refuses does too', () => {
    const config = { ...randomConfig('THNL', prng(3), { maxSeats: 3 }), handId: 't1-x-1' };
    const frames = handFrames(config, 5, 1);
    const { m, asked } = model(null);
    m.applySnapshot(4, tableView(config));
    expect(m.receive(5, frames[0])).toBe('applied');
    expect(m.receive(7, frames[1])).toBe('gap');
    expect(asked).toEqual(['t1']);
    expect(m.status).toBe('syncing');
    expect(m.receive(8, frames[2])).toBe('dropped');
    m.applySnapshot(5, { ...tableView(config), hand: (frames[0] as { hand: TableView['hand'] }).hand, handNo: 1 });
    expect(m.receive(6, { type: 'action', action: { type: 'bet', seat: 0, to: 1 }, by: 'player' })).toBe('desync');
    expect(m.problems.join()).toMatch(/engine refused/);
    expect(asked).toEqual(['t1', 't1']);
  });

  it('a stack grown between hands is a top-up; leaving cashes out what is in front of us', () => {
    const config = { ...randomConfig('THNL', prng(8), { maxSeats: 3 }), handId: 't1-y-1' };
    const { sink: s, calls } = sink();
    const { m } = model(s);
    m.joined(1000);
    const view = tableView(config);
    view.seats[HERO] = { ...view.seats[HERO]!, stack: 1000 };
    m.applySnapshot(1, view);
    m.receive(2, { type: 'seat', seat: HERO, player: { ...view.seats[HERO]!, stack: 1500 } });
    m.gone(1500);
    expect(calls).toEqual(['buyIn play 1000', 'topUp 500', 'cashOut 1500']);
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
