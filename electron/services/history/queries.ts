/**
 * The history's reads of hands (R-HISTORY, R-RESULTS): a stored hand, a page of hands, the per-hand
 * rows of the results page and the statistics' sums. Split out of store.ts; run by
 * the reader worker in the desktop app (reader.ts: reads off Electron's main thread).
 */
import type Database from 'better-sqlite3';
import { VARIANT_IDS, decodeHand, isDecodeRefusal } from '../../../shared/history/compact';
import {
  F_ALL_IN,
  F_OBSERVED,
  moneyCode,
  moneyOfFlags,
  moneySql,
  F_SHOWDOWN,
  HOUR,
  MAX_PAGE,
  STAT_SELECT,
  STAT_SUMS,
  flagsCondition,
  joinHandId,
  splitHandId,
  unpackCards,
  type GetHandResult,
  type HandFilter,
  type HandRow,
  type HandSummary,
  type PageRequest,
  type PageResult,
  type StatSums,
} from './model';
import type { Names } from './names';

type Statement = Database.Statement;

/**
 * The results page's reads (graph, sessions, statistics) are of cash hands unless the filter asks for
 * tournament hands (tournament chips are not money; the history page's list shows both).
 */
export function cashUnlessSaid(filter: HandFilter): HandFilter {
  return filter.kind === undefined && filter.tournamentId === undefined ? { ...filter, kind: 'cash' } : filter;
}

/** The per-hand columns of the results page (see `resultRows`). */
export type ResultRows = { ok: true; at: number[]; net: number[]; rake: number[]; adj: number[]; showdown: number[]; money: number[]; table: number[] };

export class HandQueries {
  constructor(
    private readonly names: Names,
    private readonly shape: (sql: string) => Statement,
    private readonly planThreshold: number,
    private readonly getHandStmt: Statement,
  ) {}

  // Reading

  /** The stored hand, decoded; a refusal when it is not stored or its bytes cannot be trusted. */
  getHand(handId: string): GetHandResult {
    const { prefix, number } = splitHandId(handId);
    const prefixRef = this.names.find('prefix', prefix);
    if (prefixRef === undefined) return { ok: false, reason: `hand ${handId} is not in the history` };
    const row = this.getHandStmt.get(prefixRef, number) as (HandRow & { record: Uint8Array }) | undefined;
    if (row === undefined) return { ok: false, reason: `hand ${handId} is not in the history` };
    const record = decodeHand(row.record, { handId, playerName: (id) => this.names.text('player', id) });
    if (isDecodeRefusal(record)) return { ok: false, reason: `hand ${handId} cannot be read: ${record.reason}` };
    return { ok: true, summary: this.summary(row), record };
  }

  private summary(row: HandRow): HandSummary {
    return {
      handId: joinHandId(this.names.text('prefix', row.prefix) ?? '', row.number),
      playedAt: row.played_at,
      tableId: this.names.text('table', row.table_ref) ?? '',
      variant: VARIANT_IDS[row.variant],
      stakes: row.stakes,
      money: moneyOfFlags(row.flags),
      // An observed hand (schema version 9) has no hero.
      heroSeat: row.flags & F_OBSERVED ? null : row.hero_seat,
      net: row.hero_net,
      rake: row.hero_rake,
      showdown: (row.flags & F_SHOWDOWN) !== 0,
      allIn: (row.flags & F_ALL_IN) !== 0,
      pot: row.pot,
      cards: unpackCards(row.hero_cards),
      // Schema version 6: a tournament's hand names it and its level.
      tournament: row.tournament === null ? null : { tournamentId: this.names.text('tournament', row.tournament) ?? '', level: row.level ?? 0 },
    };
  }

