/**
 * The one-address rule holds after reconnecting (R-NOBOT, D art. 2), over real
 * sockets from distinct loopback addresses: before the fix a player could come back from the address
 * of another player at the table and play beside them, and the trace kept their old address.
 */
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import type { RunningOperator } from '../../operator/server/operator';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { prng } from '../../shared/rules/engine/test-support';
import { PLAY_TABLE, testOperator } from './operator-harness';

// The hands wait 600 s for a player: Carl's turn holds the hand while he reconnects.
const operator = (): Promise<RunningOperator> => testOperator('0095', [{ ...PLAY_TABLE, actionSeconds: 600 }]);

type Authed = Extract<ServerMessage, { type: 'authed' }>;

async function signUp(op: RunningOperator, localAddress: string, username: string): Promise<{ c: TestClient; authed: Authed }> {
  const c = await TestClient.connect(op.url, op.pin, { localAddress });
  await c.hello();
  const authed = await c.request({ type: 'register', username, password: `${username} password` });
  if (authed.type !== 'authed') throw new Error(JSON.stringify(authed));
  return { c, authed };
}

describe('reconnecting from another address', () => {
  it('refuses the table to a player who comes back from the address of another player there, and moves the seat, its records included, to a new address', async () => {
    const op = await operator();
    const a = await signUp(op, '127.0.0.41', 'anna');
    const c = await signUp(op, '127.0.0.42', 'carl');
    new AutoPlayer(a.c, prng(3)); // Anna plays on; the hands wait for Carl
    for (const x of [a, c]) expect(await x.c.join('p1', 1000)).toMatchObject({ type: 'table.joined' });
    const inscription = (op.db.prepare('SELECT inscription FROM table_seats WHERE account_id = ?').get(c.authed.account.id) as { inscription: string }).inscription;

    // Carl's line drops; he comes back from Anna's address.
    c.c.cut();
    const there = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.41' });
    await there.hello();
    const refusal = there.waitFor((m) => m.type === 'error' && m.code === 'SAME_ADDRESS');
    refusal.catch(() => undefined); // awaited below; not an unhandled rejection if the socket closes first
    const back = await there.request({ type: 'resume', token: c.authed.token!, tables: [] });
    // Signed in, but not back at the table: no seat listed, an R-NOBOT refusal, no table frames.
    expect(back).toMatchObject({ type: 'authed', seated: [] });
    expect(await refusal).toMatchObject({ type: 'error', rid: null, code: 'SAME_ADDRESS', rule: 'R-NOBOT', tableId: 'p1' });
    await new Promise((r) => setTimeout(r, 100));
    expect(there.received.filter((m) => m.type === 'table.snapshot' || m.type === 'table.event')).toEqual([]);
    // The seat still holds Carl's first address.
    expect(op.db.prepare('SELECT ip FROM table_seats WHERE inscription = ?').get(inscription)).toEqual({ ip: '127.0.0.42' });
    await there.close();

    // From a third address, signing in again (a new session): back at the table, the seat moved.
    const elsewhere = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.43' });
    await elsewhere.hello();
    const again = (await elsewhere.request({ type: 'login', username: 'carl', password: 'carl password' })) as Authed;
    expect(again).toMatchObject({ type: 'authed', seated: ['p1'] });
    expect(again.sessionId).not.toBe(c.authed.sessionId);
    expect(op.db.prepare('SELECT ip, session_id FROM table_seats WHERE inscription = ?').get(inscription)).toEqual({ ip: '127.0.0.43', session_id: again.sessionId });
    const movedAt = op.vault.head().idEvt;

    // Carl leaves during the hand: the hand's POJEU and his POBILAN carry where he is now.
    expect(['ok', 'table.left']).toContain((await elsewhere.request({ type: 'table.leave', tableId: 'p1' })).type);
    const after = [] as { kind: string; xml: string }[];
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      after.length = 0;
      for (let i = movedAt + 1; i <= op.vault.head().idEvt; i++) {
        const r = op.vault.get(i);
        if (r && r.xml.includes(inscription)) after.push({ kind: r.kind, xml: r.xml });
      }
      if (after.some((r) => r.kind === 'POBILAN')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(after.map((r) => r.kind)).toContain('POBILAN');
    expect(after.map((r) => r.kind)).toContain('POJEU');
    for (const r of after) {
      expect(r.xml, r.kind).toContain('<IPJoueur>127.0.0.43</IPJoueur>');
      expect(r.xml, r.kind).not.toContain('127.0.0.42');
    }
    const bilan = after.find((r) => r.kind === 'POBILAN')!;
    expect(bilan.xml).toContain(`<IDSession>${again.sessionId}</IDSession>`);
    await elsewhere.close();
    await a.c.close();
  });

  it('gives a seat whose rebind was refused no voice from the new connection: no action, sit out or in, top-up, leave or snapshot (R-NOBOT)', async () => {
    const op = await operator();
    const a = await signUp(op, '127.0.0.44', 'anna');
    const c = await signUp(op, '127.0.0.45', 'carl');
    new AutoPlayer(a.c, prng(5)); // Anna plays on; the hands wait for Carl
    for (const x of [a, c]) expect(await x.c.join('p1', 1000)).toMatchObject({ type: 'table.joined' });
    const seat = () => op.db.prepare('SELECT ip, session_id, stack FROM table_seats WHERE account_id = ?').get(c.authed.account.id);
    const before = seat();

    // Carl's line drops; he comes back from Anna's address: signed in, the seat refused to this connection.
    c.c.cut();
    const there = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.44' });
    await there.hello();
    const refusal = there.waitFor((m) => m.type === 'error' && m.code === 'SAME_ADDRESS');
    refusal.catch(() => undefined);
    expect(await there.request({ type: 'resume', token: c.authed.token!, tables: [] })).toMatchObject({ type: 'authed', seated: [] });
    await refusal;

    // Every seat request from this connection is refused; before, each acted for the seat it does not hold.
    const requests = [
      { type: 'table.action', tableId: 'p1', actionId: 'x1', move: { type: 'fold' } },
      { type: 'table.sitOut', tableId: 'p1' },
      { type: 'table.sitIn', tableId: 'p1', waitForBigBlind: false },
      { type: 'table.waitForBigBlind', tableId: 'p1', waitForBigBlind: true },
      { type: 'table.topUp', tableId: 'p1', amount: 500 },
      { type: 'table.snapshot', tableId: 'p1' },
      { type: 'table.leave', tableId: 'p1' },
    ] as const;
    for (const m of requests) {
      expect(await there.request(m), m.type).toMatchObject({ type: 'error', code: 'SEAT_ELSEWHERE', rule: 'R-NOBOT', tableId: 'p1' });
    }
    // The seat is as it was: Carl's first address and session, his stack, still at the table.
    expect(seat()).toEqual(before);
    expect(there.received.filter((m) => m.type === 'table.snapshot' || m.type === 'table.event' || m.type === 'table.left')).toEqual([]);
    await there.close();
    await a.c.close();
  });
});
