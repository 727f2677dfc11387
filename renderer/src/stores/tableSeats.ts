import { defineStore } from 'pinia';
import { shallowReactive } from 'vue';
import type { Outcome, TableState } from '../../../shared/api';
import { outcomeText, safely } from '../errors';
import { i18n } from '../i18n';
import { tableHand } from '../table/hand';
import { autoTopUpAmount } from '../table/topup';
import { useApi } from '../useApi';
import { useNoticesStore } from './notices';
import { useSessionStore } from './session';
import { useSettingsStore } from './settings';
import { useTablesStore } from './tables';

/** Whether we hold cards in a hand still being played at this table. */
export function inLiveHand(s: TableState): boolean {
  const h = tableHand(s);
  const seat = s.view?.you?.seat ?? null;
  if (h === null || seat === null || h.phase === 'done') return false;
  const st = h.seats[seat]?.status;
  return st === 'in' || st === 'allin';
}

interface RebuyParts {
  states: Map<string, TableState>;
  topUp: (tableId: string, amount: number) => Promise<Outcome>;
  sitOut: (tableId: string, out: boolean) => Promise<Outcome>;
  notices: ReturnType<typeof useNoticesStore>;
  settings: ReturnType<typeof useSettingsStore>;
  session: ReturnType<typeof useSessionStore>;
}

/** Topping up and rebuying by themselves between hands, as the settings say, and back in play after a rebuy. */
function rebuys(o: RebuyParts) {
  /** Hands for which an automatic top-up was asked, per table (one request a hand). */
  const autoAsked = new Map<string, number>();
  /**
   * Tables rebought after a bust, to sit back in once the chips are on the seat.
   * Right after a bust the operator still holds the ended hand for a moment: the rebuy waits for its
   * end and "Revenir" at 0 chips is refused, which left the newcomer sitting out after paying.
   */
  const sitInAfterRebuy = new Set<string>();

  /** Auto-rebuy / auto top-up between hands, as the settings say. */
  function autoTopUp(s: TableState): void {
    const v = s.view;
    const you = v?.you ?? null;
    if (v === null || you === null || s.status !== 'live' || autoAsked.get(s.tableId) === v.handNo) return;
    const seat = v.seats[you.seat];
    const balance = o.session.session?.balances?.[v.money] ?? 0;
    const amount = autoTopUpAmount(o.settings.settings.autoTopUp, seat?.stack ?? 0, you.pendingTopUp, v.buyIn, balance, inLiveHand(s));
    if (amount === null) return;
    autoAsked.set(s.tableId, v.handNo);
    const bust = seat?.stack === 0 && seat.status === 'sitting-out';
    void (bust ? rebuy : o.topUp)(s.tableId, amount).then((r) => {
      if (!r.ok) o.notices.push(outcomeText(i18n.global.t, r));
    });
  }

  function sitInWhenRebought(s: TableState): void {
    const you = s.view?.you ?? null;
    if (!sitInAfterRebuy.has(s.tableId) || s.status !== 'live' || you === null) return;
    const seat = s.view?.seats[you.seat];
    if (!seat || seat.stack === 0) return;
    sitInAfterRebuy.delete(s.tableId);
    if (seat.status === 'sitting-out') void o.sitOut(s.tableId, false);
  }

  /** A rebuy at 0 chips: the chips, then back in play as soon as they are on the seat. */
  async function rebuy(tableId: string, amount: number): Promise<Outcome> {
    const r = await o.topUp(tableId, amount);
    if (r.ok) {
      sitInAfterRebuy.add(tableId);
      const s = o.states.get(tableId);
      if (s) sitInWhenRebought(s);
    }
    return r;
  }

  return { autoTopUp, sitInWhenRebought, rebuy };
}

/**
 * The player's seat at each table: joining, leaving, sitting out and back in, topping up and rebuying
 * (by hand, or automatically between hands as the settings say), and what to do when the hand ends.
 */
export const useTableSeatsStore = defineStore('tableSeats', () => {
  const api = useApi();
  const tables = useTablesStore();
  const settings = useSettingsStore();
  const notices = useNoticesStore();
  const session = useSessionStore();
  /**
   * What the player asked to do when the current hand ends: leave, or sit out
   * from the next hand, without folding the hand in progress. Shown on the table; done by the
   * first push that shows the hand over (or the player out of it).
   */
  const afterHand = shallowReactive(new Map<string, 'leave' | 'sitOut'>());

  const { autoTopUp, sitInWhenRebought, rebuy } = rebuys({ states: tables.states, topUp, sitOut, notices, settings, session });

  tables.react({
    applied: (s) => {
      runAfterHand(s);
      autoTopUp(s);
      sitInWhenRebought(s);
    },
    moved: (from) => void afterHand.delete(from),
  });


  function runAfterHand(s: TableState): void {
    const what = afterHand.get(s.tableId);
    if (what === undefined || s.status !== 'live' || inLiveHand(s)) return;
    afterHand.delete(s.tableId);
    if (what === 'leave') void leave(s.tableId);
    else void sitOut(s.tableId, true);
  }

  /** Leave or sit out when this hand ends (null: forget it). Done at once when no hand of ours is running. */
  function setAfterHand(tableId: string, what: 'leave' | 'sitOut' | null): void {
    if (what === null) afterHand.delete(tableId);
    else afterHand.set(tableId, what);
    const s = tables.states.get(tableId);
    if (s) runAfterHand(s);
  }

  /** `rulesVersion`: of the rules the join dialog showed and the player confirmed (R-INFO). */
  async function join(tableId: string, buyIn: number, waitForBigBlind: boolean, rulesVersion: string): Promise<Outcome> {
    tables.opened(tableId);
    const r = await safely(api.join({ tableId, buyIn, waitForBigBlind, rulesVersion }));
    if (r.ok) tables.joined(tableId);
    return r;
  }

  async function leave(tableId: string): Promise<Outcome> {
    const r = told(await safely(api.leave({ tableId })));
    if (r.ok && r.cashedOut !== undefined) {
      const s = tables.states.get(tableId);
      tables.put({ ...(s ?? { tableId, view: null, seq: null, lastHand: null, pending: null, error: null, tournamentId: null, watching: false }), status: 'gone', cashedOut: r.cashedOut });
    }
    return r;
  }

  async function sitOut(tableId: string, out: boolean): Promise<Outcome> {
    const r = await safely(api.sitOut({ tableId, out, waitForBigBlind: false }));
    // "Revenir" refused (no chips: rebuy first) says why instead of doing nothing.
    if (!r.ok) notices.push(outcomeText(i18n.global.t, r));
    return r;
  }

  function topUp(tableId: string, amount: number): Promise<Outcome> {
    return safely(api.topUp({ tableId, amount }));
  }



  /** A refusal the table cannot show by itself (not sent at all: host or operator gone) becomes a notice. */
  function told(r: Outcome): Outcome {
    if (!r.ok && (r.code === 'HOST_DOWN' || r.code === 'OFFLINE')) notices.push(outcomeText(i18n.global.t, r));
    return r;
  }

  return { afterHand, setAfterHand, join, leave, sitOut, topUp, rebuy, told };
});