  /**
   * A page of hands matching `filter`, newest (or biggest) first or last, from `cursor` on (keyset
   * pagination: a page costs the same wherever it is, and hands added meanwhile do not shift it).
   */
  page(filter: HandFilter, req: PageRequest): PageResult {
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MAX_PAGE) return { ok: false, reason: `a page holds 1 to ${MAX_PAGE} hands` };
    if (req.sort !== 'time' && req.sort !== 'net') return { ok: false, reason: "sort by 'time' or 'net'" };
    if (req.dir !== 'asc' && req.dir !== 'desc') return { ok: false, reason: "direction 'asc' or 'desc'" };
    let after: { key: number; id: number } | null = null;
    if (req.cursor !== undefined && req.cursor !== null) {
      const m = /^(time|net):(-?\d{1,16}):(\d{1,16})$/.exec(req.cursor);
      if (!m || m[1] !== req.sort) return { ok: false, reason: 'this cursor does not belong to this sort' };
      after = { key: Number(m[2]), id: Number(m[3]) };
    }
    const c = this.conditions(filter);
    if (typeof c === 'string') return { ok: false, reason: c };
    if (c === null) return { ok: true, hands: [], next: null };
    const { where, args, narrowing, player } = c;
    // The driving index: the tournament's, else the table's, else the game's, else time.
    const drive: 'tournament' | 'table' | 'game' | 'time' = c.tournament ? 'tournament' : c.table ? 'table' : c.variant ? 'game' : 'time';
    // And as a range of the net index, where a page by net starts right at the wins or the losses.
    if (filter.result !== undefined) where.push(filter.result === 'won' ? 'h.hero_net > 0' : 'h.hero_net < 0');

