/**
 * The dealer log: what happened in the hand, one line per engine log entry, as an i18n key and its
 * parameters (the component translates and formats). No chat (R-NOBOT): only the dealer speaks.
 */
import type { Card } from '../../../shared/rules/cards';
import type { LogEntry, PostKind } from '../../../shared/rules/engine/types';
import type { RoundName } from '../../../shared/rules/variants';

/** i18n-safe names of the record's rounds (`table.round.<key>`). */
export type RoundKey =
  | 'bet'
  | 'preflop'
  | 'flop'
  | 'turn'
  | 'river'
  | 'bringIn'
  | 'fourth'
  | 'fifth'
  | 'sixth'
  | 'seventh'
  | 'predraw'
  | 'draw1'
  | 'draw2'
  | 'draw3'
  | 'reveal';

const ROUND_KEYS: Record<RoundName, RoundKey> = {
  bet: 'bet',
  'pre-flop': 'preflop',
  flop: 'flop',
  turn: 'turn',
  river: 'river',
  'bring-in': 'bringIn',
  '4th st': 'fourth',
  '5th st': 'fifth',
  '6th st': 'sixth',
  '7th st': 'seventh',
  'pre-draw': 'predraw',
  '1st draw': 'draw1',
  '2nd draw': 'draw2',
  '3rd draw': 'draw3',
  reveal: 'reveal',
};

export function roundKey(round: RoundName): RoundKey {
  return ROUND_KEYS[round];
}

export interface LogLine {
  /** Stable within a hand: the entry's index (headers: −1 − index). */
  id: number;
  /** i18n key under `table.log`. */
  key: string;
  seat: number | null;
  name: string | null;
  amount: number | null;
  /** Cards named by the line (known ones only). */
  cards: Card[] | null;
  /** Cards discarded (Triple Draw). */
  count: number | null;
  /** Headers: the round that starts. */
  round: RoundKey | null;
  allIn: boolean;
}

const POST_KEYS: Record<PostKind, string> = {
  ante: 'table.log.ante',
  'small blind': 'table.log.smallBlind',
  'big blind': 'table.log.bigBlind',
  'dead small blind': 'table.log.deadSmallBlind',
};

function known(cards: readonly (Card | null)[]): Card[] {
  const out: Card[] = [];
  for (const c of cards) if (c !== null) out.push(c);
  return out;
}

/** A seat's name: the table's seat name, else the hand's player id, else "#n". */
export function seatName(seat: number, names: readonly (string | null | undefined)[], players?: readonly (string | null)[]): string {
  return names[seat] ?? players?.[seat] ?? `#${seat + 1}`;
}

/**
 * The lines of `log` as `ourSeat` sees them. `names` per seat (from `view.seats`). `limit` keeps only
 * the last lines (the component shows a window of the hand).
 */
export function logLines(
  log: readonly LogEntry[],
  names: readonly (string | null | undefined)[],
  ourSeat: number | null,
  limit = Infinity,
): LogLine[] {
  const out: LogLine[] = [];
  let round: RoundName | null = null;
  const line = (id: number, key: string, seat: number | null, extra: Partial<LogLine> = {}): void => {
    out.push({
      id,
      key,
      seat,
      name: seat === null ? null : seatName(seat, names),
      amount: null,
      cards: null,
      count: null,
      round: null,
      allIn: false,
      ...extra,
    });
  };
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    if (e.round !== round) {
      round = e.round;
      if (e.round !== 'bet') line(-1 - i, 'table.log.street', null, { round: roundKey(e.round) });
    }
    switch (e.kind) {
      case 'post':
        line(i, POST_KEYS[e.post], e.seat, { amount: e.amount, allIn: e.allIn });
        break;
      case 'deal': {
        if (e.seat === null) {
          line(i, 'table.log.board', null, { cards: known(e.cards) });
        } else if (e.seat === ourSeat) {
          const cards = known(e.cards);
          if (cards.length > 0) line(i, 'table.log.dealtYou', e.seat, { cards });
        } else {
          const up = known(e.cards.filter((_, k) => e.up[k]));
          if (up.length > 0) line(i, 'table.log.dealtUp', e.seat, { cards: up });
        }
        break;
      }
      case 'reshuffle':
        line(i, 'table.log.reshuffle', null, { count: e.stub });
        break;
      case 'bring-in':
        line(i, 'table.log.bringIn', e.seat, { amount: e.amount, allIn: e.allIn });
        break;
      case 'fold':
        line(i, 'table.log.fold', e.seat);
        break;
      case 'check':
        line(i, 'table.log.check', e.seat);
        break;
      case 'call':
        line(i, 'table.log.call', e.seat, { amount: e.amount, allIn: e.allIn });
        break;
      case 'bet':
      case 'raise':
      case 'complete':
        line(i, `table.log.${e.kind}`, e.seat, { amount: e.to, allIn: e.allIn });
        break;
      case 'discard': {
        const n = e.cards.length;
        if (n === 0) line(i, 'table.log.standPat', e.seat);
        else if (e.seat === ourSeat && known(e.cards).length === n) line(i, 'table.log.discardYou', e.seat, { count: n, cards: known(e.cards) });
        else line(i, 'table.log.discard', e.seat, { count: n });
        break;
      }
      case 'show':
        line(i, 'table.log.show', e.seat, { cards: known(e.cards) });
        break;
      case 'muck':
        line(i, 'table.log.muck', e.seat);
        break;
      case 'return':
        line(i, 'table.log.uncalled', e.seat, { amount: e.amount });
        break;
    }
  }
  return out.length > limit ? out.slice(out.length - limit) : out;
}
