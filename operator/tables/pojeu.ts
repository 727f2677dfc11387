/**
 * One POJEU per hand (R-TRACE, A 1.3.6.c.2 and d): the full hand record (every card, as the operator
 * knows it) summarised for the regulator. Participants are the seats dealt in, with their seat,
 * inscription and Finance (Net, Total engaged, CaveAvant, CaveApres, Rake); rounds carry the record's
 * round names (A 1.3.6.d.5: `bet` for the forced bets, the variant's streets, `reveal`) and the
 * actions Bet, Draw, Check, Fold, Discard, Reveal.
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
 */
import { pojeuBetName } from '../../shared/exchange/pojeu';
import type { HandRecord } from '../../shared/rules/record';
import type { TableRules } from '../../shared/rules/tableRules';
import { VARIANTS } from '../../shared/rules/variants';
import type { PojeuAction, PojeuData, PojeuParticipant, PojeuRound } from '../trace/records';

/** Who sat where, as the operator knows them (the record has names only). */
export interface PojeuSeat {
  idJoueur: string;
  ipJoueur: string;
  inscription: string;
}

export interface PojeuContext {
  /** Tech: the table's id. */
  tech: string;
  /** Pool: the hand's id within the table. */
  pool: string;
  /** IDOper of the operator, written for each participant. */
  idOper: string;
  /** Per seat index: the player's identifiers. */
  seats: (PojeuSeat | null)[];
  /** When each log entry happened (ms), parallel to `record.actions`; rounds start at their first entry. */
  times: number[];
  description: string;
  info?: string;
  /** 2 for cents (real money), 0 for chips. */
  scale: 0 | 2;
  /** Play-money tables write records flagged `test` (not real-money gaming). */
  test: boolean;
  /** The operator acted for a player in the hand (a time-out, a player leaving or absent): A 1.3.6.c.2 `supervision`. */
  supervision?: boolean;
}

export function pojeuOf(record: HandRecord, ctx: PojeuContext): PojeuData {
  const siege = (seat: number) => seat + 1;
  const upBySeat = new Map(record.seats.map((s) => [s.seat, s.up]));
  const order = VARIANTS[record.variant].rounds;
  const byRound = new Map<string, { actions: PojeuAction[]; bets: number; returned: number; first: number }>();
  record.actions.forEach((e, i) => {
    let r = byRound.get(e.round);
    if (!r) byRound.set(e.round, (r = { actions: [], bets: 0, returned: 0, first: ctx.times[i] ?? ctx.times[0] ?? 0 }));
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
          if (c === null) throw new Error('the operator deals known cards only');
          if (e.seat === null) r.actions.push({ type: 'Draw', valeur: c, ouverte: true, commune: true });
          else r.actions.push({ type: 'Draw', valeur: c, siege: siege(e.seat), ouverte: e.up[k] });
        });
        break;
      case 'fold':
        r.actions.push({ type: 'Fold', siege: siege(e.seat) });
        break;
      case 'check':
        r.actions.push({ type: 'Check', siege: siege(e.seat) });
        break;
      case 'discard':
        for (const c of e.cards) {
          if (c === null) throw new Error('the operator knows every discard');
          r.actions.push({ type: 'Discard', valeur: c, siege: siege(e.seat) });
        }
        break;
      case 'show': {
        const up = upBySeat.get(e.seat) ?? [];
        e.cards.forEach((c, k) => {
          if (c !== null && !up[k]) r.actions.push({ type: 'Reveal', valeur: c, siege: siege(e.seat) });
        });
        break;
      }
      case 'return':
        r.returned += e.amount;
        break;
      case 'muck':
      case 'reshuffle':
        break;
    }
  });

  // Round totals (D art. 9): bets less returns, a return larger than its round's bets taken from earlier rounds.
  const names = order.filter((n) => byRound.has(n));
  const totals = names.map((n) => byRound.get(n)!.bets);
  for (let i = names.length - 1; i >= 0; i--) {
    let left = byRound.get(names[i])!.returned;
    for (let j = i; j >= 0 && left > 0; j--) {
      const take = Math.min(left, totals[j]);
      totals[j] -= take;
      left -= take;
    }
    if (left > 0) throw new Error(`hand ${record.handId}: more returned than bet`);
  }
  const rounds: PojeuRound[] = [];
  names.forEach((n, i) => {
    const r = byRound.get(n)!;
    if (r.actions.length === 0) return; // e.g. a reveal round where every hand was mucked
    const round: PojeuRound = { name: n, timestamp: new Date(r.first), actions: r.actions };
    rounds.push(n === 'reveal' && r.bets === 0 ? round : { ...round, total: totals[i] });
  });

  const participants: PojeuParticipant[] = record.seats
    .filter((s) => s.dealtIn)
    .map((s) => {
      const who = ctx.seats[s.seat];
      if (!who) throw new Error(`hand ${record.handId}: no player known at seat ${s.seat}`);
      return {
        idOper: ctx.idOper,
        idJoueur: who.idJoueur,
        ipJoueur: who.ipJoueur,
        siege: siege(s.seat),
        inscription: who.inscription,
        finance: { net: s.net, total: s.committed, caveAvant: s.stackBefore, caveApres: s.stackAfter, ...(s.rake > 0 ? { rake: s.rake } : {}) },
      };
    });

  return {
    kind: 'POJEU',
    tech: ctx.tech,
    pool: ctx.pool,
    participants,
    regle: record.variant,
    description: ctx.description,
    ...(ctx.info !== undefined ? { info: ctx.info } : {}),
    rounds,
    scale: ctx.scale,
    ...(ctx.test ? { test: true } : {}),
    ...(ctx.supervision ? { supervision: true } : {}),
  };
}

/** `0.50-1.00` (cents) or `50-100` (chips): the stakes written into a description. */
export function formatStakes(amounts: number[], scale: 0 | 2): string {
  return amounts.map((a) => (scale === 0 ? String(a) : `${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`)).join('-');
}

/** `Texas Hold'em No Limit (0.50-1.00)`: the game and its stakes, as the trace describes a table. */
export function describeTable(rules: TableRules, money: 'real' | 'play'): string {
  const scale = money === 'real' ? 2 : 0;
  const v = VARIANTS[rules.variant];
  const stakes =
    v.forcedBets === 'ante-bring-in'
      ? [rules.ante, rules.bringIn, rules.smallBet, rules.bigBet]
      : rules.structure === 'limit'
        ? [rules.smallBet, rules.bigBet]
        : [rules.smallBlind, rules.bigBlind];
  return `${v.nameEn} (${formatStakes(stakes, scale)})`;
}
