/** The tournament machine: pure state, events, effects (machine.ts). */
export * from './types';
export { apply, init, legal, DEFAULT_OPTIONS } from './machine';
export { alive, bubbles, chipsIssued, poolParts, prizeTable } from './pool';
