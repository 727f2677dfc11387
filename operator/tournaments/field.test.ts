import { afterEach, describe, expect, it, vi } from 'vitest';
import { clockAt, readyStructure } from '../../shared/rules/tournament';
import type { Action, HandState, LegalActions } from '../../shared/rules/engine/types';
import type { Seating } from '../../shared/rules/table/seating';
import { PracticeBrain } from '../practice/strategy';
import { Table } from '../tables/table';
import type { Brain } from '../tables/types';
import { books, cleanupEnvs, env, expectRankedOnce, person, playOut, practice, seeded, tournament } from '../../tests/support/operator/tournament-env';

/** The practice players' seed of the balancing test: fixed so the run replays (a seeded run). */
const BALANCE_SEED = 9;

afterEach(() => {
  vi.restoreAllMocks();
  cleanupEnvs();
});

/** The table's seating (the shared rules' state), read to check a move from outside the rule itself. */
const seatingOf = (t: Table): Seating => (t as unknown as { seating: Seating }).seating;

/** A player who only checks and calls: small pots, so that every table still plays after two breaks. */
class Caller implements Brain {
  decide(_view: HandState, legal: LegalActions): Action {
    const seat = legal.seat!;
    if (legal.next === 'show') return { type: 'show', seat };
    if (legal.check) return { type: 'check', seat };
    return legal.call !== null ? { type: 'call', seat } : { type: 'fold', seat };
  }
}

/** The first seat clockwise after `from` (not `from` itself) for which `ok` holds. */
function nextClockwise(from: number, size: number, ok: (seat: number) => boolean): number | null {
  for (let d = 1; d <= size; d++) if (ok((from + d) % size)) return (from + d) % size;
  return null;
}

describe('a faster tournament clock (tests only: TournamentDeps.clockRate)', () => {
  it('levels pass that many times faster than the tables’ time; the clock reads the same level from it', () => {
    const e = env();
    // Hyper-turbo: 3-minute levels; 60 times faster, a level lasts 3 s of the tables' time.
    const t = tournament(e, {}, 1, { clockRate: 60 });
    for (let i = 0; i < 6; i++) expect(t.register(practice(e), t.version, { brain: new Caller() }).ok).toBe(true);
    const startedAt = e.timers.now();
    const clockNotices = () => e.notices.filter((n) => n.type === 'clock');
    for (let i = 0; i < 100_000 && clockNotices().length === 0 && t.state === 'running'; i++) if (e.timers.runDue(1) === 0) e.timers.advance(100);
    expect(clockNotices()[0]).toMatchObject({ type: 'clock', level: 1, onBreak: false });
    expect(e.timers.now() - startedAt).toBe(3_000);
    expect(t.elapsed()).toBe(180_000);
    expect(clockAt(t.spec.structure, t.elapsed()!).level).toBe(1);
    expect(e.errors).toEqual([]);
  });
});

