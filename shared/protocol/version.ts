/**
 * The protocol's version and the limits both sides agree on (DESIGN.md §3 "The wire": a protocol
 * version in the handshake). Bump PROTOCOL_VERSION on any change a peer of the previous version would
 * misread; the operator answers an older client `UPDATE_REQUIRED` with the version it needs.
 */

/** The wire protocol this build speaks. */
// 2: `table.join` carries `rulesVersion`, `lobby` carries `conditions`.
// 3: the hand in progress travels as a `HandView` (hand.ts: its start and the actions as the seat sees
//    them), no longer as the engine's `HandState`.
// 4: tournaments as the client plays them: `tournament.state` carries the standing (clock,
//    hand-for-hand, field, the player's stack and rank), `tournament.seat` why, `tournament.finished`
//    the bounties, `tournament.results`; `table.watch`; tables and history hands name their tournament.
// 5: `tournament.finished` carries `tied`, the players sharing the places from `place` (T 8-16).
// 6: `account.closed` pushed unasked when the account is closed (R-BANNED: a new ban file; R-EXCLUDE),
//    `account.close` (the player closes their account).
export const PROTOCOL_VERSION = 6;

/**
 * Largest client frame the operator reads, in bytes of UTF-8. Client messages are small (the largest is
 * a resume listing its tables); a bigger frame is refused with `FRAME_TOO_LARGE`.
 */
export const MAX_CLIENT_FRAME_BYTES = 8 * 1024;

/** Largest server frame a client should accept (a history page of full hand records is the largest). */
export const MAX_SERVER_FRAME_BYTES = 4 * 1024 * 1024;

/** Most hands in one history page (R-HISTORY). */
export const HISTORY_PAGE_MAX = 50;

/** How far back the operator serves a player's hands: the past year and a day (R-HISTORY, D art. 8 II 5°). */
export const HISTORY_DAYS = 366;

const SEMVER = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-+][0-9A-Za-z.-]{1,40})?$/;

/** A `major.minor.patch` version string (a pre-release or build suffix is allowed and ignored in comparisons). */
export function isVersion(v: string): boolean {
  return SEMVER.test(v);
}

/** Compares two versions by major, minor, patch: negative when `a < b`, 0 when equal, positive when `a > b`. */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) throw new RangeError(`not a version: ${!pa ? a : b}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  return 0;
}
