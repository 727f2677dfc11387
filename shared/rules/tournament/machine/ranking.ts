/**
 * Eliminations and the end (R-ELIM, T 8-16, T 1-5, T 13-1): busted groups ranked, places and prizes
 * paid as they are known (POBILAN), bounties (POGAIN), a satellite's seats, the last prize.
 */
import { bountyShares, sharedPrizes } from '../payouts';
import type { Draft } from './draft';
import { allGroups, groupAt, groupCount, groupsOf, withGroup } from './groups';
import { closeTable } from './floor';
import { alive, chipsIssued, poolParts, prizeTable, seatsWon } from './pool';
import { supervision, type Cause } from './trace';
import type { Entrant } from './types';

/** The field is final (late registration and rebuys over): the prizes are fixed, the overlay paid in. */
export function closeRegistration(d: Draft): void {
  d.s.poolFinal = true;
  d.s.prizes = prizeTable(d.s);
  const { overlay } = poolParts(d.s);
  if (overlay > 0) {
    d.s.overlay = overlay;
    d.emit({ kind: 'overlay', amount: overlay, key: `t-overlay:${d.s.spec.id}` });
  }
  placeBusted(d);
}

/** A busted group (best first inside it) joins the order of eliminations. */
export function pushGroup(d: Draft, ids: readonly number[]): void {
  if (ids.length === 0) return;
  const no = groupCount(d.s.busted);
  for (const id of ids) d.set(id, { bust: no });
  d.s.busted = withGroup(d.s.busted, ids);
  d.groupChanged(no);
}

/** A busted player is in again (a rebuy decided in the hand break, a re-entry): their bust forgotten. */
export function unbust(d: Draft, id: number): void {
  const e = d.entrant(id);
  if (d.s.round.busts.some((b) => b.id === id)) d.s.round = { ...d.s.round, busts: d.s.round.busts.filter((b) => b.id !== id) };
  if (e.bust === null) return;
  const groups = allGroups(d.s.busted).map((g) => g.filter((x) => x !== id));
  // Group numbers follow positions: renumbered when an emptied group goes.
  const kept = groups.filter((g) => g.length > 0);
  if (kept.length !== groups.length) kept.forEach((g, i) => g.forEach((x) => x !== id && d.entrant(x).bust !== i && d.set(x, { bust: i })));
  d.s.busted = groupsOf(kept);
  // The groups before the player's keep their contents: a store writes from theirs on.
  d.groupChanged(e.bust);
  d.set(id, { bust: null });
}

/**
 * The bounty on `e`'s head to the winners of the pot that eliminated them, split equally, the units
 * left one each in the order of `by` (the engine's odd-chip order, R-ODDCHIP). `operator`: the bounty
 * of a player the operator takes out, theirs.
 */
export function payBounty(d: Draft, e: Entrant, by: readonly number[], cause: Cause = 'hand'): void {
  if (e.bounty <= 0) return;
  const winners = by.filter((id) => d.find(id) !== undefined);
  const to = winners.length > 0 ? winners : [e.who.accountId];
  const shares = bountyShares(e.bounty, to.length);
  d.set(e.who.accountId, { bounty: 0 });
  to.forEach((id, i) => {
    const w = d.entrant(id);
    if (shares[i] <= 0) return;
    d.set(id, { won: w.won + shares[i] });
    d.emit({
      kind: 'money',
      way: 'out',
      who: w.who,
      amount: shares[i],
      key: `t-bounty:${e.inscription}:${e.rebuys}:${e.reEntries}:${id}`,
      record: 'POGAIN',
      inscription: w.inscription,
      supervision: supervision(w, cause),
      what: `Prime sur ${e.who.name}`,
    });
  });
}

/**
 * The place and prize of one player, with its POBILAN dated at their bust (A 1.3.6.b: the entry ended
 * then, even when its place is known only later: a bust in late registration, a hand-for-hand round);
 * a satellite's seat is a `qualified` notice.
 */
function pay(d: Draft, id: number, place: number, prize: number, tied: number, seat: boolean): void {
  const e = d.set(id, { place, prize, status: 'out', table: null, seat: null });
  d.emit({ kind: 'money', way: 'out', who: e.who, amount: prize, key: `t-prize:${e.inscription}`, record: 'POBILAN', inscription: e.inscription, supervision: supervision(e, 'hand'), at: e.bustAt ?? d.s.elapsed });
  d.emit({ kind: 'notice', notice: { type: 'finished', accountId: id, place, tied, prize, bounties: e.won } });
  if (seat && d.s.spec.satellite) d.emit({ kind: 'notice', notice: { type: 'qualified', accountId: id, target: d.s.spec.satellite.target } });
}

