/**
 * The player's own account closure and the permanent self-exclusion that closes the account (R-EXCLUDE:
 * "A permanent exclusion closes the account; a player can also close their account themselves"), over
 * a real operator on loopback (TLS, SQLite files): asked with its confirmation, the client told, the
 * seat left with its stack, play and deposits refused under R-EXCLUDE with the reason worded, sign-in,
 * withdrawal and history still open.
 */
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../shared/protocol/messages';
import { TEST_CARDS } from '../cashier/provider';
import { testOperator } from '../../tests/integration/operator-harness';
import { TestClient } from '../../tests/support/operator/test-client';

const CASH = { id: 'cash', name: 'Cash', variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 2000 } } as const;
const HOUR = 3_600_000;
type Msg<K extends ServerMessage['type']> = Extract<ServerMessage, { type: K }>;

/** A registered real-money player, limits set, 5,000 cents deposited, seated alone at `cash` with 1,000. */
async function seatedPlayer(url: string, pin: string, username: string): Promise<{ c: TestClient; id: number }> {
  const c = await TestClient.connect(url, pin);
  await c.hello();
  const r = await c.request({ type: 'register', username, password: `${username}-password`, identity: { lastName: 'Martin', firstNames: username, birthDate: '1980-03-02' } });
  expect(r).toMatchObject({ type: 'authed' });
  for (const [limit, value] of [['deposit', 10_000], ['stake', 10_000], ['time', 10 * HOUR]] as const) await c.request({ type: 'protection.setLimit', limit, value });
  expect(await c.request({ type: 'cashier.deposit', requestId: `${username}-d`, amount: 5_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' } });
  expect(await c.join('cash', 1_000)).toMatchObject({ type: 'table.joined' });
  return { c, id: (r as Msg<'authed'>).account.id };
}

describe('closing the account (R-EXCLUDE)', () => {
  it('the player closes it, confirmed: told, stood up with the stack, no play or deposit, withdrawal and history open', async () => {
    const op = await testOperator('0191', [CASH]);
    const { c } = await seatedPlayer(op.url, op.pin, 'anna');
    // Confirmed twice on the client: the request says so, else the schema refuses it.
    c.send({ type: 'account.close', rid: 900 } as never);
    expect(await c.waitFor((m) => m.type === 'error' && m.rid === 900)).toMatchObject({ code: 'BAD_MESSAGE' });

    const told = c.waitFor((m) => m.type === 'account.closed');
    expect(await c.request({ type: 'account.close', confirm: true })).toMatchObject({ type: 'protection', protection: { closed: 'closed-by-player', withdrawable: 5_000 } });
    expect(await told).toMatchObject({ reason: 'closed-by-player' });
    // No hand in play at her table: the stack is back at once.
    expect(await c.waitFor((m) => m.type === 'table.left' && m.tableId === 'cash', 10_000, true)).toMatchObject({ cashedOut: 1_000 });
    expect(await c.request({ type: 'balance' })).toMatchObject({ balances: { real: 5_000 } });

    const deposit = (await c.request({ type: 'cashier.deposit', requestId: 'anna-2', amount: 100, card: TEST_CARDS.succeeds })) as Msg<'error'>;
    expect(deposit).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-EXCLUDE' });
    expect(deposit.message).toContain('you closed it');
    expect(await c.join('cash', 400)).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-EXCLUDE' });
    // Closed once: asking again changes nothing.
    expect(await c.request({ type: 'account.close', confirm: true })).toMatchObject({ protection: { closed: 'closed-by-player' } });
    await c.close();

    // Sign-in, history and withdrawal stay open.
    const again = await TestClient.connect(op.url, op.pin);
    await again.hello();
    expect(await again.request({ type: 'login', username: 'anna', password: 'anna-password' })).toMatchObject({ type: 'authed' });
    expect(await again.request({ type: 'history', cursor: null, limit: 10 })).toMatchObject({ type: 'history' });
    expect(await again.request({ type: 'cashier.withdraw', requestId: 'anna-w', amount: 5_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' }, balances: { real: 0 } });
    expect(op.accounts.findByUsername('anna')?.closed).toBe('closed-by-player');
    await again.close();
  });

  it('a permanent self-exclusion closes the account; one for a period does not', async () => {
    const op = await testOperator('0192', [CASH]);
    const dated = await seatedPlayer(op.url, op.pin, 'bruno');
    expect(await dated.c.request({ type: 'protection.exclude', choice: { kind: 'days', days: 7 }, confirm: true })).toMatchObject({ protection: { closed: null } });
    expect(await dated.c.waitFor((m) => m.type === 'table.left', 10_000, true)).toMatchObject({ cashedOut: 1_000 });
    expect(await dated.c.request({ type: 'cashier.deposit', requestId: 'b2', amount: 100, card: TEST_CARDS.succeeds })).toMatchObject({ code: 'SELF_EXCLUDED' });
    expect(dated.c.received.some((m) => m.type === 'account.closed')).toBe(false);
    await dated.c.close();

    const forever = await seatedPlayer(op.url, op.pin, 'carla');
    const told = forever.c.waitFor((m) => m.type === 'account.closed');
    expect(await forever.c.request({ type: 'protection.exclude', choice: { kind: 'permanent' }, confirm: true })).toMatchObject({
      protection: { closed: 'excluded-permanently', exclusion: { until: null } },
    });
    expect(await told).toMatchObject({ reason: 'excluded-permanently' });
    expect(await forever.c.waitFor((m) => m.type === 'table.left', 10_000, true)).toMatchObject({ cashedOut: 1_000 });
    const refused = (await forever.c.request({ type: 'cashier.deposit', requestId: 'c2', amount: 100, card: TEST_CARDS.succeeds })) as Msg<'error'>;
    expect(refused).toMatchObject({ code: 'ACCOUNT_CLOSED', rule: 'R-EXCLUDE' });
    expect(refused.message).toContain('you excluded yourself permanently');
    expect(await forever.c.request({ type: 'cashier.withdraw', requestId: 'c-w', amount: 5_000, card: TEST_CARDS.succeeds })).toMatchObject({ payment: { state: 'confirmed' } });
    expect(forever.c.invalid).toEqual([]);
    await forever.c.close();
  });
});
