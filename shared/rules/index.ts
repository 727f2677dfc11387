/**
 * The rules package (DESIGN.md §2): cards, evaluation, variants, table rules, the hand state
 * machine and the hand record. Pure: imports nothing outside `shared/`.
 */
export * from './cards';
export * from './eval';
export * from './variants';
export * from './tableRules';
export * from './engine';
export * from './record';
export * from './decide';
