/**
 * The tournaments the operator offers: `operator/config/tournaments.default.json`
 * beside the lobby's tables. Ready structures (shared/rules/tournament `readyStructure`) for every
 * variant: a sit & go of each size the file lists (heads-up, 6-max, full ring: R-SEATS caps it per
 * variant) in every variant, and scheduled multi-table tournaments (regular, turbo, hyper-turbo;
 * freezeout, rebuy/add-on, re-entry). Every entry is checked like the lobby's tables; a refusal
 * names the entry and the field.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readyStructure, SPEEDS, type Speed } from '../../shared/rules/tournament';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../shared/rules/variants';
import { arr, bool, int, obj, oneOf, str, validate, type Infer } from '../../shared/validate';
import { repeatId, validateTournamentSpec, type TournamentSpec } from './spec';

const money = int({ min: 0, max: 1e12 });
const speed = oneOf(...(Object.keys(SPEEDS) as Speed[]));

/** The file's shape, checked like the lobby's (config/config.ts): a refusal names the field. */
export const tournamentsConfigSchema = obj({
  version: oneOf(1),
  // `rebuys`: the sit & go's have the speed's rebuys and add-on (T 5-2, 5-4), at the buy-in's price.
  sitAndGo: obj({ money: oneOf('real', 'play'), buyIn: money, fee: money, speed, sizes: arr(int({ min: 2, max: 10 }), { min: 0, max: 9 }), rebuys: bool }, ['rebuys']),
  scheduled: arr(
    obj(
      {
        id: str({ min: 1, max: 40, pattern: /^[a-z0-9][a-z0-9_.-]*$/ }),
        name: str({ min: 1, max: 60 }),
        variant: oneOf(...VARIANT_CODES),
        money: oneOf('real', 'play'),
        buyIn: money,
        fee: money,
        seats: int({ min: 2, max: 10 }),
        minEntrants: int({ min: 2, max: 100_000 }),
        maxEntrants: int({ min: 2, max: 100_000 }),
        speed,
        rebuys: bool,
        reEntries: int({ min: 0, max: 10 }),
        /** A new one opens every this many minutes (on the clock's multiples of it). */
        everyMinutes: int({ min: 1, max: 10_080 }),
      },
      ['rebuys', 'reEntries'],
    ),
    { max: 200 },
  ),
});

export type TournamentsConfig = Infer<typeof tournamentsConfigSchema>;

/** The checked-in default (`npm run operator` without `--tournaments`). */
export const DEFAULT_TOURNAMENTS_PATH = fileURLToPath(new URL('../config/tournaments.default.json', import.meta.url));

export class TournamentsConfigError extends Error {}

const SIZE_NAMES: Record<number, string> = { 2: 'Heads-up', 6: '6-max' };

/**
 * A sit & go's name (R-INFO: a name a player reads, not codes): its size and its game's French name,
 * `Heads-up · Texas Hold'em no limit`; the English name where the French one would pass the
 * 60-character name (2-7 Triple Draw). The client shows it in the page's language
 * (renderer/src/tournaments/names.ts).
 */
export function sitAndGoName(variant: VariantCode, seats: number): string {
  const size = SIZE_NAMES[seats] ?? `${seats} joueurs`;
  const fr = `${size} · ${VARIANTS[variant].nameFr}`;
  return fr.length <= 60 ? fr : `${size} · ${VARIANTS[variant].nameEn}`;
}

/** The sit & go's of the configuration: every variant, every size (capped by the variant's seats, R-SEATS). */
export function sitAndGoSpecs(c: TournamentsConfig): TournamentSpec[] {
  const s = c.sitAndGo;
  if (!(s.speed in SPEEDS)) throw new TournamentsConfigError(`sitAndGo.speed: one of ${Object.keys(SPEEDS).join(', ')}`);
  const out: TournamentSpec[] = [];
  for (const variant of VARIANT_CODES) {
    for (const wanted of new Set(s.sizes.map((n) => Math.min(n, VARIANTS[variant].maxSeats)))) {
      const rebuys = s.rebuys ? { price: s.buyIn, fee: s.fee } : undefined;
      const structure = { ...readyStructure(variant, s.speed, { rebuys }), lateRegistrationLevels: 0 };
      out.push(checked(`sitAndGo ${variant} ${wanted}`, {
        id: `sng-${variant.toLowerCase()}-${wanted}`,
        name: sitAndGoName(variant, wanted),
        variant,
        money: s.money,
        buyIn: s.buyIn,
        fee: s.fee,
        format: 'sit-and-go',
        seats: wanted,
        maxEntrants: wanted,
        minEntrants: wanted,
        startAt: null,
        structure,
      }));
    }
  }
  return out;
}

/** A scheduled tournament of the configuration, starting at `startAt` (its id gets the start's time). */
export function scheduledSpec(c: TournamentsConfig['scheduled'][number], startAt: number): TournamentSpec {
  if (!(c.speed in SPEEDS)) throw new TournamentsConfigError(`${c.id}.speed: one of ${Object.keys(SPEEDS).join(', ')}`);
  const rebuys = c.rebuys ? { price: c.buyIn, fee: c.fee } : undefined;
  return checked(c.id, {
    id: repeatId(c.id, startAt),
    name: c.name,
    variant: c.variant,
    money: c.money,
    buyIn: c.buyIn,
    fee: c.fee,
    format: 'scheduled',
    seats: c.seats,
    maxEntrants: c.maxEntrants,
    minEntrants: c.minEntrants,
    startAt,
    structure: readyStructure(c.variant, c.speed, { rebuys, reEntries: c.reEntries ?? 0 }),
    repeat: { series: c.id, everyMinutes: c.everyMinutes },
  });
}

/**
 * Reads and checks a tournaments file: the sit & go's, and each scheduled
 * tournament's next instance (the first multiple of its interval after `now`). Throws
 * TournamentsConfigError naming the file and the field; nothing is offered from a refused file.
 */
export function loadTournaments(path: string, now: number): TournamentSpec[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new TournamentsConfigError(`cannot read the tournaments ${path}: ${(e as Error).message}`);
  }
  const v = validate(tournamentsConfigSchema, raw, 'tournaments');
  if (!v.ok) throw new TournamentsConfigError(`${path}: ${v.error}`);
  try {
    const specs = [...sitAndGoSpecs(v.value), ...v.value.scheduled.map((c) => scheduledSpec(c, nextStart(c.everyMinutes, now)))];
    const ids = new Set<string>();
    for (const s of specs) {
      if (ids.has(s.id)) throw new TournamentsConfigError(`tournament id ${s.id} is used twice`);
      ids.add(s.id);
    }
    return specs;
  } catch (e) {
    if (e instanceof TournamentsConfigError) throw new TournamentsConfigError(`${path}: ${e.message}`);
    throw e;
  }
}

/** The next start of a tournament repeated every `everyMinutes`: the first multiple of it after `now`. */
export function nextStart(everyMinutes: number, now: number): number {
  const every = everyMinutes * 60_000;
  return (Math.floor(now / every) + 1) * every;
}

function checked(where: string, s: TournamentSpec): TournamentSpec {
  const v = validateTournamentSpec(s);
  if (!v.ok) throw new TournamentsConfigError(`${where}: ${v.field}: ${v.reason}`);
  return s;
}
