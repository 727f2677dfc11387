import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { playRecord, prng, randInt, randomConfig } from '../../../shared/history/test-support';
import type { HandConfig } from '../../../shared/rules/engine';
import { makeTableRules } from '../../../shared/rules/tableRules';
import type { VariantCode } from '../../../shared/rules/variants';
import { HistoryStore, stakesOf, type MoneyKind } from './store';
import { Tracker } from './tracker';

const HOUR = 3_600_000;
const DAY = 86_400_000;
// 2025-06-10 21:30 UTC: 23:30 in Paris (UTC+2 in summer), so local midnight is half an hour away.
const START = Date.UTC(2025, 5, 10, 21, 30);
const PARIS = (): number => 120;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cercle-tracker-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** One seat at one table, hand after hand, the hero's stack carried over (a real session). */
class Table {
  stacks: number[];
  n = 0;
  constructor(
    readonly id: string,
    readonly code: VariantCode,
    readonly money: MoneyKind,
    readonly heroSeat: number,
    heroBuyIn: number,
  ) {
    this.stacks = [heroBuyIn, 3000, 2500, 4000];
  }
  play(rng: () => number): { config: HandConfig; hero: number } {
    const stud = this.code.startsWith('7');
    const rules = makeTableRules(this.code, stud ? { ante: 5, bringIn: 10, smallBet: 20 } : { smallBlind: 10, bigBlind: 20 }, {
      rake: { basisPoints: 500, cap: 30, noFlopNoDrop: true },
    });
    const base = randomConfig(this.code, rng, { rules, maxSeats: 4 });
    const seats = this.stacks.map((stack, i) => ({ player: i === this.heroSeat ? 'me' : `opp${i}`, stack: Math.max(stack, 1) })); // the hero never plays at 0 (rebuy)
    const dealtIn = [0, 1, 2, 3];
    const plan = stud
      ? { ...base.plan, button: null, smallBlind: null, bigBlind: null, extraBigBlinds: [], deadSmallBlinds: [], dealtIn }
      : { button: 3, smallBlind: 0, bigBlind: 1, extraBigBlinds: [], deadSmallBlinds: [], dealtIn };
    return { config: { rules, seats, plan, handId: `${this.id}-r-${++this.n}` }, hero: this.heroSeat };
  }
}