    const key = req.sort === 'time' ? 'h.played_at' : 'h.hero_net';
    const index = { tournament: 'hands_by_tournament', table: 'hands_by_table', game: 'hands_by_game', time: 'hands_by_time' }[drive];
    // Counts at most `planThreshold + 1` rows: is a plan's candidate set small enough to sort?
    const few = (sql: string, params: (number | string)[]): boolean =>
      (this.shape(`SELECT count(*) FROM (${sql} LIMIT ${this.planThreshold + 1})`).pluck().get(...params) as number) <= this.planThreshold;
    let from: string;
    if (player !== undefined && few('SELECT 1 FROM hand_players WHERE player = ?', [player])) {
      // An opponent met a few thousand times at most: start from their hands and sort them.
      from = 'hand_players p CROSS JOIN hands h ON h.id = p.hand';
      where.unshift('p.player = ?');
      args.unshift(player);
    } else {
      // The player's own name or a regular: walk the filter's order and check each hand for them.
      if (player !== undefined) {
        where.push('EXISTS (SELECT 1 FROM hand_players p WHERE p.player = ? AND p.hand = h.id)');
        args.push(player);
      }
      from = `hands h INDEXED BY ${index}`;
      // By net, the net index gives the order, the filter's own index the fewest rows: sorting a few
      // thousand rows beats walking a million in net order.
      const narrowed = narrowing > 0 && few(`SELECT 1 FROM hands h INDEXED BY ${index} WHERE ${where.slice(0, narrowing).join(' AND ')}`, args.slice(0, narrowing));
      if (req.sort === 'net' && !narrowed) from = 'hands h INDEXED BY hands_by_net';
    }
    if (after !== null) {
      // A row-value comparison: SQLite walks the index from the cursor (an OR of the two columns
      // would make it sort the whole candidate set).
      where.push(`(${key}, h.id) ${req.dir === 'desc' ? '<' : '>'} (?, ?)`);
      args.push(after.key, after.id);
    }
    const dir = req.dir === 'desc' ? 'DESC' : 'ASC';
    const sql =
      'SELECT h.id, h.prefix, h.number, h.played_at, h.table_ref, h.variant, h.stakes, h.flags, h.hero_seat, h.hero_net, h.hero_rake, h.pot, h.hero_cards, h.tournament, h.level ' +
      `FROM ${from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${key} ${dir}, h.id ${dir} LIMIT ${req.limit + 1}`;
    const rows = this.shape(sql).all(...args) as HandRow[];
    const more = rows.length > req.limit;
    if (more) rows.length = req.limit;
    const last = rows[rows.length - 1];
    const next = more ? `${req.sort}:${req.sort === 'time' ? last.played_at : last.hero_net}:${last.id}` : null;
    return { ok: true, hands: rows.map((r) => this.summary(r)), next };
  }


  // -------------------------------------------------------------------------------------------
  // The results page (schema version 2; results.ts, docs/stats.md)

  /**
   * The conditions of a filter over `hands h`, those an index can use first (`narrowing` of them: the
   * table, the game, the period), then stakes and the yes/no flags; the player's id apart (each reader
   * joins it its own way). Null when the filter names a player or table never seen (no hand matches),
   * or a refusal.
   */
  private conditions(
    filter: HandFilter,
    mine = false,
  ): { where: string[]; args: (number | string)[]; narrowing: number; player: number | undefined; tournament: boolean; table: boolean; variant: boolean } | null | string {
    const where: string[] = [];
    const args: (number | string)[] = [];
    for (const k of ['from', 'to', 'stakes'] as const) {
      const x = filter[k];
      if (x !== undefined && !Number.isSafeInteger(x)) return `${k} must be a whole number`;
    }
    let player: number | undefined;
    if (filter.player !== undefined) {
      player = this.names.find('player', filter.player);
      if (player === undefined) return null;
    }
    if (filter.tournamentId !== undefined) {
      // Schema version 6: one tournament's hands, read from its own index.
      const t = this.names.find('tournament', filter.tournamentId);
      if (t === undefined) return null;
      where.push('h.tournament = ?');
      args.push(t);
    }
    if (filter.tableId !== undefined) {
      const t = this.names.find('table', filter.tableId);
      if (t === undefined) return null;
      where.push('h.table_ref = ?');
      args.push(t);
    }
    if (filter.variant !== undefined) {
      const v = VARIANT_IDS.indexOf(filter.variant);
      if (v < 0) return `unknown variant ${String(filter.variant)}`;
      where.push('h.variant = ?');
      args.push(v);
    }
    if (filter.from !== undefined) {
      where.push('h.played_at >= ?');
      args.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push('h.played_at < ?');
      args.push(filter.to);
    }
    const narrowing = where.length; // conditions the driving index can use, one argument each
    if (filter.stakes !== undefined) {
      where.push('h.stakes = ?');
      args.push(filter.stakes);
    }
    const flags = flagsCondition(filter, mine);
    if (flags !== null) where.push(flags);
    return { where, args, narrowing, player, tournament: filter.tournamentId !== undefined, table: filter.tableId !== undefined, variant: filter.variant !== undefined };
  }

  /**
   * The WHERE clause of a filter over `hands h` (the same meaning as `page`'s), or null when the
   * filter names a player or table the history has never seen (no hand matches), or a refusal.
   * `mine`: the player's hands only, observed hands left out (the results' reads, R-RESULTS).
   */
  filterSql(filter: HandFilter, mine = false): { from: string; where: string; args: (number | string)[] } | null | string {
    const c = this.conditions(filter, mine);
    if (c === null || typeof c === 'string') return c;
    const { where, args, player } = c;
    if (player !== undefined) {
      where.push('EXISTS (SELECT 1 FROM hand_players p WHERE p.player = ? AND p.hand = h.id)');
      args.push(player);
    }
    // The covering index, unless one tournament or table is asked for (its own index narrows it more).
    const index = c.tournament ? 'hands_by_tournament' : c.table ? 'hands_by_table' : 'hands_results';
    return { from: `hands h INDEXED BY ${index}`, where: where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '', args };
  }

  /**
   * The hands of a filter in the graph's order (played_at, then id: the order hour_series is kept in,
   * schema version 5; SQLite sorts only the hands of the same millisecond), column by column, for the
   * results graph and the sessions:
   * when, net, rake, the adjusted net (the net where not adjusted), showdown (1/0), the money's code
   * (shared/history/money.ts), table. Observed hands are not the player's: left out.
   */
  resultRows(filter: HandFilter): ResultRows | { ok: false; reason: string } {
    filter = cashUnlessSaid(filter);
    const out = { ok: true as const, at: [] as number[], net: [] as number[], rake: [] as number[], adj: [] as number[], showdown: [] as number[], money: [] as number[], table: [] as number[] };
    const f = this.filterSql(filter, true);
    if (typeof f === 'string') return { ok: false, reason: f };
    if (f === null) return out;
    const stmt = this.shape(
      `SELECT h.played_at, h.hero_net, h.hero_rake, coalesce(h.hero_adj, h.hero_net), (h.flags >> 1) & 1, ${moneySql()}, h.table_ref FROM ${f.from}${f.where} ORDER BY h.played_at, h.id`,
    ).raw();
    for (const r of stmt.iterate(...f.args) as IterableIterator<number[]>) {
      out.at.push(r[0]);
      out.net.push(r[1]);
      out.rake.push(r[2]);
      out.adj.push(r[3]);
      out.showdown.push(r[4]);
      out.money.push(r[5]);
      out.table.push(r[6]);
    }
    return out;
  }

  /**
   * Sums of the packed per-hand statistics over a filter (hands the hero was dealt in). A filter of
   * period, money, game and stakes only is read from the hour sums (`hour_stats`), with the hands of
   * its partial hours at the edges; any other filter sums the hands (the covering index).
   */
  statSums(filter: HandFilter): { ok: true; sums: StatSums } | { ok: false; reason: string } {
    filter = cashUnlessSaid(filter);
    const zero = Object.fromEntries(STAT_SUMS.map((k) => [k, 0])) as StatSums;
    // `hour_stats` holds cash hands only (schema version 6).
    const simple = Object.entries(filter).every(([k, x]) => x === undefined || ['from', 'to', 'money', 'variant', 'stakes'].includes(k) || (k === 'kind' && x === 'cash'));
    const sums = { ...zero };
    const add = (row: Partial<StatSums> | undefined): void => {
      if (row === undefined) return;
      for (const k of STAT_SUMS) sums[k] += Math.round(row[k] ?? 0);
    };
    const scan = (f: HandFilter): string | null => {
      const q = this.filterSql(f, true);
      if (typeof q === 'string') return q;
      if (q === null) return null;
      const where = q.where === '' ? ' WHERE (h.stats & 1) = 1' : `${q.where} AND (h.stats & 1) = 1`;
      add(this.shape(`SELECT ${STAT_SELECT} FROM ${q.from}${where}`).get(...q.args) as StatSums);
      return null;
    };
    const from = filter.from ?? Number.MIN_SAFE_INTEGER;
    const to = filter.to ?? Number.MAX_SAFE_INTEGER;
    const h0 = Math.ceil(from / HOUR);
    const h1 = Math.floor(to / HOUR);
    if (!simple || h1 - h0 < 2) {
      const r = scan(filter);
      return r === null ? { ok: true, sums } : { ok: false, reason: r };
    }
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return { ok: false, reason: 'from and to must be whole numbers' };
    if (filter.stakes !== undefined && !Number.isSafeInteger(filter.stakes)) return { ok: false, reason: 'stakes must be a whole number' };
    const v = filter.variant === undefined ? null : VARIANT_IDS.indexOf(filter.variant);
    if (v !== null && v < 0) return { ok: false, reason: `unknown variant ${String(filter.variant)}` };
    // The partial hours at the edges, hand by hand.
    for (const [a, b] of [
      [from, h0 * HOUR],
      [h1 * HOUR, to],
    ]) {
      if (a < b) {
        const r = scan({ ...filter, from: a, to: b });
        if (r !== null) return { ok: false, reason: r };
      }
    }
    const where = ['hour >= ?', 'hour < ?'];
    const args: number[] = [h0, h1];
    if (filter.money !== undefined) {
      where.push('money = ?');
      args.push(moneyCode(filter.money));
    }
    if (v !== null) {
      where.push('variant = ?');
      args.push(v);
    }
    if (filter.stakes !== undefined) {
      where.push('stakes = ?');
      args.push(filter.stakes);
    }
    add(this.shape(`SELECT ${STAT_SUMS.map((k) => `total(${k}) AS ${k}`).join(', ')} FROM hour_stats WHERE ${where.join(' AND ')}`).get(...args) as StatSums);
    return { ok: true, sums };
  }

  // -------------------------------------------------------------------------------------------
  // Retention

}
