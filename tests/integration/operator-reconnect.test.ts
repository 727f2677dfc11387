/**
 * Disconnections over real sockets: a client that reconnects mid-hand gets what it missed (or a
 * snapshot) and the hand goes on; a client that never comes back is folded by the clock, sat out,
 * and after the grace period loses the seat with its stack returned to the wallet (R-CASH).
 * Table time runs 200 times faster than the wall clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../shared/rules/engine/test-support';
import { tablesOf } from '../../operator/config/config';
import { startOperator, type RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { scaledTimers } from '../../operator/tables/timers';
import { tempDir } from '../support/operator/temp-dir';

let dir: { dir: string; cleanup: () => void };
let op: RunningOperator;

beforeAll(async () => {
  dir = tempDir();
  const table = (id: string) => ({
    id,
    name: id,
    variant: 'THNL',
    money: 'play',
    stakes: { smallBlind: 10, bigBlind: 20 },
    seats: 6,
    buyIn: { min: 400, max: 4000 },
    actionSeconds: 20,
    timeBankSeconds: 20,
  });
  op = await startOperator({
    dataDir: dir.dir,
    lobby: tablesOf({ version: 1, operator: { idOper: '0099', idCoffre: 1, name: 'Test' }, tables: [table('back'), table('gone')] }),
    timers: scaledTimers(200),
    table: { betweenHandsMs: 0, practiceDelayMs: [0, 0], disconnectGraceMs: 200_000 },
    trustProxy: true,
    durability: 'normal',
    log: () => undefined,
  });
});

afterAll(async () => {
  await op?.close();
  dir?.cleanup();
});

async function seat(tableId: string, ip: string, seed: number): Promise<{ p: AutoPlayer; token: string; id: number }> {
  const c = await TestClient.connect(op.url, op.pin, { forwardedFor: ip });
  await c.hello();
  const a = await c.request({ type: 'guest' });
  if (a.type !== 'authed') throw new Error('guest');
  const p = new AutoPlayer(c, prng(seed));
  expect(await c.join(tableId, 2000)).toMatchObject({ type: 'table.joined' });
  return { p, token: a.token!, id: a.account.id };
}

async function until(cond: () => boolean, ms = 20_000, why?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out ${why?.() ?? ''}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('reconnecting', () => {
  it('a client that drops mid-hand and resumes gets the missed frames, acts, and the hand goes on', async () => {
    const a = await seat('back', '203.0.113.1', 1);
    const b = await seat('back', '203.0.113.2', 2);
    await until(() => b.p.handsEnded >= 3);
    // a stops acting; once it is a's turn, a's connection dies.
    a.p.paused = true;
    await until(() => {
      const t = a.p.tables.get('back');
      return !!t?.hand && t.turn === t.seat;
    });
    const before = a.p.tables.get('back')!;
    const handId = before.hand!.handId;
    a.p.client.cut();
    await until(() => op.manager.get('back')!.snapshot(a.id).table.seats[before.seat!]?.connected === false);

    const c = await TestClient.connect(op.url, op.pin, { forwardedFor: '203.0.113.1' });
    await c.hello();
    const again = new AutoPlayer(c, prng(3));
    again.paused = true; // replayed frames are applied first; a client acts on the latest turn only
    again.tables.set('back', { ...before, busy: false });
    const authed = await c.request({ type: 'resume', token: a.token, tables: [{ tableId: 'back', lastSeq: before.seq }] });
    expect(authed).toMatchObject({ type: 'authed', seated: ['back'] });
    // No snapshot was needed: the missed frames came, numbered on from lastSeq.
    expect(c.received.some((m) => m.type === 'table.snapshot')).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    again.resume();
    await until(() => again.handsEnded >= 1);
    expect(again.problems).toEqual([]);
    const ended = c.received.find((m) => m.type === 'table.event' && m.event.type === 'handEnd');
    expect(ended && ended.type === 'table.event' && ended.event.type === 'handEnd' && ended.event.record.handId).toBe(handId);

    // Resuming without a sequence number gives a full snapshot of the table.
    const d = await TestClient.connect(op.url, op.pin, { forwardedFor: '203.0.113.1' });
    await d.hello();
    await d.request({ type: 'resume', token: a.token, tables: [] });
    const snap = await d.waitFor((m) => m.type === 'table.snapshot');
    expect(snap).toMatchObject({ type: 'table.snapshot', tableId: 'back', table: { you: { seat: before.seat } } });
    await d.close();
    await b.p.client.close();
    expect(b.p.problems).toEqual([]);
  });

  it('a client that never comes back is folded by the clock, sat out, and after the grace period leaves with its stack', async () => {
    const a = await seat('gone', '203.0.113.11', 11);
    a.p.paused = true;
    a.p.client.cut();
    await until(() => !op.manager.get('gone')!.snapshot(null).table.seats.some((s) => s?.connected));
    const seatA = op.manager.get('gone')!.seatOf(a.id)!;
    const b = await seat('gone', '203.0.113.12', 12);
    // The clock plays for a: check or fold (R-FORCED), then a is sat out.
    const state = () =>
      JSON.stringify({ table: op.manager.get('gone')!.snapshot(b.id).table.turn, b: b.p.tables.get('gone')?.turn, busy: b.p.tables.get('gone')?.busy, last: b.p.client.received.slice(-4) }).slice(0, 3000);
    await until(() => b.p.client.received.some((m) => m.type === 'table.event' && m.event.type === 'action' && m.event.by === 'clock'), 20_000, state);
    await until(() => b.p.client.received.some((m) => m.type === 'table.event' && m.event.type === 'seat' && m.event.seat === seatA && m.event.player.status === 'sitting-out'));
    // After the grace period the seat is released.
    await until(() => b.p.client.received.some((m) => m.type === 'table.event' && m.event.type === 'left' && m.event.seat === seatA));
    expect(op.manager.get('gone')!.isSeated(a.id)).toBe(false);
    const bilan = op.vault.byTech('gone').filter((r) => r.kind === 'POBILAN');
    expect(bilan.length).toBe(1);
    // Whatever a had at the table is back in the wallet.
    const bStack = op.manager.get('gone')!.players().find((p) => p.accountId === b.id)!.stack;
    const aWallet = op.wallet.balance(a.id, 'play');
    const bWallet = op.wallet.balance(b.id, 'play');
    expect(aWallet + bWallet + bStack).toBe(200_000);
    expect(op.wallet.audit().problems).toEqual([]);
    await b.p.client.close();
  });
});
