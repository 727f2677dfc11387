/**
 * The operator's configuration file (JSON): who the operator is for the trace (IDOper, IDCoffre) and
 * the lobby's cash tables. Each table entry names its variant, stakes, seats, buy-in range and,
 * optionally, any table rule (cap, minimum-raise reading, 2-7 reading, Stud open pair, rake, clock);
 * `count` makes several identical tables (`<id>-1`, `<id>-2`, …); `practicePlayers` seats that many
 * labelled practice players (play money only).
 *
 * Loading validates everything and refuses with a message naming the entry and the field:
 * `tables[4] "thnl-100": R-FORCED: the small blind may not exceed the big blind (smallBlind)`.
 * The default lobby (lobby.default.json) has cash tables of all 11 variants at several stakes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTableRules, validateDecreeTable, type TableRules } from '../../shared/rules/tableRules';
import { VARIANT_CODES, VARIANTS } from '../../shared/rules/variants';
import { arr, bool, int, nullable, obj, oneOf, str, validate, type Infer } from '../../shared/validate';
import type { TableSpec } from '../tables/types';

const chips = int({ min: 0, max: 1e12 });

const tableEntrySchema = obj(
  {
    id: str({ min: 1, max: 48, pattern: /^[a-z0-9][a-z0-9_.-]*$/ }),
    name: str({ min: 1, max: 60 }),
    variant: oneOf(...VARIANT_CODES),
    money: oneOf('real', 'play'),
    stakes: obj(
      { smallBlind: chips, bigBlind: chips, ante: chips, bringIn: chips, smallBet: chips, bigBet: chips },
      ['smallBlind', 'bigBlind', 'ante', 'bringIn', 'smallBet', 'bigBet'],
    ),
    seats: int({ min: 2, max: 10 }),
    buyIn: obj({ min: int({ min: 1, max: 1e12 }), max: int({ min: 1, max: 1e12 }) }),
    count: int({ min: 1, max: 100 }),
    practicePlayers: int({ min: 0, max: 9 }),
    cap: nullable(int({ min: 1, max: 100 })),
    capHeadsUp: bool,
    minRaise: oneOf('increment', 'double'),
    studOpenPairBigBet: bool,
    lowball27: oneOf('decree', 'international'),
    rake: obj({ basisPoints: int({ min: 0, max: 10_000 }), cap: nullable(chips), noFlopNoDrop: bool }),
    actionSeconds: int({ min: 1, max: 600 }),
    timeBankSeconds: int({ min: 0, max: 3600 }),
  },
  ['count', 'practicePlayers', 'cap', 'capHeadsUp', 'minRaise', 'studOpenPairBigBet', 'lowball27', 'rake', 'actionSeconds', 'timeBankSeconds'],
);

export const configSchema = obj({
  version: oneOf(1),
  operator: obj({
    /** IDOper given by the regulator. */
    idOper: str({ min: 1, max: 10, pattern: /^\d+$/ }),
    /** Number of this trace vault (IDCoffre). */
    idCoffre: int({ min: 0, max: 1e9 }),
    name: str({ min: 1, max: 60 }),
  }),
  tables: arr(tableEntrySchema, { min: 1, max: 2000 }),
});

export type OperatorConfig = Infer<typeof configSchema>;
export type TableEntry = Infer<typeof tableEntrySchema>;

