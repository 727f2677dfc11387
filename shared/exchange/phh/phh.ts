// PHH hands: the typed object, reading it from TOML text, writing it back canonically.
//
// Field names and types are the standard's (phh.readthedocs.io, "Specification", "Required
// Fields", "Optional Fields"), spelled as the format spells them. Keys the standard does not know
// (user-defined fields, which pokerkit writes with a leading `_`) are kept in `extra`, so that
// reading then writing loses nothing. Amounts stay as written (PHH allows decimals, e.g. dollars
// and cents); `replay.ts` turns them into integer units.

import { parsePhhAction } from './actions';
import { PHH_VARIANTS, isPhhVariant } from './variants';
import {
  formatTomlKey,
  formatTomlNumber,
  formatTomlString,
  formatTomlValue,
  isTomlDateTime,
  isTomlTable,
  parseToml,
  tomlPathKey,
  type TomlDocument,
  type TomlTable,
  type TomlValue,
} from './toml';

export interface PhhHand {
  // --- state construction and progression (required, depending on the variant) ---
  variant: string;
  /** Uniform antes: a short stack wins only what it matched (standard default: false). */
  ante_trimming_status?: boolean;
  antes: number[];
  blinds_or_straddles?: number[];
  bring_in?: number;
  small_bet?: number;
  big_bet?: number;
  min_bet?: number;
  /** `Infinity` (TOML `inf`) for an unknown stack. */
  starting_stacks: number[];
  actions: string[];
  // --- optional ---
  author?: string;
  event?: string;
  url?: string;
  venue?: string;
  address?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
  /** TOML local time, as written (`HH:MM:SS[.fff]`). */
  time?: string;
  time_zone?: string;
  time_zone_abbreviation?: string;
  day?: number;
  month?: number;
  year?: number;
  hand?: number | string;
  level?: number;
  seats?: number[];
  seat_count?: number;
  table?: number | string;
  players?: string[];
  finishing_stacks?: number[];
  winnings?: number[];
  currency?: string;
  currency_symbol?: string;
  time_limit?: number;
  time_banks?: number[];
  /** Fields outside the standard, in file order (user-defined fields, e.g. `_rake`). */
  extra?: Record<string, TomlValue>;
}

export type PhhParse = { readonly ok: true; readonly hand: PhhHand } | { readonly ok: false; readonly line: number; readonly reason: string };

export interface NamedPhhHand {
  /** The table name in a .phhs file (`1` for `[1]`); `''` for a single-hand .phh. */
  readonly name: string;
  readonly hand: PhhHand;
}

export type PhhsParse =
  | { readonly ok: true; readonly hands: readonly NamedPhhHand[] }
  | { readonly ok: false; readonly line: number; readonly reason: string };

type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'numbers' | 'integers' | 'strings' | 'int-or-string' | 'local-time';

/** Every standard field with its TOML type, in canonical writing order. */
const FIELDS: readonly (readonly [keyof PhhHand, FieldKind])[] = [
  ['variant', 'string'],
  ['ante_trimming_status', 'boolean'],
  ['antes', 'numbers'],
  ['blinds_or_straddles', 'numbers'],
  ['bring_in', 'number'],
  ['small_bet', 'number'],
  ['big_bet', 'number'],
  ['min_bet', 'number'],
  ['starting_stacks', 'numbers'],
  ['actions', 'strings'],
  ['author', 'string'],
  ['event', 'string'],
  ['url', 'string'],
  ['venue', 'string'],
  ['address', 'string'],
  ['city', 'string'],
  ['region', 'string'],
  ['postal_code', 'string'],
  ['country', 'string'],
  ['time', 'local-time'],
  ['time_zone', 'string'],
  ['time_zone_abbreviation', 'string'],
  ['day', 'integer'],
  ['month', 'integer'],
  ['year', 'integer'],
  ['hand', 'int-or-string'],
  ['level', 'integer'],
  ['seats', 'integers'],
  ['seat_count', 'integer'],
  ['table', 'int-or-string'],
  ['players', 'strings'],
  ['finishing_stacks', 'numbers'],
  ['winnings', 'numbers'],
  ['currency', 'string'],
  ['currency_symbol', 'string'],
  ['time_limit', 'number'],
  ['time_banks', 'numbers'],
];

const FIELD_KIND = new Map<string, FieldKind>(FIELDS.map(([k, t]) => [k, t]));

/** Per-player arrays: their length is the number of players (standard, "Position"). */
const PER_PLAYER: readonly (keyof PhhHand)[] = [
  'antes',
  'blinds_or_straddles',
  'seats',
  'players',
  'finishing_stacks',
  'winnings',
  'time_banks',
];

