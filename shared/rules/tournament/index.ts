/**
 * Tournaments' rules as pure data and functions (R-TOURN, R-TOURN-STRUCTURE, R-TOURN-RUN): the
 * structure and its clock, the prize pool and payouts, the field's tables. The operator runs
 * tournaments with these (operator/tournaments); the client shows the same figures.
 */
export * from './structure';
export * from './payouts';
export * from './field';
