/**
 * An account call made while the client switches operators (core.session.reconnect(): the settings name
 * another operator, or the player reconnects), against two real embedded operators on loopback TLS:
 * the call waits for the new link instead of going to the closing one, where it came back
 * DISCONNECTED (or OFFLINE between the two links) and the page showed that failure
 * (electron/services/client/switch.ts).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedOperator, type EmbeddedOperator } from '../../operator/embedded';
import { developmentLaunch, launchEmbeddedOperator, type EmbeddedOperatorProcess } from '../../electron/services/embedded';
import { memoryVault, type ClientCore, type TokenVault } from '../../electron/services/client';
import type { Outcome } from '../../shared/api';
import { tempDir } from '../support/operator/temp-dir';
import { clientFor, until } from './client-tournament-env';

const PASSWORD = 'correct horse battery';
// Practice players that act rarely: these operators only sign players in.
const QUIET = { practiceDelayMs: [1_000, 2_000] as const, betweenHandsMs: 5_000 };

let dir: ReturnType<typeof tempDir>;
let a: EmbeddedOperator;
let b: EmbeddedOperator;
let client: ReturnType<typeof clientFor>;
let core: ClientCore;
let call: ReturnType<typeof clientFor>['call'];
const vault: TokenVault = memoryVault();

function custom(op: EmbeddedOperator, pin = op.pin): { operator: { mode: 'custom'; url: string; pins: string[] } } {
  return { operator: { mode: 'custom', url: op.url, pins: [pin] } };
}

/** Whether this operator holds an account of that name. */
function holds(op: EmbeddedOperator, username: string): boolean {
  return op.operator.db.prepare('SELECT 1 FROM accounts WHERE username = ?').get(username) !== undefined;
}

beforeAll(async () => {
  dir = tempDir('cercle-client-switch-');
  a = await startEmbeddedOperator({ dataDir: join(dir.dir, 'a'), log: () => undefined, timing: QUIET });
  b = await startEmbeddedOperator({ dataDir: join(dir.dir, 'b'), log: () => undefined, timing: QUIET });
  client = clientFor(a, join(dir.dir, 'client'), vault);
  ({ core, call } = client);
  await core.start();
  await until(() => core.session.view().link.state === 'connected', 10_000, 'connected to operator A');
}, 30_000);

afterAll(async () => {
  await client?.close();
  await a?.close();
  await b?.close();
  dir?.cleanup();
});

describe('an account call during an operator switch', () => {
  it('a sign-up made as the settings name another operator is made there, not refused on the closing link', async () => {
    // The two calls in one turn, as the page sends them: the switch has begun, the old link still stands.
    const [, signUp] = await Promise.all([call('updateSettings', custom(b)), call<Outcome>('login', { username: 'alice', password: PASSWORD, register: true })]);
    expect(signUp).toEqual({ ok: true });
    expect(core.session.view().operator.url).toBe(b.url);
    expect(core.session.view().account).toEqual({ username: 'alice', guest: false });
    expect(holds(b, 'alice')).toBe(true);
    expect(holds(a, 'alice')).toBe(false);
  }, 30_000);

  it('a login made once the settings answered, while the old link closes, signs in on the new operator', async () => {
    expect((await a.operator.accounts.register('bob', PASSWORD)).ok).toBe(true);
    await call('updateSettings', custom(a));
    expect(await call<Outcome>('login', { username: 'bob', password: PASSWORD, register: false })).toEqual({ ok: true });
    expect(core.session.view().operator.url).toBe(a.url);
    expect(core.session.view().account).toEqual({ username: 'bob', guest: false });
  }, 30_000);

  it('a logout made as the player reconnects signs out on the new link: the session is closed at the operator', async () => {
    // Signed in as bob on A (by the test before, resumed by this reconnection; run alone, this test signs in first).
    expect(await call('reconnect')).toEqual({ ok: true });
    if (core.session.view().account === null) expect(await call<Outcome>('login', { username: 'bob', password: PASSWORD, register: false })).toEqual({ ok: true });
    await until(() => vault.load() !== null, 5_000, "bob's session token kept");
    const token = vault.load()!;
    const [, out] = await Promise.all([call('reconnect'), call<Outcome>('logout')]);
    expect(out).toEqual({ ok: true });
    expect(core.session.view().account).toBeNull();
    expect(vault.load()).toBeNull();
    expect(a.operator.accounts.authenticate(token)).toMatchObject({ ok: false });
  }, 30_000);

  it('a login made as the settings name an operator whose pin is wrong says why, once that link has refused it', async () => {
    const [, login] = await Promise.all([call('updateSettings', custom(b, 'sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=')), call<Outcome>('login', { username: 'alice', password: PASSWORD, register: false })]);
    expect(login).toMatchObject({ ok: false, code: 'OFFLINE' });
    expect(login.ok ? '' : login.message).toMatch(/pin/i);
    expect(core.session.view().link.state).toBe('offline');
  }, 30_000);

  it('a login made as the settings change and the player reconnects at once goes to the link that stays', async () => {
    const [, , login] = await Promise.all([call('updateSettings', custom(a)), call('reconnect'), call<Outcome>('login', { username: 'bob', password: PASSWORD, register: false })]);
    expect(login).toEqual({ ok: true });
    expect(core.session.view().link.state).toBe('connected');
    expect(core.session.view().operator.url).toBe(a.url);
    expect(core.session.view().account).toEqual({ username: 'bob', guest: false });
  }, 30_000);
});

