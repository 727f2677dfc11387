/**
 * One way to write stakes per betting structure, everywhere: limit games by their
 * bets (small bet / big bet: "50/100", Stud and limit Hold'em alike, as PokerStars writes them),
 * pot-limit and no-limit games by their blinds ("25/50"). Tables sort by these amounts, the larger
 * first, then the smaller.
 */
import type { HandMoney } from '../../shared/history/money';
import { VARIANTS, type VariantCode } from '../../shared/rules/variants';
import { formatAmount } from './format';

export interface StakesAmounts {
  smallBlind: number;
  bigBlind: number;
  smallBet: number;
  bigBet: number;
}

/** The two amounts a table's stakes are written with. */
export function stakesPair(variant: VariantCode, s: StakesAmounts): [number, number] {
  return VARIANTS[variant].betting === 'limit' ? [s.smallBet, s.bigBet] : [s.smallBlind, s.bigBlind];
}

export function stakesText(variant: VariantCode, s: StakesAmounts, money: HandMoney, locale: string): string {
  const [a, b] = stakesPair(variant, s);
  return `${formatAmount(a, money, locale)}/${formatAmount(b, money, locale)}`;
}

/** Sort order of stakes: by the larger amount, then the smaller (never one game's blind against another's bet). */
export function compareStakes(a: [number, number], b: [number, number]): number {
  return a[1] - b[1] || a[0] - b[0];
}

/**
 * The stakes of a stored hand from the history's one number (the big blind; Stud: the small bet;
 * electron/services/history/store.ts `stakesOf`): limit games bet that and twice that (the table
 * rules' default big bet), blinds games have half that as the small blind.
 */
export function stakesFromKey(variant: VariantCode, key: number): StakesAmounts {
  if (VARIANTS[variant].betting === 'limit') return { smallBlind: 0, bigBlind: 0, smallBet: key, bigBet: key * 2 };
  return { smallBlind: Math.floor(key / 2), bigBlind: key, smallBet: 0, bigBet: 0 };
}
