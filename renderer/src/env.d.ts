/// <reference types="vite/client" />
import type { CercleApi } from '../../shared/api';

declare global {
  interface Window {
    /** Set by the Electron preload; absent under the browser host. */
    cercle?: CercleApi;
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
