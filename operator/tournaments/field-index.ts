/**
 * The running field's tables bucketed by player count: shared/rules/tournament/field-index.ts (pure,
 * used by the tournament machine too); re-exported here for the operator's tournaments.
 */
export { FieldIndex } from '../../shared/rules/tournament/field-index';
