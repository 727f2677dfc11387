/**
 * The one POJEU model (ARJEL decision 2016-064, A 1.3.6.c.2 and d): a hand record's
 * rounds, actions and each participant's Finance as the decision names them, and their XML. The
 * operator's trace (operator/trace/pojeu.ts → records.ts `buildPOJEU`, which adds the regulatory
 * identifiers and checks the arithmetic) and the exchange's export (pojeu.ts `pojeuElement`) both
 * build a hand's POJEU from here, so the two cannot drift.
 *
 * Readings:
 * - `Siege` is the seat number as players see it, 1 to 10 (the decision's example numbers seats up to 10).
 * - A round's Total is what was bet in it less what came back uncalled (D art. 9, R-UNCALLED). A
 *   return is logged in the round where it happened; when that round's own bets are smaller (a big
 *   blind posted in `bet` and returned in `pre-flop`), the rest is taken from the round before.
 * - A call, bet or raise that puts the player all-in is named `allin`, as in the decision's example.
 *   A Stud completion is a `raise` of the bring-in; a dead small blind is a `small blind`.
 * - Reveal lists the cards that were face down (up cards were seen already); a muck reveals nothing.
 * - A reshuffle (Triple Draw, R-DEAL) has no element of its own: the cards dealt after it are Draws.
 * - A card the record does not know (another player's, in a seated player's history) is a Draw or
 *   Discard without Valeur; the operator knows every card, and its trace refuses such an action.
 */
import type { LogEntry } from '../rules/engine';
import type { HandRecord, RecordSeat } from '../rules/record';
import type { TableRules } from '../rules/tableRules';
import { VARIANTS } from '../rules/variants';
import { formatUnits } from './core';
import { leaf, node, type XmlElement } from './xml';

/** Kinds of bet (A 1.3.6.d.2, poker:betType). */
export const BET_NAMES = ['ante', 'small blind', 'big blind', 'bring-in', 'bet', 'call', 'raise', 'allin'] as const;
export type BetName = (typeof BET_NAMES)[number];

/** A card code, 0..51: 4 × (rank − 2) + suit, clubs 0, diamonds 1, hearts 2, spades 3; 2♣ = 0, A♠ = 51 (A 1.3.6.d.3). */
export type CardCode = number;

/** One action of a round (A 1.3.6.d.2). */
export type PojeuAction =
  /** A bet; `valeur` is what the player added to the pot by this action. */
  | { readonly type: 'Bet'; readonly name: BetName; readonly siege: number; readonly valeur: number }
  /** A card dealt or drawn; `commune` cards (board) have no seat; `ouverte` cards are face up; null: unknown. */
  | { readonly type: 'Draw'; readonly valeur: CardCode | null; readonly siege?: number; readonly ouverte?: boolean; readonly commune?: boolean }
  | { readonly type: 'Check'; readonly siege: number }
  | { readonly type: 'Fold'; readonly siege: number }
  | { readonly type: 'Discard'; readonly valeur: CardCode | null; readonly siege?: number }
  /** A card shown at the end of the hand. */
  | { readonly type: 'Reveal'; readonly valeur: CardCode; readonly siege?: number };

/** A round (Tour) of a POJEU. */
export interface PojeuRound {
  /** Round name, chosen by the caller (A 1.3.6.d.5 lists `bet`, `pre-flop`, `flop`, …); unique in the POJEU. */
  readonly name: string;
  /** Start of the round. */
  readonly timestamp: Date;
  /** At least one action (A 1.3.6.c.2). */
  readonly actions: readonly PojeuAction[];
  /**
   * Sum engaged in the round: the bets less any part no one called (D art. 9; in the example, a river
   * of 0.56 + 2.78 + 1.37 has Total 3.86). Required when the round has bets; the example's reveal
   * round, without bets, has none.
   */
  readonly total?: number;
}

