/**
 * Amounts in the replayer and the history: in the table's money (chips or euros), or in big blinds.
 * Stud has no blinds: its unit is the small bet, as the history's stakes are (the small bet of a
 * limit game is the big blind of limit Hold'em). Dividing is for display only: amounts stay integers.
 */
import type { HandMoney } from '../../../shared/history/money';
import type { HandRecord } from '../../../shared/rules/record';
import { formatAmount } from '../format';

export type AmountUnit = 'money' | 'bb';

/** The big blind of the record's table (Stud: the small bet); 0 when the table has neither. */
export function bigBlindOf(record: Pick<HandRecord, 'rules'>): number {
  const r = record.rules;
  return r.bigBlind > 0 ? r.bigBlind : r.smallBet > 0 ? r.smallBet : 0;
}

const bbFormats = new Map<string, Intl.NumberFormat>();
function bbFormat(locale: string, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${signed}`;
  let f = bbFormats.get(key);
  if (!f) bbFormats.set(key, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, minimumFractionDigits: 0, signDisplay: signed ? 'exceptZero' : 'auto' })));
  return f;
}

/** `amount` in big blinds, up to two decimals (`12,5`), without the unit's name. */
export function inBigBlinds(amount: number, bigBlind: number, locale: string, signed = false): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`not an amount: ${amount}`);
  if (!(bigBlind > 0)) throw new RangeError('no big blind to count in');
  return bbFormat(locale, signed).format(amount / bigBlind);
}

/**
 * A formatter for one hand: the table's money, or big blinds with `suffix` (the translated "BB").
 * Falls back to the money when the table has no big blind.
 */
export function amountFormatter(
  unit: AmountUnit,
  money: HandMoney,
  bigBlind: number,
  locale: string,
  suffix: string,
): (amount: number, signed?: boolean) => string {
  if (unit === 'bb' && bigBlind > 0) return (x, signed = false) => `${inBigBlinds(x, bigBlind, locale, signed)} ${suffix}`;
  return (x, signed = false) => formatAmount(x, money, locale, signed);
}