const KIND_TEXT: Record<FieldKind, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  numbers: 'an array of numbers',
  integers: 'an array of integers',
  strings: 'an array of strings',
  'int-or-string': 'an integer or a string',
  'local-time': 'a TOML local time (HH:MM:SS)',
};

function fits(kind: FieldKind, value: TomlValue): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'numbers':
      return Array.isArray(value) && value.every((v) => typeof v === 'number');
    case 'integers':
      return Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isInteger(v));
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'int-or-string':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    case 'local-time':
      return isTomlDateTime(value) && value.form === 'local-time';
  }
}

type Fail = { readonly ok: false; readonly line: number; readonly reason: string };

/**
 * Builds a PhhHand from a parsed TOML table. `lineOf` gives the line of a key (path relative to
 * the table); `fallbackLine` is used when a field is missing.
 */
function handFromTable(table: TomlTable, lineOf: (path: (string | number)[]) => number | undefined, fallbackLine: number): PhhParse {
  const fail = (reason: string, path?: (string | number)[]): Fail => ({
    ok: false,
    line: (path && lineOf(path)) ?? fallbackLine,
    reason,
  });
  const hand: Record<string, unknown> = {};
  const extra: Record<string, TomlValue> = {};
  for (const key of Object.keys(table)) {
    const value = table[key];
    const kind = FIELD_KIND.get(key);
    if (kind === undefined) {
      Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    if (!fits(kind, value)) return fail(`'${key}' must be ${KIND_TEXT[kind]}`, [key]);
    hand[key] = kind === 'local-time' ? (value as { text: string }).text : Array.isArray(value) ? [...value] : value;
  }
  for (const key of ['variant', 'antes', 'starting_stacks', 'actions'] as const) {
    if (hand[key] === undefined) return fail(`missing required field '${key}'`);
  }
  const h = hand as unknown as PhhHand;
  const players = h.starting_stacks.length;
  if (players < 2) return fail(`'starting_stacks' must list at least 2 players, found ${players}`, ['starting_stacks']);
  for (const [i, s] of h.starting_stacks.entries()) {
    // Stacks are positive; `inf` marks an unknown stack (standard, "Starting Stacks").
    if (!(s > 0)) return fail(`'starting_stacks' must be positive (player ${i + 1} has ${s})`, ['starting_stacks']);
  }
  for (const key of PER_PLAYER) {
    const arr = h[key] as unknown[] | undefined;
    if (arr !== undefined && arr.length !== players) {
      return fail(`'${key}' has ${arr.length} entries but there are ${players} players`, [key]);
    }
  }
  for (const key of ['antes', 'finishing_stacks', 'winnings'] as const) {
    const arr = h[key];
    if (arr?.some((v) => !(v >= 0) || !Number.isFinite(v))) return fail(`'${key}' must hold finite non-negative numbers`, [key]);
  }
  // A negative blind is a "post" (a player who has just sat down posting to play at once), as
  // pokerkit reads it; the handhq hands use it. Only finite values make sense.
  if (h.blinds_or_straddles?.some((v) => !Number.isFinite(v))) return fail(`'blinds_or_straddles' must be finite`, ['blinds_or_straddles']);
  for (const key of ['bring_in', 'small_bet', 'big_bet', 'min_bet'] as const) {
    const v = h[key];
    if (v !== undefined && !(v > 0 && Number.isFinite(v))) return fail(`'${key}' must be a positive number`, [key]);
  }
  if (h.time !== undefined && !/^[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?$/.test(h.time)) {
    return fail(`'time' must be a local time HH:MM:SS`, ['time']);
  }

  // Variant-specific required fields (standard's "required field statuses" table).
  if (isPhhVariant(h.variant)) {
    const info = PHH_VARIANTS[h.variant];
    const need: (keyof PhhHand)[] = [
      ...(info.forced === 'blinds' ? (['blinds_or_straddles'] as const) : (['bring_in'] as const)),
      ...(info.betting === 'limit' ? (['small_bet', 'big_bet'] as const) : (['min_bet'] as const)),
    ];
    for (const key of need) {
      if (h[key] === undefined) return fail(`variant '${h.variant}' needs '${key}'`);
    }
    if (info.forced === 'bring-in' && h.blinds_or_straddles?.some((v) => v !== 0)) {
      return fail(`variant '${h.variant}' has a bring-in: 'blinds_or_straddles' must not be set`, ['blinds_or_straddles']);
    }
  }

  for (const [i, text] of h.actions.entries()) {
    const parsed = parsePhhAction(text);
    if (!parsed.ok) return fail(`action ${i + 1} '${text}': ${parsed.reason}`, ['actions', i]);
    const a = parsed.action;
    if ('playerIndex' in a && a.playerIndex >= players) {
      return fail(`action ${i + 1} '${text}': there are only ${players} players`, ['actions', i]);
    }
  }
  if (Object.keys(extra).length > 0) h.extra = extra;
  return { ok: true, hand: h };
}

function lineFinder(doc: TomlDocument, prefix: string[]): (path: (string | number)[]) => number | undefined {
  return (path) => doc.lines[tomlPathKey([...prefix, ...path])];
}

/** Reads one hand (a .phh file). */
export function parsePhh(text: string): PhhParse {
  const doc = parseToml(text);
  if (!doc.ok) return doc;
  if (doc.headers.length > 0 && doc.value.variant === undefined) {
    return { ok: false, line: doc.lines[tomlPathKey(doc.headers[0])] ?? 1, reason: 'this holds several hands (a .phhs file): use parsePhhs' };
  }
  return handFromTable(doc.value, lineFinder(doc, []), 1);
}

/**
 * Reads a .phhs file: one hand per top-level table (`[1]`, `[2]`...), in file order. A text with
 * the fields at top level (a .phh) reads as one hand named ''.
 */
export function parsePhhs(text: string): PhhsParse {
  const doc = parseToml(text);
  if (!doc.ok) return doc;
  const topKeys = Object.keys(doc.value);
  const tables = topKeys.filter((k) => isTomlTable(doc.value[k]));
  if (tables.length === 0 || doc.value.variant !== undefined) {
    const one = handFromTable(doc.value, lineFinder(doc, []), 1);
    return one.ok ? { ok: true, hands: [{ name: '', hand: one.hand }] } : one;
  }
  const loose = topKeys.find((k) => !isTomlTable(doc.value[k]));
  if (loose !== undefined) {
    return { ok: false, line: doc.lines[tomlPathKey([loose])] ?? 1, reason: `'${loose}' sits outside any hand table` };
  }
  // File order: the first header naming each top-level table.
  const order: string[] = [];
  for (const h of doc.headers) if (!order.includes(h[0])) order.push(h[0]);
  for (const k of tables) if (!order.includes(k)) order.push(k);
  const hands: NamedPhhHand[] = [];
  for (const name of order) {
    const line = doc.lines[tomlPathKey([name])] ?? 1;
    const one = handFromTable(doc.value[name] as TomlTable, lineFinder(doc, [name]), line);
    if (!one.ok) return { ok: false, line: one.line, reason: `hand [${name}]: ${one.reason}` };
    hands.push({ name, hand: one.hand });
  }
  return { ok: true, hands };
}

// ---- writing ----

function formatField(kind: FieldKind, value: unknown): string {
  switch (kind) {
    case 'string':
      return formatTomlString(value as string);
    case 'number':
    case 'integer':
      return formatTomlNumber(value as number);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'numbers':
    case 'integers':
      return `[${(value as number[]).map(formatTomlNumber).join(', ')}]`;
    case 'strings':
      return `[${(value as string[]).map(formatTomlString).join(', ')}]`;
    case 'int-or-string':
      return typeof value === 'string' ? formatTomlString(value) : formatTomlNumber(value as number);
    case 'local-time':
      return value as string;
  }
}

/**
 * Canonical PHH text for a hand: the standard's fields in a fixed order (the state fields first,
 * as pokerkit writes them, then the optional ones in the standard's table order), one action per
 * line, then the extra fields. `parsePhh(writePhh(h))` gives back `h`.
 */
export function writePhh(hand: PhhHand): string {
  // A hand that cannot be written as valid PHH is the caller's bug, not input: say so loudly.
  if (hand.time !== undefined && !/^[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?$/.test(hand.time)) {
    throw new RangeError(`writePhh: time '${hand.time}' is not a local time HH:MM:SS`);
  }
  for (const key of Object.keys(hand.extra ?? {})) {
    if (FIELD_KIND.has(key)) throw new RangeError(`writePhh: extra field '${key}' is a standard field`);
  }
  const lines: string[] = [];
  for (const [key, kind] of FIELDS) {
    const value = hand[key];
    if (value === undefined) continue;
    if (key === 'actions') {
      const actions = value as string[];
      lines.push(actions.length === 0 ? 'actions = []' : `actions = [\n${actions.map((a) => `  ${formatTomlString(a)},`).join('\n')}\n]`);
      continue;
    }
    lines.push(`${key} = ${formatField(kind, value)}`);
  }
  for (const key of Object.keys(hand.extra ?? {})) {
    lines.push(`${formatTomlKey(key)} = ${formatTomlValue(hand.extra![key])}`);
  }
  return lines.join('\n') + '\n';
}

/** Canonical .phhs text: each hand under its table header, a blank line between hands. */
export function writePhhs(hands: readonly NamedPhhHand[]): string {
  return hands.map(({ name, hand }) => `[${formatTomlKey(name)}]\n${writePhh(hand)}`).join('\n');
}
