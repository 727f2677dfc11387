import { inject, type InjectionKey } from 'vue';
import type { CercleApi } from '../../shared/api';

export const API_KEY: InjectionKey<CercleApi> = Symbol('cercle-api');

/** The client API given to the app at mount (see main.ts); stores and components get it here. */
export function useApi(): CercleApi {
  const api = inject(API_KEY);
  if (!api) throw new Error('the client API was not provided to the app');
  return api;
}
