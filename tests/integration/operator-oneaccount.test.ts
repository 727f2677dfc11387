/**
 * One account per person over the wire (R-ONEACCOUNT, R-BANNED): a real operator on loopback, real
 * TLS with the pinned key, a real SQLite file. The same person registering again under another
 * spelling is refused with IDENTITY_TAKEN and its rule, told how to recover the account and never
 * its name; the account they hold signs in as before. A look-alike of a banned name is refused.
 */
import { describe, expect, it } from 'vitest';
import { replaceBanFile } from '../../operator/protection/bans';
import { BAN_FILE_HEADER, identityHash } from '../../operator/protection/identity';
import { TestClient } from '../support/operator/test-client';
import { tempDir } from '../support/operator/temp-dir';
import { testOperator } from './operator-harness';

const CASH = { id: 'cash', name: 'Cash', variant: 'THNL', money: 'real', stakes: { smallBlind: 5, bigBlind: 10 }, seats: 6, buyIn: { min: 400, max: 2000 } } as const;
const ZOE = { lastName: "Lefèvre-d'Arc", firstNames: 'Zoé Anne', birthDate: '1990-05-04' };

describe('one account per person on the wire (R-ONEACCOUNT)', () => {
  it('refuses the same person under another spelling, and the account they hold signs in', async () => {
    const t = tempDir();
    const op = await testOperator('0182', [CASH], { dataDir: t.dir });
    const c = await TestClient.connect(op.url, op.pin);
    try {
      await c.hello();
      expect(await c.request({ type: 'register', username: 'zoe_l', password: 'zoe-password', identity: ZOE })).toMatchObject({ type: 'authed' });
      await c.request({ type: 'logout' });
      // Other capitals, accents, apostrophe (U+2019), a dash (U+2010) and a Cyrillic е (U+0435).
      const again = await c.request({ type: 'register', username: 'zoe_again', password: 'zoe-password', identity: { ...ZOE, lastName: 'LEFЕVRE‐D’ARC', firstNames: 'zoe anne' } });
      expect(again).toMatchObject({ type: 'error', code: 'IDENTITY_TAKEN', rule: 'R-ONEACCOUNT' });
      expect(JSON.stringify(again)).toMatch(/sign in with it.*support/);
      expect(JSON.stringify(again)).not.toContain('zoe_l');
      expect(await c.request({ type: 'login', username: 'zoe_again', password: 'zoe-password' })).toMatchObject({ code: 'INVALID_CREDENTIALS' });
      expect(await c.request({ type: 'login', username: 'zoe_l', password: 'zoe-password' })).toMatchObject({ type: 'authed', account: { username: 'zoe_l' } });
      await c.request({ type: 'logout' });

      // R-BANNED: the ban file (version 2) names Paul Durand; a Greek Α and a Cyrillic а do not hide him.
      replaceBanFile(t.dir, `${BAN_FILE_HEADER}\n${identityHash('Durand', 'Paul', '1980-01-01')}\n`);
      expect(await c.request({ type: 'register', username: 'paul', password: 'paul-password', identity: { lastName: 'DURΑND', firstNames: 'Pаul', birthDate: '1980-01-01' } })).toMatchObject({
        code: 'BANNED',
        rule: 'R-BANNED',
      });
      // R-AGE: a refused identity names its rule.
      expect(await c.request({ type: 'register', username: 'young', password: 'young-password', identity: { ...ZOE, birthDate: '1990-02-30' } })).toMatchObject({ code: 'INVALID_IDENTITY', rule: 'R-AGE' });
    } finally {
      await c.close();
    }
  });
});
