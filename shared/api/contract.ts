/**
 * The client API: every call the renderer makes to main and every event main pushes, with validators
 * for both directions (DESIGN.md §3 "Transport-agnostic client API"). Electron IPC
 * (electron/main + electron/preload) and the browser host's loopback WebSocket (electron/web) are two
 * thin adapters over the same handlers, so the renderer never knows which one it runs on.
 */
import { bool, int, type Infer, nullable, obj, oneOf, type Schema, str } from '../validate';

export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const settingsSchema = obj({
  language: oneOf(...LANGUAGES),
  /** Four-colour deck: clubs green, diamonds blue (a display preference; R-DECK is about backs). */
  fourColorDeck: bool,
  sounds: bool,
});
export type Settings = Infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { language: 'fr', fourColorDeck: false, sounds: true };

export const settingsPatchSchema = obj(
  { language: oneOf(...LANGUAGES), fourColorDeck: bool, sounds: bool },
  ['language', 'fourColorDeck', 'sounds'],
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

/** Calls: name -> schema of its argument object and of its result. */
export const calls = {
  appInfo: { args: noArgs, result: appInfoSchema },
  getSettings: { args: noArgs, result: settingsSchema },
  updateSettings: { args: settingsPatchSchema, result: settingsSchema },
  /** Opens an allow-listed https page (responsible gambling help, the regulator) in the system browser. */
  openExternal: { args: obj({ url: str({ max: 2048 }) }), result: obj({ opened: bool }) },
} as const satisfies Record<string, { args: Schema<unknown>; result: Schema<unknown> }>;

/** Events pushed from main to every renderer window. */
export const events = {
  settingsChanged: settingsSchema,
  /** Main's heartbeat to the UI (used by the status bar to show the link to main is alive). */
  tick: obj({ at: int({ min: 0, max: Number.MAX_SAFE_INTEGER }) }),
} as const satisfies Record<string, Schema<unknown>>;

export type CallName = keyof typeof calls;
export type EventName = keyof typeof events;
export type CallArgs<K extends CallName> = Infer<(typeof calls)[K]['args']>;
export type CallResult<K extends CallName> = Infer<(typeof calls)[K]['result']>;
export type EventPayload<K extends EventName> = Infer<(typeof events)[K]>;

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