/** A table the operator runs, with its practice players. */
export interface ConfiguredTable {
  spec: TableSpec;
  practicePlayers: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The rules of one entry: the variant's defaults, the entry's stakes and rule overrides (R-INFO). */
export function entryRules(e: TableEntry): TableRules {
  const overrides: { -readonly [K in keyof TableRules]?: TableRules[K] } = {};
  if (e.cap !== undefined) overrides.cap = e.cap;
  if (e.capHeadsUp !== undefined) overrides.capHeadsUp = e.capHeadsUp;
  if (e.minRaise !== undefined) overrides.minRaise = e.minRaise;
  if (e.studOpenPairBigBet !== undefined) overrides.studOpenPairBigBet = e.studOpenPairBigBet;
  if (e.lowball27 !== undefined) overrides.lowball27 = e.lowball27;
  if (e.rake !== undefined) overrides.rake = e.rake;
  if (e.actionSeconds !== undefined) overrides.actionSeconds = e.actionSeconds;
  if (e.timeBankSeconds !== undefined) overrides.timeBankSeconds = e.timeBankSeconds;
  return makeTableRules(e.variant, e.stakes, overrides);
}

/** Validates a parsed configuration and expands it into tables; throws ConfigError naming the problem. */
export function tablesOf(raw: unknown, source = 'configuration'): { config: OperatorConfig; tables: ConfiguredTable[] } {
  const v = validate(configSchema, raw, 'config');
  if (!v.ok) throw new ConfigError(`${source}: ${v.error}`);
  const config = v.value;
  const tables: ConfiguredTable[] = [];
  const ids = new Set<string>();
  config.tables.forEach((e, i) => {
    const where = `${source}: tables[${i}] ${JSON.stringify(e.id)}`;
    const variant = VARIANTS[e.variant];
    if (e.seats > variant.maxSeats) throw new ConfigError(`${where}: R-SEATS: ${variant.code} is played at most ${variant.maxSeats} a table, not ${e.seats}`);
    if (e.buyIn.min > e.buyIn.max) throw new ConfigError(`${where}: buyIn.min ${e.buyIn.min} is more than buyIn.max ${e.buyIn.max}`);
    if ((e.practicePlayers ?? 0) > 0 && e.money !== 'play') throw new ConfigError(`${where}: practice players sit at play-money tables only`);
    if ((e.practicePlayers ?? 0) >= e.seats) throw new ConfigError(`${where}: practicePlayers must leave at least one seat for a person`);
    const rules = entryRules(e);
    // The operator deals decree tables only: no replay-only house rule (D art. 7 III, R-FORCED).
    const check = validateDecreeTable(rules);
    if (!check.ok) throw new ConfigError(`${where}: ${check.rule}: ${check.reason} (${check.field})`);
    const count = e.count ?? 1;
    for (let k = 1; k <= count; k++) {
      const tableId = count === 1 ? e.id : `${e.id}-${k}`;
      if (ids.has(tableId)) throw new ConfigError(`${where}: table id ${tableId} is used twice`);
      ids.add(tableId);
      tables.push({
        spec: {
          tableId,
          name: count === 1 ? e.name : `${e.name} ${k}`,
          money: e.money,
          practice: (e.practicePlayers ?? 0) > 0,
          rules,
          seats: e.seats,
          buyIn: { min: e.buyIn.min, max: e.buyIn.max },
          mode: 'cash',
        },
        practicePlayers: e.practicePlayers ?? 0,
      });
    }
  });
  return { config, tables };
}

/** Reads and validates a configuration file. */
export function loadConfig(path: string): { config: OperatorConfig; tables: ConfiguredTable[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read the configuration ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${path} is not JSON: ${(e as Error).message}`);
  }
  return tablesOf(raw, path);
}

/** The checked-in default lobby. */
export const DEFAULT_CONFIG_PATH = fileURLToPath(new URL('./lobby.default.json', import.meta.url));

/**
 * The embedded operator's lobby (DESIGN.md §3 "The embedded default"): a play-money practice table of
 * every variant, practice players filling all seats but one or two.
 */
export function practiceLobby(tablesPerVariant = 1): { config: OperatorConfig; tables: ConfiguredTable[] } {
  if (!Number.isSafeInteger(tablesPerVariant) || tablesPerVariant < 1 || tablesPerVariant > 10) throw new ConfigError('practice lobby: 1 to 10 tables per variant');
  const copies = Array.from({ length: tablesPerVariant }, (_, i) => i + 1);
  const entries: TableEntry[] = copies.flatMap((n) => VARIANT_CODES.map((code) => {
    const v = VARIANTS[code];
    const seats = Math.min(6, v.maxSeats);
    // The first table of a variant keeps the plain id (`practice-thnl`); more copies are numbered.
    const suffix = n === 1 ? '' : `-${n}`;
    const base = { id: `practice-${code.toLowerCase()}${suffix}`, name: `Practice ${v.nameEn}${n === 1 ? '' : ` ${n}`}`, variant: code, money: 'play' as const, seats, practicePlayers: seats - 2 };
    if (v.forcedBets === 'ante-bring-in') return { ...base, stakes: { ante: 10, bringIn: 20, smallBet: 50 }, buyIn: { min: 1000, max: 5000 } };
    if (v.betting === 'limit') return { ...base, stakes: { smallBlind: 25, bigBlind: 50 }, buyIn: { min: 1000, max: 5000 } };
    return { ...base, stakes: { smallBlind: 25, bigBlind: 50 }, buyIn: { min: 2000, max: 5000 } };
  }));
  return tablesOf({ version: 1, operator: { idOper: '0000', idCoffre: 1, name: 'Cercle (embedded)' }, tables: entries }, 'practice lobby');
}
