/**
 * The tournaments of the local history (issue 17 item 4; R-HISTORY, R-RESULTS): the list (newest
 * registration first, keyset-paged), the results over the finished ones (net, ROI, in-the-money rate,
 * average finish: totals per money kind and groups by format, game or buy-in), and the graph's line of
 * tournaments. Schema version 6 (schema/v6.ts): one `tournaments` row per tournament, written by
 * writer.ts `putTournament`; a row without a name is a stub made by a hand that came before its
 * tournament's record and is listed nowhere until the record comes.
 *
 * Which time a filter's period reads: the list, the registration (a tournament is listed from the
 * moment the player registers, running or not); the results and the graph, the end (a tournament's
 * result is known when it ends: tournaments are plotted at their end time, issue 17 item 4).
 */
import type Database from 'better-sqlite3';
import type { TournamentFilter, TournamentRecordView, TournamentResultsView } from '../../../shared/api/tournaments';
import { VARIANT_IDS } from '../../../shared/history/compact';
import type { VariantCode } from '../../../shared/rules/variants';
import { MAX_PAGE } from './model';
import type { ResultRows } from './queries';

type Statement = Database.Statement;

export type TournamentPage = { ok: true; tournaments: TournamentRecordView[]; next: string | null } | { ok: false; reason: string };
export type TournamentGroupBy = 'format' | 'variant' | 'buyIn';
type Totals = TournamentResultsView['real'];

interface Row {
  id: number;
  tid: string;
  name: string;
  variant: number;
  money: number;
  format: number;
  kinds: string;
  buy_in: number;
  fee: number;
  entries: number;
  registered_at: number;
  started_at: number | null;
  ended_at: number | null;
  place: number | null;
  prize: number;
  bounties: number;
  rebuys: number;
  add_ons: number;
  re_entries: number;
  spent: number;
  hands: number;
}

const FORMATS = ['sit-and-go', 'scheduled'] as const;

/** The conditions of a filter over `tournaments t` on the time column `at`, or a refusal. */
function conditions(filter: TournamentFilter, at: 'registered_at' | 'ended_at'): { where: string[]; args: number[] } | string {
  const where = ['t.name IS NOT NULL'];
  const args: number[] = [];
  for (const k of ['from', 'to'] as const) {
    const x = filter[k];
    if (x !== undefined && !Number.isSafeInteger(x)) return `${k} must be a whole number`;
  }
  if (filter.from !== undefined) {
    where.push(`t.${at} >= ?`);
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push(`t.${at} < ?`);
    args.push(filter.to);
  }
  if (filter.money !== undefined) {
    if (filter.money !== 'real' && filter.money !== 'play') return "money is 'real' or 'play'";
    where.push('t.money = ?');
    args.push(filter.money === 'play' ? 1 : 0);
  }
  if (filter.variant !== undefined) {
    const v = VARIANT_IDS.indexOf(filter.variant);
    if (v < 0) return `unknown variant ${String(filter.variant)}`;
    where.push('t.variant = ?');
    args.push(v);
  }
  if (filter.format !== undefined) {
    const f = FORMATS.indexOf(filter.format);
    if (f < 0) return "format is 'sit-and-go' or 'scheduled'";
    where.push('t.format = ?');
    args.push(f);
  }
  return { where, args };
}

function view(r: Row): TournamentRecordView {
  return {
    tournamentId: r.tid,
    name: r.name,
    variant: VARIANT_IDS[r.variant] as VariantCode,
    money: r.money === 1 ? 'play' : 'real',
    format: FORMATS[r.format] ?? 'sit-and-go',
    kinds: r.kinds,
    buyIn: r.buy_in,
    fee: r.fee,
    entries: r.entries,
    registeredAt: r.registered_at,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    place: r.place,
    prize: r.prize,
    bounties: r.bounties,
    rebuys: r.rebuys,
    addOns: r.add_ons,
    reEntries: r.re_entries,
    spent: r.spent,
    hands: r.hands,
  };
}

const zero = (): Totals => ({ count: 0, spent: 0, prizes: 0, bounties: 0, net: 0, cashes: 0, placeSum: 0, entriesSum: 0 });

export class TournamentQueries {
  constructor(private readonly shape: (sql: string) => Statement) {}

  /** One tournament's record (null: not stored, or only a stub). */
  get(tournamentId: string): TournamentRecordView | null {
    const r = this.shape(`SELECT t.*, (SELECT count(*) FROM hands h INDEXED BY hands_by_tournament WHERE h.tournament = t.id) AS hands FROM tournaments t WHERE t.tid = ? AND t.name IS NOT NULL`).get(
      tournamentId,
    ) as Row | undefined;
    return r === undefined ? null : view(r);
  }

