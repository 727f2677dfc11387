/**
 * R-EXCLUDE and R-BANNED reach real-money tournaments (SPEC §2b; T 13-1): a person who self-excludes,
 * is banned or closes their account after registering is refunded where the tournament has not
 * started, and leaves a running one as a disqualified player does: at the end of the hand they are
 * in, their chips out of play, ranked as a bust at that moment (docs/tournaments.md "Exclusion and
 * ban"). Real parts: the operator's SQLite, wallet with the protection service's stake guard, trace
 * vault, tournament store, and a TournamentHub with its tables.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import { books, cleanupEnvs, env, expectRankedOnce, seeded, Shover, tournamentSpec, type Env } from '../../tests/support/operator/tournament-env';
import { Accounts } from '../accounts';
import { HOUR_MS } from '../protection/limits';
import { Protection } from '../protection/service';
import { ManualTimers } from '../tables/timers';
import type { TablePlayer } from '../tables/types';
import { Wallet } from '../wallet';
import { TournamentHub } from './hub';
import type { LiveTournament as Tournament } from './live';

afterEach(cleanupEnvs);

const DEPOSIT = 50_000;
/** The test spec's entry: buy-in 1000 + fee 100. */
const ENTRY = 1100;

interface World {
  e: Env;
  protection: Protection;
  /** A hub over the world's database (a second one is the operator's next start). */
  hubOf(timers?: ManualTimers): { hub: TournamentHub; sent: { to: number; m: ServerMessage }[]; dealt: Map<number, string[]> };
  player(name: string): Promise<TablePlayer>;
}

/** The operator's parts with its protection: the wallet refuses an excluded or closed account's stakes. */
function world(): World {
  const e = env();
  const protection = new Protection(e.db, { clock: () => e.timers.now() });
  e.wallet = new Wallet(e.db, { clock: () => e.timers.now(), stakeGuard: (id, amount, at) => protection.stakeCheck(id, amount, at) });
  e.accounts = new Accounts(e.db, { clock: () => e.timers.now(), scrypt: { N: 1 << 10, r: 8, p: 1 } });
  let ips = 0;
  return {
    e,
    protection,
    hubOf(timers = e.timers) {
      const sent: { to: number; m: ServerMessage }[] = [];
      // The hands each account was dealt (R-HISTORY writes one per hand a person played).
      const dealt = new Map<number, string[]>();
      const history = { add: (accountId: number, _t: string, handId: string) => dealt.set(accountId, [...(dealt.get(accountId) ?? []), handId]) };
      const hub = new TournamentHub({
        accounts: e.accounts,
        wallet: e.wallet,
        db: e.db,
        outbox: e.outbox,
        timers,
        idOper: '0099',
        seed: 3,
        // The scripted players think 10 to 50 ms: hands are seen in play between the clock's steps.
        table: { betweenHandsMs: 1000, practiceDelayMs: [10, 50], dealRandom: seeded(3 * 31 + 7) },
        error: (x) => e.errors.push(x),
        practiceFillMs: null,
        history,
      });
      hub.wire = { deliver: (to, m) => sent.push({ to, m }), follow: () => undefined };
      return { hub, sent, dealt };
    },
    async player(name) {
      // One person per name (R-ONEACCOUNT compares folded names): the digits spelt as letters.
      const lastName = name.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
      const r = await e.accounts.register(name, `${name} password`, { lastName, firstNames: 'Test', birthDate: '1990-01-01' });
      if (!r.ok) throw new Error(r.message);
      const id = r.account.id;
      expect(e.wallet.deposit(id, DEPOSIT, { idempotencyKey: `d-${id}`, paymentRef: `ref-${id}` }).ok).toBe(true);
      protection.setLimit(id, 'stake', 1_000_000);
      protection.setLimit(id, 'time', 100 * HOUR_MS);
      return { accountId: id, name, practice: false, ip: `203.0.113.${++ips}`, sessionId: `s-${id}` };
    },
  };
}

/** Runs the operator's time one due timer at a time (the clock 5 ms on when none is due: hands are seen in play) until `done`. */
function runUntil(e: Env, done: () => boolean, each: () => void = () => undefined, timers = e.timers): void {
  for (let i = 0; i < 2_000_000 && !done(); i++) {
    if (timers.runDue(1) === 0) timers.advance(5);
    each();
  }
  expect(done()).toBe(true);
}

/** R-CONSERVE with exclusions: the players in hold the chips issued less the chips removed (T 13-1). */
function conserved(t: Tournament): void {
  if (t.state === 'running') expect(t.chipsInPlay()).toBe(t.chipsIssued() - t.chipsRemoved());
}