describe('the embedded operator killed and started again', () => {
  it('resumes the session the player had (an account, or none), and account calls made meanwhile wait for it instead of OFFLINE', async () => {
    const t = tempDir('cercle-client-relaunch-');
    // The embedded operator as the client runs it: a child process of its own (launcher.ts), each
    // launch on the same data folder (accounts and sessions kept), every process seen so the test can kill one.
    const launched: EmbeddedOperatorProcess[] = [];
    const launch = { dataDir: join(t.dir, 'operator'), ...developmentLaunch(fileURLToPath(new URL('../../', import.meta.url))), log: () => undefined };
    const c = clientFor(null, join(t.dir, 'client'), memoryVault(), async () => {
      const p = await launchEmbeddedOperator(launch);
      launched.push(p);
      return p;
    });
    const session = () => c.core.session.view();
    /** Kills the operator running now (SIGKILL: no goodbye); the client says so and starts another after its back-off. */
    const killNow = async () => {
      const p = launched[launched.length - 1];
      process.kill(p.pid, 'SIGKILL');
      expect((await p.exited).signal).toBe('SIGKILL');
      await until(() => session().link.state === 'reconnecting', 5_000, 'the status says reconnecting');
    };
    try {
      await c.core.start();
      await until(() => session().link.state === 'connected' && session().account !== null, 30_000, 'the guest signed in');
      expect(session().account?.guest).toBe(true);
      // The player leaves the guest for an account of their own on it.
      expect(await c.call<Outcome>('logout')).toEqual({ ok: true });
      expect(await c.call<Outcome>('login', { username: 'carol', password: PASSWORD, register: true })).toEqual({ ok: true });

      // Killed: started again, it resumes carol (sessions are in its database), not the guest.
      await killNow();
      await until(() => session().link.state === 'connected' && session().account !== null, 30_000, 'resumed after the first kill');
      expect(session().account).toEqual({ username: 'carol', guest: false });

      // Signed out, then killed: a login made while it is started again waits for the new link and
      // signs in there (before: OFFLINE at once; and the relaunch signed the guest in, so a login
      // would have been refused ALREADY_AUTHENTICATED).
      expect(await c.call<Outcome>('logout')).toEqual({ ok: true });
      await killNow();
      expect(await c.call<Outcome>('login', { username: 'carol', password: PASSWORD, register: false })).toEqual({ ok: true });
      expect(session().link.state).toBe('connected');
      expect(session().account).toEqual({ username: 'carol', guest: false });

      // A logout made while it is started again signs out on the new link.
      await killNow();
      expect(await c.call<Outcome>('logout')).toEqual({ ok: true });
      expect(session().account).toBeNull();
      expect(launched).toHaveLength(4);
    } finally {
      await c.close();
      for (const p of launched) await p.stop().catch(() => undefined);
      t.cleanup();
    }
  }, 120_000);
});