describe('a new level told before the first hand dealt at it (T 6-1; clients store the level they were told)', () => {
  it('a clock timer that fires late: hands dealt after the level’s end and before the timer are preceded by the new level’s notice', () => {
    const e = env();
    // The level clock's timer (3 minutes away) fires 3 s late, as Node's timers do on a busy loop; the
    // tables' pauses (a second) keep time, so hands are dealt in between.
    const set = e.timers.set.bind(e.timers);
    e.timers.set = (fn, ms) => set(fn, ms >= 60_000 ? ms + 3_000 : ms);
    const structure = { ...readyStructure('THNL', 'hyper-turbo'), lateRegistrationLevels: 0, startingStack: 1_000_000 };
    const t = tournament(e, { structure }, 1);
    const me = person(e);
    expect(t.register(me, t.version).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect(t.register(practice(e), t.version, { brain: new Caller() }).ok).toBe(true);
    // What our connection is sent, in order: the tournament's notices and our table's frames.
    const sent: ({ notice: string; level?: number } | { bigBlind: number })[] = [];
    const notify = (t as unknown as { deps: { notify: (n: { type: string; level?: number }) => void } }).deps;
    const told = notify.notify;
    notify.notify = (n) => {
      if (n.type === 'clock') sent.push({ notice: n.type, level: n.level });
      told(n);
    };
    expect(t.liveTables()).toHaveLength(1);
    expect(
      t.liveTables()[0].attach(me.accountId, (frame) => {
        const f = JSON.parse(frame) as { type: string; event?: { type: string; hand?: { rules: { bigBlind: number } } } };
        if (f.type === 'table.event' && f.event?.type === 'handStart') sent.push({ bigBlind: f.event.hand!.rules.bigBlind });
      }),
    ).toBe(true);
    for (let i = 0; i < 1_000_000 && sent.filter((x) => 'notice' in x).length < 3 && t.state === 'running'; i++) if (e.timers.runDue(1) === 0) e.timers.advance(1000);
    expect(sent.filter((x) => 'notice' in x).length).toBeGreaterThanOrEqual(3);
    // Every hand's blinds are those of the last level its players were told (level 0 at the start).
    let level = 0;
    const wrong: string[] = [];
    for (const x of sent) {
      if ('notice' in x) level = x.level!;
      else if (x.bigBlind !== clockLevelBigBlind(structure, level)) wrong.push(`big blind ${x.bigBlind} after level ${level + 1} was told`);
    }
    expect(wrong).toEqual([]);
    expect(e.errors).toEqual([]);
  });
});

function clockLevelBigBlind(structure: ReturnType<typeof readyStructure>, level: number): number {
  const l = structure.levels[level];
  return l.kind === 'blinds' ? l.bigBlind : l.smallBet;
}

describe('the field between hands (R-TOURN-RUN, T 6-1, T 6-9, T 6-10)', () => {
  it('a break is taken by every table together: no hand is dealt during it, the level does not run, play resumes after', () => {
    const e = env();
    // 1-minute levels, a 2-minute break after every level.
    const structure = { ...readyStructure('THNL', 'hyper-turbo'), levelMinutes: 1, lateRegistrationLevels: 0, breaks: { everyLevels: 1, minutes: 2 } };
    const t = tournament(e, { id: 'mtt-break', format: 'scheduled', seats: 6, maxEntrants: 12, minEntrants: 12, startAt: e.timers.now() + 1000, structure }, 3);
    for (let i = 0; i < 12; i++) expect(t.register(practice(e), t.version, { brain: new Caller() }).ok).toBe(true);
    e.timers.advance(1000);
    const startedAt = e.timers.now();
    expect(t.liveTables()).toHaveLength(2);
    const step = () => {
      if (e.timers.runDue(1) === 0) e.timers.advance(1000);
    };
    const clockNotices = () => e.notices.filter((n) => n.type === 'clock');
    // To the first break (3 minutes in).
    for (let i = 0; i < 1_000_000 && clockNotices().length === 0; i++) step();
    const onBreak = clockNotices()[0];
    expect(onBreak).toMatchObject({ type: 'clock', level: 1, onBreak: true });
    const breakAt = e.timers.now();
    expect(breakAt - startedAt).toBe(60_000);
    const hands = new Map(t.liveTables().map((x) => [x, { played: x.handsPlayed, inHand: x.handInProgress }]));
    expect(hands.size).toBe(2);
    // During the break: a hand in play at its start is finished, no other is dealt, at any table.
    for (let i = 0; i < 100_000 && clockNotices().length === 1; i++) {
      step();
      // The break's end deals at once (the same step): checked below.
      if (clockNotices().length > 1) break;
      for (const [x, h] of hands) expect(x.handsPlayed - h.played).toBeLessThanOrEqual(h.inHand ? 1 : 0);
      expect(clockAt(structure, t.elapsed()!)).toMatchObject({ level: 1, onBreak: true });
      if (e.timers.now() - breakAt > 60_000) for (const x of hands.keys()) expect(x.handInProgress).toBe(false);
    }
    // The break's end: the same level (the break did not use its time), 2 minutes later.
    const after = clockNotices()[1];
    expect(after).toMatchObject({ type: 'clock', level: 1, onBreak: false });
    const resumedAt = e.timers.now();
    expect(resumedAt - breakAt).toBe(2 * 60_000);
    // Play resumes at every table.
    for (let i = 0; i < 10_000 && [...hands].some(([x, h]) => x.handsPlayed <= h.played + (h.inHand ? 1 : 0)); i++) step();
    for (const [x, h] of hands) expect(x.handsPlayed).toBeGreaterThan(h.played + (h.inHand ? 1 : 0));
    // The level after the break lasts its whole minute: the next break comes then.
    for (let i = 0; i < 1_000_000 && clockNotices().length === 2 && t.state === 'running'; i++) step();
    expect(clockNotices()[2]).toMatchObject({ level: 2, onBreak: true });
    expect(e.timers.now() - resumedAt).toBe(60_000);
    expect(e.errors).toEqual([]);
  });

  it('a balancing move takes the player due the next big blind and seats them in the worst free position, through the tournament (T 6-9, T 6-10)', () => {
    const e = env();
    const structure = { ...readyStructure('THNL', 'hyper-turbo'), lateRegistrationLevels: 0 };
    // Seeded throughout (seats, deal, the practice players' choices): the run replays, with balancing moves out of and into tables that have played.
    const t = tournament(e, { id: 'mtt-balance', format: 'scheduled', seats: 6, maxEntrants: 24, minEntrants: 24, startAt: e.timers.now() + 1000, structure }, 5, { deal: true });
    const rng = seeded(BALANCE_SEED);
    // What each table looked like as the tournament moved a player out of it and into another
    // (the spies call the real methods: the Table is the tournament's neighbour here).
    const outs = new Map<number, { seat: number; last: Seating['last']; taken: boolean[] }>();
    const checked = { out: 0, in: 0 };
    // Checked inside the tournament's step: recorded here, asserted after (a throw there is the tournament's error).
    const wrong: string[] = [];
    const leave = Table.prototype.leave;
    vi.spyOn(Table.prototype, 'leave').mockImplementation(function (this: Table, accountId, by) {
      const s = seatingOf(this);
      if (by === 'operator') outs.set(accountId, { seat: this.seatOf(accountId)!, last: s.last, taken: s.seats.map((p) => p !== null) });
      return leave.call(this, accountId, by);
    });
    // Each move checked as made; kept for the balancing moves only (a broken table's players are drawn, T 6-11),
    // which the tournament's `seated` notices name, in the same order.
    const moves: { accountId: number; problems: string[]; out: boolean; in: boolean }[] = [];
    const join = Table.prototype.join;
    vi.spyOn(Table.prototype, 'join').mockImplementation(function (this: Table, player, buyIn, opts) {
      const from = outs.get(player.accountId);
      if (from && opts.seat !== undefined) {
        outs.delete(player.accountId);
        const m = { accountId: player.accountId, problems: [] as string[], out: false, in: false };
        // T 6-9: the player who would post the next big blind: the first player after last hand's big blind.
        if (from.last) {
          const due = nextClockwise(from.last.bigBlind, from.taken.length, (s) => from.taken[s]);
          if (from.seat !== due) m.problems.push(`moved out seat ${from.seat}, the next big blind is ${due}`);
          m.out = true;
        }
        // T 6-10: the free seat nearest the left of the big blind (the button before the small blind):
        // the hand in play's when the table is in one, else its last hand's.
        const s = seatingOf(this);
        const inPlay = (this as unknown as { hand: { plan: { bigBlind: number | null } } | null }).hand?.plan.bigBlind ?? null;
        const bigBlind = inPlay ?? s.last?.bigBlind ?? null;
        if (bigBlind !== null) {
          const worst = nextClockwise(bigBlind, s.seats.length, (x) => s.seats[x] === null);
          if (opts.seat !== worst) m.problems.push(`seated at ${opts.seat}, the worst free seat is ${worst}`);
          m.in = true;
        }
        moves.push(m);
      }
      return join.call(this, player, buyIn, opts);
    });
    for (let i = 0; i < 24; i++) {
      const r = e.accounts.createPracticeAccount(`practice-bal${i}`);
      if (!r.ok) throw new Error(r.code);
      e.wallet.grantPlay(r.account.id, 10_000, { idempotencyKey: `g-${r.account.id}` });
      const p = { accountId: r.account.id, name: r.account.username, practice: true, ip: '127.0.0.1', sessionId: 'practice' };
      expect(t.register(p, t.version, { brain: new PracticeBrain({ samples: 2, rng: () => rng(2 ** 30) / 2 ** 30 }) }).ok).toBe(true);
    }
    e.timers.advance(1000);
    playOut(e, t);
    for (const n of e.notices) {
      if (n.type !== 'seated' || !n.moved) continue;
      const i = moves.findIndex((m) => m.accountId === n.accountId);
      if (i < 0) continue;
      const [m] = moves.splice(i, 1);
      if (n.why !== 'balance') continue;
      wrong.push(...m.problems);
      if (m.out) checked.out++;
      if (m.in) checked.in++;
    }
    expect(wrong).toEqual([]);
    expect(e.errors).toEqual([]);
    expect(checked.out).toBeGreaterThan(0);
    expect(checked.in).toBeGreaterThan(0);
    expectRankedOnce(t);
    books(e);
  });
});
