/**
 * Registration and purchases (R-TOURN-LEAVE, R-NODEBT, R-INFO, T 5-1 to 5-5, R-EXCLUDE): each
 * entry's money and its record are effects of the one event; a refusal changes nothing.
 */
import { mayAddOn, mayRebuy, registrationOpen } from '../structure';
import type { Draft } from './draft';
import { seatLate } from './floor';
import { rebuyBounty } from './pool';
import { setAbsent } from './absence';
import { disqualify, pushGroup, unbust } from './ranking';
import { supervision } from './trace';
import type { Entrant, ExclusionWhy, Refusal, Who } from './types';

export const no = (code: Refusal['code'], message: string, rule?: string): Refusal => ({ ok: false, code, message, ...(rule ? { rule } : {}) });

export const excludedRefusal = (why: ExclusionWhy): Refusal =>
  why === 'self-excluded'
    ? no('SELF_EXCLUDED', 'you are self-excluded: no play until the end of your exclusion', 'R-EXCLUDE')
    : no('ACCOUNT_CLOSED', 'this account is closed: you can only withdraw your money', why === 'banned' ? 'R-BANNED' : 'R-EXCLUDE');

/** The POANNUL's motif of a registration cancelled by an exclusion (A 1.3.6.c.6). */
const EXCLUDED_MOTIF: Record<ExclusionWhy, string> = {
  'self-excluded': 'Auto-exclusion du joueur avant le début du tournoi (remboursement intégral)',
  banned: 'Joueur inscrit au fichier des interdits de jeu avant le début du tournoi (remboursement intégral)',
  closed: 'Compte du joueur clôturé avant le début du tournoi (remboursement intégral)',
};

export const lateOpen = (d: Draft): boolean => d.s.phase === 'running' && !d.s.poolFinal && registrationOpen(d.s.spec.structure, d.s.elapsed);

export function register(d: Draft, who: Who, inscription: string, auto: boolean): Refusal | null {
  const s = d.s;
  const known = d.find(who.accountId);
  if (known?.excluded) return excludedRefusal(known.excluded);
  const late = lateOpen(d);
  if (s.phase !== 'registering' && !late) return no('REGISTRATION_CLOSED', 'registration is closed', 'R-TOURN-FORMATS');
  if (known) return no('ALREADY_REGISTERED', 'you are registered already');
  if (s.players >= s.spec.maxEntrants) return no('TOURNAMENT_FULL', 'the tournament is full');
  entryMoney(d, who, inscription, late, auto);
  const e: Entrant = {
    who,
    inscription,
    n: s.nextN,
    status: 'in',
    stack: s.spec.structure.startingStack,
    pending: 0,
    table: null,
    seat: null,
    place: null,
    prize: null,
    rebuys: 0,
    addOn: false,
    reEntries: 0,
    bounty: s.spec.bounty ?? 0,
    won: 0,
    bust: null,
    bustAt: null,
    excluded: null,
    absent: false,
    auto,
  };
  d.set(who.accountId, e);
  s.players++;
  s.nextN++;
  s.entries++;
  if (late) seatLate(d, who.accountId, 'late');
  return null;
}

/** An entry (buy-in + fee) with its POINSCRIT (A 1.3.6.c.1); a late entry's fee to the operator at once. */
function entryMoney(d: Draft, who: Who, inscription: string, late: boolean, auto: boolean): void {
  const s = d.s;
  const flag = supervision({ auto, absent: false, excluded: null }, 'request');
  d.emit({ kind: 'money', way: 'in', who, amount: s.spec.buyIn + s.spec.fee, key: `t-entry:${inscription}`, record: 'POINSCRIT', inscription, supervision: flag });
  if (late && s.spec.fee > 0) d.emit({ kind: 'fee', amount: s.spec.fee, key: `t-fee:${inscription}` });
}

function refund(d: Draft, e: Entrant, motif: string, byOperator: boolean): void {
  d.emit({ kind: 'money', way: 'out', who: e.who, amount: d.s.spec.buyIn + d.s.spec.fee, key: `t-refund:${e.inscription}`, record: 'POANNUL', inscription: e.inscription, supervision: supervision(e, byOperator ? 'operator' : 'request'), motif });
  d.drop(e.who.accountId);
  d.s.entries--;
}

/** Before the start: the whole entry back (R-TOURN-LEAVE); after it, the player is absent for good (T 2-15). */
export function unregister(d: Draft, id: number): Refusal | null {
  const e = d.find(id);
  if (!e || e.status === 'out') return no('NOT_REGISTERED', 'you are not registered');
  if (d.s.phase === 'registering') {
    refund(d, e, 'Désinscription avant le début du tournoi (remboursement intégral)', false);
    return null;
  }
  if (d.s.phase !== 'running') return no('REGISTRATION_CLOSED', 'the tournament is over');
  setAbsent(d, id, true);
  return null;
}

/**
 * R-EXCLUDE, R-BANNED in a real-money tournament: not started, the entry refunded (POANNUL); running,
 * no purchase any more, and a player still in leaves as a disqualified one (T 13-1), now if their
 * table is between hands, else when its hand ends.
 */
export function exclude(d: Draft, id: number, why: ExclusionWhy): Refusal | null {
  const e = d.find(id);
  if (!e || d.s.spec.money !== 'real') return no('NOT_REGISTERED', 'not in this real-money tournament');
  if (d.s.phase === 'registering') {
    refund(d, e, EXCLUDED_MOTIF[why], true);
    return null;
  }
  if (d.s.phase !== 'running' || e.place !== null || e.excluded) return no('NOT_NOW', 'nothing to do');
  d.set(id, { excluded: why });
  if (e.status === 'deciding') declineRebuy(d, id);
  else if (e.status === 'in' && (e.table === null || !d.table(e.table)!.inHand)) disqualify(d, id);
  return null;
}