  /**
   * The stored tournaments matching `filter` (its period on the registration time), newest registration
   * first, `limit` a page from `cursor` on (keyset: `registered_at:id` of the last one of the page before).
   * `hands`: the tournament's hands stored here, counted from their index.
   */
  history(filter: TournamentFilter, limit: number, cursor: string | null): TournamentPage {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) return { ok: false, reason: `a page holds 1 to ${MAX_PAGE} tournaments` };
    const c = conditions(filter, 'registered_at');
    if (typeof c === 'string') return { ok: false, reason: c };
    if (cursor !== null) {
      const m = /^(-?\d{1,16}):(\d{1,16})$/.exec(cursor);
      if (!m) return { ok: false, reason: 'this cursor is not a tournament page cursor' };
      c.where.push('(t.registered_at, t.id) < (?, ?)');
      c.args.push(Number(m[1]), Number(m[2]));
    }
    const rows = this.shape(
      `SELECT t.*, (SELECT count(*) FROM hands h INDEXED BY hands_by_tournament WHERE h.tournament = t.id) AS hands
       FROM tournaments t INDEXED BY tournaments_by_registered WHERE ${c.where.join(' AND ')} ORDER BY t.registered_at DESC, t.id DESC LIMIT ${limit + 1}`,
    ).all(...c.args) as Row[];
    const more = rows.length > limit;
    if (more) rows.length = limit;
    const last = rows[rows.length - 1];
    return { ok: true, tournaments: rows.map(view), next: more ? `${last.registered_at}:${last.id}` : null };
  }

  /**
   * Results over the tournaments the player has finished (a place) whose end is in the filter's period
   * (R-RESULTS): per money kind (never added together) and per group. net = prizes + bounties − spent;
   * ROI = net / spent; ITM = cashes / count (a cash: a prize above 0); average finish = placeSum / count.
   */
  results(filter: TournamentFilter, groupBy: TournamentGroupBy): ({ ok: true } & TournamentResultsView) | { ok: false; reason: string } {
    const c = conditions(filter, 'ended_at');
    if (typeof c === 'string') return { ok: false, reason: c };
    if (groupBy !== 'format' && groupBy !== 'variant' && groupBy !== 'buyIn') return { ok: false, reason: "group by 'format', 'variant' or 'buyIn'" };
    const key = { format: 't.format AS a, 0 AS b', variant: 't.variant AS a, 0 AS b', buyIn: 't.buy_in AS a, t.fee AS b' }[groupBy];
    const rows = this.shape(
      `SELECT t.money AS money, ${key},
              count(*) AS count, total(t.spent) AS spent, total(t.prize) AS prizes, total(t.bounties) AS bounties,
              total(t.prize > 0) AS cashes, total(t.place) AS placeSum, total(t.entries) AS entriesSum
       FROM tournaments t INDEXED BY tournaments_by_end WHERE ${[...c.where, 't.place IS NOT NULL', 't.ended_at IS NOT NULL'].join(' AND ')}
       GROUP BY t.money, a, b ORDER BY t.money, a, b`,
    ).all(...c.args) as (Record<'money' | 'a' | 'b' | 'count' | 'spent' | 'prizes' | 'bounties' | 'cashes' | 'placeSum' | 'entriesSum', number>)[];
    const real = zero();
    const play = zero();
    const groups: TournamentResultsView['groups'] = [];
    for (const r of rows) {
      const t: Totals = {
        count: r.count,
        spent: Math.round(r.spent),
        prizes: Math.round(r.prizes),
        bounties: Math.round(r.bounties),
        net: Math.round(r.prizes + r.bounties - r.spent),
        cashes: Math.round(r.cashes),
        placeSum: Math.round(r.placeSum),
        entriesSum: Math.round(r.entriesSum),
      };
      const sum = r.money === 1 ? play : real;
      for (const k of Object.keys(t) as (keyof Totals)[]) sum[k] += t[k];
      const label = groupBy === 'format' ? (FORMATS[r.a] ?? 'sit-and-go') : groupBy === 'variant' ? VARIANT_IDS[r.a] : `${r.a}+${r.b}`;
      groups.push({ money: r.money === 1 ? 'play' : 'real', key: label, ...t });
    }
    return { ok: true, real, play, groups };
  }

  /**
   * The finished tournaments of a filter as per-"hand" rows of the graph (series.ts `seriesFromRows`),
   * one per tournament at its end time, its net (prizes + bounties − spent) as the point's step; no
   * showdown part (the whole step is on the total and all-in adjusted lines, as a hand without showdown).
   */
  seriesRows(filter: TournamentFilter): ResultRows | { ok: false; reason: string } {
    const c = conditions(filter, 'ended_at');
    if (typeof c === 'string') return { ok: false, reason: c };
    const out: ResultRows = { ok: true, at: [], net: [], rake: [], adj: [], showdown: [], play: [], table: [] };
    const rows = this.shape(
      `SELECT t.ended_at, t.prize + t.bounties - t.spent, t.money, t.id FROM tournaments t INDEXED BY tournaments_by_end
       WHERE ${[...c.where, 't.place IS NOT NULL', 't.ended_at IS NOT NULL'].join(' AND ')} ORDER BY t.ended_at, t.id`,
    )
      .raw()
      .all(...c.args) as number[][];
    for (const [at, net, money, id] of rows) {
      out.at.push(at);
      out.net.push(net);
      out.rake.push(0);
      out.adj.push(net);
      out.showdown.push(0);
      out.play.push(money);
      out.table.push(id);
    }
    return out;
  }
}
