/**
 * Tournaments over the wire: real TLS on loopback, two scripted clients
 * pinning the operator's key, and a practice player the operator seats to fill the sit & go. The
 * lobby's list and details, a registration on the wrong version (R-INFO), unregistering before the
 * start (the whole entry back, POANNUL), the start when full, each client's seat and table stream,
 * every player's place and prize, the books and the trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessageOf } from '../../shared/protocol/messages';
import { prng } from '../../shared/rules/engine/test-support';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { scaledTimers } from '../../operator/tables/timers';
import { tempDir } from '../support/operator/temp-dir';
import { tournamentSpec } from '../support/operator/tournament-env';
import { tournamentAudit } from '../../operator/tournaments/audit';

const SNG = tournamentSpec({ id: 'sng-3', name: 'Trio', seats: 3, maxEntrants: 3, minEntrants: 3 });

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;

beforeAll(async () => {
  dir = tempDir();
  op = await startOperator({
    dataDir: dir.dir,
    lobby: { config: { version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Test' }, tables: [] }, tables: [] },
    // 40 times faster: 3-minute levels pass in 4.5 s, the 30 s action clock in 750 ms.
    timers: scaledTimers(40),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0] },
    rateLimit: { perSecond: 100_000, burst: 100_000, abuse: 1_000_000 },
    durability: 'normal',
    log: () => undefined,
    // Practice players fill the sit & go a second (of wall time) after the first person registers.
    tournaments: { specs: [SNG], practiceFillMs: 40_000 },
  });
});

afterAll(async () => {
  await op.close();
  dir.cleanup();
});

async function balance(c: TestClient): Promise<number> {
  const b = await c.request({ type: 'balance' });
  if (b.type !== 'balance') throw new Error(b.type);
  return b.balances.play;
}

describe('a sit & go over the wire', () => {
  it('two clients and a practice player: registration, refund, start, seats, places and prizes; the books and the trace', async () => {
    const a = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.2' });
    const b = await TestClient.guest(op.url, op.pin, { localAddress: '127.0.0.3' });
    const list = await a.request({ type: 'tournament.list' });
    if (list.type !== 'tournament.list') throw new Error(list.type);
    const sng = list.tournaments.find((t) => t.tournamentId === 'sng-3-1')!;
    expect(sng).toMatchObject({ state: 'registering', buyIn: 1000, fee: 100, seats: 3, entries: 0, kinds: '' });
    const details = await a.request({ type: 'tournament.details', tournamentId: 'sng-3-1' });
    if (details.type !== 'tournament.details') throw new Error(details.type);
    expect(details.tournament.structure.startingStack).toBe(10_000);
    // A sit & go starts full: its payouts are its full field's from the start (3 seats: the winner takes 3 × 1,000).
    expect(details.tournament.prizes).toEqual([3000]);

    // R-INFO: a registration on another version of the information is refused; nothing is taken.
    const start = await balance(a);
    expect(await a.request({ type: 'tournament.register', tournamentId: 'sng-3-1', version: '00000000000000' })).toMatchObject({ type: 'error', code: 'RULES_CHANGED' });
    expect(await a.request({ type: 'tournament.register', tournamentId: 'nope', version: sng.version })).toMatchObject({ type: 'error', code: 'UNKNOWN_TOURNAMENT' });
    expect(await a.request({ type: 'tournament.register', tournamentId: 'sng-3-1', version: sng.version })).toMatchObject({ type: 'tournament.registered' });
    expect(await balance(a)).toBe(start - 1100);
    // R-TOURN-LEAVE: unregistering before the start gives the whole entry back.
    expect(await a.request({ type: 'tournament.unregister', tournamentId: 'sng-3-1' })).toMatchObject({ type: 'tournament.unregistered', refunded: 1100 });
    expect(await balance(a)).toBe(start);

    const pa = new AutoPlayer(a, prng(3));
    const pb = new AutoPlayer(b, prng(4));
    const finished = (c: TestClient) => c.waitFor((m) => m.type === 'tournament.finished', 120_000, true) as Promise<ServerMessageOf<'tournament.finished'>>;
    const seatA = a.waitFor((m) => m.type === 'tournament.seat', 10_000);
    expect(await a.request({ type: 'tournament.register', tournamentId: 'sng-3-1', version: sng.version })).toMatchObject({ type: 'tournament.registered' });
    expect(await b.request({ type: 'tournament.register', tournamentId: 'sng-3-1', version: sng.version })).toMatchObject({ type: 'tournament.registered' });
    // The third seat is filled by a practice player: the tournament starts.
    const seat = (await seatA) as ServerMessageOf<'tournament.seat'>;
    expect(seat).toMatchObject({ tournamentId: 'sng-3-1', moved: false });
    await a.waitFor((m) => m.type === 'table.snapshot' && m.tableId === seat.tableId, 10_000, true);
    // The next sit & go of the kind is open.
    const again = await b.request({ type: 'tournament.list' });
    if (again.type !== 'tournament.list') throw new Error(again.type);
    expect(again.tournaments.find((t) => t.tournamentId === 'sng-3-2')?.state).toBe('registering');

    const [fa, fb] = await Promise.all([finished(a), finished(b)]);
    expect(pa.problems).toEqual([]);
    expect(pb.problems).toEqual([]);
    expect(pa.handsEnded + pb.handsEnded).toBeGreaterThan(0);
    const t = op.tournaments.get('sng-3-1')!;
    await new Promise<void>((resolve, reject) => {
      const end = Date.now() + 20_000;
      const poll = () => (t.state === 'finished' ? resolve() : Date.now() > end ? reject(new Error(t.state)) : setTimeout(poll, 20));
      poll();
    });
    // Places 1 to 3; one place paid up to 3 entrants (payouts.ts): the winner takes the 3,000.
    const places = t.all().map((e) => e.place).sort();
    expect(places).toEqual([1, 2, 3]);
    expect(t.all().map((e) => e.prize).sort((x, y) => y! - x!)).toEqual([3000, 0, 0]);
    expect(await balance(a)).toBe(start - 1100 + fa.prize);
    expect(await balance(b)).toBe(start - 1100 + fb.prize);
    const stateMsgs = a.received.filter((m): m is ServerMessageOf<'tournament.state'> => m.type === 'tournament.state');
    expect(stateMsgs.some((m) => m.standing.state === 'running')).toBe(true);
    expect(stateMsgs.some((m) => m.standing.state === 'finished')).toBe(true);
    expect(a.invalid).toEqual([]);
    expect(b.invalid).toEqual([]);

    // The books: wallets + tables + tournaments + fees + rake = money in; the fund is empty.
    expect(op.wallet.audit().problems).toEqual([]);
    const books = tournamentAudit(op.db).play;
    expect(books.tournaments).toBe(0);
    expect(books.fees).toBe(300);
    op.outbox.flush();
    const recs = op.vault.byTech('sng-3-1');
    const kinds = (k: string) => recs.filter((r) => r.kind === k).length;
    expect(kinds('POINSCRIT')).toBe(4);
    expect(kinds('POANNUL')).toBe(1);
    expect(kinds('POBILAN')).toBe(3);
    expect(kinds('POJEU')).toBeGreaterThan(0);
    expect(op.vault.verifyChain().ok).toBe(true);
    await a.close();
    await b.close();
  }, 180_000);
});

describe('practice tournaments in the embedded operator', () => {
  it('offers a play-money sit & go of every variant; the guest registers and practice players fill it, so it starts', async () => {
    const { startEmbeddedOperator } = await import('../../operator/embedded');
    const { VARIANT_CODES } = await import('../../shared/rules/variants');
    const t = tempDir();
    // Practice players fill a sit & go 3 s after a person registers (real time here).
    const emb = await startEmbeddedOperator({ dataDir: t.dir, log: () => undefined });
    try {
      const hub = emb.operator.tournaments;
      const open = hub.list().filter((x) => x.state === 'registering' && x.money === 'play' && x.format === 'sit-and-go');
      for (const v of VARIANT_CODES) expect(open.some((x) => x.variant === v && x.seats === 2)).toBe(true);
      const c = await TestClient.connect(emb.url, emb.pin);
      await c.hello();
      expect(await c.request({ type: 'resume', token: emb.guest.token, tables: [] })).toMatchObject({ type: 'authed' });
      const hu = open.find((x) => x.variant === 'THNL' && x.seats === 2)!;
      const seat = c.waitFor((m) => m.type === 'tournament.seat', 15_000);
      expect(await c.request({ type: 'tournament.register', tournamentId: hu.tournamentId, version: hu.version })).toMatchObject({ type: 'tournament.registered' });
      expect(await seat).toMatchObject({ tournamentId: hu.tournamentId });
      expect(hub.get(hu.tournamentId)!.state).toBe('running');
      await c.close();
    } finally {
      await emb.close();
      t.cleanup();
    }
  }, 60_000);
});
