import { describe, expect, it } from 'vitest';
import { arr, bool, int, nullable, obj, oneOf, str, validate } from './index';

describe('validators', () => {
  const settings = obj(
    { language: oneOf('fr', 'en'), sounds: bool, stake: int({ min: 0, max: 1_000_000 }), pins: arr(str({ max: 60 }), { max: 4 }), note: nullable(str({ max: 5 })) },
    ['note'],
  );

  it('accepts a well-formed object and keeps its value', () => {
    const r = validate(settings, { language: 'fr', sounds: true, stake: 200, pins: ['sha256/x'] });
    expect(r).toEqual({ ok: true, value: { language: 'fr', sounds: true, stake: 200, pins: ['sha256/x'] } });
  });

  it('names the failing path', () => {
    expect(validate(settings, { language: 'de', sounds: true, stake: 1, pins: [] })).toEqual({
      ok: false,
      error: 'value.language: expected one of fr, en',
    });
    expect(validate(settings, { language: 'fr', sounds: true, stake: 1, pins: ['a', 7] }, 'settings')).toEqual({
      ok: false,
      error: 'settings.pins[1]: expected a string',
    });
  });

  it('refuses floats and out-of-range integers for money', () => {
    expect(validate(int({ min: 0, max: 100 }), 1.5).ok).toBe(false);
    expect(validate(int({ min: 0, max: 100 }), 101).ok).toBe(false);
    expect(validate(int({ min: 0, max: 100 }), Number.NaN).ok).toBe(false);
  });

  it('refuses unknown fields, missing fields, oversized strings and arrays', () => {
    expect(validate(settings, { language: 'fr', sounds: true, stake: 1, pins: [], extra: 1 }).ok).toBe(false);
    expect(validate(settings, { language: 'fr', sounds: true, pins: [] }).ok).toBe(false);
    expect(validate(settings, { language: 'fr', sounds: true, stake: 1, pins: [], note: 'toolong' }).ok).toBe(false);
    expect(validate(settings, { language: 'fr', sounds: true, stake: 1, pins: ['a', 'b', 'c', 'd', 'e'] }).ok).toBe(false);
  });

  it('refuses objects that are not plain (prototype tricks)', () => {
    class Evil {
      language = 'fr';
    }
    expect(validate(obj({ language: oneOf('fr') }), new Evil()).ok).toBe(false);
    expect(validate(obj({ language: oneOf('fr') }), JSON.parse('{"__proto__": {"x": 1}, "language": "fr"}')).ok).toBe(false);
  });
});
