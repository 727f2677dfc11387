/**
 * What a tournament tells its people: the standing (clock, field, stack,
 * rank) against the field counted by brute force at every step, who is told after a hand (the people
 * at that table, never for practice players alone), why each seat (start, late, balance, broken,
 * back), the bounties at the finish, and the results kept in the tournament store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HandTournament, ServerMessage } from '../../shared/protocol/messages';
import type { HandRecord } from '../../shared/rules/record';
import type { TournamentStanding } from '../../shared/protocol/tournament';
import { clockAt, readyStructure } from '../../shared/rules/tournament';
import { PracticeBrain } from '../practice/strategy';
import type { TablePlayer } from '../tables/types';
import { cleanupEnvs, env, person, playOut, practice, seeded, Shover, tournament, tournamentSpec, type Env } from '../../tests/support/operator/tournament-env';
import { TournamentHub } from './hub';
import { TournamentResults } from './results';
import type { LiveTournament as Tournament, TournamentNotice } from './live';

afterEach(cleanupEnvs);

const brain = () => new PracticeBrain({ samples: 2 });

type Written = { accountId: number; record: HandRecord; tournament: HandTournament };

function hubOf(e: Env): { hub: TournamentHub; sent: { to: number; m: ServerMessage }[]; written: Written[] } {
  const written: Written[] = [];
  const history = { add: (accountId: number, _t: string, _h: string, _at: number, record: HandRecord, tournament: HandTournament) => written.push({ accountId, record, tournament }) };
  const hub = new TournamentHub({ accounts: e.accounts, wallet: e.wallet, db: e.db, outbox: e.outbox, timers: e.timers, idOper: '0099', seed: 5, table: { betweenHandsMs: 1000, practiceDelayMs: [0, 0] }, error: (x) => e.errors.push(x), practiceFillMs: null, history });
  const sent: { to: number; m: ServerMessage }[] = [];
  hub.wire = { deliver: (to, m) => sent.push({ to, m }), follow: () => undefined };
  return { hub, sent, written };
}

/** The player's chips as the table has them (between hands: the stack; in a hand: at its start), with chips bought not yet there. */
function chipsOf(t: Tournament, accountId: number): number {
  const e = t.entrant(accountId)!;
  if (e.out) return 0;
  return (e.table?.players().find((p) => p.accountId === accountId)?.stack ?? e.stack) + e.pendingChips;
}

/** The standing as it must be, counted over the whole field. */
function expected(t: Tournament, accountId: number): Omit<TournamentStanding, 'nextChangeInMs' | 'paid' | 'you'> & { you: { stack: number; rank: number } | null } {
  const alive = t.all().filter((x) => !x.out);
  const mine = chipsOf(t, accountId);
  const e = t.entrant(accountId)!;
  const c = t.state === 'running' ? clockAt(t.spec.structure, t.elapsed()!) : null;
  return {
    state: t.state,
    level: c?.level ?? null,
    onBreak: c?.onBreak ?? false,
    handForHand: t.state === 'running' && t.inHandForHand,
    entries: t.entryTotal,
    remaining: t.remaining,
    chips: alive.reduce((a, x) => a + chipsOf(t, x.player.accountId), 0),
    pool: t.pool(),
    you: e.out || e.place !== null ? null : { stack: mine, rank: 1 + alive.filter((x) => chipsOf(t, x.player.accountId) > mine).length },
  };
}

