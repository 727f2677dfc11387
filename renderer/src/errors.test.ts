/** What the player reads of a refusal: every detail the operator gave, in the page's language. */
import { afterEach, describe, expect, it } from 'vitest';
import type { TableRefusalView } from '../../shared/api';
import { ERROR_CODES } from '../../shared/protocol/codes';
import en from './i18n/en';
import fr from './i18n/fr';
import { outcomeText } from './errors';
import { i18n } from './i18n';

afterEach(() => {
  i18n.global.locale.value = 'fr';
});

/** A refusal as the operator sends it and the client core keeps it for the table (client-core.test.ts). */
const check: TableRefusalView = { code: 'ILLEGAL_ACTION', rule: 'R-TERMS', message: 'a check cannot answer a bet: call 50 or fold', call: 50 };
const raise: TableRefusalView = { code: 'ILLEGAL_ACTION', rule: 'R-MINRAISE', message: 'raise to 200 to 5000, not 150', min: 200, max: 5000 };
const t = (key: string, named?: Record<string, unknown>) => i18n.global.t(key, named ?? {});

describe('outcomeText', () => {
  it('French first: the code, the rule, the chips a call adds', () => {
    expect(outcomeText(t, check)).toBe('Action refusée par les règles. Règle R-TERMS. À suivre : 50.');
  });

  it('the allowed range, amounts formatted as the table shows them', () => {
    expect(outcomeText(t, raise, (n) => `${n} jetons`)).toBe('Action refusée par les règles. Règle R-MINRAISE. Autorisé : de 200 jetons à 5000 jetons.');
  });

  it('in English too', () => {
    i18n.global.locale.value = 'en';
    expect(outcomeText(t, check)).toContain('Rule R-TERMS. To call: 50.');
    expect(outcomeText(t, raise)).toContain('Allowed: 200 to 5000.');
  });

  it('a refusal without details says only why', () => {
    expect(outcomeText(t, { code: 'NOT_SEATED' })).toBe("Vous n'êtes pas assis à cette table.");
  });
});

/** A `t` over one bundle that returns the key itself when the message is missing (as vue-i18n does). */
function tOf(bundle: unknown): (key: string) => string {
  return (key) => {
    let v: unknown = bundle;
    for (const part of key.split('.')) v = (v as Record<string, unknown> | undefined)?.[part];
    return typeof v === 'string' ? v : key;
  };
}

describe('refusal texts', () => {
  it('every code the operator may send reads as a sentence in French and in English, never as its key (cashier and protection codes included)', () => {
    for (const [lang, bundle] of [['fr', fr], ['en', en]] as const) {
      const t = tOf(bundle);
      const raw = ERROR_CODES.filter((code) => outcomeText(t, { code }).startsWith('errors.'));
      expect({ lang, raw }).toEqual({ lang, raw: [] });
    }
  });
});
