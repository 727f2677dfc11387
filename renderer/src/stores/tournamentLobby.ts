import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Outcome } from '../../../shared/api';
import type { TournamentDetails, TournamentSummary } from '../../../shared/protocol/tournament';
import { outcomeText, safely } from '../errors';
import { NO_FILTERS, shownRows, toRow, type Structure, type TournamentFilters, type TournamentSort } from '../tournaments/lobby';
import { useApi } from '../useApi';
import { useTournamentsStore } from './tournaments';

type T = (key: string, named?: Record<string, unknown>) => string;

/** A tournament's details, or the refusal (a call that could not be sent is one too). */
export async function readDetails(api: ReturnType<typeof useApi>, tournamentId: string): Promise<{ details: TournamentDetails } | { refused: Outcome }> {
  const res = await safely(api.tournamentDetails({ tournamentId }));
  // Outcome's own `details` are a refusal's (protection); an accepted answer's are the tournament's.
  const details = res.ok ? (res as Awaited<ReturnType<typeof api.tournamentDetails>>).details : undefined;
  return details ? { details } : { refused: res };
}

/**
 * The tournament lobby: the operator's list read with `tournaments` while the tab is
 * shown (TournamentLobby.vue polls; nothing is read while it is hidden), each tournament's structure
 * read once per structure version for its speed and late registration, the filters and the order
 * (kept while the player moves between tabs), the player's own tournaments first.
 */
export const useTournamentLobbyStore = defineStore('tournamentLobby', () => {
  const api = useApi();
  const mine = useTournamentsStore();
  const list = ref<TournamentSummary[]>([]);
  const loaded = ref(false);
  /** The last refusal, as the code and the English message (the view words it through i18n). */
  const failure = ref<{ code?: string; rule?: string } | null>(null);
  /** Structures by `id@version` (a new version is another structure, R-INFO). */
  const structures = ref(new Map<string, Structure>());
  const filters = ref<TournamentFilters>({ ...NO_FILTERS });
  const sort = ref<TournamentSort>('start');
  const descending = ref(false);
  /** The clock the rows are read at (late registration, countdowns): the view ticks it. */
  const now = ref(Date.now());
  let reading: Promise<void> | null = null;

  const keyOf = (t: TournamentSummary) => `${t.tournamentId}@${t.version}`;

  /** Reads the list once; concurrent calls share the read. */
  function refresh(): Promise<void> {
    reading ??= (async () => {
      const res = await safely(api.tournaments({}));
      if (res.ok && 'tournaments' in res) {
        list.value = res.tournaments ?? [];
        failure.value = null;
      } else failure.value = { code: res.code, rule: res.rule };
      loaded.value = true;
      now.value = Date.now();
      await readStructures();
    })().finally(() => {
      reading = null;
    });
    return reading;
  }

  /** The structures not known yet, one call at a time (they do not change within a version). */
  async function readStructures(): Promise<void> {
    for (const t of list.value) {
      if (structures.value.has(keyOf(t)) || t.state === 'finished' || t.state === 'cancelled') continue;
      const res = await readDetails(api, t.tournamentId);
      if ('details' in res) remember(res.details.summary, res.details.structure);
    }
  }

  /** A structure read elsewhere (the tournament's page). */
  function remember(t: TournamentSummary, s: Structure): void {
    const next = new Map(structures.value);
    next.set(keyOf(t), s);
    structures.value = next;
  }

  const structureOf = (t: TournamentSummary): Structure | null => structures.value.get(keyOf(t)) ?? null;

  const rows = computed(() => {
    const own = new Set(mine.list.filter((p) => p.status === 'registered' || p.status === 'playing').map((p) => p.tournamentId));
    return list.value.map((t) => toRow(t, structureOf(t), now.value, own.has(t.tournamentId)));
  });
  const shown = computed(() => shownRows(rows.value, filters.value, sort.value, descending.value));

  function sortBy(k: TournamentSort): void {
    if (sort.value === k) descending.value = !descending.value;
    else {
      sort.value = k;
      descending.value = false;
    }
  }

  const failureText = (t: T): string | null => (failure.value ? outcomeText(t, failure.value) : null);

  return { list, loaded, failure, structures, filters, sort, descending, now, rows, shown, refresh, remember, structureOf, sortBy, failureText };
});
