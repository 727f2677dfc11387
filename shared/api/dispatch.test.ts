import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Handlers } from './contract';
import { dispatchCall } from './dispatch';

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  let settings = { ...DEFAULT_SETTINGS };
  return {
    appInfo: async () => ({ name: 'Cercle', version: '0.1.0', host: 'browser', platform: 'linux', dataDir: '/tmp/x' }),
    getSettings: async () => settings,
    updateSettings: async (patch) => (settings = { ...settings, ...patch }),
    openExternal: async () => ({ opened: false }),
    ...overrides,
  } as Handlers; // calls a test does not use are left out: dispatching one answers INTERNAL
}

describe('dispatchCall', () => {
  it('runs a valid call and returns its result', async () => {
    const h = handlers();
    expect(await dispatchCall(h, 'updateSettings', { language: 'en' })).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, language: 'en' } });
    expect(await dispatchCall(h, 'getSettings', {})).toMatchObject({ ok: true, value: { language: 'en' } });
  });

  it('refuses an unknown call, including prototype names', async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 42, null]) {
      const r = await dispatchCall(handlers(), name, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    }
  });

  it('refuses malformed arguments without calling the handler', async () => {
    let called = false;
    const h = handlers({ updateSettings: async () => { called = true; return DEFAULT_SETTINGS; } });
    const r = await dispatchCall(h, 'updateSettings', { language: 'de' });
    expect(r).toEqual({ ok: false, error: { code: 'BAD_REQUEST', message: 'updateSettings.language: expected one of fr, en' } });
    expect(called).toBe(false);
  });

  it('reports a handler failure or a malformed result as INTERNAL', async () => {
    const throwing = handlers({ getSettings: async () => { throw new Error('disk full'); } });
    expect(await dispatchCall(throwing, 'getSettings', {})).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'disk full' } });
    const bad = handlers({ getSettings: async () => ({ language: 'fr' }) as never });
    expect(await dispatchCall(bad, 'getSettings', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });
});
