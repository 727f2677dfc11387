import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppInfo } from '../../../shared/api';
import { useApi } from '../useApi';

/**
 * What the frame shows at all times: where the client runs, and the balance and running win/loss
 * (R-TRACKER). Balance and results are null until the operator link and the tracker provide them.
 */
export const useSessionStore = defineStore('session', () => {
  const api = useApi();
  const info = ref<AppInfo | null>(null);
  const balanceCents = ref<number | null>(null);
  const sessionNetCents = ref<number | null>(null);
  const todayNetCents = ref<number | null>(null);

  async function load(): Promise<void> {
    info.value = await api.appInfo({});
  }

  return { info, balanceCents, sessionNetCents, todayNetCents, load };
});