describe('the running win/loss (R-TRACKER)', () => {
  it('this session: hands as they end plus chips in play, equal to the stored hands and to the money moved', () => {
    let now = START;
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => now, utcOffsetMinutes: PARIS });
    const tracker = new Tracker(store, { now: () => now });
    let changes = 0;
    tracker.onChange(() => changes++);
    const rng = prng(31);
    const tables = [new Table('t-nl', 'THNL', 'real', 2, 2000), new Table('t-stud', '7SJL', 'real', 0, 1000), new Table('t-play', 'O4HPL', 'play', 1, 5000)];
    for (const t of tables) expect(tracker.buyIn(t.id, t.money, t.stacks[t.heroSeat])).toEqual({ ok: true });
    expect(tracker.buyIn('t-nl', 'real', 5)).toMatchObject({ ok: false });
    const stored: { money: MoneyKind; net: number; rake: number; variant: VariantCode; stakes: number }[] = [];
    for (let h = 0; h < 120; h++) {
      const t = tables[h % tables.length];
      const { config, hero } = t.play(rng);
      const record = playRecord(config, rng, hero);
      // Mid-hand, the chips in front of the player move before the hand's result is known.
      const me = record.seats.find((s) => s.seat === hero)!;
      tracker.chipsNow(t.id, me.stackBefore - me.committed);
      const live = tracker.session()[t.money];
      expect(live.inPlay + me.committed).toBe(0);
      now += 40_000;
      const r = tracker.handEnded({ playedAt: now, tableId: t.id, money: t.money, heroSeat: hero }, record);
      expect(r).toEqual({ stored: true, duplicate: false });
      // A hand sent again after a reconnect counts once.
      expect(tracker.handEnded({ playedAt: now, tableId: t.id, money: t.money, heroSeat: hero }, record)).toEqual({ stored: false, duplicate: true });
      stored.push({ money: t.money, net: me.net, rake: me.rake, variant: record.variant, stakes: stakesOf(record) });
      t.stacks = record.seats.map((s) => (s.seat !== hero && s.stackAfter === 0 ? 3000 : s.stackAfter));
      if (h === 60 || t.stacks[hero] === 0) {
        // A top-up, and a rebuy when the player has nothing left.
        expect(tracker.topUp(t.id, 700)).toEqual({ ok: true });
        t.stacks[hero] += 700;
      }
    }
    tracker.cashOut('t-stud', tables[1].stacks[0]);
    const s = tracker.session();
    for (const money of ['real', 'play'] as const) {
      const mine = stored.filter((x) => x.money === money);
      const net = mine.reduce((a, x) => a + x.net, 0);
      expect(s[money]).toMatchObject({ hands: mine.length, net, rake: mine.reduce((a, x) => a + x.rake, 0), inPlay: 0, result: net });
      // The same figure from the money's side: out + on the tables − in.
      expect(s[money].cashedOut + s[money].onTables - s[money].bought).toBe(net);
      const fromStore = store.results({ from: START, to: now + 1, money });
      expect(fromStore.ok && fromStore[money].net).toBe(net);
    }
    for (const g of s.groups) {
      const mine = stored.filter((x) => x.money === g.money && x.variant === g.variant && x.stakes === g.stakes);
      expect(g.hands).toBe(mine.length);
      expect(g.net).toBe(mine.reduce((a, x) => a + x.net, 0));
    }
    expect(changes).toBeGreaterThan(240);
    store.close();
  });

  it('today starts at local midnight; a chosen period is read by variant and stakes from the stored hands', () => {
    let now = START;
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => now, utcOffsetMinutes: PARIS });
    const tracker = new Tracker(store, { now: () => now });
    const rng = prng(32);
    const t = new Table('t', 'THL', 'real', 1, 3000);
    tracker.buyIn('t', 'real', 3000);
    const nets: { at: number; net: number }[] = [];
    for (let h = 0; h < 80; h++) {
      const { config, hero } = t.play(rng);
      const record = playRecord(config, rng, hero);
      now += randInt(rng, 90_000); // 80 hands over about an hour: before and after local midnight
      tracker.handEnded({ playedAt: now, tableId: 't', money: 'real', heroSeat: hero }, record);
      nets.push({ at: now, net: record.seats.find((s) => s.seat === hero)!.net });
      t.stacks = record.seats.map((s) => Math.max(s.stackAfter, 1));
    }
    const midnight = Date.UTC(2025, 5, 10, 22, 0); // 00:00 on 11 June in Paris
    expect(store.localDayStart(now)).toBe(midnight);
    expect(now).toBeGreaterThan(midnight);
    const today = tracker.today();
    if (!today.ok) throw new Error(today.reason);
    const after = nets.filter((x) => x.at >= midnight);
    expect(after.length).toBeGreaterThan(5);
    expect(after.length).toBeLessThan(nets.length);
    expect(today.real).toMatchObject({ hands: after.length, net: after.reduce((a, x) => a + x.net, 0) });
    const session = tracker.session();
    expect(session.real.hands).toBe(nets.length);

    const period = tracker.period(START, midnight + HOUR, 'stakes');
    if (!period.ok) throw new Error(period.reason);
    const before = nets.filter((x) => x.at < midnight + HOUR);
    expect(period.real.net).toBe(before.reduce((a, x) => a + x.net, 0));
    expect(period.groups).toEqual([{ money: 'real', variant: 'THL', stakes: 20, hands: before.length, net: period.real.net, rake: period.real.rake, entries: 0, prizes: 0 }]);
    const byDay = tracker.period(START - DAY, now + 1, 'day');
    expect(byDay.ok && byDay.groups.map((g) => [g.day, g.hands])).toEqual([
      ['2025-06-10', nets.length - after.length],
      ['2025-06-11', after.length],
    ]);
    expect(tracker.period(10, 5)).toMatchObject({ ok: false });
    store.close();
  });

  it('tournaments: entries and refunds, prizes and bounties in the result; their hands stored, never counted as money', () => {
    let now = START;
    const store = HistoryStore.open(join(dir, 'h.sqlite'), { now: () => now, utcOffsetMinutes: PARIS });
    const tracker = new Tracker(store, { now: () => now });
    const rng = prng(33);
    // A cash table beside it: its hands count as before.
    const cash = new Table('c', 'THNL', 'play', 0, 2000);
    tracker.buyIn('c', 'play', 2000);
    const { config, hero } = cash.play(rng);
    const cashHand = playRecord(config, rng, hero);
    tracker.handEnded({ playedAt: now, tableId: 'c', money: 'play', heroSeat: hero }, cashHand);
    const cashNet = cashHand.seats.find((x) => x.seat === hero)!.net;

    expect(tracker.tournamentEntry('T1', 'play', 1100)).toEqual({ ok: true });
    expect(tracker.tournamentEntry('T1', 'play', 500)).toEqual({ ok: true }); // a rebuy with its fee
    expect(tracker.tournamentEntry('T2', 'play', 1100)).toEqual({ ok: true });
    expect(tracker.tournamentEntry('T2', 'play', -1100)).toEqual({ ok: true }); // unregistered: refunded
    // A tournament hand: stored, not counted (tournament chips are not money).
    const t = new Table('T1-t1', 'THNL', 'play', 1, 1500);
    const th = t.play(rng);
    const tHand = playRecord(th.config, rng, th.hero);
    now += 60_000;
    expect(tracker.handEnded({ playedAt: now, tableId: 'T1-t1', money: 'play', heroSeat: th.hero, tournament: { tournamentId: 'T1', level: 2 } }, tHand)).toEqual({ stored: true, duplicate: false });
    expect(tracker.tournamentPrize('T1', 'play', 200)).toEqual({ ok: true }); // a bounty as it is won
    expect(tracker.tournamentPrize('T1', 'play', 3000)).toEqual({ ok: true }); // the prize at the finish
    const s = tracker.session().play;
    expect(s).toMatchObject({ hands: 1, net: cashNet, entries: 1600, prizes: 3200, bought: 2000, result: cashNet + s.inPlay + 3200 - 1600 });
    expect(tracker.session().groups.map((g) => g.hands)).toEqual([1]);
    expect(tracker.session().real).toMatchObject({ entries: 0, prizes: 0, result: 0 });
    // Bad amounts are refused and change nothing.
    expect(tracker.tournamentEntry('T1', 'play', 0)).toMatchObject({ ok: false });
    expect(tracker.tournamentPrize('T1', 'play', -5)).toMatchObject({ ok: false });
    expect(tracker.tournamentPrize('T1', 'play', 1.5)).toMatchObject({ ok: false });
    // A refund of an entry paid before this session: money back, counted as won (amounts stay positive).
    const later = new Tracker(store, { now: () => now });
    later.tournamentEntry('T3', 'real', -1100);
    expect(later.session().real).toMatchObject({ entries: 0, prizes: 1100, result: 1100 });
    store.close();
  });
});
