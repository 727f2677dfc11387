/**
 * The seated player's table routes (docs/protocol.md "Tables"): sitting down, leaving, topping up,
 * sitting out and in, waiting for the big blind, a fresh snapshot, and an action in the hand. Each
 * first finds the table and checks the seat is this connection's to use (R-NOBOT); a tournament's
 * seats and chips are the tournament's (tableRoute).
 */
import type { ClientMessageOf } from '../../../shared/protocol/messages';
import { refusalDetails } from '../../../shared/protocol/refusal';
import type { AccountView } from '../../accounts';
import type { Table } from '../../tables/table';
import type { TableRefusal } from '../../tables/types';
import { findTable } from '../context';
import { done, refuseProtection, refuseTable } from './refusals';
import { authed, type Route, type RoutedConnection, type Routes } from './route';

type TableType = 'table.join' | 'table.leave' | 'table.topUp' | 'table.sitOut' | 'table.sitIn' | 'table.waitForBigBlind' | 'table.snapshot' | 'table.action';
type At<K extends TableType> = (m: ClientMessageOf<K>, c: RoutedConnection, t: Table, account: AccountView) => void;

/**
 * False when the table's own rules answer first (the refusal or the answer sent): a seat held by
 * another connection of the account (R-NOBOT, D art. 2), or a tournament table, whose seats one takes,
 * tops up and leaves through its tournament (leaving the table is leaving the tournament: a forfeit
 * after the start).
 */
function mayAct(m: ClientMessageOf<TableType>, c: RoutedConnection, t: Table, accountId: number): boolean {
  if (m.type !== 'table.join' && t.isSeated(accountId) && !c.holds.has(t)) {
    c.error(m.rid, 'SEAT_ELSEWHERE', 'your seat at this table stays with your connection from the address it was taken from (R-NOBOT): sign in from an address no other player at this table uses', {
      tableId: t.tableId,
      rule: 'R-NOBOT',
    });
    return false;
  }
  if (t.spec.mode !== 'tournament') return true;
  if (m.type === 'table.join' || m.type === 'table.topUp') {
    c.error(m.rid, 'BAD_MESSAGE', 'a tournament table: use tournament.register, tournament.rebuy or tournament.addOn', { tableId: t.tableId });
    return false;
  }
  if (m.type !== 'table.leave') return true;
  const owner = c.ctx.tournaments?.ofTable(t);
  const r = owner ? owner.unregister(accountId) : ({ ok: false, code: 'NOT_SEATED', message: 'no tournament here' } as TableRefusal);
  if (!r.ok) refuseTable(c, m.rid, r, t.tableId);
  else c.send({ type: 'ok', rid: m.rid });
  return false;
}

/** A route at the table the message names, once `mayAct` lets it through. */
function tableRoute<K extends TableType>(at: At<K>): Route<ClientMessageOf<K>> {
  return authed<K>((m, c, account) => {
    // A table message of one of these types (K is one of them): what they share.
    const { rid, tableId } = m as ClientMessageOf<TableType>;
    const t = findTable(c.ctx, tableId);
    if (!t) return c.error(rid, 'UNKNOWN_TABLE', `no table ${tableId}`, { tableId });
    if (mayAct(m, c, t, account.id)) at(m, c, t, account);
  });
}

const join: At<'table.join'> = (m, c, t, account) => {
  const id = account.id;
  if (t.spec.money === 'real' && account.guest) return c.error(m.rid, 'REAL_MONEY_FORBIDDEN', 'guest accounts play for play money only', { tableId: t.tableId });
  // R-INFO (D art. 8 II 3°): the player sits on the rules they were shown and confirmed, not others.
  if (m.rulesVersion !== c.ctx.lobby.rulesVersionOf(t)) {
    return c.error(m.rid, 'RULES_CHANGED', "the table's rules or the conditions of play are not the ones you confirmed: read them again", { tableId: t.tableId, rule: 'R-INFO' });
  }
  // R-LIMITS, R-TIMELIMIT, R-EXCLUDE, R-BANNED: a real-money buy-in is a stake. The wallet checks it
  // again where the money moves (its stake guard); asked here first for a refusal with its details.
  if (t.spec.money === 'real' && !t.isSeated(id)) {
    const refused = c.ctx.protection.stakeCheck(id, m.buyIn);
    if (refused) return refuseProtection(c, m.rid, refused, t.tableId);
  }
  const r = t.join({ accountId: id, name: account.username, practice: false, ip: c.ip, sessionId: c.sessionId! }, m.buyIn, { waitForBigBlind: m.waitForBigBlind });
  if (!r.ok) return refuseTable(c, m.rid, r, t.tableId);
  c.send({ type: 'table.joined', rid: m.rid, tableId: t.tableId, seat: r.seat, stack: r.stack });
  c.sendSnapshot(t, null);
  c.holds.add(t);
  t.attach(id, (frame) => c.sendRaw(frame));
};

const topUp: At<'table.topUp'> = (m, c, t, { id }) => {
  // A top-up is a stake too (docs/protection.md). Top-ups already asked for during this hand are
  // stakes too: two that pass the limit together are refused now, not dropped in silence when the
  // hand ends (R-LIMITS, art. 16).
  const refused = t.spec.money === 'real' ? c.ctx.protection.stakeCheck(id, m.amount + t.pendingTopUp(id)) : null;
  if (refused) return refuseProtection(c, m.rid, refused, t.tableId);
  done(c, m.rid, t.topUp(id, m.amount), t.tableId);
};

const act: At<'table.action'> = (m, c, t, { id }) => {
  const r = t.act(id, m.actionId, m.move);
  const base = { type: 'table.actionResult' as const, rid: m.rid, tableId: t.tableId, actionId: m.actionId, replayed: r.replayed };
  if (r.ok) return c.send({ ...base, ok: true });
  // The refusal as the table made it (shared/rules decide), every detail kept.
  c.send({ ...base, ok: false, code: r.code, message: r.message, ...refusalDetails(r) });
};

export const tableRoutes: Routes<TableType> = {
  'table.join': tableRoute(join),
  'table.leave': tableRoute<'table.leave'>((m, c, t, { id }) => {
    const r = t.leave(id);
    if (!r.ok) return refuseTable(c, m.rid, r, t.tableId);
    if (r.cashedOut === null) return c.send({ type: 'ok', rid: m.rid });
    c.send({ type: 'table.left', rid: m.rid, tableId: t.tableId, cashedOut: r.cashedOut });
  }),
  'table.topUp': tableRoute(topUp),
  'table.sitOut': tableRoute<'table.sitOut'>((m, c, t, { id }) => done(c, m.rid, t.sitOut(id), t.tableId)),
  'table.sitIn': tableRoute<'table.sitIn'>((m, c, t, { id }) => done(c, m.rid, t.sitIn(id, m.waitForBigBlind), t.tableId)),
  'table.waitForBigBlind': tableRoute<'table.waitForBigBlind'>((m, c, t, { id }) => done(c, m.rid, t.setWaitForBigBlind(id, m.waitForBigBlind), t.tableId)),
  'table.snapshot': tableRoute<'table.snapshot'>((m, c, t, { id }) => {
    if (!t.isSeated(id)) return c.error(m.rid, 'NOT_SEATED', 'you have no seat at this table', { tableId: t.tableId });
    c.sendSnapshot(t, m.rid);
  }),
  'table.action': tableRoute(act),
};