/** A participant's money in the hand (A 1.3.6.d.1, Finance). */
export interface PojeuFinance {
  /** Result of the hand: caveApres − caveAvant. */
  readonly net: number;
  /** Total engaged in the hand. */
  readonly total: number;
  /** Stack at the start of the hand. */
  readonly caveAvant: number;
  /** Stack at the end of the hand. */
  readonly caveApres: number;
  /** Rake taken from this participant, if any. */
  readonly rake?: number;
}

/**
 * The A 1.3.6.d.2 name of a log entry that puts chips in: a dead small blind is a small blind, a
 * completion a raise, any all-in `allin`.
 */
export function pojeuBetName(e: LogEntry): BetName {
  switch (e.kind) {
    case 'post':
      return e.post === 'dead small blind' ? 'small blind' : e.post;
    case 'bring-in':
      return 'bring-in';
    case 'call':
      return e.allIn ? 'allin' : 'call';
    case 'bet':
      return e.allIn ? 'allin' : 'bet';
    case 'raise':
    case 'complete':
      return e.allIn ? 'allin' : 'raise';
    default:
      throw new Error(`${e.kind} is not a bet`);
  }
}

/** Per round with bets or returns: the bets less what came back uncalled (D art. 9); a return larger than its round's bets comes off earlier rounds. */
export function roundTotals(record: HandRecord): Map<string, number> {
  const order = VARIANTS[record.variant].rounds;
  const bets = new Map<string, number>();
  const returned = new Map<string, number>();
  for (const e of record.actions) {
    if (e.kind === 'return') returned.set(e.round, (returned.get(e.round) ?? 0) + e.amount);
    else if ('amount' in e) bets.set(e.round, (bets.get(e.round) ?? 0) + e.amount);
  }
  const names = order.filter((n) => bets.has(n) || returned.has(n));
  const totals = names.map((n) => bets.get(n) ?? 0);
  for (let i = names.length - 1; i >= 0; i--) {
    let left = returned.get(names[i]) ?? 0;
    for (let j = i; j >= 0 && left > 0; j--) {
      const take = Math.min(left, totals[j]);
      totals[j] -= take;
      left -= take;
    }
    if (left > 0) throw new Error(`hand ${record.handId}: more returned than bet`);
  }
  return new Map(names.map((n, i) => [n, totals[i]]));
}

/**
 * The record's rounds as POJEU Tours, in the variant's order. `timeOf(i)` is when log entry `i`
 * happened (ms): a round starts at its first entry. A round without an action (a reveal where every
 * hand was mucked) is left out; a reveal without bets has no Total.
 */
export function pojeuRounds(record: HandRecord, timeOf: (entry: number) => number): PojeuRound[] {
  const siege = (seat: number) => seat + 1;
  const upBySeat = new Map(record.seats.map((s) => [s.seat, s.up]));
  const byRound = new Map<string, { actions: PojeuAction[]; bets: number; first: number }>();
  record.actions.forEach((e, i) => {
    let r = byRound.get(e.round);
    if (!r) byRound.set(e.round, (r = { actions: [], bets: 0, first: timeOf(i) }));
    switch (e.kind) {
      case 'post':
      case 'bring-in':
      case 'call':
      case 'bet':
      case 'raise':
      case 'complete':
        r.actions.push({ type: 'Bet', name: pojeuBetName(e), siege: siege(e.seat), valeur: e.amount });
        r.bets += e.amount;
        break;
      case 'deal':
        e.cards.forEach((c, k) => {
          if (e.seat === null) r.actions.push({ type: 'Draw', valeur: c, ouverte: true, commune: true });
          else r.actions.push({ type: 'Draw', valeur: c, siege: siege(e.seat), ...(e.up[k] ? { ouverte: true } : {}) });
        });
        break;
      case 'fold':
        r.actions.push({ type: 'Fold', siege: siege(e.seat) });
        break;
      case 'check':
        r.actions.push({ type: 'Check', siege: siege(e.seat) });
        break;
      case 'discard':
        for (const c of e.cards) r.actions.push({ type: 'Discard', valeur: c, siege: siege(e.seat) });
        break;
      case 'show': {
        const up = upBySeat.get(e.seat) ?? [];
        e.cards.forEach((c, k) => {
          if (c !== null && !up[k]) r.actions.push({ type: 'Reveal', valeur: c, siege: siege(e.seat) });
        });
        break;
      }
      default:
        break; // return (in Total), muck, reshuffle: no element
    }
  });
  const totals = roundTotals(record);
  const rounds: PojeuRound[] = [];
  for (const n of VARIANTS[record.variant].rounds) {
    const r = byRound.get(n);
    if (r === undefined || r.actions.length === 0) continue;
    const round: PojeuRound = { name: n, timestamp: new Date(r.first), actions: r.actions };
    rounds.push(n === 'reveal' && r.bets === 0 ? round : { ...round, total: totals.get(n) ?? 0 });
  }
  return rounds;
}

