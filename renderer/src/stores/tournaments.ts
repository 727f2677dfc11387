import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { TournamentPlay } from '../../../shared/api';
import { useApi } from '../useApi';

/**
 * The tournaments the player is in, as main follows them: registered, playing (standing,
 * seat, last move) or just finished (place, prize). Read once with `myTournaments`, then kept by the
 * `tournament` events. The lobby lists them first; the tournament bar and the finish message read them.
 */
export const useTournamentsStore = defineStore('tournaments', () => {
  const api = useApi();
  const byId = ref(new Map<string, TournamentPlay>());
  let started = false;

  function put(p: TournamentPlay): void {
    const next = new Map(byId.value);
    next.set(p.tournamentId, p);
    byId.value = next;
  }

  /** Subscribes once (the app's start); later calls do nothing. */
  async function start(): Promise<void> {
    if (started) return;
    started = true;
    api.on('tournament', put);
    for (const p of await api.myTournaments({})) put(p);
  }

  const list = computed(() => [...byId.value.values()]);
  /** The tournament a table belongs to, for the players in it. */
  const ofTable = (tableId: string): TournamentPlay | null => list.value.find((p) => p.seat?.tableId === tableId) ?? null;

  return { byId, list, put, start, ofTable };
});
