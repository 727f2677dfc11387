/**
 * The tournaments of the local history (R-HISTORY, R-RESULTS): the list (newest
 * registration first, keyset-paged), the results over the finished ones (net, ROI, in-the-money rate,
 * average finish: totals per money kind and groups by format, game or buy-in), and the graph's line of
 * tournaments. Schema version 6 (schema/v6.ts): one `tournaments` row per tournament, written by
 * writer.ts `putTournament`; a row without a name is a stub made by a hand that came before its
 * tournament's record and is listed nowhere until the record comes.
 *
 * Which time a filter's period reads: the list, the registration (a tournament is listed from the
 * moment the player registers, running or not); the results, the end of a finished tournament and the
 * registration of a running one (R-TRACKER: an entry paid is lost until a prize comes, so a running
 * tournament's spent and bounties so far count); the graph, each movement of money
 * when it happened (schema version 7 `tournament_money`: an entry when paid, a bounty when won, the
 * prize at the end). A refunded registration (`refunded_at`) is listed as such and in no result; one
 * kept apart after a new registration has the key `<tid> <registered_at>` (writer.ts).
 */
import type Database from 'better-sqlite3';
import type { TournamentFilter, TournamentRecordView, TournamentResultsView } from '../../../shared/api/tournaments';
import { VARIANT_IDS } from '../../../shared/history/compact';
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
  tied: number | null;
  prize: number;
  bounties: number;
  rebuys: number;
  add_ons: number;
  re_entries: number;
  spent: number;
  refunded_at: number | null;
  hands: number;
}

const FORMATS = ['sit-and-go', 'scheduled'] as const;

