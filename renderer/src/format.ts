/**
 * Money on screen. Amounts are integer cents everywhere (DESIGN.md §3); formatting goes through a
 * decimal string so no float ever touches an amount.
 */
import type { HandMoney } from '../../shared/history/money';
import { centsText } from '../../shared/rules/money';
import { VARIANTS, type VariantCode } from '../../shared/rules/variants';
import { tournamentTableTitle } from './tournaments/names';
// Intl formatters are costly to build (they dominated the profile of 24 busy tables): one per kind.
const formatters = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, kind: 'EUR' | 'USD' | 'GBP' | 'chips', signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${kind}|${signed}`;
  let f = formatters.get(key);
  if (!f) {
    const sign = signed ? ('exceptZero' as const) : ('auto' as const);
    f = kind !== 'chips' ? new Intl.NumberFormat(locale, { style: 'currency', currency: kind, signDisplay: sign }) : new Intl.NumberFormat(locale, { maximumFractionDigits: 0, signDisplay: sign });
    formatters.set(key, f);
  }
  return f;
}

export function formatCents(cents: number, locale: string, signed = false): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an amount in cents: ${cents}`);
  return formatter(locale, 'EUR', signed).format(centsText(cents) as `${number}`);
}

/** Play chips (practice tables): whole numbers, grouped the local way. */
export function formatChips(chips: number, locale: string, signed = false): string {
  if (!Number.isSafeInteger(chips)) throw new RangeError(`not a chip count: ${chips}`);
  return formatter(locale, 'chips', signed).format(chips);
}

/**
 * An amount of a hand's money: cents of euros for real money, cents of dollars or pounds for an
 * imported site's hands in those, chips for play money and a tournament's chips. Each in its own
 * unit: never converted (R-RESULTS).
 */
export function formatAmount(amount: number, money: HandMoney, locale: string, signed = false): string {
  if (money === 'real') return formatCents(amount, locale, signed);
  if (money === 'play' || money === 'chips') return formatChips(amount, locale, signed);
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an amount in cents: ${amount}`);
  return formatter(locale, money === 'usd' ? 'USD' : 'GBP', signed).format(centsText(amount) as `${number}`);
}

/**
 * A table's name in the page's language: the embedded operator names its practice
 * tables `Practice <English game name>[ n]` (operator/config/config.ts); they read as
 * `Entraînement · <nom du jeu>` in French; a tournament's table is "Table n". Any other name is the
 * operator's own and shown as it is.
 */
export function tableName(name: string, variant: VariantCode | null, locale: string): string {
  // A tournament's table (`<tournament>, table <n>`) is "Table n" (renderer/src/tournaments/names.ts).
  const table = tournamentTableTitle(name);
  if (table !== null) return table;
  const m = /^Practice (.+?)( \d+)?$/.exec(name);
  // Without the game (a history row), it is the one whose English name the table carries.
  variant ??= m ? ((Object.keys(VARIANTS) as VariantCode[]).find((v) => VARIANTS[v].nameEn === m[1]) ?? null) : null;
  if (!m || variant === null || m[1] !== VARIANTS[variant].nameEn) return name;
  const fr = locale.startsWith('fr');
  return `${fr ? 'Entraînement' : 'Practice'} · ${fr ? VARIANTS[variant].nameFr : VARIANTS[variant].nameEn}${m[2] ?? ''}`;
}