describe('the standing', () => {
  it('matches the field counted by brute force at every step of a multi-table tournament: clock, chips, stack and rank of each person', () => {
    const e = env();
    const { hub, sent, written } = hubOf(e);
    const startAt = e.timers.now() + 60_000;
    const spec = tournamentSpec({ id: 'mtt-st', name: 'Standing', format: 'scheduled', maxEntrants: 100, minEntrants: 2, startAt });
    hub.add(spec);
    const t = hub.get('mtt-st')!;
    const people: TablePlayer[] = [person(e), person(e), person(e)];
    for (const p of people) expect(hub.register('mtt-st', p, t.version).ok).toBe(true);
    for (let i = 0; i < 21; i++) expect(t.register(practice(e), t.version, { brain: brain() }).ok).toBe(true);
    // Before the start: each person has the starting stack, all ranked first.
    const before = hub.standings(t, people.map((p) => p.accountId));
    for (const p of people) expect(before.get(p.accountId)).toMatchObject({ state: 'registering', level: null, nextChangeInMs: null, entries: 24, chips: 24 * 10_000, you: { stack: 10_000, rank: 1, rebuy: false, addOn: false, bounties: 0 } });
    e.timers.advance(60_000);
    expect(t.state).toBe('running');
    let steps = 0;
    let ranksSeen = new Set<number>();
    playOut(e, t, () => {
      if (t.state !== 'running' || ++steps % 7 !== 0) return;
      const got = hub.standings(t, people.map((p) => p.accountId));
      for (const p of people) {
        const s = got.get(p.accountId)!;
        const want = expected(t, p.accountId);
        expect({ ...s, nextChangeInMs: undefined, paid: undefined, you: s.you && { stack: s.you.stack, rank: s.you.rank } }).toEqual({ ...want, nextChangeInMs: undefined, paid: undefined });
        expect(s.nextChangeInMs).toBe(clockAt(t.spec.structure, t.elapsed()!).msToNext);
        expect(s.paid).toBe(t.prizes().length);
        if (s.you) ranksSeen.add(s.you.rank);
      }
    });
    expect(e.errors).toEqual([]);
    // The ranks moved with the chips (not all first).
    expect([...ranksSeen].some((r) => r > 1)).toBe(true);
    ranksSeen = new Set();
    // The people were told: the start (with `running`), after hands at their tables, the finish.
    const states = sent.filter((x) => x.m.type === 'tournament.state');
    for (const p of people) expect(states.filter((x) => x.to === p.accountId).length).toBeGreaterThan(3);
    expect(states.filter((x) => !people.some((p) => p.accountId === x.to)).map((x) => [x.to, JSON.stringify(x.m).slice(0, 300)])).toEqual([]);
    const last = states.filter((x) => x.to === people[0].accountId).at(-1)!.m;
    expect(last.type === 'tournament.state' && last.standing).toMatchObject({ state: 'finished', you: null });
    // A seat (a move, once the start is over) is followed by the standing at once.
    const moves = sent.filter((x) => x.m.type === 'tournament.seat' && x.m.why !== 'start');
    expect(moves.length).toBeGreaterThan(0);
    for (const x of moves) expect(sent[sent.indexOf(x) + 1]).toMatchObject({ to: x.to, m: { type: 'tournament.state' } });
    // The people's hands were kept with the tournament and the level each was dealt at (its blinds say
    // so, T 6-1: a hand that runs into the next level keeps its own), practice players' not at all.
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((w) => people.some((p) => p.accountId === w.accountId))).toBe(true);
    for (const w of written) {
      expect(w.tournament.tournamentId).toBe('mtt-st');
      const level = spec.structure.levels[w.tournament.level];
      expect(level.kind === 'blinds' && level.bigBlind).toBe(w.record.rules.bigBlind);
    }
    expect(new Set(written.map((w) => w.tournament.level)).size).toBeGreaterThan(1);
  });

  it('ranks every player exactly as a count over the field does, after every hand of randomized multi-table tournaments with rebuys, add-ons, re-entries and late entries; equal stacks share a rank', () => {
    // The rank is read from an order of stacks kept in step (O(log n)), not counted
    // per message; it must stay the brute-force count (1 + the players in with more chips, so equal
    // stacks share a rank and the next one down comes after all of them) after every settled hand.
    let compared = 0;
    let tiesSeen = 0;
    let handsChecked = 0;
    for (const seed of [3, 11]) {
      const e = env();
      const { hub } = hubOf(e);
      const structure = { ...readyStructure('THNL', 'hyper-turbo', { rebuys: { price: 1000, fee: 100 }, reEntries: 2 }), lateRegistrationLevels: 2 };
      const t = tournament(e, { id: `mtt-rank-${seed}`, format: 'scheduled', seats: 6, maxEntrants: 200, minEntrants: 10, startAt: e.timers.now() + 60_000, structure }, seed, { deal: true });
      for (let i = 0; i < 24; i++) t.register(practice(e), t.version, { brain: brain(), auto: i % 8 === 0 });
      const check = () => {
        const ids = t.all().map((x) => x.player.accountId);
        const got = hub.standings(t, ids);
        const byRank = new Map<number, number>();
        // The chips of each player in, as their table has them.
        const inChips = t.all().flatMap((y) => (y.out ? [] : [chipsOf(t, y.player.accountId)]));
        for (const id of ids) {
          const you = got.get(id)!.you;
          const x = t.entrant(id)!;
          if (x.out || you === null) continue;
          const mine = chipsOf(t, id);
          expect(you.stack).toBe(mine);
          expect(you.rank, `${t.spec.id} hand ${t.handsPlayed}: ${x.player.name} with ${mine}`).toBe(1 + inChips.filter((c) => c > mine).length);
          byRank.set(you.rank, (byRank.get(you.rank) ?? 0) + 1);
          compared++;
        }
        if ([...byRank.values()].some((n) => n > 1)) tiesSeen++;
      };
      e.timers.advance(60_000);
      expect(t.state).toBe('running');
      check();
      let late = 0;
      let lateOpen = true;
      let played = t.handsPlayed;
      // Each step runs one timer: a hand settles in one of them; checked after each step that settled one.
      playOut(e, t, () => {
        if (t.state !== 'running') return;
        if (lateOpen) {
          // Late entries and re-entries while registration is open (back in at the starting stack: ties).
          if (late < 8 && t.register(practice(e), t.version, { brain: brain() }).ok) late++;
          for (const x of t.all()) if (x.out && x.place === null && x.reEntries < 2 && !x.auto && !t.register(x.player, t.version).ok) lateOpen = false;
        }
        if (t.handsPlayed === played) return;
        handsChecked += t.handsPlayed - played;
        played = t.handsPlayed;
        check();
      });
      expect(e.errors).toEqual([]);
      expect(late).toBeGreaterThan(0);
    }
    expect(handsChecked).toBeGreaterThan(1000);
    expect(compared).toBeGreaterThan(5000);
    // Steps where two players in shared a rank (equal stacks).
    expect(tiesSeen).toBeGreaterThan(40);
  });

  it('after each hand, the people at that table and those it eliminated are told; a table of practice players tells no one', () => {
    const e = env();
    const t = tournament(e, { id: 'sng-hand', seats: 3, maxEntrants: 3, minEntrants: 3 }, 3);
    const a = person(e);
    const checks: string[] = [];
    const notices: TournamentNotice[] = [];
    let handsWhileIn = 0;
    // The notice is checked as it is made: the table's people then, each a person of the tournament.
    (t as unknown as { deps: { notify: (n: TournamentNotice) => void } }).deps.notify = (n) => {
      notices.push(n);
      if (n.type !== 'hand') return;
      const table = t.liveTables().find((x) => x.tableId === n.tableId);
      for (const id of table?.people() ?? []) if (!n.accountIds.includes(id)) checks.push(`${id} missing`);
      for (const id of n.accountIds) if (t.entrant(id)?.player.practice !== false) checks.push(`${id} is not a person`);
      // Hands settled up to (and with) the one that put the person out: each must have told them.
      if (!n.accountIds.includes(a.accountId)) checks.push('a hand told someone else');
      handsWhileIn = t.handsPlayed;
    };
    t.register(a, t.version);
    for (let i = 0; i < 2; i++) t.register(practice(e), t.version, { brain: brain() });
    playOut(e, t);
    expect(checks).toEqual([]);
    const hands = notices.filter((n) => n.type === 'hand');
    expect(hands.length).toBeGreaterThan(0);
    // One notice for each hand the person was in (up to the last one told); none after (practice players alone).
    expect(hands.length).toBe(handsWhileIn);

    const p = env();
    const alone = tournament(p, { id: 'sng-bots', seats: 3, maxEntrants: 3, minEntrants: 3 }, 3);
    for (let i = 0; i < 3; i++) alone.register(practice(p), alone.version, { brain: brain() });
    playOut(p, alone);
    expect(alone.handsPlayed).toBeGreaterThan(0);
    expect(p.notices.filter((n) => n.type === 'hand')).toEqual([]);
  });

  it('rebuy and add-on: allowed in the standing exactly when T 5-2 and 5-4 allow them (a busted person who may rebuy keeps a standing)', () => {
    const e = env();
    const { hub } = hubOf(e);
    const structure = { ...readyStructure('THNL', 'hyper-turbo', { rebuys: { price: 1000, fee: 100 } }), lateRegistrationLevels: 0 };
    structure.rebuy = { ...structure.rebuy!, untilLevel: 1 };
    hub.add(tournamentSpec({ id: 'sng-rb', name: 'Rebuy', seats: 3, maxEntrants: 3, minEntrants: 3, structure }));
    const t = hub.get('sng-rb-1')!;
    const a = person(e);
    expect(hub.register(t.spec.id, a, t.version).ok).toBe(true);
    for (let i = 0; i < 2; i++) t.register(practice(e), t.version, { brain: brain(), auto: true });
    expect(t.state).toBe('running');
    let sawRebuy = false;
    let sawAddOn = false;
    playOut(e, t, () => {
      if (t.state !== 'running') return;
      const s = hub.standings(t, [a.accountId]).get(a.accountId)!;
      const x = t.entrant(a.accountId)!;
      const level = clockAt(structure, t.elapsed()!).level;
      const rebuy = x.place === null && level < 1 && chipsOf(t, a.accountId) <= 10_000;
      const addOn = !x.out && level === 1 && !x.addOn;
      if (x.out && !rebuy) expect(s.you).toBeNull();
      else expect(s.you).toMatchObject({ rebuy, addOn });
      sawRebuy ||= rebuy;
      sawAddOn ||= addOn;
    });
    expect(sawRebuy && sawAddOn).toBe(true);
  });
});