const rebuyAllowed = (d: Draft, e: Entrant): boolean =>
  d.s.phase === 'running' && e.place === null && !e.excluded && e.status !== 'out' && mayRebuy(d.s.spec.structure, d.s.elapsed, e.status === 'deciding' ? 0 : e.stack + e.pending, e.rebuys);

export const mayRebuyNow = rebuyAllowed;

/** A purchase (price to the pool, fee to the operator) with its POACHAT (A 1.3.6.d.4). */
function purchase(d: Draft, e: Entrant, price: number, fee: number, key: string, what: string): void {
  d.emit({ kind: 'money', way: 'in', who: e.who, amount: price + fee, key, record: 'POACHAT', inscription: e.inscription, supervision: supervision(e, 'request'), what });
  if (fee > 0) d.emit({ kind: 'fee', amount: fee, key: `${key}:fee` });
}

/** Chips bought: on the stack between hands, in front of the player during one (T 5-3). */
function addChips(d: Draft, id: number, chips: number): void {
  const e = d.entrant(id);
  const t = e.table === null ? undefined : d.table(e.table);
  if (t?.inHand) d.set(id, { pending: e.pending + chips });
  else {
    d.set(id, { stack: e.stack + chips });
    if (t) d.emit({ kind: 'chips', accountId: id, table: t.no, chips });
  }
}

/**
 * T 5-2, 5-3: a rebuy at or below the structure's condition in the rebuy period; a busted player
 * decides in the hand break, keeping their seat (no rebuy later on). A bounty tournament puts a new
 * bounty on the player.
 */
export function rebuy(d: Draft, id: number): Refusal | null {
  const e = d.find(id);
  const r = d.s.spec.structure.rebuy;
  if (!e || r === null) return no('NOT_REGISTERED', 'no rebuy here', 'T 5-2');
  if (e.excluded) return excludedRefusal(e.excluded);
  if (!rebuyAllowed(d, e)) return no('NOT_NOW', 'a rebuy is not allowed now', 'T 5-2');
  purchase(d, e, r.price, r.fee, `t-rebuy:${e.inscription}:${e.rebuys + 1}`, 'Recave');
  d.s.rebuyCount++;
  d.set(id, { rebuys: e.rebuys + 1, bounty: e.bounty + rebuyBounty(d.s) });
  if (e.status === 'deciding') {
    // Back in the seat they kept: their table may deal again.
    d.touched.add(e.table!);
    unbust(d, id);
    d.set(id, { status: 'in', stack: 0, bustAt: null });
  }
  addChips(d, id, r.chips);
  return null;
}

/** A busted player's rebuy declined, or the hand break over (the runner's timer): out for good. */
export function declineRebuy(d: Draft, id: number): Refusal | null {
  const e = d.find(id);
  if (!e || e.status !== 'deciding') return no('NOT_NOW', 'no rebuy to decide');
  const t = d.table(e.table!)!;
  d.setTable(t.no, { ...t, seats: t.seats.map((x) => (x === id ? null : x)) });
  d.emit({ kind: 'stand', accountId: id, table: t.no });
  d.set(id, { status: 'out', table: null, seat: null });
  return null;
}

/** T 5-4, 5-5: the add-on, once, at the end of the rebuy period. */
export function addOn(d: Draft, id: number): Refusal | null {
  const e = d.find(id);
  const a = d.s.spec.structure.addOn;
  if (!e || e.status !== 'in' || d.s.phase !== 'running' || a === null) return no('NOT_REGISTERED', 'no add-on here', 'T 5-4');
  if (e.excluded) return excludedRefusal(e.excluded);
  if (!mayAddOn(d.s.spec.structure, d.s.elapsed, e.addOn)) return no('NOT_NOW', 'the add-on is not available now', 'T 5-4');
  purchase(d, e, a.price, a.fee, `t-addon:${e.inscription}`, 'Add-on');
  d.s.addOnCount++;
  d.set(id, { addOn: true });
  addChips(d, id, a.chips);
  return null;
}

/**
 * Re-entry (`T/M`) within late registration: a new inscription with its own POINSCRIT (A 1.3.6.b,
 * 1.3.6.c.1); the busted entry's POBILAN, dated at its bust, closes the old one. One place per player.
 */
export function reEnter(d: Draft, id: number, inscription: string): Refusal | null {
  const e = d.find(id);
  if (!e || e.status !== 'out' || e.place !== null) return no('NOT_NOW', 'no re-entry now', 'R-TOURN-FORMATS');
  if (e.excluded) return excludedRefusal(e.excluded);
  if (e.reEntries >= d.s.spec.structure.reEntries || !lateOpen(d)) return no('REGISTRATION_CLOSED', 'no re-entry now', 'R-TOURN-FORMATS');
  d.emit({ kind: 'money', way: 'out', who: e.who, amount: 0, key: `t-prize:${e.inscription}`, record: 'POBILAN', inscription: e.inscription, supervision: supervision(e, 'request'), at: e.bustAt ?? d.s.elapsed });
  entryMoney(d, e.who, inscription, true, e.auto);
  unbust(d, id);
  d.s.entries++;
  // A new entry starts as a registration does: the starting stack, and the table's own time bank.
  d.set(id, { inscription, status: 'in', stack: d.s.spec.structure.startingStack, pending: 0, reEntries: e.reEntries + 1, bounty: d.s.spec.bounty ?? 0, bustAt: null, timeBank: undefined });
  seatLate(d, id, 'back');
  return null;
}

/** A bust that is final (no rebuy to decide): into the order of eliminations now. */
export function bustOut(d: Draft, ids: readonly number[]): void {
  pushGroup(d, ids);
}
