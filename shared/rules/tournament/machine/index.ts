/** The tournament machine: pure state, events, effects (machine.ts). */
export * from './types';
export { entrantIds, entrantOf, tableList, tableOf, type Buckets } from './buckets';
export { apply, init, legal, mayDeal, DEFAULT_OPTIONS } from './machine';
export { alive, bubbles, chipsIssued, poolParts, prizeTable } from './pool';
