/**
 * The tournament's course (R-TOURN-RUN): the start and its draw, a cancellation, the clock's ticks,
 * a table's hand started and ended (stacks, busts, bounties, rebuys decided in the hand break).
 */
import { clockAt } from '../structure';
import { entrantIds } from './buckets';
import type { Draft } from './draft';
import { declineRebuy, mayRebuyNow, no } from './entries';
import { dealable, drawStart, mayDeal, rebalance } from './floor';
import { absenceOver } from './absence';
import { fieldOpen } from './pool';
import { supervision } from './trace';
import { closeRegistration, disqualify, flushRound, maybeFinish, payBounty, placeBusted, pushGroup } from './ranking';
import type { Bust, Refusal } from './types';

/** The start (sit & go: full; scheduled: its time): fees to the operator, the draw; under the minimum field, cancelled. */
export function start(d: Draft): Refusal | null {
  const s = d.s;
  if (s.phase !== 'registering') return no('NOT_NOW', 'the tournament is not registering');
  if (s.players < s.spec.minEntrants) return cancel(d);
  if (s.spec.fee > 0) d.emit({ kind: 'fee', amount: s.spec.fee * s.players, key: `t-fees:${s.spec.id}` });
  s.phase = 'running';
  s.elapsed = 0;
  const c = clockAt(s.spec.structure, 0);
  s.level = c.level;
  s.onBreak = c.onBreak;
  d.emit({ kind: 'notice', notice: { type: 'state', state: 'running' } });
  drawStart(d);
  return null;
}

/** Cancelled before the start (under the minimum field, or by the operator): every entry back (POANNUL). */
export function cancel(d: Draft): Refusal | null {
  const s = d.s;
  if (s.phase !== 'registering') return no('NOT_NOW', 'only a tournament not started is cancelled');
  for (const id of entrantIds(s)) {
    const e = d.entrant(id);
    d.emit({ kind: 'money', way: 'out', who: e.who, amount: s.spec.buyIn + s.spec.fee, key: `t-refund:${e.inscription}`, record: 'POANNUL', inscription: e.inscription, supervision: supervision(e, 'operator'), motif: 'Tournoi annulé (remboursement intégral)' });
  }
  s.phase = 'cancelled';
  d.emit({ kind: 'notice', notice: { type: 'state', state: 'cancelled' } });
  return null;
}

/** The operator's clock (R-TOURN-RUN): levels and breaks; rebuy decisions that lapse with it. */
export function tick(d: Draft, elapsed: number): Refusal | null {
  const s = d.s;
  if (s.phase !== 'running') return no('NOT_NOW', 'the tournament is not running');
  if (elapsed < s.elapsed) return no('NOT_NOW', 'the clock does not go back');
  s.elapsed = elapsed;
  const c = clockAt(s.spec.structure, elapsed);
  if (c.level !== s.level || c.onBreak !== s.onBreak) {
    // A break's end: every table deals again.
    if (s.onBreak && !c.onBreak) d.dealAll = true;
    s.level = c.level;
    s.onBreak = c.onBreak;
    d.emit({ kind: 'notice', notice: { type: 'clock', level: c.level, onBreak: c.onBreak } });
  }
  for (const id of entrantIds(s)) {
    const e = d.entrant(id);
    if (e.status === 'deciding' && !mayRebuyNow(d, e)) declineRebuy(d, id);
    // T 2-15: a freeroll's absent player past the delay, between their table's hands (else at its end).
    else if (absenceOver(d, e) && !(e.table !== null && d.table(e.table)!.inHand)) disqualify(d, id, 'absent');
  }
  return null;
}

export function handStarted(d: Draft, no_: number, bigBlind: number | null): Refusal | null {
  const t = d.table(no_);
  if (!t) return no('UNKNOWN_TABLE', `no table ${no_}`);
  if (!mayDeal(d, no_)) return no('NOT_NOW', `table ${no_} may not deal now`, 'R-TOURN-RUN');
  d.setTable(no_, { ...t, inHand: true, bigBlind });
  return null;
}

