/**
 * A scheduled multi-table tournament over the wire ("Tests": an MTT with late
 * registration, rebuys, a broken table and a moved player): real TLS on loopback, two scripted
 * clients pinning the operator's key, 23 practice players the operator's tournament plays.
 *
 * How it is made certain rather than likely (2 cores, never flaky):
 * - 24 players at 6 seats fill 4 tables. Until the field is set, everyone only checks or folds, so
 *   nobody busts: the late registrant (client B) finds every table full and opens table 5 alone
 *   (late entries at the table with the most free seats, else a new one);
 * - then the practice players shove (seeded) and the first bust leaves 24, who fit in 4 tables: table
 *   5 is broken first (the highest number, T 6-6) and B, still in (it folds), is moved: it gets
 *   `tournament.seat` with `moved: true` and the new table's stream. The practice players shove only
 *   at B's table until then: a table closes between hands, and when the highest is in a hand the
 *   one a bust just freed closes instead (docs/tournaments.md), so the first bust must be at table 5;
 * - client A rebuys at the start (at the starting stack: T 5-2 as the structure reads it).
 * Then the clients call everything and the tournament is played to its winner: every player ranked
 * once, prizes = pool, the books and the trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage, ServerMessageOf } from '../../shared/protocol/messages';
import type { Action, HandState, LegalActions } from '../../shared/rules/engine';
import { readyStructure } from '../../shared/rules/tournament';
import { practiceAccount } from '../../operator/practice/host';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { scaledTimers } from '../../operator/tables/timers';
import type { Brain } from '../../operator/tables/types';
import { tournamentAudit } from '../../operator/tournaments/audit';
import { placesProblem } from '../../operator/tournaments/places';
import type { TournamentSpec } from '../../operator/tournaments/spec';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { seeded, Shover, tournamentSpec } from '../support/operator/tournament-env';
import { tempDir } from '../support/operator/temp-dir';

const SPEED = 40;
const PRACTICE = 23;
const timers = scaledTimers(SPEED);

/**
 * The practice players' play: check or fold while `wild` is off, then shove (seeded) 1 time in 2;
 * while `only` names a player, only in hands that player is dealt in.
 */
const phase: { wild: boolean; only: string | null } = { wild: false, only: null };
class Scripted implements Brain {
  private readonly shover: Shover;
  constructor(seed: number) {
    this.shover = new Shover(seeded(seed), 0.5);
  }
  decide(view: HandState, legal: LegalActions): Action {
    if (phase.wild && (phase.only === null || view.players.includes(phase.only))) return this.shover.decide(view, legal);
    const seat = legal.seat as number;
    if (legal.next === 'show') return { type: 'show', seat };
    return legal.check ? { type: 'check', seat } : { type: 'fold', seat };
  }
}

const structure = { ...readyStructure('THNL', 'hyper-turbo', { rebuys: { price: 1000, fee: 100 } }), lateRegistrationLevels: 3 };
structure.rebuy = { ...structure.rebuy!, untilLevel: 3 };

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;
let spec: TournamentSpec;

