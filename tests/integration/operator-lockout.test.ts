/**
 * A lock-out a stranger cannot use, over real sockets from distinct loopback
 * addresses (127/8 is all loopback on Linux): before the fix five wrong passwords from any address
 * locked the account for its owner too.
 */
import { describe, expect, it } from 'vitest';
import type { RunningOperator } from '../../operator/server/operator';
import { TestClient } from '../support/operator/test-client';
import { PLAY_TABLE, testOperator } from './operator-harness';

const operator = (): Promise<RunningOperator> => testOperator('0096', [PLAY_TABLE]);

/** Tries `password` for `username` from `localAddress`; the answer's type or error code. */
async function attempt(op: RunningOperator, localAddress: string, username: string, password: string): Promise<string> {
  const c = await TestClient.connect(op.url, op.pin, { localAddress });
  try {
    await c.hello();
    const r = await c.request({ type: 'login', username, password });
    return r.type === 'error' ? r.code : r.type;
  } finally {
    await c.close();
  }
}

describe('login lock-out', () => {
  it('guessing from one address locks that address out of the account, not the owner at another', async () => {
    const op = await operator();
    const owner = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.31' });
    await owner.hello();
    expect(await owner.request({ type: 'register', username: 'odile', password: 'odile password' })).toMatchObject({ type: 'authed' });
    await owner.close();

    const stranger = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.30' });
    await stranger.hello();
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await stranger.request({ type: 'login', username: 'odile', password: `guess ${i}` });
      answers.push(r.type === 'error' ? r.code : r.type);
    }
    expect(answers).toEqual([...new Array(5).fill('INVALID_CREDENTIALS'), 'RATE_LIMITED']);
    // The stranger's address is locked even with the right password; the owner's is not.
    expect(await stranger.request({ type: 'login', username: 'odile', password: 'odile password' })).toMatchObject({ type: 'error', code: 'RATE_LIMITED' });
    await stranger.close();
    expect(await attempt(op, '127.0.0.31', 'odile', 'odile password')).toBe('authed');
  });

  it('a guess spread over many addresses is stopped after 50 failures for new addresses, while the owner still signs in from theirs', async () => {
    const op = await operator();
    const owner = await TestClient.connect(op.url, op.pin, { localAddress: '127.0.0.33' });
    await owner.hello();
    expect(await owner.request({ type: 'register', username: 'olga', password: 'olga password' })).toMatchObject({ type: 'authed' });
    await owner.close();
    // 10 addresses, 5 guesses each: 50 failures in all (the 50th locks the account for new addresses).
    for (let a = 0; a < 10; a++) {
      const c = await TestClient.connect(op.url, op.pin, { localAddress: `127.0.2.${a + 1}` });
      await c.hello();
      for (let i = 0; i < 5; i++) expect(await c.request({ type: 'login', username: 'olga', password: `guess ${a}.${i}` })).toMatchObject({ code: 'INVALID_CREDENTIALS' });
      await c.close();
    }
    // A new address is slowed (locked 30 s, doubling); the owner's address is not.
    expect(await attempt(op, '127.0.2.99', 'olga', 'olga password')).toBe('RATE_LIMITED');
    expect(await attempt(op, '127.0.0.33', 'olga', 'olga password')).toBe('authed');
  });
});
