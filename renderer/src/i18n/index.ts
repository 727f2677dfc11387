import { createI18n } from 'vue-i18n';
import type { Language } from '../../../shared/api';
import en from './en';
import fr from './fr';

export const i18n = createI18n({
  legacy: false,
  locale: 'fr',
  fallbackLocale: 'fr',
  messages: { fr, en },
  // Messages are plain strings with {named} slots; vue-i18n's JIT compiler needs no eval, which the CSP forbids.
  missingWarn: false,
  fallbackWarn: false,
});

export function setLocale(lang: Language): void {
  i18n.global.locale.value = lang;
  document.documentElement.lang = lang;
}
