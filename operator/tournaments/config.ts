/**
 * The tournaments the operator offers (issue 16 items 1, 2): `operator/config/tournaments.default.json`
 * beside the lobby's tables. Ready structures (shared/rules/tournament `readyStructure`) for every
 * variant: a sit & go of each size the file lists (heads-up, 6-max, full ring: R-SEATS caps it per
 * variant) in every variant, and scheduled multi-table tournaments (regular, turbo, hyper-turbo;
 * freezeout, rebuy/add-on, re-entry). Every entry is checked like the lobby's tables; a refusal
 * names the entry and the field.
 */
import { readyStructure, SPEEDS, type Speed } from '../../shared/rules/tournament';
import { VARIANT_CODES, VARIANTS, type VariantCode } from '../../shared/rules/variants';
import type { MoneyKind } from '../wallet';
import { validateTournamentSpec, type TournamentSpec } from './spec';

export interface TournamentsConfig {
  version: 1;
  sitAndGo: { money: MoneyKind; buyIn: number; fee: number; speed: Speed; sizes: number[] };
  scheduled: {
    id: string;
    name: string;
    variant: VariantCode;
    money: MoneyKind;
    buyIn: number;
    fee: number;
    seats: number;
    minEntrants: number;
    maxEntrants: number;
    speed: Speed;
    rebuys?: boolean;
    reEntries?: number;
    /** A new one starts every this many minutes. */
    everyMinutes: number;
  }[];
}

export class TournamentsConfigError extends Error {}

const SIZE_NAMES: Record<number, string> = { 2: 'Heads-up', 6: '6-max' };

/** The sit & go's of the configuration: every variant, every size (capped by the variant's seats, R-SEATS). */
export function sitAndGoSpecs(c: TournamentsConfig): TournamentSpec[] {
  const s = c.sitAndGo;
  if (!(s.speed in SPEEDS)) throw new TournamentsConfigError(`sitAndGo.speed: one of ${Object.keys(SPEEDS).join(', ')}`);
  const out: TournamentSpec[] = [];
  for (const variant of VARIANT_CODES) {
    for (const wanted of new Set(s.sizes.map((n) => Math.min(n, VARIANTS[variant].maxSeats)))) {
      const structure = { ...readyStructure(variant, s.speed), lateRegistrationLevels: 0 };
      out.push(checked(`sitAndGo ${variant} ${wanted}`, {
        id: `sng-${variant.toLowerCase()}-${wanted}`,
        name: `${SIZE_NAMES[wanted] ?? `${wanted} joueurs`} ${variant}`,
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
    id: `${c.id}-${Math.floor(startAt / 60_000).toString(36)}`,
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
  });
}

function checked(where: string, s: TournamentSpec): TournamentSpec {
  const v = validateTournamentSpec(s);
  if (!v.ok) throw new TournamentsConfigError(`${where}: ${v.field}: ${v.reason}`);
  return s;
}