beforeAll(async () => {
  dir = tempDir();
  spec = tournamentSpec({
    id: 'mtt-wire',
    name: 'Wire MTT',
    format: 'scheduled',
    maxEntrants: 40,
    minEntrants: 2,
    // Far ahead: the test starts it once its field is in (the operator's say), so a slow machine's
    // setup cannot run into the start and the end of late registration.
    startAt: timers.now() + 3_600_000,
    structure,
  });
  op = await startOperator({
    dataDir: dir.dir,
    lobby: { config: { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Test' }, tables: [] }, tables: [] },
    timers,
    table: { betweenHandsMs: 1000, practiceDelayMs: [40, 200] },
    rateLimit: { perSecond: 100_000, burst: 100_000, abuse: 1_000_000 },
    durability: 'normal',
    log: () => undefined,
    tournaments: { specs: [spec], practiceFillMs: null },
  });
});

afterAll(async () => {
  await op.close();
  dir.cleanup();
});

const seatOf = (m: ServerMessage): m is ServerMessageOf<'tournament.seat'> => m.type === 'tournament.seat';

describe('a multi-table tournament over the wire', () => {
  it('late registration, a rebuy, a table broken and its player moved with the new table stream, to the winner', async () => {
    const t = op.tournaments.get('mtt-wire')!;
    const a = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.2' });
    const b = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.3' });
    // The clients fold while the field is set (0.3: no bet, a fold when facing one, else check), then call everything.
    const style = { a: 0.3, b: 0.3 };
    const pa = new AutoPlayer(a, () => style.a);
    const pb = new AutoPlayer(b, () => style.b);

    const list = await a.request({ type: 'tournament.list' });
    if (list.type !== 'tournament.list') throw new Error(list.type);
    const version = list.tournaments.find((x) => x.tournamentId === 'mtt-wire')!.version;
    const regA = await a.request({ type: 'tournament.register', tournamentId: 'mtt-wire', version });
    if (regA.type !== 'tournament.registered') throw new Error(JSON.stringify(regA));
    for (let n = 0; n < PRACTICE; n++) {
      const p = practiceAccount(op.accounts, 300 + n);
      op.wallet.grantPlay(p.id, 10_000, { idempotencyKey: `grant:mtt-wire:${p.id}` });
      const r = t.register({ accountId: p.id, name: p.name, practice: true, ip: '127.0.0.1', sessionId: 'practice' }, t.version, { brain: new Scripted(1000 + n) });
      expect(r.ok).toBe(true);
    }

    expect(t.start()).toEqual({ ok: true });
    // The start: A's seat at one of 4 full tables, and its stream.
    const seatA = (await a.waitFor(seatOf, 20_000, true)) as ServerMessageOf<'tournament.seat'>;
    expect(seatA).toMatchObject({ tournamentId: 'mtt-wire', moved: false, why: 'start' });
    await a.waitFor((m) => m.type === 'table.snapshot' && m.tableId === seatA.tableId, 10_000, true);
    expect(t.liveTables().map((x) => x.seatsTaken)).toEqual([6, 6, 6, 6]);

    // A rebuys (T 5-2: at or below the starting stack), through the wire.
    const before = await a.request({ type: 'balance' });
    expect(await a.request({ type: 'tournament.rebuy', tournamentId: 'mtt-wire' })).toMatchObject({ type: 'ok' });
    const after = await a.request({ type: 'balance' });
    if (before.type !== 'balance' || after.type !== 'balance') throw new Error('balance');
    expect(before.balances.play - after.balances.play).toBe(1100);
    expect(t.all().find((x) => x.inscription === regA.inscription)!.rebuys).toBe(1);

    // B registers after the start (late registration): every table is full, so it opens table 5.
    expect(t.state).toBe('running');
    const regB = await b.request({ type: 'tournament.register', tournamentId: 'mtt-wire', version });
    if (regB.type !== 'tournament.registered') throw new Error(JSON.stringify(regB));
    const seatB = (await b.waitFor(seatOf, 10_000, true)) as ServerMessageOf<'tournament.seat'>;
    expect(seatB).toMatchObject({ tableId: 'mtt-wire-t5', moved: false, why: 'late' });
    await b.waitFor((m) => m.type === 'table.snapshot' && m.tableId === 'mtt-wire-t5', 10_000, true);

    // Play for real: the first bust (at B's table) leaves 24, table 5 is broken and B is moved, with the new table's stream.
    phase.only = t.all().find((x) => x.inscription === regB.inscription)!.player.name;
    phase.wild = true;
    const moved = (await b.waitFor((m) => seatOf(m) && m.moved, 60_000, true)) as ServerMessageOf<'tournament.seat'>;
    expect(moved).toMatchObject({ tournamentId: 'mtt-wire', moved: true, why: 'broken' });
    expect(moved.tableId).not.toBe('mtt-wire-t5');
    phase.only = null;
    await b.waitFor((m) => m.type === 'table.snapshot' && m.tableId === moved.tableId, 10_000, true);
    expect(t.liveTables().some((x) => x.tableId === 'mtt-wire-t5')).toBe(false);
    // B plays on where it was moved: a hand there reaches it. Not always at that first table: its
    // player due the big blind may be moved again to balance before a hand is dealt there (T 6-9, and
    // T 6-10 sat B in that place). Seen under load, when this test reads its messages late.
    const movedTo = (tableId: string) => b.received.some((x) => seatOf(x) && x.moved && x.tableId === tableId);
    await b.waitFor((m) => m.type === 'table.event' && m.event.type === 'handStart' && movedTo(m.tableId), 20_000, true);

    // To the winner.
    style.a = 0.99;
    style.b = 0.99;
    const finished = (c: TestClient) => c.waitFor((m) => m.type === 'tournament.finished', 150_000, true) as Promise<ServerMessageOf<'tournament.finished'>>;
    await Promise.all([finished(a), finished(b)]);
    await new Promise<void>((resolve, reject) => {
      const end = Date.now() + 150_000;
      const poll = () => (t.state === 'finished' ? resolve() : Date.now() > end ? reject(new Error(`${t.state}: ${t.remaining} left`)) : setTimeout(poll, 50));
      poll();
    });
    expect(pa.problems).toEqual([]);
    expect(pb.problems).toEqual([]);
    expect(a.invalid).toEqual([]);
    expect(b.invalid).toEqual([]);
    expect(t.entries).toBe(PRACTICE + 2);
    expect(placesProblem(t.all().map((x) => x.place))).toBeNull();
    // 25 entries and 1 rebuy (no one else rebuys: practice players here do not).
    expect(t.all().reduce((s, x) => s + x.prize!, 0)).toBe(26 * 1000);

    // The books: wallets + tables + tournaments + fees + rake = money in; the fund is empty.
    expect(op.wallet.audit().problems).toEqual([]);
    const books = tournamentAudit(op.db).play;
    expect(books.tournaments).toBe(0);
    expect(books.fees).toBe(26 * 100);
    expect(books.wallets + books.tables + books.tournaments + books.fees + books.rake).toBe(books.cameIn);
    op.outbox.flush();
    const recs = op.vault.byTech('mtt-wire');
    const kinds = (k: string) => recs.filter((r) => r.kind === k).length;
    expect(kinds('POINSCRIT')).toBe(25);
    expect(kinds('POACHAT')).toBe(1);
    expect(kinds('POBILAN')).toBe(25);
    expect(kinds('POJEU')).toBeGreaterThan(0);
    expect(op.vault.verifyChain().ok).toBe(true);
    await a.close();
    await b.close();
  }, 240_000);
});