/** The conditions of a filter over `tournaments t` with its period on the time column `at`, or a refusal. */
function conditions(filter: TournamentFilter, at: 't.registered_at' | 't.ended_at' | 'm.at'): { where: string[]; args: number[] } | string {
  const where = ['t.name IS NOT NULL'];
  const args: number[] = [];
  for (const k of ['from', 'to'] as const) {
    const x = filter[k];
    if (x !== undefined && !Number.isSafeInteger(x)) return `${k} must be a whole number`;
  }
  if (filter.from !== undefined) {
    where.push(`${at} >= ?`);
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push(`${at} < ?`);
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
  const v: TournamentRecordView = {
    // A refunded registration kept apart: `<tid> <registered_at>` (writer.ts).
    tournamentId: r.tid.split(' ')[0],
    name: r.name,
    variant: VARIANT_IDS[r.variant],
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
  if (r.tied !== null) v.tied = r.tied;
  if (r.refunded_at !== null) v.refundedAt = r.refunded_at;
  return v;
}

const zero = (): Totals => ({ count: 0, spent: 0, prizes: 0, bounties: 0, net: 0, cashes: 0, placeSum: 0, entriesSum: 0, running: 0, runningSpent: 0, runningBounties: 0 });

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
    const c = conditions(filter, 't.registered_at');
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
   * Results over the tournaments the player has finished (a place) whose end is in the filter's period,
   * and the running ones registered in it (R-RESULTS, R-TRACKER): per money kind (never
   * added together) and per group. net = prizes + bounties − spent, running ones' spent and bounties so
   * far included; ROI, ITM (a cash: a prize above 0) and average finish are of the finished ones
   * (shared/history/tournaments.ts). A refunded registration is in neither.
   */
  results(filter: TournamentFilter, groupBy: TournamentGroupBy): ({ ok: true } & TournamentResultsView) | { ok: false; reason: string } {
    const ended = conditions(filter, 't.ended_at');
    if (typeof ended === 'string') return { ok: false, reason: ended };
    const running = conditions(filter, 't.registered_at');
    if (typeof running === 'string') return { ok: false, reason: running };
    if (groupBy !== 'format' && groupBy !== 'variant' && groupBy !== 'buyIn') return { ok: false, reason: "group by 'format', 'variant' or 'buyIn'" };
    const key = { format: 't.format AS a, 0 AS b', variant: 't.variant AS a, 0 AS b', buyIn: 't.buy_in AS a, t.fee AS b' }[groupBy];
    type Sums = Record<'money' | 'a' | 'b' | 'count' | 'spent' | 'prizes' | 'bounties' | 'cashes' | 'placeSum' | 'entriesSum', number>;
    const read = (c: { where: string[]; args: number[] }, which: string): Sums[] =>
      this.shape(
        `SELECT t.money AS money, ${key},
                count(*) AS count, total(t.spent) AS spent, total(t.prize) AS prizes, total(t.bounties) AS bounties,
                total(t.prize > 0) AS cashes, total(t.place) AS placeSum, total(t.entries) AS entriesSum
         FROM tournaments t INDEXED BY tournaments_by_end WHERE ${[...c.where, which].join(' AND ')}
         GROUP BY t.money, a, b ORDER BY t.money, a, b`,
      ).all(...c.args) as Sums[];
    // Running: no end yet (read from the end index, where they are NULL), not refunded.
    const rows = [
      ...read(ended, 't.place IS NOT NULL AND t.ended_at IS NOT NULL').map((r) => ({ r, live: false })),
      ...read(running, 't.ended_at IS NULL AND t.place IS NULL AND t.refunded_at IS NULL').map((r) => ({ r, live: true })),
    ];
    const real = zero();
    const play = zero();
    const byKey = new Map<string, TournamentResultsView['groups'][number] & { order: [number, number, number] }>();
    for (const { r, live } of rows) {
      const spent = Math.round(r.spent);
      const bounties = Math.round(r.bounties);
      const t: Totals = live
        ? { ...zero(), spent, bounties, net: bounties - spent, running: r.count, runningSpent: spent, runningBounties: bounties }
        : {
            ...zero(),
            count: r.count,
            spent,
            prizes: Math.round(r.prizes),
            bounties,
            net: Math.round(r.prizes) + bounties - spent,
            cashes: Math.round(r.cashes),
            placeSum: Math.round(r.placeSum),
            entriesSum: Math.round(r.entriesSum),
          };
      const label = groupBy === 'format' ? (FORMATS[r.a] ?? 'sit-and-go') : groupBy === 'variant' ? VARIANT_IDS[r.a] : `${r.a}+${r.b}`;
      const money = r.money === 1 ? 'play' : 'real';
      let g = byKey.get(`${money}:${label}`);
      if (g === undefined) {
        g = { money, key: label, ...zero(), order: [r.money, r.a, r.b] };
        byKey.set(`${money}:${label}`, g);
      }
      const sum = r.money === 1 ? play : real;
      for (const k of Object.keys(t) as (keyof Totals)[]) {
        sum[k] += t[k];
        g[k] += t[k];
      }
    }
    const order = [...byKey.values()].sort((x, y) => x.order[0] - y.order[0] || x.order[1] - y.order[1] || x.order[2] - y.order[2]);
    return { ok: true, real, play, groups: order.map(({ order: _, ...g }) => g) };
  }

  /**
   * The tournaments' money of a filter as per-"hand" rows of the graph (series.ts `seriesFromRows`),
   * one per movement when it happened (schema version 7: an entry, rebuy or add-on paid, a bounty won,
   * the prize at the end), its step prizes − entries; `table` is the tournament's row (tournamentSeries
   * counts tournaments with it). No showdown part (the whole step is on the total and all-in adjusted
   * lines, as a hand without showdown). A refunded registration has no movement.
   */
  seriesRows(filter: TournamentFilter): ResultRows | { ok: false; reason: string } {
    // The period is the movement's time; the other conditions are the record's.
    const c = conditions(filter, 'm.at');
    if (typeof c === 'string') return { ok: false, reason: c };
    const out: ResultRows = { ok: true, at: [], net: [], rake: [], adj: [], showdown: [], money: [], table: [] };
    const rows = this.shape(
      `SELECT m.at, m.prizes - m.entries, m.money, m.tournament FROM tournament_money m INDEXED BY tournament_money_by_time JOIN tournaments t ON t.id = m.tournament
       WHERE ${c.where.join(' AND ')} ORDER BY m.at, m.id`,
    )
      .raw()
      .all(...c.args) as number[][];
    for (const [at, net, money, id] of rows) {
      out.at.push(at);
      out.net.push(net);
      out.rake.push(0);
      out.adj.push(net);
      out.showdown.push(0);
      out.money.push(money);
      out.table.push(id);
    }
    return out;
  }
}
