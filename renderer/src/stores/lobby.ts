import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { PlayConditions } from '../../../shared/protocol/conditions';
import type { TableInfo } from '../../../shared/protocol/messages';
import { VARIANTS, type VariantCode } from '../../../shared/rules/variants';
import { stakesPair } from '../stakes';
import { useApi } from '../useApi';

export type LobbySort = 'name' | 'stakes' | 'players' | 'variant';
export type Family = 'all' | 'holdem' | 'omaha' | 'stud' | 'draw';

/** The big amount that sizes a table's stakes: the big blind, or the small bet of Stud and limit games. */
export function stakesOf(t: TableInfo): number {
  return t.stakes.bigBlind > 0 ? t.stakes.bigBlind : t.stakes.smallBet;
}

export function familyOf(variant: VariantCode): Exclude<Family, 'all'> {
  const f = VARIANTS[variant].family;
  return f === 'holdem' || f === 'omaha' || f === 'stud' ? f : 'draw';
}

/** The operator's lobby (R-INFO): every table with its game, stakes and rules; filters and sorting are local. */
export const useLobbyStore = defineStore('lobby', () => {
  const api = useApi();
  const tables = ref<TableInfo[]>([]);
  /** The operator's conditions of play, served with its lobby (R-RULES). */
  const conditions = ref<PlayConditions | null>(null);
  const family = ref<Family>('all');
  const money = ref<'all' | 'real' | 'play'>('all');
  const structure = ref<'all' | 'limit' | 'pot-limit' | 'no-limit'>('all');
  const seatsFree = ref(false);
  const sort = ref<LobbySort>('variant');
  const descending = ref(false);

  async function loadConditions(): Promise<void> {
    conditions.value = await api.conditions({});
  }

  /** The lobby read again, with the conditions of play that come with it (R-RULES). */
  async function refresh(): Promise<void> {
    tables.value = await api.lobby({});
    await loadConditions();
  }

  async function load(): Promise<void> {
    api.on('lobby', (list) => {
      tables.value = list;
      // The conditions come with the lobby: a new lobby (another operator, a restart) may bring others.
      void loadConditions();
    });
    await refresh();
  }

  const shown = computed(() => {
    const list = tables.value.filter(
      (t) =>
        (family.value === 'all' || familyOf(t.variant) === family.value) &&
        (money.value === 'all' || t.money === money.value) &&
        (structure.value === 'all' || t.rules.structure === structure.value) &&
        (!seatsFree.value || t.seatsTaken < t.seatsMax),
    );
    const key = (t: TableInfo): string | number => {
      switch (sort.value) {
        case 'name':
          return t.name.toLowerCase();
        case 'stakes': {
          // By the amounts as written: the larger, then the smaller.
          const [lo, hi] = stakesPair(t.variant, t.stakes);
          return hi * 1_000_000_000 + lo;
        }
        case 'players':
          return t.seatsTaken;
        default:
          return Object.keys(VARIANTS).indexOf(t.variant);
      }
    };
    const dir = descending.value ? -1 : 1;
    return list.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (ka < kb ? -1 : ka > kb ? 1 : a.tableId < b.tableId ? -1 : 1) * dir;
    });
  });

  function sortBy(k: LobbySort): void {
    if (sort.value === k) descending.value = !descending.value;
    else {
      sort.value = k;
      descending.value = false;
    }
  }

  function byId(id: string): TableInfo | undefined {
    return tables.value.find((t) => t.tableId === id);
  }

  return { tables, conditions, family, money, structure, seatsFree, sort, descending, shown, load, refresh, sortBy, byId };
});
