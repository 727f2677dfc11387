/**
 * The money a stored hand is counted in (R-RESULTS: currencies are kept apart, nothing is ever
 * converted). Cercle's own tables play in euros (`real`) or play money (`play`); a hand imported
 * from a site keeps its file's currency: euros, dollars, pounds, play money, or a tournament's
 * chips. A result, a total or a line is always of one of these; two are never added together.
 *
 * The position in `HAND_MONEY` is the code the history stores (flags and totals, schema version 9):
 * 0 and 1 are the codes versions 1 to 8 already used for real and play money.
 */
export const HAND_MONEY = ['real', 'play', 'usd', 'gbp', 'chips'] as const;
export type HandMoney = (typeof HAND_MONEY)[number];

/** The money of a site's currency as its reader gives it (`EUR`, `USD`, `GBP`); null: not one kept apart yet. */
export function moneyOfCurrency(currency: string): HandMoney | null {
  return currency === 'EUR' ? 'real' : currency === 'USD' ? 'usd' : currency === 'GBP' ? 'gbp' : null;
}
