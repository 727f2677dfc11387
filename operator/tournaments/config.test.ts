import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIANT_CODES } from '../../shared/rules/variants';
import { scheduledSpec, sitAndGoSpecs, TournamentsConfigError, type TournamentsConfig } from './config';

const config = JSON.parse(readFileSync(join(__dirname, '../config/tournaments.default.json'), 'utf8')) as TournamentsConfig;

describe('the default tournaments', () => {
  it('a valid sit & go of every size in every variant, heads-up to full ring within R-SEATS', () => {
    const specs = sitAndGoSpecs(config);
    for (const v of VARIANT_CODES) {
      const mine = specs.filter((s) => s.variant === v);
      expect(mine.map((s) => s.seats)).toContain(2);
      expect(mine.map((s) => s.seats)).toContain(6);
      expect(new Set(mine.map((s) => s.id)).size).toBe(mine.length);
    }
  });

  it('sit & go’s with rebuys when the file says so: the speed’s rebuy period and add-on at the buy-in’s price (T 5-2, 5-4)', () => {
    const specs = sitAndGoSpecs({ ...config, sitAndGo: { ...config.sitAndGo, buyIn: 1000, fee: 100, speed: 'hyper-turbo', sizes: [2], rebuys: true } });
    expect(specs).toHaveLength(VARIANT_CODES.length);
    for (const s of specs) {
      expect(s.structure.rebuy).toMatchObject({ price: 1000, fee: 100, untilLevel: 4 });
      expect(s.structure.addOn).toMatchObject({ price: 1000, fee: 100 });
      expect(s.structure.lateRegistrationLevels).toBe(0);
    }
    expect(sitAndGoSpecs(config).every((s) => s.structure.rebuy === null)).toBe(true);
  });

  it('valid scheduled tournaments: freezeout, rebuy with add-on, re-entry', () => {
    const specs = config.scheduled.map((c) => scheduledSpec(c, Date.UTC(2026, 0, 1, 20)));
    expect(specs.some((s) => s.structure.rebuy !== null && s.structure.addOn !== null)).toBe(true);
    expect(specs.some((s) => s.structure.reEntries > 0)).toBe(true);
    expect(specs.some((s) => s.structure.rebuy === null && s.structure.reEntries === 0)).toBe(true);
  });

  it('a bad entry is refused with its name and field', () => {
    const bad = { ...config.scheduled[0], seats: 11 };
    expect(() => scheduledSpec(bad, 0)).toThrow(TournamentsConfigError);
    expect(() => scheduledSpec(bad, 0)).toThrow(/mtt-thnl-regular: seats/);
  });
});
