/**
 * The running win/loss (R-TRACKER, D art. 8 II 4°): what the player has won or lost this session,
 * today and over a chosen period, in total and by variant and stakes, real money and play money
 * apart, at any time.
 *
 * - Hands: every finished hand goes through `handEnded`, which stores it in the history (once: a hand
 *   re-sent after a reconnect counts once) and adds the hero's net to the session totals. Today and
 *   a period are read from the store's totals, so they always equal the sum of the stored hands.
 * - Chips on the tables: the tracker takes buy-ins, top-ups and cash-outs as events and, during a
 *   hand, the hero's chips in front of them (`chipsNow`). `inPlay` is the change of those chips since
 *   the last hand ended (a bet not yet won or lost): the session net is the hands' net plus `inPlay`,
 *   which is also the chips cashed out plus the chips on the tables minus the chips bought in.
 *
 * - Tournaments: tournament chips are not money, so a tournament's hands are stored
 *   (with their tournament and level) but never count in the hands' net, and its tables never count in
 *   the chips bought, on the tables or cashed out. What counts is the money: `entries` (an entry on
 *   registration, rebuys, add-ons, each with its fee; a refund taken off) and `prizes` (prizes and
 *   bounties as they are won). `result` = hands' net + `inPlay` + `prizes` − `entries`, so the balance
 *   less the session's result is the balance at the session's start, through a whole tournament.
 *
 * Local days start at local midnight: the clock and the time zone come from the options (tests fix them).
 */
import type { HandRecord } from '../../../shared/rules/record';
import type { VariantCode } from '../../../shared/rules/variants';
import { stakesOf, type AddResult, type HandMeta, type HistoryStore, type MoneyKind, type ResultGroup, type ResultsAnswer, type Totals } from './store';

export interface TrackerOptions {
  now?: () => number;
}

interface TableChips {
  money: MoneyKind;
  /** Chips after the last finished hand, or after the last buy-in/top-up/cash-out. */
  settled: number;
  /** Chips in front of the player now (less than `settled` while their bets are in a pot). */
  now: number;
}

export interface MoneyView extends Totals {
  /** Hands' net plus `inPlay`, plus `prizes`, less `entries`. */
  result: number;
  /** Change of the chips on the tables since their last hand ended (bets in play). */
  inPlay: number;
  /** Paid into tournaments (entries, rebuys, add-ons with their fees; refunds taken off). */
  entries: number;
  /** Tournament prizes and bounties won. */
  prizes: number;
}


export interface SessionView {
  since: number;
  real: MoneyView & { bought: number; cashedOut: number; onTables: number };
  play: MoneyView & { bought: number; cashedOut: number; onTables: number };
  /** Per money kind, variant and stakes. */
  groups: ResultGroup[];
}

export type PeriodView = { ok: true; from: number; to: number; real: MoneyView; play: MoneyView; groups: ResultGroup[] } | { ok: false; reason: string };

export type TrackerEvent = { ok: true } | { ok: false; reason: string };

