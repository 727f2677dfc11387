import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppInfo, SessionInfo, TrackerView } from '../../../shared/api';
import { useApi } from '../useApi';

/**
 * What the frame shows at all times: where the client runs, the operator link, the balance and the
 * running win/loss (R-TRACKER), kept current by main's `session` and `tracker` pushes.
 */
export const useSessionStore = defineStore('session', () => {
  const api = useApi();
  const info = ref<AppInfo | null>(null);
  const session = ref<SessionInfo | null>(null);
  const tracker = ref<TrackerView | null>(null);

  async function load(): Promise<void> {
    api.on('session', (s) => (session.value = s));
    api.on('tracker', (t) => (tracker.value = t));
    const [i, s, t] = await Promise.all([api.appInfo({}), api.session({}), api.tracker({})]);
    info.value = i;
    session.value = s;
    tracker.value = t;
  }

  return { info, session, tracker, load };
});
