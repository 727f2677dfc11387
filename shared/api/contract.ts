/**
 * The client API: every call the renderer makes to main and every event main pushes, with validators
 * for both directions (DESIGN.md §3 "Transport-agnostic client API"). Electron IPC
 * (electron/main + electron/preload) and the browser host's loopback WebSocket (electron/web) are two
 * thin adapters over the same handlers, so the renderer never knows which one it runs on.
 */
import type { HandRecord } from '../rules/record';
import { VARIANT_CODES } from '../rules/variants';
import { HAND_MONEY } from '../history/money';
import type { TableInfo, TableView } from '../protocol/messages';
import { moveSchema, tableInfoSchema, tableViewSchema, actionId, tableId } from '../protocol/messages';
import { handRecordSchema } from '../protocol/game';
import { HAND_ID_MAX, PLAYER_NAME_MAX, TABLE_ID_MAX } from '../protocol/limits';
import { ERROR_CODES } from '../protocol/codes';
import { playConditionsSchema, versionText } from '../protocol/conditions';
import { card, closedReason, exclusionChoiceSchema, identitySchema, limitKind, paymentRef, paymentSchema, protectionViewSchema, protectionDetailsSchema, requestId } from '../protocol/cashier';
import { arr, bool, int, type Infer, nullable, obj, oneOf, type Schema, str } from '../validate';
import { handTournamentSchema, tournamentCalls, tournamentEvents } from './tournaments';
import { tournamentId } from '../protocol/tournament';

