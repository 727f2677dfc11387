/**
 * The hand state machine (DESIGN.md §3): `startHand`, `legalActions`, `apply`, `viewFor`.
 */
export * from './types';
export { startHand, checkHandConfig, apply, reshuffleCards, mayMuck } from './machine';
export { legalActions, pendingDeal } from './legal';
export { viewFor, actionFor } from './view';
export { fullRaiseTo, potTotal, betBounds } from './betting';
export { buildPots, handValues, type PotLevel } from './settle';
