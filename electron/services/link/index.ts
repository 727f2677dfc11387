/**
 * The client's link to an operator (DESIGN.md §3 "The wire"): pinned WSS, heartbeat, reconnection
 * with resynchronisation, idempotent actions, and the per-table models that keep each hand with the
 * rules engine and hand finished hands to the tracker the client core feeds them (`model` event).
 * Plain Node: no `electron` import. Parts: connection.ts, requests.ts, outbox.ts, streams.ts, the
 * requests by domain (session.ts, lobby.ts, table-requests.ts, history.ts, tournaments.ts), link.ts.
 */
export { TournamentRequests } from './tournaments';
export { OperatorLink, type ActResult, type LinkCode, type LinkEvents, type LinkState, type LinkStatus, type OperatorLinkOptions, type Refused, type Reply, type Request } from './link';
export { TableModel, engineAction, sameData, type ActionContext, type HandSink, type TableChange, type TableStatus } from './table';
export { checkPinnedIdentity, isPin, PIN_PATTERN, PinError, pinnedConnector, spkiPinOf, type PinFailure } from './pinning';
export { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
