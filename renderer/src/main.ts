import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { connectApi, onHostBack } from './api';
import { i18n } from './i18n';
import { router } from './router';
import { useLobbyStore } from './stores/lobby';
import { useProtectionStore } from './stores/protection';
import { useSessionStore } from './stores/session';
import { loadTables } from './stores/tablesLoad';
import { useSettingsStore } from './stores/settings';
import { API_KEY } from './useApi';
import './styles.css';

async function boot(): Promise<void> {
  let api;
  try {
    api = await connectApi();
  } catch {
    // Without main there is nothing to show but how to get there.
    const box = document.createElement('p');
    box.className = 'fatal';
    box.dataset.testid = 'host-unreachable';
    box.textContent = i18n.global.t('app.hostUnreachable');
    document.getElementById('app')?.replaceWith(box);
    return;
  }
  const app = createApp(App);
  app.provide(API_KEY, api);
  app.use(createPinia()).use(i18n).use(router);
  await app.runWithContext(async () => {
    await useSettingsStore().load();
    await Promise.all([useSessionStore().load(), useLobbyStore().load(), loadTables()]);
    useProtectionStore().load(); // The counter, the warnings, the cashier
  });
  // Back from a host that had stopped: what was pushed meanwhile is read again. The tables are read
  // by their store once main's link to the operator is connected again (stores/tables.ts linkDown).
  onHostBack(() => {
    void app.runWithContext(() => Promise.all([useSettingsStore().refresh(), useSessionStore().refresh(), useLobbyStore().refresh(), useProtectionStore().refresh()])).catch(() => undefined);
  });
  app.mount('#app');
}

void boot();
