/**
 * The result of a finished hand for the player (R-RESULTS): each pot (main pot, side pots) with who
 * won how much and with which hand (high and low halves in high/low games), the uncalled bets
 * returned and the rake. Structured lines; the component translates them.
 */
import type { Card } from '../../../shared/rules/cards';
import type { HandExplanation } from '../../../shared/rules/eval';
import type { HandRecord, RecordSeat } from '../../../shared/rules/record';

export interface ResultWinner {
  seat: number;
  name: string;
  /** Chips won from this pot (after rake). */
  amount: number;
  half: 'whole' | 'high' | 'low';
  /** The hand that won it, described (null when it won uncontested or was not shown). */
  hand: { labelFr: string; labelEn: string; category: string; cards: Card[] } | null;
}

export interface ResultPot {
  index: number;
  /** `main` for the first pot, `side` (numbered from 1) for the others. */
  kind: 'main' | 'side';
  sideNo: number;
  /** Chips in the pot before rake, and the rake taken from it. */
  amount: number;
  rake: number;
  winners: ResultWinner[];
}

export interface HandResultModel {
  handId: string | null;
  pots: ResultPot[];
  uncalled: { seat: number; name: string; amount: number }[];
  rake: number;
  showdown: boolean;
  board: Card[];
  /** Hands shown, with their cards (for the panel), in seat order. */
  shown: { seat: number; name: string; cards: Card[] }[];
  /** Net result per seat that took part (stack after − before), seat order. */
  net: { seat: number; name: string; net: number }[];
}

function describe(h: HandExplanation | null): ResultWinner['hand'] {
  return h === null ? null : { labelFr: h.labelFr, labelEn: h.labelEn, category: h.category, cards: h.cards.slice() };
}

/** Display names per seat override the record's player ids (the record may carry ids). */
export function handResult(record: HandRecord, names: readonly (string | null | undefined)[] = []): HandResultModel {
  const bySeat = new Map<number, RecordSeat>();
  for (const s of record.seats) bySeat.set(s.seat, s);
  const nameOf = (seat: number): string => names[seat] ?? bySeat.get(seat)?.player ?? `#${seat + 1}`;
  let sideNo = 0;
  const pots: ResultPot[] = record.pots.map((pot, index) => {
    const winners: ResultWinner[] = pot.shares.map((share) => {
      const rs = bySeat.get(share.seat);
      const hand = record.showdown && rs?.hand ? (share.half === 'low' ? rs.hand.low : rs.hand.high) : null;
      return { seat: share.seat, name: nameOf(share.seat), amount: share.amount, half: share.half, hand: describe(hand ?? null) };
    });
    const kind = index === 0 ? 'main' : 'side';
    return { index, kind, sideNo: kind === 'side' ? ++sideNo : 0, amount: pot.amount, rake: pot.rake, winners };
  });
  const shown: HandResultModel['shown'] = [];
  for (const s of record.seats) {
    if (!s.shown) continue;
    const cards = s.cards.filter((c): c is Card => c !== null);
    if (cards.length > 0) shown.push({ seat: s.seat, name: nameOf(s.seat), cards });
  }
  return {
    handId: record.handId,
    pots,
    uncalled: record.uncalled.map((u) => ({ seat: u.seat, name: nameOf(u.seat), amount: u.amount })),
    rake: record.rake,
    showdown: record.showdown,
    board: record.board.slice(),
    shown,
    net: record.seats.filter((s) => s.dealtIn).map((s) => ({ seat: s.seat, name: nameOf(s.seat), net: s.net })),
  };
}

/** The i18n key of a winner's line: whole pot, high half or low half, with or without a hand. */
export function winnerKey(w: ResultWinner): string {
  const half = w.half === 'whole' ? 'Whole' : w.half === 'high' ? 'High' : 'Low';
  return `table.result.win${half}${w.hand === null ? '' : 'With'}`;
}