/** A seat's Finance (A 1.3.6.d.1): Net, Total engaged, stacks before and after, Rake when any. */
export function pojeuFinance(s: RecordSeat): PojeuFinance {
  return { net: s.net, total: s.committed, caveAvant: s.stackBefore, caveApres: s.stackAfter, ...(s.rake > 0 ? { rake: s.rake } : {}) };
}

/** `2016-01-01T00:10:00`: UTC to the second, as the examples of A 1.4.3 write it. */
export function pojeuDate(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/** `Texas Hold'em No Limit (0.50-1.00)`: the game and its stakes with `scale` decimals, as the operator describes a table. */
export function describeRules(rules: TableRules, scale: number): string {
  const v = VARIANTS[rules.variant];
  const stakes =
    v.forcedBets === 'ante-bring-in'
      ? [rules.ante, rules.bringIn, rules.smallBet, rules.bigBet]
      : rules.structure === 'limit'
        ? [rules.smallBet, rules.bigBet]
        : [rules.smallBlind, rules.bigBlind];
  return `${v.nameEn} (${stakes.map((a) => formatUnits(a, scale)).join('-')})`;
}

// ---- XML of the model (the trace checks its input first; records.ts) ----

const valeur = (c: CardCode | null): XmlElement | undefined => (c === null ? undefined : leaf('Valeur', c));
const siegeOf = (s: number | undefined): XmlElement | undefined => (s === undefined ? undefined : leaf('Siege', s));

/** One action as its element: Bet, Draw, Check, Fold, Discard or Reveal (A 1.3.6.d.2). */
export function pojeuActionElement(a: PojeuAction, scale: number): XmlElement {
  switch (a.type) {
    case 'Bet':
      return node('Bet', [leaf('Siege', a.siege), leaf('Valeur', formatUnits(a.valeur, scale))], [['name', a.name]]);
    case 'Draw': {
      const attrs: [string, string][] = [];
      if (a.ouverte) attrs.push(['ouverte', 'true']);
      if (a.commune) attrs.push(['commune', 'true']);
      return node('Draw', [siegeOf(a.siege), valeur(a.valeur)], attrs);
    }
    case 'Check':
    case 'Fold':
      return node(a.type, [leaf('Siege', a.siege)]);
    case 'Discard':
    case 'Reveal':
      return node(a.type, [siegeOf(a.siege), valeur(a.valeur)]);
  }
}

/** A round as its Tour: Timestamp, the actions, the Total when it has one. */
export function pojeuTourElement(r: PojeuRound, scale: number, actions: readonly XmlElement[] = r.actions.map((a) => pojeuActionElement(a, scale))): XmlElement {
  return node('Tour', [leaf('Timestamp', pojeuDate(r.timestamp)), ...actions, r.total !== undefined ? leaf('Total', formatUnits(r.total, scale)) : undefined], [['name', r.name]]);
}

/** A participant's Finance element. */
export function pojeuFinanceElement(f: PojeuFinance, scale: number): XmlElement {
  return node('Finance', [
    leaf('Net', formatUnits(f.net, scale)),
    leaf('Total', formatUnits(f.total, scale)),
    leaf('CaveAvant', formatUnits(f.caveAvant, scale)),
    leaf('CaveApres', formatUnits(f.caveApres, scale)),
    f.rake !== undefined ? leaf('Rake', formatUnits(f.rake, scale)) : undefined,
  ]);
}
