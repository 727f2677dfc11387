import { defineStore } from 'pinia';
import { markRaw, shallowReactive } from 'vue';
import type { CercleApi, Outcome, TournamentPlay } from '../../../shared/api';
import type { TournamentDetails, TournamentStanding } from '../../../shared/protocol/tournament';
import { outcomeText, safely } from '../errors';
import { i18n } from '../i18n';
import { detailsStale } from '../tournaments/bar';
import { useApi } from '../useApi';
import { useNoticesStore } from './notices';
import { type TableMove, useTablesStore } from './tables';
import { useTournamentsStore } from './tournaments';

/** How long the message saying why the player changed tables stays; its button closes it sooner. */
export const MOVE_NOTICE_MS = 30_000;

/** The details of the player's tournaments (structure, prizes) that the tournament bar reads. */
function detailsCache(api: CercleApi, tournaments: ReturnType<typeof useTournamentsStore>) {
  /** The details of a tournament (structure, prizes), cached; read again when the field or the paid places changed. */
  const details = shallowReactive(new Map<string, TournamentDetails>());
  const reading = new Set<string>();

  async function ensureDetails(tournamentId: string, latest: TournamentStanding | null = null): Promise<void> {
    const have = details.get(tournamentId);
    const standing = latest ?? tournaments.byId.get(tournamentId)?.standing ?? null;
    if (reading.has(tournamentId) || (have !== undefined && (standing === null || !detailsStale(have, standing)))) return;
    reading.add(tournamentId);
    try {
      const r = await api.tournamentDetails({ tournamentId });
      if (r.ok && r.details) details.set(tournamentId, markRaw(r.details));
    } catch {
      // Not reachable now: the bar shows what the standing alone says, and the next standing asks again.
    } finally {
      reading.delete(tournamentId);
    }
  }

  return { details, ensureDetails };
}

/**
 * The tournaments' side of the tables: a move to another table followed (the tile moves, the reason
 * shown), the details the tournament bar reads (structure, prizes), rebuys and add-ons, leaving a
 * running tournament (a forfeit) and watching a table.
 */
export const useTournamentTablesStore = defineStore('tournamentTables', () => {
  const api = useApi();
  const tables = useTablesStore();
  const notices = useNoticesStore();
  const tournaments = useTournamentsStore();
  /** The move that brought the player to each table, while its message shows. */
  const moves = shallowReactive(new Map<string, TableMove>());
  /** The last move followed, per tournament. */
  const followed = new Map<string, number>();

  const { details, ensureDetails } = detailsCache(api, tournaments);

  tables.react({ closed: (tableId) => void moves.delete(tableId) });

  /** Moves between a tournament's tables are followed from the `tournament` events... */
  function listen(): void {
    api.on('tournament', follow);
  }

  /** ...and from the player's tournaments read now (once the tables are: a move's old table stands in). */
  async function catchUp(): Promise<void> {
    await tournaments.start().catch(() => undefined);
    for (const p of tournaments.list) follow(p);
  }

  /** One of the player's tournaments changed: a move is followed once; the details are kept fresh. */
  function follow(p: TournamentPlay): void {
    const m = p.move;
    if (m !== null && followed.get(p.tournamentId) !== m.at) {
      followed.set(p.tournamentId, m.at);
      moveTile(m.from, m.to, { from: m.from, why: m.why, at: m.at });
    }
    if (p.standing !== null && p.status === 'playing') void ensureDetails(p.tournamentId, p.standing);
  }

  function moveTile(from: string | null, to: string, move: TableMove): void {
    tables.opened(to);
    // The message, for a move that is recent (not one read again after a reload).
    if (Date.now() - move.at < MOVE_NOTICE_MS) {
      moves.set(to, move);
      setTimeout(() => {
        if (moves.get(to)?.at === move.at) moves.delete(to);
      }, MOVE_NOTICE_MS);
    }
    if (from !== null && from !== to) tables.moveTile(from, to);
  }


  /** Rebuy or add-on (T 5-2, T 5-4); a refusal is worded as a notice. */
  async function purchase(tournamentId: string, what: 'rebuy' | 'addOn'): Promise<Outcome> {
    const r = await safely(what === 'rebuy' ? api.tournamentRebuy({ tournamentId }) : api.tournamentAddOn({ tournamentId }));
    if (!r.ok) notices.push(i18n.global.t(`table.tournament.${what === 'rebuy' ? 'rebuyRefused' : 'addOnRefused'}`, { reason: outcomeText(i18n.global.t, r) }));
    return r;
  }

  /** Leaving a running tournament forfeits the entry (R-TOURN-LEAVE): asked after a confirm on the table. */
  async function forfeit(tableId: string): Promise<Outcome> {
    const tournamentId = tables.states.get(tableId)?.tournamentId ?? null;
    if (tournamentId === null) return { ok: false, code: 'NOT_REGISTERED', message: 'not a tournament table' };
    const r = await safely(api.tournamentUnregister({ tournamentId }));
    if (r.ok) tables.closeTile(tableId);
    else notices.push(i18n.global.t('table.tournament.leave.refused', { reason: outcomeText(i18n.global.t, r) }));
    return r;
  }

  /** Watches any table of a tournament (no seat; its `table` pushes follow with `watching: true`). */
  function watch(tableId: string): Promise<Outcome> {
    tables.opened(tableId);
    return safely(api.watchTable({ tableId, watch: true }));
  }

  /** Stops watching a table. */
  async function unwatch(tableId: string): Promise<Outcome> {
    const r = await safely(api.watchTable({ tableId, watch: false }));
    if (r.ok) tables.closeTile(tableId);
    return r;
  }

  return { moves, details, listen, catchUp, follow, ensureDetails, purchase, forfeit, watch, unwatch };
});
