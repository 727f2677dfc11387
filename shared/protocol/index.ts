/**
 * The client↔operator wire (DESIGN.md §3 "The wire"): the version and limits, the messages and their
 * validators, the error codes. Documented message by message in docs/protocol.md. Pure.
 */
export * from './version';
export * from './codes';
export * from './messages';
export * from './parse';
export * from './refusal';
export * from './hand';
export { actionSchema, handRecordSchema, logEntrySchema, tableRulesSchema, handPlanSchema, ROUND_NAMES } from './game';
