/**
 * Formatting shared by the table components: amounts in the table's money, card names for screen
 * readers and card text for lines of the log. Thin wrappers over renderer/src/table and vue-i18n.
 */
import { useI18n } from 'vue-i18n';
import { cardFace, cardsText, formatAmount } from '../../table/layout';

export function useTableText() {
  const { t, locale } = useI18n();
  const amount = (x: number, money: 'real' | 'play'): string => formatAmount(x, money, locale.value);
  const cardName = (code: number | null): string => {
    if (code === null) return t('table.card.back');
    const f = cardFace(code);
    return t('table.card.name', { rank: t(`table.card.rank.r${f.rankNo}`), suit: t(`table.card.suit.${f.suitKey}`) });
  };
  return { t, locale, amount, cardName, cardsText };
}
