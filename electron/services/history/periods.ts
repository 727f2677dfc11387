/**
 * The hero's results over a period (R-TRACKER, R-RESULTS): read from the day and hour totals kept as
 * hands arrive (DESIGN.md §3 "a result over a year is read, not recomputed"), local days included.
 * Split out of store.ts. Cash hands, and the tournament money that moved in the
 * period (schema version 7 `tournament_money`): `entries` paid in it, `prizes` won in
 * it (a bounty when won, a prize at the end), in the totals and in each group (a day's, a game's), never
 * a tournament hand's chips. A group's result is its cash net plus its tournament net; the groups add
 * up to the totals.
 */
import type Database from 'better-sqlite3';
import { VARIANT_IDS } from '../../../shared/history/compact';
import type { VariantCode } from '../../../shared/rules/variants';
import { HAND_MONEY, type HandMoney } from '../../../shared/history/money';
import { CASH_ONLY, DAY, HOUR, moneyCode, moneySql, type PeriodTotals, type ResultGroup, type ResultsAnswer, type ResultsQuery, type Totals, type TotalsRow } from './model';

type Statement = Database.Statement;

const TOTAL_KEYS = ['hands', 'net', 'rake', 'entries', 'prizes'] as const;

export class Periods {
  private readonly q: Record<'dayTotals' | 'hourTotals' | 'handTotals' | 'hourByHour' | 'handsInRange' | 'money' | 'moneyByVariant' | 'moneyByMinute', Statement>;

  constructor(
    db: Database.Database,
    private readonly offset: (ms: number) => number,
  ) {
    const p = (sql: string): Statement => db.prepare(sql);
    this.q = {
      dayTotals: p(`SELECT money, variant, stakes, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM day_totals
                    WHERE day >= ? AND day < ? GROUP BY money, variant, stakes`),
      hourTotals: p(`SELECT money, variant, stakes, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM hour_totals
                     WHERE hour >= ? AND hour < ? GROUP BY money, variant, stakes`),
      // Cash hands only (schema version 6: a tournament hand's chips are not money).
      handTotals: p(`SELECT ${moneySql()} AS money, variant, stakes, count(*) AS hands, sum(hero_net) AS net, sum(hero_rake) AS rake FROM hands h INDEXED BY hands_by_time
                     WHERE played_at >= ? AND played_at < ? AND ${CASH_ONLY} GROUP BY money, variant, stakes`),
      hourByHour: p(`SELECT hour, money, sum(hands) AS hands, sum(net) AS net, sum(rake) AS rake FROM hour_totals
                     WHERE hour >= ? AND hour < ? GROUP BY hour, money`),
      handsInRange: p(`SELECT played_at, ${moneySql()} AS money, hero_net, hero_rake FROM hands h INDEXED BY hands_by_time WHERE played_at >= ? AND played_at < ? AND ${CASH_ONLY}`),
      // Tournament money when it moved (R-TRACKER; schema version 7): per money kind, per
      // game, per minute (a local day starts on a minute in every zone), from the covering time index.
      money: p(`SELECT money, 0 AS variant, total(entries) AS entries, total(prizes) AS prizes FROM tournament_money INDEXED BY tournament_money_by_time
                WHERE at >= ? AND at < ? GROUP BY money`),
      moneyByVariant: p(`SELECT money, variant, total(entries) AS entries, total(prizes) AS prizes FROM tournament_money INDEXED BY tournament_money_by_time
                         WHERE at >= ? AND at < ? GROUP BY money, variant`),
      moneyByMinute: p(`SELECT at / 60000 AS minute, money, total(entries) AS entries, total(prizes) AS prizes FROM tournament_money INDEXED BY tournament_money_by_time
                        WHERE at >= ? AND at < ? GROUP BY minute, money`),
    };
  }