describe('why a seat', () => {
  it('start, late, broken and balance moves, back after a re-entry: each seat says why, and a move is `moved`', () => {
    const e = env();
    const structure = { ...readyStructure('THNL', 'hyper-turbo', { reEntries: 2 }), lateRegistrationLevels: 2 };
    // A seeded deal: the run replays (with the operator's own deal, a first hand that busted a player
    // moved two others to balance before the check below, once in CI).
    const t = tournament(e, { id: 'mtt-why', format: 'scheduled', seats: 6, maxEntrants: 200, minEntrants: 10, startAt: e.timers.now() + 60_000, structure }, 11, { deal: true });
    for (let i = 0; i < 30; i++) t.register(practice(e), t.version, { brain: brain() });
    e.timers.advance(60_000);
    expect(t.state).toBe('running');
    const seated = () => e.notices.filter((n): n is Extract<TournamentNotice, { type: 'seated' }> => n.type === 'seated');
    // The first hands are played in the same instant (practice players decide at once): the start's
    // seats are the first 30, whatever moves those hands made after them.
    expect(seated().slice(0, 30).map((n) => n.why)).toEqual(new Array(30).fill('start'));
    expect(seated().slice(30).filter((n) => n.why === 'start')).toEqual([]);
    for (let i = 0; i < 6; i++) t.register(practice(e), t.version, { brain: brain() });
    expect(seated().slice(30).filter((n) => n.why === 'late')).toHaveLength(6);
    let reentered = 0;
    playOut(e, t, () => {
      if (t.state !== 'running') return;
      for (const x of t.all()) if (x.out && x.place === null && x.reEntries < 2 && t.register(x.player, t.version).ok) reentered++;
    });
    expect(e.errors).toEqual([]);
    const whys = seated().map((n) => n.why);
    const count = (w: string) => whys.filter((x) => x === w).length;
    expect(reentered).toBeGreaterThan(0);
    expect(count('back')).toBe(reentered);
    expect(count('broken')).toBeGreaterThan(0);
    expect(count('balance')).toBeGreaterThan(0);
    for (const n of seated()) expect(n.moved).toBe(n.why === 'broken' || n.why === 'balance');
  });
});