/** The tournament paid every place once, its whole pool, and its fund is empty; each wallet is its deposit less the entry plus the prize. */
function paidOut(w: World, t: Tournament, pool: number): void {
  expectRankedOnce(t);
  expect(t.all().reduce((s, x) => s + x.prize!, 0)).toBe(pool);
  expect(w.e.wallet.tableHeld(t.fundId)!.held).toBe(0);
  for (const x of t.all()) expect(w.e.wallet.balance(x.player.accountId, 'real')).toBe(DEPOSIT - ENTRY + x.prize! + (x.won ?? 0));
  books(w.e);
}

function standingsTo(sent: { to: number; m: ServerMessage }[], to: number) {
  return sent.filter((x) => x.to === to && x.m.type === 'tournament.state').map((x) => (x.m.type === 'tournament.state' ? x.m.standing : null));
}

describe('R-EXCLUDE, R-BANNED in real-money tournaments (T 13-1)', () => {
  it('a self-exclusion before the start: the registration refunded whole (buy-in + fee) with its POANNUL, the player not seated at the start; play money left as it is', async () => {
    const w = world();
    const { e, protection } = w;
    const { hub, sent } = w.hubOf();
    hub.add(tournamentSpec({ id: 'sng-x', name: 'Real SNG', money: 'real' }));
    hub.add(tournamentSpec({ id: 'sng-p', name: 'Play SNG', money: 'play' }));
    const t = hub.get('sng-x-1')!;
    const practiceRoom = hub.get('sng-p-1')!;
    const leaving = await w.player('leaving');
    e.wallet.grantPlay(leaving.accountId, 10_000, { idempotencyKey: 'g-leaving' });
    const r = hub.register(t.spec.id, leaving, t.version);
    if (!r.ok) throw new Error(r.code);
    expect(hub.register(practiceRoom.spec.id, leaving, practiceRoom.version).ok).toBe(true);
    expect(e.wallet.balance(leaving.accountId, 'real')).toBe(DEPOSIT - ENTRY);

    expect(protection.exclude(leaving.accountId, { kind: 'days', days: 7 }, e.timers.now())).toMatchObject({ ok: true });
    hub.excludePlayer(leaving.accountId, 'self-excluded');

    // The whole entry back: the balance as before the registration, the fund empty, the field without them.
    expect(e.wallet.balance(leaving.accountId, 'real')).toBe(DEPOSIT);
    expect(e.wallet.tableHeld(t.fundId)!.held).toBe(0);
    expect(t.entrant(leaving.accountId)).toBeUndefined();
    expect(t.entries).toBe(0);
    const refund = e.db.prepare<[string], { amount: number; account_id: number }>('SELECT amount, account_id FROM ledger WHERE idempotency_key = ?').get(`t-refund:${r.inscription}`);
    expect(refund).toEqual({ amount: ENTRY, account_id: leaving.accountId });
    e.outbox.flush();
    const recs = e.vault.byInscription(r.inscription);
    expect(recs.map((x) => x.kind)).toEqual(['POINSCRIT', 'POANNUL']);
    expect(recs[1].xml).toContain('Auto-exclusion du joueur avant le début du tournoi');
    // Told at once: no longer in.
    expect(standingsTo(sent, leaving.accountId).at(-1)).toMatchObject({ state: 'registering', you: null });
    // The play-money registration is not a stake: left as it is.
    expect(practiceRoom.entrant(leaving.accountId)).toBeDefined();

    // The field fills and starts without them; they cannot enter again (the stake guard).
    const others = await Promise.all(Array.from({ length: t.spec.maxEntrants }, (_, i) => w.player(`other${i}`)));
    expect(hub.register(t.spec.id, leaving, t.version)).toMatchObject({ ok: false, code: 'SELF_EXCLUDED' });
    for (const p of others) expect(hub.register(t.spec.id, p, t.version).ok).toBe(true);
    expect(t.state).toBe('running');
    expect(t.entrant(leaving.accountId)).toBeUndefined();
    expect(hub.tablesOf(leaving.accountId)).toEqual([]);
    expect(t.liveTables().some((x) => x.isSeated(leaving.accountId))).toBe(false);
    expect(sent.some((x) => x.to === leaving.accountId && x.m.type === 'tournament.seat')).toBe(false);
    expect(e.errors).toEqual([]);
    books(e);
    hub.close();
  });

  it('a self-exclusion during a hand: the hand played out, then stood up before the next deal and never dealt again; ranked as a bust at that moment, chips out of play, the others paid the whole pool', async () => {
    const w = world();
    const { e, protection } = w;
    const { hub, sent, dealt } = w.hubOf();
    hub.add(tournamentSpec({ id: 'sng-y', name: 'Real SNG', money: 'real' }));
    const t = hub.get('sng-y-1')!;
    const rng = seeded(11);
    const players = await Promise.all(Array.from({ length: t.spec.maxEntrants }, (_, i) => w.player(`pl${i}`)));
    for (const p of players) expect(t.register(p, t.version, { brain: new Shover(rng, 0.3) }).ok).toBe(true);
    expect(t.state).toBe('running');
    const table = t.liveTables()[0];
    // The first hand is in play, every player dealt in.
    expect(table.handInProgress).toBe(true);
    const leaving = players[2];
    const id = leaving.accountId;

    expect(protection.exclude(id, { kind: 'days', days: 30 }, e.timers.now())).toMatchObject({ ok: true });
    hub.excludePlayer(id, 'self-excluded');
    // Still in the hand: never stood up in the middle of it.
    expect(table.isSeated(id)).toBe(true);
    expect(t.entrant(id)).toMatchObject({ out: false, excluded: 'self-excluded' });
    const handsBefore = table.handsPlayed;

    let placeDue = 0;
    runUntil(
      e,
      () => !table.isSeated(id),
      () => {
        if (table.isSeated(id)) return;
        // The moment they left: the players still in rank above them.
        placeDue = t.remaining + 1;
      },
    );
    // The hand they were in, and no other, was played before they left.
    expect(table.handsPlayed).toBe(handsBefore + 1);
    expect(dealt.get(id)).toHaveLength(1);
    const x = t.entrant(id)!;
    // Left by the exclusion, not busted by the hand (the seeds make it so): their chips are out of play.
    expect(x.out).toBe(true);
    expect(t.chipsRemoved()).toBeGreaterThan(0);
    conserved(t);
    expect(placeDue).toBeGreaterThan(1);
    // Told they are no longer in (their place comes when the field is final: here it is).
    expect(standingsTo(sent, id).at(-1)).toMatchObject({ you: null });
    expect(t.rebuy(id)).toMatchObject({ ok: false });

    runUntil(e, () => t.state !== 'running', () => conserved(t));
    expect(t.state).toBe('finished');
    expect(e.errors).toEqual([]);
    // Never dealt again.
    expect(dealt.get(id)).toHaveLength(1);
    expect(x.place).toBe(placeDue);
    expect(x.prize).toBe(t.prizes()[placeDue - 1] ?? 0);
    expect(sent.filter((s) => s.to === id && s.m.type === 'tournament.finished').map((s) => s.m)).toEqual([
      { type: 'tournament.finished', tournamentId: t.spec.id, place: placeDue, tied: 1, prize: x.prize, bounties: 0 },
    ]);
    // The prize pool unchanged: the six entries, all paid to the places.
    paidOut(w, t, 6 * 1000);
    e.outbox.flush();
    expect(e.vault.byTech(t.spec.id).filter((r) => r.kind === 'POBILAN')).toHaveLength(6);
    expect(e.vault.verifyChain().ok).toBe(true);
    hub.close();
  });

  it('banned: between hands, two players of one table leave at once and the tables are balanced; a registration elsewhere refunded; the tournament plays out with its invariants', async () => {
    const w = world();
    const { e } = w;
    const { hub, sent, dealt } = w.hubOf();
    const startAt = e.timers.now() + 1000;
    hub.add(tournamentSpec({ id: 'mtt-b', name: 'Real MTT', money: 'real', format: 'scheduled', maxEntrants: 100, minEntrants: 2, startAt }));
    hub.add(tournamentSpec({ id: 'mtt-later', name: 'Later', money: 'real', format: 'scheduled', maxEntrants: 100, minEntrants: 2, startAt: startAt + 86_400_000 }));
    const t = hub.get('mtt-b')!;
    const later = hub.get('mtt-later')!;
    const rng = seeded(5);
    const players = await Promise.all(Array.from({ length: 12 }, (_, i) => w.player(`ban${i}`)));
    for (const p of players) expect(t.register(p, t.version, { brain: new Shover(rng, 0.2) }).ok).toBe(true);
    e.timers.advance(1000);
    expect(t.state).toBe('running');
    expect(t.liveTables().map((x) => x.seatsTaken)).toEqual([6, 6]);
    // Two players of the first table, registered to a later tournament too.
    const table = t.liveTables()[0];
    const banned = table.players().slice(0, 2).map((p) => players.find((q) => q.accountId === p.accountId)!);
    const inscriptions = banned.map((p) => {
      const r = hub.register(later.spec.id, p, later.version);
      if (!r.ok) throw new Error(r.code);
      return r.inscription;
    });
    // Between two hands of that table.
    runUntil(e, () => !table.handInProgress && table.handsPlayed > 0 && table.seatsTaken >= 4);
    const before = t.remaining;
    const handsBefore = banned.map((p) => dealt.get(p.accountId)?.length ?? 0);
    for (const p of banned) {
      // R-BANNED: the account is closed for play (accounts.ts closes it; here the column it sets).
      e.db.prepare("UPDATE accounts SET closed_reason = 'banned' WHERE id = ?").run(p.accountId);
      hub.excludePlayer(p.accountId, 'banned');
      // At once: the table is between hands.
      expect(table.isSeated(p.accountId)).toBe(false);
      expect(t.entrant(p.accountId)).toMatchObject({ out: true, excluded: 'banned' });
      expect(later.entrant(p.accountId)).toBeUndefined();
      conserved(t);
    }
    expect(t.remaining).toBe(before - 2);
    // The field rebalanced (T 6-8: 2 apart at most once 3 tables or fewer are left), a move out of a
    // table in a hand waiting for its end.
    const counts = () => t.liveTables().map((x) => x.seatsTaken);
    const moves = () => sent.filter((s) => s.m.type === 'tournament.seat' && s.m.why === 'balance').length;
    const movedBefore = moves();
    const gap = Math.max(...counts()) - Math.min(...counts());
    runUntil(e, () => Math.max(...counts()) - Math.min(...counts()) < 2 && t.liveTables().every((x) => !x.handInProgress || x !== table));
    if (gap >= 2) expect(moves()).toBeGreaterThan(movedBefore);
    // Their other registration refunded whole with a POANNUL saying why.
    e.outbox.flush();
    for (const ins of inscriptions) {
      const recs = e.vault.byInscription(ins);
      expect(recs.map((r) => r.kind)).toEqual(['POINSCRIT', 'POANNUL']);
      expect(recs[1].xml).toContain('interdits de jeu');
    }
    expect(e.wallet.tableHeld(later.fundId)!.held).toBe(0);

    runUntil(e, () => t.state !== 'running', () => conserved(t));
    expect(e.errors).toEqual([]);
    banned.forEach((p, i) => expect(dealt.get(p.accountId)?.length ?? 0).toBe(handsBefore[i]));
    // Ranked as busts at the moment each left: the first below the second.
    expect(banned.map((p) => t.entrant(p.accountId)!.place)).toEqual([before, before - 1]);
    paidOut(w, t, 12 * 1000);
    for (const p of banned) expect(e.wallet.balance(p.accountId, 'real')).toBe(DEPOSIT - ENTRY + t.entrant(p.accountId)!.prize!);
    hub.close();
  });

  it('a restart does not bring back a player excluded during the hand the stop voided: they leave at the restart with the chips of the last settled hand', async () => {
    const w = world();
    const { e } = w;
    const first = w.hubOf();
    first.hub.add(tournamentSpec({ id: 'sng-c', name: 'Real SNG', money: 'real' }));
    const t1 = first.hub.get('sng-c-1')!;
    const rng = seeded(2);
    const players = await Promise.all(Array.from({ length: t1.spec.maxEntrants }, (_, i) => w.player(`cr${i}`)));
    for (const p of players) expect(t1.register(p, t1.version, { brain: new Shover(rng, 0.3) }).ok).toBe(true);
    // A hand settled, the next in play.
    const table = t1.liveTables()[0];
    runUntil(e, () => table.handsPlayed >= 1 && table.handInProgress);
    const id = table.players()[0].accountId;
    const settled = t1.entrant(id)!.stack;
    const remaining = t1.remaining;
    first.hub.excludePlayer(id, 'closed');
    expect(table.isSeated(id)).toBe(true);
    // The operator dies here: nothing more runs on these objects. The next start, the same database.
    const timers = new ManualTimers(e.timers.now() + 5000);
    const second = w.hubOf(timers);
    const [t2] = second.hub.restore();
    expect(t2.state).toBe('running');
    const x = t2.entrant(id)!;
    expect(x).toMatchObject({ out: true, excluded: 'closed' });
    expect(t2.liveTables().some((tb) => tb.isSeated(id))).toBe(false);
    expect(t2.chipsRemoved()).toBe(settled);
    conserved(t2);
    runUntil(e, () => t2.state !== 'running', () => conserved(t2), timers);
    expect(e.errors).toEqual([]);
    // Ranked below every player in at the stop, above those out before it.
    expect(x.place).toBe(remaining);
    expect(second.dealt.get(id)).toBeUndefined();
    paidOut(w, t2, 6 * 1000);
    second.hub.close();
  });
});
