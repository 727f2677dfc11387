import { describe, expect, it } from 'vitest';
import { inscriptionParts, newInscription } from './inscription';

describe('the Inscription code (A 1.3.6.b: unique, one per inscription, in every event of it)', () => {
  it("names its game (Tech) and the time it was made, with 32 random bits: `<Tech>.<base 36>.<8 hex>`", () => {
    const at = Date.UTC(2026, 11, 2, 6, 30);
    const i = newInscription('cash-thnl-1', at);
    // Independent: the time in base 36 as the spec of the format says it.
    expect(i).toMatch(new RegExp(`^cash-thnl-1\\.${at.toString(36)}\\.[0-9a-f]{8}$`));
    expect(inscriptionParts(i)).toEqual({ tech: 'cash-thnl-1', at });
    expect(inscriptionParts('not one')).toBeNull();
  });

  it('two inscriptions of the same game at the same millisecond differ (a player entering twice, A 1.3.6.b)', () => {
    const at = Date.now();
    const made = new Set(Array.from({ length: 1000 }, () => newInscription('mtt-1', at)));
    expect(made.size).toBe(1000);
  });
});
