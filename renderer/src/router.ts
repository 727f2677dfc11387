import { createRouter, createWebHashHistory } from 'vue-router';
import LobbyView from './views/LobbyView.vue';

// Hash history: the same URLs work under app://cercle/ and under the browser host.
export const router = createRouter({
  history: createWebHashHistory(),
  routes: [
    { path: '/', redirect: '/lobby' },
    { path: '/lobby', name: 'lobby', component: LobbyView },
  ],
});