/**
 * A table's hand ended: the stacks it left (chips bought during it added, T 5-3), its busts worst
 * group first, each with the bounty on their head paid; a player with a rebuy open keeps the seat
 * for the hand break (T 5-3), a practice player too (its rebuy is an event of its own). A hand of a hand-for-hand round: its
 * busts wait for the round's end to be ranked with the other tables' (T 8-16).
 */
export function handEnded(d: Draft, no_: number, stacks: readonly { accountId: number; stack: number; timeBank?: number }[], busts: readonly (readonly Bust[])[]): Refusal | null {
  const t = d.table(no_);
  if (!t) return no('UNKNOWN_TABLE', `no table ${no_}`);
  if (!t.inHand) return no('NOT_NOW', `table ${no_} is not in a hand`);
  d.setTable(no_, { ...t, inHand: false });
  const inRound = d.s.round.tables.includes(no_);
  takeStacks(d, no_, stacks);
  for (const g of [...busts].reverse()) bustGroup(d, no_, g, inRound);
  // R-EXCLUDE, R-BANNED: excluded players leave at the end of their hand (T 13-1).
  for (const id of t.seats) if (id !== null && d.find(id)?.excluded && d.entrant(id).status === 'in') disqualify(d, id);
  // T 2-15: a freeroll's absent players whose delay ran out during the hand leave at its end.
  for (const id of t.seats) if (id !== null && d.find(id) && absenceOver(d, d.entrant(id))) disqualify(d, id, 'absent');
  if (inRound) {
    d.s.round = { ...d.s.round, tables: d.s.round.tables.filter((x) => x !== no_) };
    if (d.s.round.tables.length === 0) flushRound(d);
  }
  return null;
}

/** The stacks a hand left, chips bought during it added (T 5-3). */
function takeStacks(d: Draft, no_: number, stacks: readonly { accountId: number; stack: number; timeBank?: number }[]): void {
  for (const x of stacks) {
    const e = d.find(x.accountId);
    if (!e || e.table !== no_ || e.status !== 'in') continue;
    // A player the hand left as they were (folded without a blind or ante) is not written again: the
    // copy of their entrants bucket and their store row were most of a large field's hand end.
    if (e.pending === 0 && x.stack === e.stack && (x.timeBank === undefined || x.timeBank === e.timeBank)) continue;
    d.set(x.accountId, { stack: x.stack + e.pending, pending: 0, ...(x.timeBank === undefined ? {} : { timeBank: x.timeBank }) });
    if (e.pending > 0) d.emit({ kind: 'chips', accountId: x.accountId, table: no_, chips: e.pending });
  }
}

/** One group of players busted together: bounties paid, ranked (or kept for the round's end, T 8-16), rebuys offered. */
function bustGroup(d: Draft, no_: number, g: readonly Bust[], inRound: boolean): void {
  const final: Bust[] = [];
  for (const b of g) {
    const e = d.find(b.accountId);
    // Chips bought during the hand that busted them: they are in with those (T 5-3).
    if (!e || e.status !== 'in' || e.table !== no_ || e.stack > 0) continue;
    payBounty(d, e, b.by);
    d.set(b.accountId, { status: 'deciding', bustAt: d.s.elapsed });
    final.push(b);
  }
  const ids = final.map((b) => b.accountId);
  if (inRound) d.s.round = { ...d.s.round, busts: [...d.s.round.busts, ...final.map((b) => ({ id: b.accountId, stack: b.stackAtStart, table: no_ }))] };
  else pushGroup(d, ids);
  // A practice player's purchases are their own events (the runner sends them after this one): a
  // wallet that refuses one refuses that purchase, never the hand's end.
  for (const id of ids) {
    const e = d.entrant(id);
    if (!mayRebuyNow(d, e) || e.excluded) declineRebuy(d, id);
  }
}

/**
 * After every event: the field closed when it can no longer grow, places paid, the end, the floor
 * rebalanced, and the tables that may deal told so.
 */
export function settle(d: Draft): void {
  const s = d.s;
  if (s.phase !== 'running') return;
  if (!s.poolFinal && !fieldOpen(s)) closeRegistration(d);
  placeBusted(d);
  maybeFinish(d);
  if (s.phase !== 'running') return;
  if (s.remaining === 0) return;
  rebalance(d);
  const tables = dealable(d);
  if (tables.length > 0) d.emit({ kind: 'deal', tables });
}
