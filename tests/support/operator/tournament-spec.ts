/**
 * The tournament the tests configure, one builder for every test file and child process
 * that hands a `TournamentSpec` to the operator's tournament service. No vitest import: the operator
 * child processes (`node --import tsx tests/integration/*.child.ts`) use it too.
 */
import { readyStructure } from '../../../shared/rules/tournament';
import { VARIANTS } from '../../../shared/rules/variants';
import type { TournamentSpec } from '../../../operator/tournaments/spec';

/**
 * A play-money hyper-turbo sit & go of the variant asked (THNL by default), buy-in 1000 + fee 100,
 * full at 6 players at one table (fewer where the game seats fewer); `over` replaces any field. The
 * default structure follows `over.variant`; a scheduled tournament passes `format`, `startAt` and its
 * field (`maxEntrants`, `minEntrants`).
 */
export function tournamentSpec(over: Partial<TournamentSpec> = {}): TournamentSpec {
  const variant = over.variant ?? 'THNL';
  const seats = Math.min(6, VARIANTS[variant].maxSeats);
  return {
    id: 'sng-test',
    name: 'Test SNG',
    variant,
    money: 'play',
    buyIn: 1000,
    fee: 100,
    format: 'sit-and-go',
    seats,
    maxEntrants: seats,
    minEntrants: seats,
    startAt: null,
    // Hyper-turbo without late registration: a sit & go is full at its start.
    structure: { ...readyStructure(variant, 'hyper-turbo'), lateRegistrationLevels: 0 },
    ...over,
  };
}
