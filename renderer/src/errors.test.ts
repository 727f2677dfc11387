import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/protocol/codes';
import en from './i18n/en';
import fr from './i18n/fr';
import { outcomeText } from './errors';

/** A `t` over one bundle that returns the key itself when the message is missing (as vue-i18n does). */
function tOf(bundle: unknown): (key: string) => string {
  return (key) => {
    let v: unknown = bundle;
    for (const part of key.split('.')) v = (v as Record<string, unknown> | undefined)?.[part];
    return typeof v === 'string' ? v : key;
  };
}

describe('refusal texts', () => {
  it('every code the operator may send reads as a sentence in French and in English, never as its key (issue 18 codes included)', () => {
    for (const [lang, bundle] of [['fr', fr], ['en', en]] as const) {
      const t = tOf(bundle);
      const raw = ERROR_CODES.filter((code) => outcomeText(t, { code }).startsWith('errors.'));
      expect({ lang, raw }).toEqual({ lang, raw: [] });
    }
  });
});