describe('bounties and results', () => {
  it('each finish carries the bounties the player won (the winner keeps their own); the sum is every bounty', () => {
    const e = env();
    const t = tournament(e, { id: 'sng-ko', bounty: 200 }, 9);
    for (let i = 0; i < 6; i++) t.register(practice(e), t.version, { brain: brain() });
    playOut(e, t);
    const finished = e.notices.filter((n): n is Extract<TournamentNotice, { type: 'finished' }> => n.type === 'finished');
    expect(finished).toHaveLength(6);
    for (const n of finished) expect(n.bounties).toBe(t.entrant(n.accountId)!.won ?? 0);
    expect(finished.reduce((a, n) => a + n.bounties, 0)).toBe(6 * 200);
    e.outbox.flush();
    // The POGAIN records say the same, player by player.
    for (const n of finished) {
      const gains = e.vault.byInscription(t.entrant(n.accountId)!.inscription).filter((r) => r.kind === 'POGAIN');
      expect(gains.reduce((s, r) => s + Math.round(Number(/<SoldeMouvement>([^<]+)</.exec(r.xml)![1])), 0)).toBe(n.bounties);
    }
  });

  it('each finish says how many share its place (T 8-16): players out on one hand with equal stacks hold the same place, told tied = their number', () => {
    // Four players all in every hand from equal stacks: the first hand often busts three at once.
    let ties = 0;
    for (let run = 1; run <= 12; run++) {
      const e = env();
      const t = tournament(e, { id: `sng-tie-${run}`, maxEntrants: 4, minEntrants: 4 }, run, { deal: true });
      const rng = seeded(run * 7 + 1);
      for (let i = 0; i < 4; i++) t.register(practice(e), t.version, { brain: new Shover(rng, 1) });
      playOut(e, t);
      const finished = e.notices.filter((n): n is Extract<TournamentNotice, { type: 'finished' }> => n.type === 'finished');
      expect(finished).toHaveLength(4);
      for (const n of finished) {
        const same = finished.filter((x) => x.place === n.place);
        expect(n.tied, `run ${run}, place ${n.place}`).toBe(same.length);
        expect(n.place).toBe(t.entrant(n.accountId)!.place);
      }
      if (finished.some((n) => n.tied > 1)) ties++;
    }
    expect(ties).toBeGreaterThan(0);
  });

  it("the store serves the account's finished tournaments newest first, in pages, with what each cost and paid; a bad cursor is refused", () => {
    const e = env();
    const { hub } = hubOf(e);
    const store = new TournamentResults(e.db);
    const structure = { ...readyStructure('THNL', 'hyper-turbo', { rebuys: { price: 1000, fee: 100 } }), lateRegistrationLevels: 0 };
    structure.rebuy = { ...structure.rebuy!, untilLevel: 1 };
    hub.add(tournamentSpec({ id: 'sng-res', name: 'Results', seats: 3, maxEntrants: 3, minEntrants: 3, structure }));
    const a = person(e, 100_000);
    const played: Tournament[] = [];
    for (let k = 0; k < 2; k++) {
      const t = hub.all().find((x) => x.state === 'registering')!;
      expect(hub.register(t.spec.id, a, t.version).ok).toBe(true);
      for (let i = 0; i < 2; i++) t.register(practice(e), t.version, { brain: brain(), auto: true });
      expect(t.rebuy(a.accountId)).toEqual({ ok: true });
      playOut(e, t);
      played.push(t);
      e.timers.advance(1000);
    }
    expect(store.page(a.accountId, null, 10, 0)).toMatchObject({ ok: true, next: null });
    const p1 = store.page(a.accountId, null, 1, 0);
    if (!p1.ok) throw new Error('page');
    expect(p1.results.map((r) => r.tournamentId)).toEqual([played[1].spec.id]);
    const p2 = store.page(a.accountId, p1.next, 1, 0);
    if (!p2.ok) throw new Error('page');
    expect(p2.results.map((r) => r.tournamentId)).toEqual([played[0].spec.id]);
    expect(p2.next).toBeNull();
    const x = played[0].entrant(a.accountId)!;
    expect(p2.results[0]).toEqual({
      tournamentId: played[0].spec.id,
      name: 'Results',
      variant: 'THNL',
      money: 'play',
      format: 'sit-and-go',
      kinds: 'A',
      buyIn: 1000,
      fee: 100,
      entries: 3,
      startedAt: expect.any(Number) as number,
      endedAt: expect.any(Number) as number,
      place: x.place,
      prize: x.prize,
      bounties: 0,
      rebuys: x.rebuys,
      addOns: x.addOn ? 1 : 0,
      reEntries: 0,
      // The entry, each rebuy and the add-on, each with its fee.
      spent: 1100 * (1 + x.rebuys + (x.addOn ? 1 : 0)),
    });
    expect(x.rebuys).toBeGreaterThan(0);
    expect(p2.results[0].startedAt).toBeLessThan(p2.results[0].endedAt);
    // Another account's tournaments are not these; a year ago is the limit (the `since` given).
    expect(store.page(a.accountId + 1000, null, 10, 0)).toEqual({ ok: true, results: [], next: null });
    expect(store.page(a.accountId, null, 10, e.timers.now() + 1)).toEqual({ ok: true, results: [], next: null });
    for (const bad of ['garbage', '12', '1.', '.x', '1.a.b', `${'9'.repeat(17)}.x`]) expect(store.page(a.accountId, bad, 10, 0)).toEqual({ ok: false, code: 'BAD_CURSOR' });
    // Through the hub: the last 366 days of the operator's clock.
    expect(hub.results(a.accountId, null, 10)).toMatchObject({ ok: true, results: [{ tournamentId: played[1].spec.id }, { tournamentId: played[0].spec.id }] });
  });
});