export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const amount = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
const signed = int({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const millis = amount;
/** A public-key pin, `sha256/<base64 of 32 bytes>` (electron/services/link/pinning.ts). */
export const pinSchema = str({ min: 51, max: 51, pattern: /^sha256\/[A-Za-z0-9+/]{43}=$/ });

/**
 * Which operator the client plays on: the embedded one on loopback (the default, no setup), or another
 * one by URL with its pins (several accepted, for key rotation). TLS only: the pin is the trust.
 */
export const operatorSettingsSchema = obj({
  mode: oneOf('embedded', 'custom'),
  url: str({ max: 2048, pattern: /^(|wss:\/\/[^\s/?#]+(:\d{1,5})?\/?)$/ }),
  pins: arr(pinSchema, { max: 8 }),
});
export type OperatorSettings = Infer<typeof operatorSettingsSchema>;

/** Bet presets a player may show (renderer/src/table/presets.ts CHOOSABLE_PRESETS). */
export const BET_PRESET_IDS = ['x2', 'x2_5', 'x3', 'x4', 'third', 'half', '2third', '3q', 'pot'] as const;

/** A site's player name as the import reads it: 1 to 64 characters, no space at either end, no line break. */
const myNamesSchema = arr(str({ min: 1, max: PLAYER_NAME_MAX, pattern: /^[^\s](?:[^\r\n]*[^\s])?$/ }), { max: 20 });

export const settingsSchema = obj({
  language: oneOf(...LANGUAGES),
  /** Four-colour deck: clubs green, diamonds blue (a display preference; R-DECK is about backs). */
  fourColorDeck: bool,
  sounds: bool,
  /** Ask before a call made within a moment of a large raise (the accidental-call guard). */
  callGuard: bool,
  /** The join dialog's "wait for the big blind" starts ticked when true: the player's default. */
  waitForBigBlind: bool,
  /** Auto-rebuy and auto top-up between hands: off, or back up to the table's minimum or maximum buy-in. */
  autoTopUp: oneOf('off', 'min', 'max'),
  /** Muck a hand at the showdown when it cannot win or tie any pot against the hands shown (renderer/src/table/automuck.ts). */
  autoMuck: bool,
  /** How the tables view arranges the tables, remembered. */
  tablesLayout: oneOf('tile', 'cascade', 'stack'),
  /** The bet presets shown per betting structure (ids of renderer/src/table/presets.ts). */
  betPresets: obj({ 'pot-limit': arr(oneOf(...BET_PRESET_IDS), { max: 9 }), 'no-limit': arr(oneOf(...BET_PRESET_IDS), { max: 9 }) }),
  operator: operatorSettingsSchema,
  /**
   * The player's own names on the sites whose hand histories they import (Settings, my names): one
   * player; a hand where one of them is seated is theirs, not observed (R-RESULTS).
   */
  myNames: myNamesSchema,
});
export type Settings = Infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  language: 'fr',
  fourColorDeck: false,
  sounds: true,
  callGuard: true,
  waitForBigBlind: false,
  autoTopUp: 'off',
  autoMuck: false,
  tablesLayout: 'tile',
  betPresets: { 'pot-limit': ['x2_5', 'x3', 'x4', 'half', '3q', 'pot'], 'no-limit': ['x2_5', 'x3', 'x4', 'half', '3q', 'pot'] },
  operator: { mode: 'embedded', url: '', pins: [] },
  myNames: [],
};

export const settingsPatchSchema = obj(
  { language: oneOf(...LANGUAGES), fourColorDeck: bool, sounds: bool, callGuard: bool, waitForBigBlind: bool, autoTopUp: oneOf('off', 'min', 'max'), autoMuck: bool, tablesLayout: oneOf('tile', 'cascade', 'stack'),
    betPresets: obj({ 'pot-limit': arr(oneOf(...BET_PRESET_IDS), { max: 9 }), 'no-limit': arr(oneOf(...BET_PRESET_IDS), { max: 9 }) }),
    operator: operatorSettingsSchema,
    myNames: myNamesSchema,
  },
  ['language', 'fourColorDeck', 'sounds', 'callGuard', 'waitForBigBlind', 'autoTopUp', 'autoMuck', 'tablesLayout', 'betPresets', 'operator', 'myNames'],
);
export type SettingsPatch = Infer<typeof settingsPatchSchema>;

export const appInfoSchema = obj({
  name: str({ max: 40 }),
  version: str({ max: 40, pattern: /^\d+\.\d+\.\d+/ }),
  /** Where the renderer runs: in Electron, or in a browser tab through the browser host. */
  host: oneOf('electron', 'browser'),
  platform: str({ max: 20 }),
  /** The folder holding settings and the hand history, shown so the player knows where data lives. */
  dataDir: str({ max: 4096 }),
});
export type AppInfo = Infer<typeof appInfoSchema>;

const noArgs = obj({});

// ---------------------------------------------------------------------------------------------
// The operator link, the account, the tables. Table views are the operator's own shapes
// (shared/protocol), so the renderer runs the same rules package on them (legal actions, evaluation).

/**
 * Why the link is not connected, as a code the player's language words (the status bar): `reason`
 * beside it is the English detail for the logs. closed: the client closed it; update: this client is
 * too old for the operator; operator-old: the operator is older than this client; replaced: the
 * account connected again elsewhere; pin: the operator's key is not the pinned one; bad-url: the
 * address cannot be opened; gave-up: no connection after the last attempt; lost: the connection
 * dropped (retrying); unreachable: no connection yet (retrying); settings: no operator address or pin
 * (Settings); embedded-failed: the embedded operator did not start; embedded-stopped: it stopped
 * (started again by the client).
 */
export const LINK_WHY = ['closed', 'update', 'operator-old', 'replaced', 'pin', 'bad-url', 'gave-up', 'lost', 'unreachable', 'settings', 'embedded-failed', 'embedded-stopped'] as const;
export type LinkWhy = (typeof LINK_WHY)[number];

export const linkStatusSchema = obj({
  state: oneOf('starting', 'connecting', 'connected', 'reconnecting', 'offline', 'update-required'),
  attempt: int({ min: 0, max: 1_000_000 }),
  retryInMs: nullable(millis),
  why: nullable(oneOf(...LINK_WHY)),
  reason: nullable(str({ max: 2000 })),
  minVersion: nullable(str({ max: 60 })),
});
export type LinkStatusView = Infer<typeof linkStatusSchema>;

const balancesSchema = obj({ real: amount, play: amount });

export const sessionSchema = obj({
  link: linkStatusSchema,
  operator: obj({ mode: oneOf('embedded', 'custom'), url: str({ max: 2048 }) }),
  /** Signed in as; null before login (a custom operator asks for it; the embedded guest signs in by itself). */
  account: nullable(obj({ username: str({ min: 1, max: 64 }), guest: bool })),
  balances: nullable(balancesSchema),
});
export type SessionInfo = Infer<typeof sessionSchema>;

/** The answer of an operator request: ok, or the operator's (or the link's) refusal, with its bounds. */
const outcomeShape = {
  ok: bool,
  code: str({ max: 40 }),
  message: str({ max: 2000 }),
  rule: str({ max: 40 }),
  min: amount,
  max: amount,
  call: amount,
  retryAfterMs: millis,
  cashedOut: amount,
  /** A cashier or protection refusal's details (the limit, what is used, when room frees up…). */
  details: protectionDetailsSchema,
};
const refusalFields = ['code', 'message', 'rule', 'min', 'max', 'call', 'retryAfterMs', 'cashedOut', 'details'] as const;
export const outcomeSchema = obj(outcomeShape, refusalFields);
export type Outcome = Infer<typeof outcomeSchema>;

/**
 * A refusal of an action or request at a table, as the screen gets it: the wire's one `Refusal`
 * (shared/protocol/refusal.ts) unchanged, every detail kept (the rule, the allowed range, the chips a
 * call adds), or one of the link's own codes (a move not sent).
 */
export const tableRefusalSchema = obj(
  {
    code: oneOf(...ERROR_CODES, 'OFFLINE', 'DISCONNECTED', 'TIMEOUT', 'STALE'),
    message: str({ max: 2000 }),
    rule: str({ max: 40 }),
    min: amount,
    max: amount,
    call: amount,
  },
  ['rule', 'min', 'max', 'call'],
);
export type TableRefusalView = Infer<typeof tableRefusalSchema>;

/** A hand that just ended at a table (R-RESULTS: who won which pot with which hand, the rake). */
export const lastHandSchema = obj({ handId: str({ min: 1, max: HAND_ID_MAX }), endedAt: millis, record: handRecordSchema });
export type LastHand = { handId: string; endedAt: number; record: HandRecord };

/** One table the player sits at (or is joining / has just left), as main follows it. */
export const tableStateSchema = obj({
  tableId,
  status: oneOf('joining', 'syncing', 'live', 'gone'),
  view: nullable(tableViewSchema),
  /** The last frame applied; a renderer drops a push older than what it shows. */
  seq: nullable(amount),
  lastHand: nullable(lastHandSchema),
  /** The action sent and not answered yet (shown as sent), or null. */
  pending: nullable(obj({ actionId, move: moveSchema })),
  /** The last refusal of an action or request at this table, for the player. */
  error: nullable(tableRefusalSchema),
  /** When it is gone: the chips cashed out (null: unknown, the operator will settle it). */
  cashedOut: nullable(amount),
  /** A tournament's table: its id (the chips are the tournament's, not money). */
  tournamentId: nullable(tournamentId),
  /** Followed without a seat (`watchTable`): nothing to act on. */
  watching: bool,
});
export type TableState = Omit<Infer<typeof tableStateSchema>, 'view' | 'lastHand'> & { view: TableView | null; lastHand: LastHand | null };

/**
 * `entries`: paid into tournaments (entries, rebuys, add-ons, fees; refunds taken off) and `prizes`:
 * prizes and bounties won (R-TRACKER). `result` counts them: net + prizes − entries.
 */
const totalsShape = { hands: amount, net: signed, rake: amount, result: signed, inPlay: signed, entries: amount, prizes: amount };
const moneyViewSchema = obj(totalsShape);
const sessionMoneySchema = obj({ ...totalsShape, bought: amount, cashedOut: amount, onTables: amount });
export const resultGroupSchema = obj(
  {
    /** One money (shared/history/money.ts): a group never adds two (R-RESULTS). */
    money: oneOf(...HAND_MONEY),
    variant: str({ max: 8 }),
    stakes: amount,
    day: str({ max: 10 }),
    hands: amount,
    net: signed,
    rake: amount,
    /** The group's tournament money (a day's, a game's): paid in and won. Its result is net + prizes − entries. */
    entries: amount,
    prizes: amount,
  },
  ['variant', 'stakes', 'day'],
);
/** R-TRACKER: the running win/loss of this session (chips on the tables included) and of today. */
export const trackerSchema = obj({
  session: obj({ since: millis, real: sessionMoneySchema, play: sessionMoneySchema, groups: arr(resultGroupSchema, { max: 2000 }) }),
  today: nullable(obj({ from: millis, to: millis, real: moneyViewSchema, play: moneyViewSchema, groups: arr(resultGroupSchema, { max: 2000 }) })),
});
export type TrackerView = Infer<typeof trackerSchema>;

export const periodSchema = obj({
  ok: bool,
  reason: str({ max: 2000 }),
  from: millis,
  to: millis,
  real: moneyViewSchema,
  play: moneyViewSchema,
  groups: arr(resultGroupSchema, { max: 100_000 }),
}, ['reason', 'from', 'to', 'real', 'play', 'groups']);

/** The updater (electron-updater in Electron; the browser host has none: `unsupported`). */
export const updateStateSchema = obj(
  {
    state: oneOf('unsupported', 'idle', 'checking', 'available', 'downloading', 'downloaded', 'none', 'error'),
    version: str({ max: 60 }),
    percent: int({ min: 0, max: 100 }),
    bytesPerSecond: amount,
    message: str({ max: 2000 }),
  },
  ['version', 'percent', 'bytesPerSecond', 'message'],
);
export type UpdateState = Infer<typeof updateStateSchema>;

const tableArgs = obj({ tableId });

// ---------------------------------------------------------------------------------------------
// History and results: the local hand history (R-HISTORY), the player's results (R-RESULTS).

const variantCodeSchema = oneOf(...VARIANT_CODES);
/** Which hands: every field optional; all given fields must hold. */
export const historyFilterSchema = obj(
  {
    from: millis,
    to: millis,
    variant: variantCodeSchema,
    stakes: amount,
    tableId: str({ min: 1, max: 64 }),
    money: oneOf(...HAND_MONEY),
    result: oneOf('won', 'lost'),
    showdown: bool,
    allIn: bool,
    player: str({ min: 1, max: 64 }),
    /** Cash hands or tournament hands; absent: both. */
    kind: oneOf('cash', 'tournament'),
    tournamentId,
  },
  ['from', 'to', 'variant', 'stakes', 'tableId', 'money', 'result', 'showdown', 'allIn', 'player', 'kind', 'tournamentId'],
);
export type HistoryFilter = Infer<typeof historyFilterSchema>;

export const handSummarySchema = obj({
  handId: str({ min: 1, max: HAND_ID_MAX }),
  playedAt: millis,
  tableId: str({ min: 1, max: TABLE_ID_MAX }),
  variant: variantCodeSchema,
  stakes: amount,
  money: oneOf(...HAND_MONEY),
  /** Null: an observed hand (the player was not at the table); its net and rake are 0, in no result. */
  heroSeat: nullable(int({ min: 0, max: 9 })),
  net: signed,
  rake: amount,
  showdown: bool,
  allIn: bool,
  pot: amount,
  /** The player's own cards, as the hand's record knows them at its end. */
  cards: arr(int({ min: 0, max: 51 }), { max: 7 }),
  /** A tournament's hand: its id and level (0-based); `net` is then in tournament chips, not money. */
  tournament: nullable(handTournamentSchema),
});
export type HandSummaryView = Infer<typeof handSummarySchema>;

/** The results graph: cumulative lines, at most `maxPoints` points (downsampled keeping each bucket's extremes). */
export const seriesSchema = obj({
  /** Hands counted up to each point. */
  hands: arr(amount, { max: 10_000 }),
  /** When each point's hand was played. */
  at: arr(millis, { max: 10_000 }),
  total: arr(signed, { max: 10_000 }),
  showdown: arr(signed, { max: 10_000 }),
  noShowdown: arr(signed, { max: 10_000 }),
  /** All-in hands counted at their equity when the money went in (R-RESULTS; see docs/stats.md). */
  allInAdjusted: arr(signed, { max: 10_000 }),
});
export type SeriesView = Infer<typeof seriesSchema>;

export const sessionRowSchema = obj({ from: millis, to: millis, hands: amount, net: signed, rake: amount, money: oneOf(...HAND_MONEY), tables: int({ min: 0, max: 10_000 }) });
/** A statistic as a whole fraction `num / den` (the page shows it as a percentage or a rate, docs/stats.md). */
export const statSchema = obj({ key: str({ min: 1, max: 40 }), num: signed, den: amount });

// ---------------------------------------------------------------------------------------------
// History exchange jobs: bulk import and export of hand histories run off
// the main thread (electron/services/history/jobs.ts), with progress and cancel; the sync of hands
// missing locally from the operator's history is reported the same way (kind 'sync').

const jobIdSchema = str({ min: 1, max: 40, pattern: /^[A-Za-z0-9_-]+$/ });
/** `pokerstars-summary`: the tournaments' summaries in the PokerStars form, not hands. */
export const exchangeFormatSchema = oneOf('pojeu', 'phh', 'pokerstars', 'pokerstars-summary');
export const historyJobSchema = obj({
  jobId: jobIdSchema,
  kind: oneOf('import', 'export', 'sync'),
  state: oneOf('running', 'done', 'cancelled', 'failed'),
  /** Hands done of `total` (0 of 0 while a file is read and parsed). */
  done: amount,
  total: amount,
  /** The phase (read, parse, store, export) while running; why, when failed. */
  message: nullable(str({ max: 2000 })),
  /** A corrupt file: the line of its first problem (nothing of the file is stored). */
  line: nullable(int({ min: 1, max: Number.MAX_SAFE_INTEGER })),
  /** Import and sync: hands stored, already there, not the player's. */
  stored: amount,
  duplicates: amount,
  skipped: amount,
  /** Import of a site's file: of the hands stored, those without the player (observed hands, in no result). */
  observed: amount,
  /** Import of a site's file, read hand by hand: hands refused (the first one's line in `line`, each kind in `message`). */
  refused: amount,
  /** Export: the file written, in the data folder. */
  file: nullable(str({ max: 4096 })),
  /** Export under the browser host: the link that downloads the file. */
  download: nullable(str({ max: 200 })),
});
export type HistoryJobView = Infer<typeof historyJobSchema>;
const exchangeCalls = {
  /**
   * Exports the filtered hands, oldest first, to a file (`historyJob` events follow the job); with
   * `handId`, that one hand only (the filter is then not used).
   */
  historyExport: {
    args: obj({ filter: historyFilterSchema, format: exchangeFormatSchema, handId: str({ min: 1, max: HAND_ID_MAX }) }, ['handId']),
    result: obj({ ok: bool, reason: str({ max: 2000 }), jobId: jobIdSchema, file: str({ max: 4096 }) }, ['reason', 'jobId', 'file']),
  },
  /** An import starts with an upload: the file's text in chunks of at most `chunkChars` characters (frames stay small). */
  historyImportBegin: {
    args: noArgs,
    result: obj({ ok: bool, reason: str({ max: 2000 }), uploadId: jobIdSchema, chunkChars: int({ min: 1, max: 10_000 }) }, ['reason', 'uploadId', 'chunkChars']),
  },
  historyImportChunk: {
    args: obj({ uploadId: jobIdSchema, index: int({ min: 0, max: 1_000_000 }), text: str({ max: 10_000 }) }),
    result: obj({ ok: bool, reason: str({ max: 2000 }), received: amount }, ['reason', 'received']),
  },
  /** Then the import itself, all or nothing: `auto` recognises the format. */
  historyImportStart: {
    args: obj({ uploadId: jobIdSchema, format: oneOf('auto', 'pojeu', 'phh', 'pokerstars', 'pokerstars-summary') }),
    result: obj({ ok: bool, reason: str({ max: 2000 }), jobId: jobIdSchema }, ['reason', 'jobId']),
  },
  /** Stops a running import or export: nothing of the import is kept, the export's file is removed. */
  historyJobCancel: { args: obj({ jobId: jobIdSchema }), result: obj({ ok: bool, reason: str({ max: 2000 }) }, ['reason']) },
  /** The jobs of this run, newest first (a page opened later sees them). */
  historyJobs: { args: noArgs, result: arr(historyJobSchema, { max: 100 }) },
} as const;
// End of the history exchange jobs block.

// ---------------------------------------------------------------------------------------------
// The cashier and the player-protection duties (docs/protection.md; shared/protocol/cashier.ts):
// each answer is an Outcome (ok, or the operator's refusal with its code, rule and details) with the
// operator's data when ok. Served by electron/services/client/cashier.ts.

export const protectionAnswerSchema = obj({ ...outcomeShape, protection: protectionViewSchema }, [...refusalFields, 'protection']);
export const paymentAnswerSchema = obj(
  { ...outcomeShape, payment: paymentSchema, replayed: bool, withdrawable: amount, balances: balancesSchema },
  [...refusalFields, 'payment', 'replayed', 'withdrawable', 'balances'],
);
export type ProtectionAnswer = Infer<typeof protectionAnswerSchema>;
export type PaymentAnswer = Infer<typeof paymentAnswerSchema>;
const paymentArgs = obj({ requestId, amount: int({ min: 1, max: Number.MAX_SAFE_INTEGER }), card });
const cashierCalls = {
  /** R-CASHIER: a deposit with a card; the same `requestId` again is answered with the payment first recorded. */
  cashierDeposit: { args: paymentArgs, result: paymentAnswerSchema },
  /** R-CASHIER: a withdrawal to a card, at most the withdrawable balance. */
  cashierWithdraw: { args: paymentArgs, result: paymentAnswerSchema },
  /** The payments, newest first, with their dates, references and states; `before` pages back. */
  cashierMovements: {
    args: obj({ before: nullable(paymentRef), limit: int({ min: 1, max: 200 }) }),
    result: obj({ ...outcomeShape, payments: arr(paymentSchema, { max: 200 }), next: nullable(paymentRef) }, [...refusalFields, 'payments', 'next']),
  },
  /** The "Jeu responsable" page's data: limits and their pending raises, counters, exclusion, withdrawable. */
  protectionGet: { args: noArgs, result: protectionAnswerSchema },
  /** R-LIMITS, R-TIMELIMIT: a limit in cents (deposit, stake) or milliseconds (time); lower at once, higher after 48 h. */
  protectionSetLimit: { args: obj({ limit: limitKind, value: int({ min: 1, max: Number.MAX_SAFE_INTEGER }) }), result: protectionAnswerSchema },
  /** R-EXCLUDE: asked twice on the page, which says so with `confirm: true`. */
  protectionExclude: {
    args: obj({ choice: exclusionChoiceSchema, confirm: oneOf(true) }),
    result: protectionAnswerSchema,
  },
  /** R-EXCLUDE: the player closes their account for good; asked twice on the page (`confirm: true`). */
  accountClose: { args: obj({ confirm: oneOf(true) }), result: protectionAnswerSchema },
} as const;

/** Calls: name -> schema of its argument object and of its result. */
export const calls = {
  appInfo: { args: noArgs, result: appInfoSchema },
  getSettings: { args: noArgs, result: settingsSchema },
  updateSettings: { args: settingsPatchSchema, result: settingsSchema },
  /** Opens an allow-listed https page (responsible gambling help, the regulator) in the system browser. */
  openExternal: { args: obj({ url: str({ max: 2048 }) }), result: obj({ opened: bool }) },

  /** The link, the account and the balances now (also pushed as `session`). */
  session: { args: noArgs, result: sessionSchema },
  /** A custom operator's account (the embedded guest needs none). The token stays in main. */
  /** `identity` with `register`: a real-money account (R-AGE, R-BANNED); without it, play money only. */
  login: { args: obj({ username: str({ min: 1, max: 64 }), password: str({ min: 1, max: 256 }), register: bool, identity: identitySchema }, ['identity']), result: outcomeSchema },
  logout: { args: noArgs, result: outcomeSchema },
  /** A nickname of our choosing instead of "guest-…": the operator checks its form and refuses it while seated. */
  rename: { args: obj({ username: str({ min: 1, max: 64 }) }), result: outcomeSchema },
  /** Retry connecting now (after offline, or a changed operator setting). */
  reconnect: { args: noArgs, result: outcomeSchema },
  /** Every table of the operator's lobby (R-INFO: variant, stakes, every table rule); `lobby` pushes changes. */
  lobby: { args: noArgs, result: arr(tableInfoSchema, { max: 10_000 }) },
  /** The operator's conditions of play (R-RULES), served with its lobby; null before it came. */
  conditions: { args: noArgs, result: nullable(playConditionsSchema) },
  /**
   * Sit at a table: the operator picks the seat (R-RANDSEAT); the buy-in within the table's limits;
   * `rulesVersion` of the rules shown and confirmed (R-INFO, `rulesVersion` in shared/protocol/conditions.ts).
   */
  join: { args: obj({ tableId, buyIn: amount, waitForBigBlind: bool, rulesVersion: versionText }), result: outcomeSchema },
  /** Leave (at the end of the hand in progress if dealt in); `cashedOut` when done at once. */
  leave: { args: tableArgs, result: outcomeSchema },
  topUp: { args: obj({ tableId, amount }), result: outcomeSchema },
  sitOut: { args: obj({ tableId, out: bool, waitForBigBlind: bool }), result: outcomeSchema },
  /** A decision at a table, sent once by its id (R-ONEHAND: the operator adds our seat). */
  act: { args: obj({ tableId, actionId, move: moveSchema }), result: outcomeSchema },
  /** Every table followed now (the tiles). */
  tables: { args: noArgs, result: arr(tableStateSchema, { max: 64 }) },
  /** The running win/loss (R-TRACKER). */
  tracker: { args: noArgs, result: trackerSchema },
  /** Results of a chosen period [from, to) from the local history. */
  results: { args: obj({ from: millis, to: millis, groupBy: oneOf('variant', 'stakes', 'day') }), result: periodSchema },
  /** A table in its own window (Electron); under the browser host the page opens a tab itself. */
  popOut: { args: tableArgs, result: obj({ opened: bool }) },
  /** A page of the local history, newest first by default, keyset-paged by `cursor`. */
  historyPage: {
    args: obj({ filter: historyFilterSchema, sort: oneOf('time', 'net'), dir: oneOf('asc', 'desc'), limit: int({ min: 1, max: 200 }), cursor: nullable(str({ max: 200 })) }),
    result: obj({ ok: bool, reason: str({ max: 2000 }), hands: arr(handSummarySchema, { max: 200 }), next: nullable(str({ max: 200 })) }, ['reason']),
  },
  /** One stored hand, whole (for its summary and the replayer). */
  historyHand: {
    args: obj({ handId: str({ min: 1, max: HAND_ID_MAX }) }),
    result: obj({ ok: bool, reason: str({ max: 2000 }), summary: handSummarySchema, record: handRecordSchema }, ['reason', 'summary', 'record']),
  },
  /** Removes hands played before `before`; refused inside the 366 days kept (R-HISTORY). */
  historyRemoveOlder: { args: obj({ before: millis }), result: obj({ ok: bool, reason: str({ max: 2000 }), removed: amount }, ['reason', 'removed']) },
  /** The results graph's lines over the filtered hands, by hand or by time. */
  resultsSeries: { args: obj({ filter: historyFilterSchema, maxPoints: int({ min: 10, max: 10_000 }) }), result: seriesSchema },
  /** Sessions: runs of hands with no pause longer than `gapMinutes`. */
  resultsSessions: { args: obj({ filter: historyFilterSchema, gapMinutes: int({ min: 1, max: 24 * 60 }) }), result: arr(sessionRowSchema, { max: 10_000 }) },
  /** The player's own statistics over the filtered hands (docs/stats.md). */
  playerStats: { args: obj({ filter: historyFilterSchema }), result: obj({ hands: amount, stats: arr(statSchema, { max: 200 }) }) },
  updateStatus: { args: noArgs, result: updateStateSchema },
  checkForUpdates: { args: noArgs, result: updateStateSchema },
  /** Quit and install the downloaded update ("install on restart" also happens on a normal quit). */
  installUpdate: { args: noArgs, result: obj({ accepted: bool }) },
  ...exchangeCalls,
  ...cashierCalls,
  ...tournamentCalls,
} as const satisfies Record<string, { args: Schema<unknown>; result: Schema<unknown> }>;

/** Events pushed from main to every renderer window. */
export const events = {
  settingsChanged: settingsSchema,
  session: sessionSchema,
  lobby: arr(tableInfoSchema, { max: 10_000 }),
  /**
   * One table changed (coalesced: at most one push per table per turn of main's event loop; the page
   * paces its redraws). The schema documents the shape: pushes are not validated again by the page.
   */
  table: tableStateSchema,
  tracker: trackerSchema,
  update: updateStateSchema,
  /** A history job changed: progress (throttled), then its end (the exchange jobs block). */
  historyJob: historyJobSchema,
  /** R-TIMELIMIT (decree 2010-518 art. 16-1): the operator's playing-time warning, shown as a dialog that needs a click. */
  protectionWarning: obj({ warning: oneOf('near', 'ten-minutes', 'reached'), usedMs: millis, limitMs: millis, periodEnd: millis }),
  /** R-BANNED, R-EXCLUDE: the operator closed the account (withdrawal and history only from now on). */
  accountClosed: obj({ reason: closedReason }),
  ...tournamentEvents,
} as const satisfies Record<string, Schema<unknown>>;

export type CallName = keyof typeof calls;
export type EventName = keyof typeof events;
export type CallArgs<K extends CallName> = Infer<(typeof calls)[K]['args']>;
type ResultMap = { [K in CallName]: Infer<(typeof calls)[K]['result']> } & {
  tables: TableState[];
  lobby: TableInfo[];
  historyHand: Omit<Infer<(typeof calls)['historyHand']['result']>, 'record'> & { record?: HandRecord };
};
export type CallResult<K extends CallName> = ResultMap[K];
type EventMap = { [K in EventName]: Infer<(typeof events)[K]> } & { table: TableState; lobby: TableInfo[] };
export type EventPayload<K extends EventName> = EventMap[K];

export const CALL_NAMES = Object.keys(calls) as CallName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

export function isCallName(v: unknown): v is CallName {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(calls, v);
}
export function isEventName(v: unknown): v is EventName {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(events, v);
}

/** What main implements once; both transports dispatch to it. */
export type Handlers = { [K in CallName]: (args: CallArgs<K>) => Promise<CallResult<K>> };

/** A refusal crossing the boundary: a stable code and a message for logs (the UI translates codes). */
export interface ApiError {
  code: 'BAD_REQUEST' | 'UNKNOWN_CALL' | 'FORBIDDEN' | 'INTERNAL' | 'UNAVAILABLE';
  message: string;
}
export type ApiReply<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const apiErrorSchema = obj({
  code: oneOf('BAD_REQUEST', 'UNKNOWN_CALL', 'FORBIDDEN', 'INTERNAL', 'UNAVAILABLE'),
  message: str({ max: 2000 }),
});

/** The object the renderer talks to: `window.cercle` in Electron, the socket client in a browser. */
export type CercleApi = { [K in CallName]: (args: CallArgs<K>) => Promise<CallResult<K>> } & {
  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void;
};

export const nullableString = nullable(str({ max: 4096 }));
