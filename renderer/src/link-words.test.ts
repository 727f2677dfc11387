import { describe, expect, it } from 'vitest';
import { LINK_WHY, type LinkStatusView } from '../../shared/api';
import { i18n } from './i18n';
import { linkWords } from './link-words';

const t = (key: string, params?: Record<string, unknown>): string => i18n.global.t(key, params ?? {});
const UP = { up: true, retryAt: null };
const status = (s: Partial<LinkStatusView>): LinkStatusView => ({ state: 'offline', attempt: 0, retryInMs: null, why: null, reason: null, minVersion: null, ...s });

describe('the status bar words the link’s cause (French first)', () => {
  it('says every cause in French and in English, and never the link’s English detail', () => {
    for (const lang of ['fr', 'en'] as const) {
      i18n.global.locale.value = lang;
      for (const why of LINK_WHY) {
        const w = linkWords(status({ why, attempt: 8, reason: 'this account connected again elsewhere' }), UP, t, 0, null);
        // A missing message comes back as its key.
        expect(w.text, `${lang} ${why}`).not.toMatch(/link\.|connected again/);
        expect(w.title, `${lang} ${why}`).not.toMatch(/link\.|connected again/);
        expect(w.title.length, `${lang} ${why}`).toBeGreaterThan(20);
      }
    }
    i18n.global.locale.value = 'fr';
  });

  it('offline: the short cause after « Hors ligne », the whole one in the tooltip, « Reconnecter » offered when trying again can help', () => {
    i18n.global.locale.value = 'fr';
    const replaced = linkWords(status({ why: 'replaced' }), UP, t, 0, null);
    expect(replaced).toEqual({ text: 'Hors ligne · compte connecté ailleurs', title: expect.stringContaining('connecté ailleurs'), reconnect: true });
    const gaveUp = linkWords(status({ why: 'gave-up', attempt: 8 }), UP, t, 0, null);
    expect(gaveUp.title).toContain('après 8 tentatives');
    expect(gaveUp.reconnect).toBe(true);
    // Closed by Cercle itself (a new link follows), or nothing to connect to until Settings are saved.
    expect(linkWords(status({ why: 'closed' }), UP, t, 0, null).reconnect).toBe(false);
    expect(linkWords(status({ why: 'settings' }), UP, t, 0, null).reconnect).toBe(false);
    expect(linkWords(status({ why: null }), UP, t, 0, null)).toEqual({ text: 'Hors ligne', title: '', reconnect: true });
  });

  it('retrying: the countdown, the cause in the tooltip, nothing to press; connected: nothing more', () => {
    i18n.global.locale.value = 'fr';
    const r = linkWords(status({ state: 'reconnecting', why: 'embedded-stopped', attempt: 1, retryInMs: 2_000 }), UP, t, 10_000, 12_000);
    expect(r).toEqual({ text: 'Opérateur injoignable · reconnexion dans 2 s', title: 'L’opérateur intégré s’est arrêté : Cercle le redémarre et reprend votre session.', reconnect: false });
    expect(linkWords(status({ state: 'connected' }), UP, t, 0, null)).toEqual({ text: 'Connecté', title: '', reconnect: false });
    expect(linkWords(status({ state: 'update-required', why: 'update' }), UP, t, 0, null)).toMatchObject({ text: 'Mise à jour requise', reconnect: false });
    expect(linkWords(null, UP, t, 0, null)).toEqual({ text: 'Démarrage…', title: '', reconnect: false });
  });
});