  /**
   * The hero's hands, net and rake over [from, to) (R-TRACKER, R-RESULTS), per money kind, and per
   * variant, per variant and stakes, or per local day. Read from the day and hour totals; only the
   * partial hours at the edges look at hands.
   */
  results(query: ResultsQuery): ResultsAnswer {
    const { from, to } = query;
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to) return { ok: false, reason: 'a period is two whole ms times, from ≤ to' };
    const money = query.money === undefined ? null : moneyCode(query.money);
    const real: PeriodTotals = { hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
    const play: PeriodTotals = { hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
    const groups = new Map<string, ResultGroup>();
    type Group = { key: string; g: Omit<ResultGroup, keyof PeriodTotals> } | null;
    const group = (k: NonNullable<Group>): ResultGroup => {
      let g = groups.get(k.key);
      if (g === undefined) {
        g = { ...k.g, hands: 0, net: 0, rake: 0, entries: 0, prizes: 0 };
        groups.set(k.key, g);
      }
      return g;
    };
    const kind = (m: number): HandMoney => HAND_MONEY[m] ?? 'real';
    // Cash totals, or a tournament's money: in the period's totals and in its group (its day, its game).
    // Another money than euros and play money (an imported site's dollars…) is in neither total,
    // only in its own groups, one for the whole period when not grouped: never added to the euros (R-RESULTS).
    const add = (m: number, t: Partial<PeriodTotals>, key: () => Group): void => {
      if (money !== null && m !== money) return;
      const k = key() ?? (m > 1 ? { key: String(m), g: { money: kind(m) } } : null);
      const into = m === 0 ? [real] : m === 1 ? [play] : [];
      if (k !== null) into.push(group(k));
      for (const x of into) for (const f of TOTAL_KEYS) x[f] += t[f] ?? 0;
    };
    const done = (list: ResultGroup[]): ResultsAnswer => {
      for (const x of [real, play, ...list]) amounts(x);
      return { ok: true, real, play, groups: list };
    };

    if (query.groupBy === 'day') {
      for (const x of this.byLocalDay(from, to)) {
        add(x.money, x, () => ({ key: `${x.money}:${x.day}`, g: { money: kind(x.money), day: x.day } }));
      }
      for (const x of this.q.moneyByMinute.all(from, to) as { minute: number; money: number; entries: number; prizes: number }[]) {
        const day = this.localDate(x.minute * 60_000);
        add(x.money, x, () => ({ key: `${x.money}:${day}`, g: { money: kind(x.money), day } }));
      }
      return done([...groups.values()].sort((a, b) => (a.day as string).localeCompare(b.day as string) || a.money.localeCompare(b.money)));
    }
    for (const row of this.totalsRows(from, to)) {
      add(row.money, row, () => {
        if (query.groupBy === undefined) return null;
        const variant = VARIANT_IDS[row.variant];
        if (query.groupBy === 'variant') return { key: `${row.money}:${row.variant}`, g: { money: kind(row.money), variant } };
        return { key: `${row.money}:${row.variant}:${row.stakes}`, g: { money: kind(row.money), variant, stakes: row.stakes } };
      });
    }
    // Tournament money has a game, not stakes: grouped by stakes, it is its game's line without stakes.
    for (const x of (query.groupBy === undefined ? this.q.money : this.q.moneyByVariant).all(from, to) as { money: number; variant: number; entries: number; prizes: number }[]) {
      add(x.money, x, () => (query.groupBy === undefined ? null : { key: `${x.money}:${x.variant}${query.groupBy === 'stakes' ? ':t' : ''}`, g: { money: kind(x.money), variant: VARIANT_IDS[x.variant] } }));
    }
    return done(
      [...groups.values()].sort(
        (a, b) => a.money.localeCompare(b.money) || VARIANT_IDS.indexOf(a.variant as VariantCode) - VARIANT_IDS.indexOf(b.variant as VariantCode) || (a.stakes ?? -1) - (b.stakes ?? -1),
      ),
    );
  }

  /** Totals rows (per money, variant, stakes) covering [from, to): whole days, whole hours, then hands. */
  private totalsRows(from: number, to: number): TotalsRow[] {
    const out: TotalsRow[] = [];
    const push = (rows: unknown[]): void => {
      for (const r of rows as TotalsRow[]) out.push(r);
    };
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (h0 >= h1) {
      push(this.q.handTotals.all(from, to));
      return out;
    }
    if (from < h0 * HOUR) push(this.q.handTotals.all(from, h0 * HOUR));
    if (h1 * HOUR < to) push(this.q.handTotals.all(h1 * HOUR, to));
    const d0 = Math.ceil(h0 / 24);
    const d1 = Math.floor(h1 / 24);
    if (d0 >= d1) {
      push(this.q.hourTotals.all(h0, h1));
      return out;
    }
    if (h0 < d0 * 24) push(this.q.hourTotals.all(h0, d0 * 24));
    if (d1 * 24 < h1) push(this.q.hourTotals.all(d1 * 24, h1));
    push(this.q.dayTotals.all(d0, d1));
    return out;
  }

  /** Totals per local day and money kind over [from, to): hour totals, and hands where an hour straddles midnight. */
  private byLocalDay(from: number, to: number): (Totals & { day: string; money: number })[] {
    const sums = new Map<string, Totals & { day: string; money: number }>();
    const add = (at: number, money: number, t: Totals): void => {
      const day = this.localDate(at);
      const key = `${money}:${day}`;
      let s = sums.get(key);
      if (s === undefined) {
        s = { day, money, hands: 0, net: 0, rake: 0 };
        sums.set(key, s);
      }
      s.hands += t.hands;
      s.net += t.net;
      s.rake += t.rake;
    };
    const handsIn = (a: number, b: number): void => {
      for (const r of this.q.handsInRange.all(a, b) as { played_at: number; money: number; hero_net: number; hero_rake: number }[]) {
        add(r.played_at, r.money, { hands: 1, net: r.hero_net, rake: r.hero_rake });
      }
    };
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (h0 >= h1) {
      handsIn(from, to);
      return [...sums.values()];
    }
    handsIn(from, h0 * HOUR);
    handsIn(h1 * HOUR, to);
    // Hours in which a local day starts off the hour (half-hour zones, odd DST rules) are read hand by hand.
    const straddling = new Set<number>();
    for (let m = this.localDayStart(h0 * HOUR); m < h1 * HOUR; m = this.localDayStart(m + 26 * HOUR)) {
      if (m > h0 * HOUR && m % HOUR !== 0) straddling.add(Math.floor(m / HOUR));
    }
    for (const r of this.q.hourByHour.all(h0, h1) as { hour: number; money: number; hands: number; net: number; rake: number }[]) {
      if (!straddling.has(r.hour)) add(r.hour * HOUR, r.money, r);
    }
    for (const hour of straddling) handsIn(hour * HOUR, (hour + 1) * HOUR);
    return [...sums.values()];
  }

  /** Local midnight (ms) of the day holding `ms`. */
  localDayStart(ms: number): number {
    const off = this.offset(ms) * 60_000;
    const localMidnight = Math.floor((ms + off) / DAY) * DAY;
    let start = localMidnight - off;
    const off2 = this.offset(start) * 60_000;
    if (off2 !== off) start = localMidnight - off2;
    return start;
  }

  /** Local date `YYYY-MM-DD` of an instant. */
  localDate(ms: number): string {
    return new Date(ms + this.offset(ms) * 60_000).toISOString().slice(0, 10);
  }
}

/**
 * Whole amounts of a period's or group's tournament money (SQLite's `total` is a float): the API's
 * `entries` and `prizes` are amounts, so a period whose corrections took more off than was paid in it
 * (a record synced with less spent than the client saw) counts the rest as won back; the result
 * `net + prizes − entries` is unchanged.
 */
function amounts(t: { entries: number; prizes: number }): void {
  t.entries = Math.round(t.entries);
  t.prizes = Math.round(t.prizes);
  if (t.entries < 0) {
    t.prizes -= t.entries;
    t.entries = 0;
  }
  if (t.prizes < 0) {
    t.entries -= t.prizes;
    t.prizes = 0;
  }
}
