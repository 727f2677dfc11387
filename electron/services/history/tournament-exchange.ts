/**
 * The history's tournaments in the import and export jobs (docs/exchange.md): a
 * tournament hand exported with its tournament (buy-in, fee, name: PokerStars' header, POJEU's Tech,
 * PHH's event), the stored tournaments' summaries in the PokerStars summary form, and the ids a file
 * of summaries is imported under (the import itself is the store's `addTournaments`: one transaction).
 *
 * The tournaments themselves are the store's (the `tournaments` table of schema v6, tournaments.ts).
 * The jobs use them through `TournamentBook`, the few calls they need; `bookOf` makes it of the store.
 */
import type { HandSummaryView, HistoryFilter, TournamentFilter, TournamentRecordView } from '../../../shared/api';
import type { ExchangeMeta, ExchangeTournament, SummaryExport } from '../../../shared/exchange';
import { summaryReady, tournamentNumber } from '../../../shared/exchange';
import { isNumericHandId } from '../../../shared/exchange/handNumber';
import type { HandTournament } from '../../../shared/protocol/messages';
import type { HistoryStore } from './store';

/**
 * What the jobs need of the stored tournaments: the store's own calls (schema v6's `tournaments`
 * table). `putTournament` is the upsert by id main already writes with (client/tournament-records.ts).
 */
export interface TournamentBook {
  /** One stored tournament, or null. */
  getTournament(tournamentId: string): TournamentRecordView | null;
  /** Stores a tournament, or replaces the one of the same id. */
  putTournament(t: TournamentRecordView): unknown;
  /** The stored tournaments of a filter, any order (the summaries export needs it). */
  listTournaments?(filter: TournamentFilter): TournamentRecordView[];
}

/** The store's tournaments (schema v6, tournaments.ts) as the jobs use them. */
export function bookOf(store: HistoryStore): TournamentBook {
  return {
    getTournament: (id) => store.tournament(id),
    putTournament: (t) => {
      const r = store.putTournament(t);
      if (!r.ok) throw new Error(`tournament ${t.tournamentId}: ${r.reason}`);
    },
    listTournaments: (filter) => {
      const all: TournamentRecordView[] = [];
      let cursor: string | null = null;
      do {
        const page = store.tournamentHistory(filter, 200, cursor);
        if (!page.ok) throw new Error(page.reason);
        all.push(...page.tournaments);
        cursor = page.next;
      } while (cursor !== null);
      return all;
    },
  };
}

/**
 * The stored tournament a file's tournament id stands for: PokerStars text numbers a tournament
 * (`tournamentNumber`) and reads back the number as its id, so a number that a stored tournament has
 * is that tournament (its hands and summary join it instead of making a second one, counted twice);
 * any other id is itself.
 */
export function localTournamentId(book: TournamentBook): (tournamentId: string) => string {
  // Read now: the caller may close the store before mapping.
  const byNumber = new Map((book.listTournaments?.({}) ?? []).map((t) => [tournamentNumber(t.tournamentId), t.tournamentId]));
  return (id) => (isNumericHandId(id) ? (byNumber.get(Number(id)) ?? id) : id);
}

/**
 * A stored hand's tournament as the formats write it, its entry from the stored tournament (looked up
 * once per tournament). A tournament the store does not know (it always should: it is stored at
 * registration) is written with a buy-in and fee of 0.
 */
export function tournamentLookup(book: TournamentBook | null): (t: HandTournament, money: 'real' | 'play') => ExchangeTournament {
  const known = new Map<string, TournamentRecordView | null>();
  return (t, money) => {
    let stored = known.get(t.tournamentId);
    if (stored === undefined) known.set(t.tournamentId, (stored = book?.getTournament(t.tournamentId) ?? null));
    return stored === null
      ? { tournamentId: t.tournamentId, level: t.level, buyIn: 0, fee: 0, money }
      : { tournamentId: t.tournamentId, level: t.level, buyIn: stored.buyIn, fee: stored.fee, name: stored.name, money: stored.money };
  };
}

/** A stored hand's meta as the formats take it: its table, end, money kind and, for a tournament's hand, its tournament (the export job and `cercle export`). */
export function exchangeMetaOf(s: HandSummaryView, tournamentOf: ReturnType<typeof tournamentLookup>): ExchangeMeta {
  const t = s.tournament ?? null;
  // The formats know euros and play money only: a hand of another money is written as real money
  // (its amounts unchanged, in its own units). A tournament's hand takes its tournament's money when stored.
  const money = s.money === 'play' ? 'play' : 'real';
  return { tableName: s.tableId, endedAt: s.playedAt, money, ...(t !== null ? { tournament: tournamentOf(t, money) } : {}) };
}

/**
 * The tournaments whose summaries an export of `filter` writes: those that ended in its period (the
 * store's list reads registration times, so the period is applied here), of its money kind, game and
 * tournament, oldest first.
 */
export function summaryTournaments(book: TournamentBook, filter: HistoryFilter): TournamentRecordView[] {
  if (!book.listTournaments) throw new Error('this history cannot list its tournaments: no summaries to export');
  const f: TournamentFilter = {
    ...(filter.money === 'real' || filter.money === 'play' ? { money: filter.money } : {}),
    ...(filter.variant !== undefined ? { variant: filter.variant } : {}),
  };
  const ended = (t: TournamentRecordView) => t.endedAt !== null && (filter.from === undefined || t.endedAt >= filter.from) && (filter.to === undefined || t.endedAt < filter.to);
  return book
    .listTournaments(f)
    .filter((t) => (filter.tournamentId === undefined || t.tournamentId === filter.tournamentId) && (t.endedAt === null ? filter.from === undefined && filter.to === undefined : ended(t)))
    .sort((a, b) => (a.endedAt ?? a.registeredAt) - (b.endedAt ?? b.registeredAt) || (a.tournamentId < b.tournamentId ? -1 : 1));
}

/** The name the player's own hands give them in a tournament (its first stored hand's hero), or null. */
export function heroOfTournament(store: HistoryStore, tournamentId: string): string | null {
  const p = store.page({ kind: 'tournament', tournamentId }, { sort: 'time', dir: 'asc', limit: 1 });
  if (!p.ok || p.hands.length === 0) return null;
  const h = store.getHand(p.hands[0].handId);
  return h.ok ? (h.record.seats.find((s) => s.seat === h.summary.heroSeat)?.player ?? null) : null;
}

/**
 * The summaries to write: each tournament that is over, with the player's name as its hands give it
 * (`heroOf`), else the account's, else `Hero`. Those not over yet are counted apart.
 */
export function summariesOf(list: readonly TournamentRecordView[], heroOf: (tournamentId: string) => string | null, heroNames: readonly string[]): { summaries: SummaryExport[]; notOver: number } {
  const summaries: SummaryExport[] = [];
  let notOver = 0;
  for (const t of list) {
    if (!summaryReady(t)) {
      notOver++;
      continue;
    }
    summaries.push({ tournament: t, player: heroOf(t.tournamentId) ?? heroNames[0] ?? 'Hero' });
  }
  return { summaries, notOver };
}
