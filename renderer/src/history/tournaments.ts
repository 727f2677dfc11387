/**
 * Tournaments on the history and results pages. Pure.
 *
 * The results graph can show cash, tournaments or both. Cash is the line of the cash hands (by hand);
 * tournaments are plotted when their money moves (an entry paid, a bounty won, the prize at the end:
 * a running tournament is on the line from its entry), the line moving by prizes + bounties − entries;
 * both adds the two lines at every point of either, in time order:
 * at a cash point the tournaments' line as it stood then is added, and the other way round. Both lines
 * are in the same money (the page never adds real and play money), so the sum is money too.
 */
import type { HandMoney } from '../../../shared/history/money';
import type { SeriesView, TournamentRecordView } from '../../../shared/api';
import { VARIANTS, type VariantCode } from '../../../shared/rules/variants';

export type GraphKind = 'cash' | 'tournaments' | 'both';

const empty = (): SeriesView => ({ hands: [], at: [], total: [], showdown: [], noShowdown: [], allInAdjusted: [] });

/**
 * The sum of the cash line and the tournaments' line at every point of either, in time order (a cash
 * point first at the same instant). `hands` counts hands and tournaments; the showdown line is the cash
 * hands' (a tournament's result has no showdown part), the other lines add the tournaments' total.
 */
export function mergeSeries(cash: SeriesView, tournaments: SeriesView): SeriesView {
  if (tournaments.at.length === 0) return cash;
  if (cash.at.length === 0) return tournaments;
  const out = empty();
  let i = 0;
  let j = 0;
  // The last point seen of each line (-1: none yet, the line is at 0).
  let ci = -1;
  let tj = -1;
  while (i < cash.at.length || j < tournaments.at.length) {
    const fromCash = j >= tournaments.at.length || (i < cash.at.length && cash.at[i] <= tournaments.at[j]);
    if (fromCash) ci = i++;
    else tj = j++;
    const c = (k: keyof SeriesView): number => (ci < 0 ? 0 : cash[k][ci]);
    const tt = tj < 0 ? 0 : tournaments.total[tj];
    out.at.push(fromCash ? cash.at[ci] : tournaments.at[tj]);
    out.hands.push(c('hands') + (tj < 0 ? 0 : tournaments.hands[tj]));
    out.total.push(c('total') + tt);
    out.showdown.push(c('showdown'));
    out.noShowdown.push(c('noShowdown') + tt);
    out.allInAdjusted.push(c('allInAdjusted') + tt);
  }
  return out;
}

/** A tournament's net for the player: prizes + bounties − what it cost (null while it runs, and for a refunded registration). */
export function tournamentNet(t: Pick<TournamentRecordView, 'place' | 'prize' | 'bounties' | 'spent' | 'refundedAt'>): number | null {
  return t.place === null || t.refundedAt !== undefined ? null : t.prize + t.bounties - t.spent;
}

/**
 * Where a stored tournament stands for the list: `refunded` (its entry came back:
 * unregistered before the start, or the tournament cancelled; in no result), `finished` (a place),
 * `running` (registered, not ended yet: its entry counts as lost until a prize comes).
 */
export type RecordState = 'refunded' | 'finished' | 'running';
export function recordState(t: Pick<TournamentRecordView, 'place' | 'refundedAt'>): RecordState {
  if (t.refundedAt !== undefined) return 'refunded';
  return t.place === null ? 'running' : 'finished';
}

/**
 * The list's place cell: refunded, running, or the place of the field; a tied finish
 * (T 8-16, schema version 8) says so, with the places shared in its tooltip.
 */
export function placeCell(
  t: Pick<TournamentRecordView, 'place' | 'tied' | 'entries' | 'refundedAt'>,
  tr: (key: string, params?: Record<string, unknown>) => string,
): { text: string; title: string } {
  const state = recordState(t);
  if (state === 'refunded') return { text: tr('history.tournaments.refunded'), title: '' };
  if (t.place === null) return { text: tr('history.tournaments.running'), title: '' };
  if (t.tied === undefined) return { text: tr('history.tournaments.of', { place: t.place, field: t.entries }), title: '' };
  return {
    text: tr('history.tournaments.ofTied', { place: t.place, field: t.entries }),
    title: tr('history.tournaments.tiedTitle', { place: t.place, last: t.place + t.tied - 1, count: t.tied }),
  };
}

/** A line of a period's results (a local day, a game): its cash hands, its tournament money, and both added. */
export interface PeriodLine {
  /** The day (`YYYY-MM-DD`) or the game's code. */
  key: string;
  hands: number;
  /** Cash hands' net. */
  cash: number;
  /** Tournament prizes and bounties won − entries paid in the line. */
  tournaments: number;
  /** cash + tournaments. */
  result: number;
}

/**
 * The lines of a period's results of one money kind (R-TRACKER: never real and play added), newest day
 * first or in the game order of the answer, and their total (the same sums as the period's totals).
 */
export function periodLines(
  groups: readonly { money: HandMoney; day?: string; variant?: string; hands: number; net: number; entries: number; prizes: number }[],
  money: HandMoney,
  by: 'day' | 'variant',
): { lines: PeriodLine[]; total: PeriodLine } {
  const lines: PeriodLine[] = [];
  const total: PeriodLine = { key: '', hands: 0, cash: 0, tournaments: 0, result: 0 };
  for (const g of groups) {
    if (g.money !== money) continue;
    const line: PeriodLine = { key: (by === 'day' ? g.day : g.variant) ?? '', hands: g.hands, cash: g.net, tournaments: g.prizes - g.entries, result: g.net + g.prizes - g.entries };
    lines.push(line);
    for (const k of ['hands', 'cash', 'tournaments', 'result'] as const) total[k] += line[k];
  }
  if (by === 'day') lines.reverse();
  return { lines, total };
}

/** A fraction as a percentage with one decimal in the page's language ("—" when there is none). */
export function percent(x: number | null, locale: string, signed = false): string {
  if (x === null || !Number.isFinite(x)) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'auto' }).format(x);
}

/** A mean with one decimal ("—" when there is none). */
export function decimal(x: number | null, locale: string): string {
  if (x === null || !Number.isFinite(x)) return '—';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(x);
}

/** A group's game by its code in the page's language (a key that is not a game's code is shown as it is). */
export function gameName(key: string, locale: string): string {
  if (!(key in VARIANTS)) return key;
  const v = VARIANTS[key as VariantCode];
  return locale.startsWith('fr') ? v.nameFr : v.nameEn;
}
