/**
 * Top-ups asked for during a hand are stakes (R-LIMITS, decree 2010-518 art. 16): over a real operator
 * on loopback (real TLS, real SQLite files, the test payment provider). Two top-ups that pass the
 * stake limit only together are refused when asked, not answered `ok` and dropped in silence when the
 * hand ends; and a queued top-up refused at the hand's end (the limit lowered meanwhile, which applies
 * at once) reaches the player as an `error` naming the table.
 */
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import { TEST_CARDS } from '../../operator/cashier/provider';
import { AutoPlayer, TestClient } from '../support/operator/test-client';
import { prng } from '../../shared/rules/engine/test-support';
import { testOperator } from './operator-harness';

// The hands wait 600 s for a player: Zoé's turn holds the hand while her top-ups are asked for.
const CASH = { id: 'cash', name: 'Cash', variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 2000 }, actionSeconds: 600 } as const;
const HOUR = 3_600_000;


/** A real-money player: identity, the three limits, a deposit, seated with `buyIn`. */
async function player(url: string, pin: string, address: string, username: string, lastName: string, stakeLimit: number, buyIn: number): Promise<{ c: TestClient; id: number }> {
  const c = await TestClient.connect(url, pin, { localAddress: address });
  await c.hello();
  const r = await c.request({ type: 'register', username, password: `${username}-password`, identity: { lastName, firstNames: 'Anne', birthDate: '1985-03-02' } });
  if (r.type !== 'authed') throw new Error(JSON.stringify(r));
  await c.request({ type: 'protection.setLimit', limit: 'deposit', value: 10_000 });
  expect(await c.request({ type: 'cashier.deposit', requestId: `${username}-d`, amount: 5_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' } });
  await c.request({ type: 'protection.setLimit', limit: 'stake', value: stakeLimit });
  await c.request({ type: 'protection.setLimit', limit: 'time', value: HOUR });
  expect(await c.join('cash', buyIn)).toMatchObject({ type: 'table.joined', stack: buyIn });
  return { c, id: r.account.id };
}

describe('top-ups during a hand are stakes (R-LIMITS)', () => {
  it('refuses the top-up that passes the limit with those already asked for, and tells the player of one refused when the hand ends', async () => {
    const op = await testOperator('0241', [CASH]);
    const anna = await player(op.url, op.pin, '127.0.0.51', 'anna', 'Martin', 10_000, 2_000);
    new AutoPlayer(anna.c, prng(7));
    const zoe = await player(op.url, op.pin, '127.0.0.52', 'zoe', 'Lefèvre', 1_900, 400);
    const seat = (op.db.prepare('SELECT seat FROM table_seats WHERE account_id = ?').get(zoe.id) as { seat: number }).seat;

    // Zoé's turn in a hand: the hand waits for her.
    // (The first hand starts as she sits: her turn may come in the snapshot rather than as an event.)
    const herTurn = (m: ServerMessage) => (m.type === 'table.event' && m.event.type === 'turn' && m.event.turn.seat === seat) || (m.type === 'table.snapshot' && m.table.turn?.seat === seat);
    await zoe.c.waitFor(herTurn, 20_000, true);
    // 400 staked; 1,000 more is within 1,900; 600 more would be 2,000 with the first: refused now.
    expect(await zoe.c.request({ type: 'table.topUp', tableId: 'cash', amount: 1_000 })).toMatchObject({ type: 'ok' });
    expect(await zoe.c.request({ type: 'table.topUp', tableId: 'cash', amount: 600 })).toMatchObject({ type: 'error', code: 'STAKE_LIMIT', rule: 'R-LIMITS', tableId: 'cash' });

    // The limit lowered to 1,000 applies at once (art. 16): the queued 1,000 no longer fits; she folds.
    expect(await zoe.c.request({ type: 'protection.setLimit', limit: 'stake', value: 1_000 })).toMatchObject({ protection: { limits: { stake: { value: 1_000 } } } });
    const told = zoe.c.waitFor((m) => m.type === 'error' && m.rid === null && m.code === 'STAKE_LIMIT', 20_000);
    zoe.c.send({ type: 'table.action', rid: 0, tableId: 'cash', actionId: 'z-fold', move: { type: 'fold' } });
    expect(await told).toMatchObject({ type: 'error', rid: null, code: 'STAKE_LIMIT', rule: 'R-LIMITS', tableId: 'cash' });

    // Nothing was bought: no top-up in the ledger, the stake counter at the buy-in alone.
    expect(op.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE account_id = ? AND reason = 'top-up'").get(zoe.id)).toEqual({ n: 0 });
    expect(await zoe.c.request({ type: 'protection.get' })).toMatchObject({ protection: { counters: { stakes: 400 } } });
    await zoe.c.close();
    await anna.c.close();
  });
});
