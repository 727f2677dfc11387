import { createRouter, createWebHashHistory } from 'vue-router';
import HistoryView from './views/HistoryView.vue';
import LobbyView from './views/LobbyView.vue';
import ReplayerView from './views/ReplayerView.vue';
import ResultsView from './views/ResultsView.vue';
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
    // R-HISTORY, R-RESULTS: the local hand history, the replayer, the results.
    { path: '/history', name: 'history', component: HistoryView },
    { path: '/replay/:handId', name: 'replay', component: ReplayerView, props: true },
    { path: '/results', name: 'results', component: ResultsView },
    // R-RULES: the rules of every game, before any game.
    { path: '/rules', name: 'rules', component: RulesIndexView },
    { path: '/rules/:code', name: 'game-rules', component: GameRulesView, props: true },
  ],
});
