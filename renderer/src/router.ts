import { createRouter, createWebHashHistory } from 'vue-router';
import LobbyView from './views/LobbyView.vue';
import SettingsView from './views/SettingsView.vue';
import TablesView from './views/TablesView.vue';
import TableWindowView from './views/TableWindowView.vue';

// The lobby and the tables load with the page; history, replayer, results and rules pages load when
// first opened (their code, uPlot included, would otherwise delay the lobby at start).
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
    { path: '/history', name: 'history', component: () => import('./views/HistoryView.vue') },
    { path: '/replay/:handId', name: 'replay', component: () => import('./views/ReplayerView.vue'), props: true },
    { path: '/results', name: 'results', component: () => import('./views/ResultsView.vue') },
    // The cashier (R-CASHIER) and "Jeu responsable" (R-LIMITS, R-TIMELIMIT, R-EXCLUDE).
    { path: '/cashier', name: 'cashier', component: () => import('./views/CashierView.vue') },
    { path: '/responsible', name: 'responsible', component: () => import('./views/ResponsibleView.vue') },
    // A tournament's page (structure, payouts, entrants, tables, rules, registration).
    { path: '/tournament/:id', name: 'tournament', component: () => import('./views/TournamentView.vue'), props: true },
    // R-RULES: the rules of every game, before any game.
    { path: '/rules', name: 'rules', component: () => import('./views/rules/RulesIndexView.vue') },
    { path: '/rules/:code', name: 'game-rules', component: () => import('./views/rules/GameRulesView.vue'), props: true },
  ],
});
