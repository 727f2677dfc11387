import { createRouter, createWebHashHistory } from 'vue-router';
import LobbyView from './views/LobbyView.vue';
import SettingsView from './views/SettingsView.vue';
import TablesView from './views/TablesView.vue';
import TableWindowView from './views/TableWindowView.vue';
import GameRulesView from './views/rules/GameRulesView.vue';
import RulesIndexView from './views/rules/RulesIndexView.vue';

// Hash history: the same URLs work under app://cercle/ and under the browser host.
export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', redirect: '/lobby' },
    { path: '/lobby', name: 'lobby', component: LobbyView },
    { path: '/tables', name: 'tables', component: TablesView },
    // A table on its own (a popped-out window or tab).
    { path: '/table/:id', name: 'table', component: TableWindowView, props: true },
    { path: '/settings', name: 'settings', component: SettingsView },
    // R-RULES: the rules of every game, before any game.
    { path: '/rules', name: 'rules', component: RulesIndexView },
    { path: '/rules/:code', name: 'game-rules', component: GameRulesView, props: true },
  ],
});
