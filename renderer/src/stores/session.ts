import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppInfo, SessionInfo, TrackerView } from '../../../shared/api';
import { onHostLink, type HostLinkState } from '../api';
import { useApi } from '../useApi';

/**
 * What the frame shows at all times: where the client runs, the link to the host (browser host) and to
 * the operator, the balance and the running win/loss (R-TRACKER), kept current by main's `session` and
 * `tracker` pushes.
 */
export const useSessionStore = defineStore('session', () => {
  const api = useApi();
  const info = ref<AppInfo | null>(null);
  const session = ref<SessionInfo | null>(null);
  /** When `session` arrived (ms): the operator's next try is `retryInMs` after it. */
  const sessionAt = ref(0);
  const tracker = ref<TrackerView | null>(null);
  const host = ref<HostLinkState>({ up: true, retryAt: null, attempt: 0 });

  function gotSession(s: SessionInfo): void {
    session.value = s;
    sessionAt.value = Date.now();
  }

  async function refresh(): Promise<void> {
    const [i, s, t] = await Promise.all([api.appInfo({}), api.session({}), api.tracker({})]);
    info.value = i;
    gotSession(s);
    tracker.value = t;
  }

  async function load(): Promise<void> {
    onHostLink((h) => (host.value = h));
    api.on('session', gotSession);
    api.on('tracker', (t) => (tracker.value = t));
    await refresh();
  }

  /** « Reconnecter » (status bar): the link again with the current settings; the outcome shows in `session`. */
  async function reconnect(): Promise<void> {
    await api.reconnect({});
  }

  return { info, session, sessionAt, tracker, host, load, refresh, reconnect };
});
