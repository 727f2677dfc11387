/**
 * One POJEU per hand (R-TRACE, A 1.3.6.c.2 and d): the full hand record (every card, as the operator
 * knows it) summarised for the regulator. The rounds, actions and Finance are the one POJEU model
 * the exchange writes too (shared/exchange/pojeu-model.ts, with its readings); this adds who the
 * participants are (IDOper, IDJoueur, IPJoueur, Inscription) and when each round started.
 * Moved from operator/tables (tables keep tables only).
 */
import { describeRules, pojeuFinance, pojeuRounds } from '../../shared/exchange/pojeu-model';
import type { HandRecord } from '../../shared/rules/record';
import type { TableRules } from '../../shared/rules/tableRules';
import type { PojeuData, PojeuParticipant } from './records';

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
  const rounds = pojeuRounds(record, (i) => ctx.times[i] ?? ctx.times[0] ?? 0);
  const participants: PojeuParticipant[] = record.seats
    .filter((s) => s.dealtIn)
    .map((s) => {
      const who = ctx.seats[s.seat];
      if (!who) throw new Error(`hand ${record.handId}: no player known at seat ${s.seat}`);
      return { idOper: ctx.idOper, idJoueur: who.idJoueur, ipJoueur: who.ipJoueur, siege: s.seat + 1, inscription: who.inscription, finance: pojeuFinance(s) };
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

/** `Texas Hold'em No Limit (0.50-1.00)`: the game and its stakes, as the trace describes a table. */
export function describeTable(rules: TableRules, money: 'real' | 'play'): string {
  return describeRules(rules, money === 'real' ? 2 : 0);
}
