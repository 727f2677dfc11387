/**
 * What the embedded operator's process inherits: only the few variables Node and
 * SQLite read, never the whole environment of the client. Checked on a real child process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_ENV_NAMES, embeddedChildEnv, nodeChild } from './launcher';

const SECRET = 'CERCLE_TEST_LAUNCHER_SECRET';
afterEach(() => {
  delete process.env[SECRET];
});

describe('the embedded operator environment', () => {
  it('keeps the allowed names (any case, as on Windows) and the launcher\'s own, nothing else', () => {
    const env = embeddedChildEnv({ TMPDIR: '/t', SystemRoot: 'C:\\Windows', TZ: 'UTC', PATH: '/bin', HOME: '/home/p', AWS_SECRET_ACCESS_KEY: 'x', NODE_OPTIONS: '--require evil' }, { CERCLE_X: '1' });
    expect(env).toEqual({ TMPDIR: '/t', SystemRoot: 'C:\\Windows', TZ: 'UTC', CERCLE_X: '1' });
    expect(EMBEDDED_ENV_NAMES).not.toContain('PATH');
  });

  it('a real child process does not see a secret of its parent', async () => {
    process.env[SECRET] = 'do-not-leak';
    const child = nodeChild(process.execPath, ['-e', 'process.send(process.env, () => process.disconnect())'], { CERCLE_GIVEN: 'yes' });
    const env = await new Promise<Record<string, string>>((done) => child.onMessage((m) => done(m as Record<string, string>)));
    await child.exited;
    expect(env[SECRET]).toBeUndefined();
    expect(env.CERCLE_GIVEN).toBe('yes');
    // Node adds its IPC channel's variables (and macOS its text encoding); the rest are the allowed names.
    const others = Object.keys(env).filter((k) => !k.startsWith('NODE_CHANNEL_') && !k.startsWith('__CF_') && k !== 'CERCLE_GIVEN');
    expect(others.every((k) => EMBEDDED_ENV_NAMES.includes(k.toUpperCase()))).toBe(true);
  });
});