function zero(): Totals & { entries: number; prizes: number } {
  return { hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
}

export class Tracker {
  readonly since: number;
  private readonly now: () => number;
  private readonly tables = new Map<string, TableChips>();
  private readonly bought = { real: 0, play: 0 };
  private readonly cashedOut = { real: 0, play: 0 };
  private readonly hands = { real: zero(), play: zero() };
  private readonly groups = new Map<string, ResultGroup>();
  /** This session's tournament money: paid in (refunds taken off, so it can go below 0) and won. */
  private readonly tournamentMoney = { real: { entries: 0, prizes: 0 }, play: { entries: 0, prizes: 0 } };
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: HistoryStore,
    options: TrackerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.since = this.now();
  }

  /** Called after every change (a hand ended, chips moved): the UI reads the views again. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** The player sat down with `amount` chips bought in (R-CASH). */
  buyIn(tableId: string, money: MoneyKind, amount: number): TrackerEvent {
    if (!isChips(amount)) return { ok: false, reason: 'a buy-in is a whole number of chips' };
    if (this.tables.has(tableId)) return { ok: false, reason: `already seated at ${tableId}: a top-up adds chips` };
    this.tables.set(tableId, { money, settled: amount, now: amount });
    this.bought[money] += amount;
    this.changed();
    return { ok: true };
  }

  topUp(tableId: string, amount: number): TrackerEvent {
    const t = this.tables.get(tableId);
    if (t === undefined) return { ok: false, reason: `not seated at ${tableId}` };
    if (!isChips(amount)) return { ok: false, reason: 'a top-up is a whole number of chips' };
    t.settled += amount;
    t.now += amount;
    this.bought[t.money] += amount;
    this.changed();
    return { ok: true };
  }

  /** The player left the table with `amount` chips (all they had in front of them). */
  cashOut(tableId: string, amount: number): TrackerEvent {
    const t = this.tables.get(tableId);
    if (t === undefined) return { ok: false, reason: `not seated at ${tableId}` };
    if (!isChips(amount)) return { ok: false, reason: 'a cash-out is a whole number of chips' };
    this.cashedOut[t.money] += amount;
    this.tables.delete(tableId);
    this.changed();
    return { ok: true };
  }

  /** During a hand: the chips in front of the player now (their stack, bets in the pot excluded). */
  chipsNow(tableId: string, chips: number): TrackerEvent {
    const t = this.tables.get(tableId);
    if (t === undefined) return { ok: false, reason: `not seated at ${tableId}` };
    if (!isChips(chips)) return { ok: false, reason: 'chips are a whole number' };
    t.now = chips;
    this.changed();
    return { ok: true };
  }

  /**
   * Money paid into a tournament (`amount` > 0: the entry, a rebuy, an add-on, fees included) or
   * refunded (`amount` < 0: unregistered before the start). R-TRACKER.
   */
  tournamentEntry(tournamentId: string, money: MoneyKind, amount: number, variant?: VariantCode): TrackerEvent {
    if (!Number.isSafeInteger(amount) || amount === 0) return { ok: false, reason: 'an entry or a refund is a whole, non-zero amount' };
    this.tournamentMoney[money].entries += amount;
    if (variant !== undefined) this.gameGroup(money, variant).entries += amount;
    this.changed();
    return { ok: true };
  }

  /** A tournament prize or bounty won (money, paid to the wallet). */
  tournamentPrize(tournamentId: string, money: MoneyKind, amount: number, variant?: VariantCode): TrackerEvent {
    if (!isChips(amount) || amount === 0) return { ok: false, reason: 'a prize is a whole, positive amount' };
    this.tournamentMoney[money].prizes += amount;
    if (variant !== undefined) this.gameGroup(money, variant).prizes += amount;
    this.changed();
    return { ok: true };
  }

  /** The session's line of a game's tournament money (a game, no stakes: as periods.ts groups it by stakes). */
  private gameGroup(money: MoneyKind, variant: VariantCode): ResultGroup {
    const key = `${money}:${variant}:t`;
    let g = this.groups.get(key);
    if (g === undefined) {
      g = { money, variant, ...zero() };
      this.groups.set(key, g);
    }
    return g;
  }

  /**
   * This session's entries and prizes: a refund of an entry paid before the session (more refunded
   * than paid) counts as money won back, so that `result` still equals the money moved and the amounts
   * stay positive (the API's `entries` is an amount).
   */
  private tournamentSums(money: MoneyKind): { entries: number; prizes: number } {
    const { entries, prizes } = this.tournamentMoney[money];
    return entries >= 0 ? { entries, prizes } : { entries: 0, prizes: prizes - entries };
  }

  /**
   * A hand ended: it is stored (once) and its net added to the session. A hand already stored is
   * not counted again. The table's chips become the hero's stack after the hand. A tournament's hand
   * is stored and not counted: its chips are not money.
   */
  handEnded(meta: HandMeta, record: HandRecord): AddResult {
    const r = this.store.addHand(meta, record);
    if (!r.stored) return r;
    if (meta.tournament) {
      this.changed();
      return r;
    }
    const hero = record.seats.find((s) => s.seat === meta.heroSeat);
    // Cercle's own tables play euros or play money, with the player seated; another hand is in no running figure.
    if (hero === undefined || (meta.money !== 'real' && meta.money !== 'play')) return r;
    const sum = this.hands[meta.money];
    sum.hands++;
    sum.net += hero.net;
    sum.rake += hero.rake;
    const key = `${meta.money}:${record.variant}:${stakesOf(record)}`;
    let g = this.groups.get(key);
    if (g === undefined) {
      g = { money: meta.money, variant: record.variant, stakes: stakesOf(record), ...zero() };
      this.groups.set(key, g);
    }
    g.hands++;
    g.net += hero.net;
    g.rake += hero.rake;
    const t = this.tables.get(meta.tableId);
    if (t !== undefined) {
      t.settled = hero.stackAfter;
      t.now = hero.stackAfter;
    }
    this.changed();
    return r;
  }

  private inPlay(money: MoneyKind): { inPlay: number; onTables: number } {
    let inPlay = 0;
    let onTables = 0;
    for (const t of this.tables.values()) {
      if (t.money !== money) continue;
      inPlay += t.now - t.settled;
      onTables += t.now;
    }
    return { inPlay, onTables };
  }

  /** This session: since the tracker started (the client's launch or the player's login). */
  session(): SessionView {
    const view = (money: MoneyKind) => {
      const { inPlay, onTables } = this.inPlay(money);
      const h = this.hands[money];
      const t = this.tournamentSums(money);
      return { ...h, inPlay, ...t, result: h.net + inPlay + t.prizes - t.entries, bought: this.bought[money], cashedOut: this.cashedOut[money], onTables };
    };
    // A game's tournament line refunded more than paid this session counts the rest as won back (amounts, as tournamentSums).
    const groups = [...this.groups.values()].map((g) => (g.entries >= 0 ? { ...g } : { ...g, entries: 0, prizes: g.prizes - g.entries }));
    return { since: this.since, real: view('real'), play: view('play'), groups: sortGroups(groups) };
  }

  /** Today, from local midnight, by variant and stakes; the chips in play count too. */
  today(): PeriodView {
    const now = this.now();
    return this.view(this.store.results({ from: this.store.localDayStart(now), to: now + 1, groupBy: 'stakes' }), this.store.localDayStart(now), now + 1, true);
  }

  /** A chosen period [from, to), by variant and stakes (or by variant, or by local day). */
  period(from: number, to: number, groupBy: 'variant' | 'stakes' | 'day' = 'stakes'): PeriodView {
    return this.view(this.store.results({ from, to, groupBy }), from, to, false);
  }

  private view(r: ResultsAnswer, from: number, to: number, live: boolean): PeriodView {
    if (!r.ok) return r;
    const money = (m: MoneyKind): MoneyView => {
      const inPlay = live ? this.inPlay(m).inPlay : 0;
      // Tournament money of the span: the stored tournaments' payments and wins
      // that happened in it (periods.ts, schema version 7): a bounty counts today when won.
      const t = r[m];
      return { ...t, inPlay, result: t.net + inPlay + t.prizes - t.entries };
    };
    return { ok: true, from, to, real: money('real'), play: money('play'), groups: r.groups };
  }
}

function isChips(x: number): boolean {
  return Number.isSafeInteger(x) && x >= 0;
}

function sortGroups(list: ResultGroup[]): ResultGroup[] {
  const order = (v: VariantCode | undefined): string => v ?? '';
  return list.sort((a, b) => a.money.localeCompare(b.money) || order(a.variant).localeCompare(order(b.variant)) || (a.stakes ?? -1) - (b.stakes ?? -1));
}