/**
 * Places of the busted groups not placed yet, counted from the last (the first out is last); tied
 * players share the places they cover and their prizes (T 8-16; `sharedPrizes`).
 */
export function placeBusted(d: Draft): void {
  if (!d.s.poolFinal) return;
  const seats = seatsWon(d.s);
  for (; d.s.placedGroups < groupCount(d.s.busted); d.s.placedGroups++) {
    const g = groupAt(d.s.busted, d.s.placedGroups);
    const first = d.s.players - d.s.placedPlayers - g.length + 1;
    d.s.placedPlayers += g.length;
    const shares = sharedPrizes(d.s.prizes, first - 1, g.length);
    g.forEach((id, i) => pay(d, id, first, shares[i], g.length, first - 1 + i < seats));
  }
}

/**
 * The hand-for-hand round is over: its busts at every table ranked together (T 8-16). `stack`: by
 * their stacks at the start of the hand, equal stacks sharing; `split` (the TDA): all of them share
 * the places they cover.
 */
export function flushRound(d: Draft): void {
  const busts = d.s.round.busts;
  if (busts.length === 0) return;
  d.s.round = { ...d.s.round, busts: [] };
  if (d.s.options.roundRanking === 'split') {
    pushGroup(d, busts.map((b) => b.id));
  } else {
    const stacks = [...new Set(busts.map((b) => b.stack))].sort((a, b) => a - b);
    for (const k of stacks) pushGroup(d, busts.filter((b) => b.stack === k).map((b) => b.id));
  }
  placeBusted(d);
}

/**
 * T 13-1 for a person who may no longer play (R-EXCLUDE, R-BANNED), and T 2-15 for a freeroll's
 * absent player past the delay ("leurs jetons sont retirés du tournoi"): stood up, their chips out of
 * play, the bounty on their head theirs, ranked as a bust now (above the busts of a round still being
 * played: ranked with them at its end, above all of them), their POBILAN dated now.
 */
export function disqualify(d: Draft, id: number, why: 'excluded' | 'absent' = 'excluded'): void {
  const e = d.entrant(id);
  const chips = e.stack + e.pending;
  if (e.table !== null) {
    const t = d.table(e.table)!;
    d.setTable(t.no, { ...t, seats: t.seats.map((x) => (x === id ? null : x)) });
    d.emit(why === 'absent' ? { kind: 'stand', accountId: id, table: t.no, why } : { kind: 'stand', accountId: id, table: t.no });
    if (t.seats.every((x) => x === null || x === id)) closeTable(d, t.no);
  }
  d.s.removed += chips;
  d.set(id, { status: 'out', stack: 0, pending: 0, table: null, seat: null, bustAt: d.s.elapsed });
  payBounty(d, d.entrant(id), [id], 'operator');
  if (why === 'excluded') d.emit({ kind: 'notice', notice: { type: 'removed', accountId: id, why: e.excluded ?? 'closed' } });
  if (d.s.round.tables.length > 0) {
    d.s.round = { ...d.s.round, busts: [...d.s.round.busts, { id, stack: chipsIssued(d.s) + chips, table: -1 }] };
  } else {
    pushGroup(d, [id]);
    placeBusted(d);
  }
}

/**
 * The end (T 1-5): one player holds every chip, or a satellite's players left all have seats; nobody
 * is deciding a rebuy. The last round's busts are placed first, the tables close, the players left
 * share the first places; the winner's own bounty is theirs.
 */
export function maybeFinish(d: Draft): void {
  if (d.s.phase !== 'running' || !d.s.poolFinal) return;
  if (d.s.remaining > Math.max(1, seatsWon(d.s))) return;
  const left = alive(d.s);
  if (left.some((id) => d.entrant(id).status === 'deciding')) return;
  d.s.round = { ...d.s.round, tables: [] };
  flushRound(d);
  for (const t of d.tableList()) closeTable(d, t.no);
  const shares = sharedPrizes(d.s.prizes, 0, Math.max(1, left.length));
  left.forEach((id, i) => {
    payBounty(d, d.entrant(id), [id]);
    pay(d, id, 1, shares[i], left.length, d.s.spec.satellite !== undefined);
  });
  d.s.placedPlayers += left.length;
  d.s.phase = 'finished';
  d.emit({ kind: 'notice', notice: { type: 'state', state: 'finished' } });
}
