import { describe, expect, it } from 'vitest';
import { conditionsVersion, playConditionsSchema } from '../../shared/protocol/conditions';
import { validate } from '../../shared/validate';
import { playConditions } from './conditions';

describe('the conditions of play, written from the tables\' settings (R-RULES, D art. 3 and 8 II 2°)', () => {
  it('say what the tables run with: the defaults (two time-outs, two minutes of grace)', () => {
    const c = playConditions();
    expect(validate(playConditionsSchema, c)).toMatchObject({ ok: true }); // what the lobby frame's schema accepts
    expect(c.fr).toHaveLength(c.en.length);
    expect(c.version).toBe(conditionsVersion(c));
    expect(c.fr.join('\n')).toContain('après deux temps écoulés de suite');
    expect(c.fr.join('\n')).toContain('votre place vous est gardée 2 minutes');
    expect(c.en.join('\n')).toContain('after two time-outs in a row');
    expect(c.en.join('\n')).toContain('your seat is kept for 2 minutes');
  });

  it('follow other settings, and another text is another version', () => {
    const c = playConditions({ maxTimeouts: 3, disconnectGraceMs: 45_000 });
    expect(c.fr.join('\n')).toContain('après trois temps écoulés de suite');
    expect(c.fr.join('\n')).toContain('gardée 45 secondes');
    expect(c.en.join('\n')).toContain('after three time-outs in a row');
    expect(c.en.join('\n')).toContain('kept for 45 seconds');
    expect(c.version).not.toBe(playConditions().version);
    // Settings that change nothing a player reads (the pause between hands) keep the version.
    expect(playConditions({ betweenHandsMs: 0 }).version).toBe(playConditions().version);
  });
});
