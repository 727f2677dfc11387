import { createRouter, createWebHashHistory } from 'vue-router';
import LobbyView from './views/LobbyView.vue';
import GameRulesView from './views/rules/GameRulesView.vue';
import RulesIndexView from './views/rules/RulesIndexView.vue';

// Hash history: the same URLs work under app://cercle/ and under the browser host.
export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', redirect: '/lobby' },
    { path: '/lobby', name: 'lobby', component: LobbyView },
    // R-RULES: the rules of every game, before any game.
    { path: '/rules', name: 'rules', component: RulesIndexView },
    { path: '/rules/:code', name: 'game-rules', component: GameRulesView, props: true },
  ],
});
