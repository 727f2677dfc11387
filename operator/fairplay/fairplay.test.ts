import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { hashJoueur, type PojeuData } from '../trace/records';
import { TraceVault } from '../trace/vault';
import { fairPlayReport, formatFairPlayReport } from './fairplay';

function hand(pool: string, a: [string, string, number], b: [string, string, number]): PojeuData {
  const p = ([id, ip, net]: [string, string, number], siege: number) => ({
    idOper: '0099',
    idJoueur: id,
    ipJoueur: ip,
    siege,
    inscription: `i-${id}`,
    finance: { net, total: Math.max(0, -net), caveAvant: 1000, caveApres: 1000 + net },
  });
  const loser = a[2] < 0 ? 1 : 2;
  return {
    kind: 'POJEU',
    tech: 't1',
    pool,
    participants: [p(a, 1), p(b, 2)],
    regle: 'THNL',
    description: 'x',
    rounds: [{ name: 'bet', timestamp: new Date(0), actions: [{ type: 'Bet', name: 'big blind', siege: loser, valeur: Math.abs(a[2]) }], total: Math.abs(a[2]) }],
  };
}

describe('the fair-play report (R-NOBOT)', () => {
  it('lists accounts sharing an address and pairs with a one-way flow of chips', () => {
    const t = tempDir();
    const vault = TraceVault.open({ path: join(t.dir, 'v.sqlite'), idOper: '0099', idCoffre: 1, synchronous: 'NORMAL' });
    try {
      vault.append({ kind: 'POINSCRIT', idJoueur: '7', hashJoueur: hashJoueur('7'), ipJoueur: '198.51.100.1', idSession: 's', inscription: 'i-7', tech: 't1', solde: { avant: 0, mouvement: 0, apres: 0 }, description: 'x', format: 'CG' });
      vault.append({ kind: 'POINSCRIT', idJoueur: '8', hashJoueur: hashJoueur('8'), ipJoueur: '198.51.100.1', idSession: 's', inscription: 'i-8', tech: 't2', solde: { avant: 0, mouvement: 0, apres: 0 }, description: 'x', format: 'CG' });
      for (let i = 0; i < 12; i++) vault.append(hand(`h${i}`, ['1', '203.0.113.1', -100], ['2', '203.0.113.2', 100]));
      for (let i = 0; i < 12; i++) vault.append(hand(`g${i}`, ['3', '203.0.113.3', i % 2 ? -50 : 50], ['4', '203.0.113.4', i % 2 ? 50 : -50]));
      const head = vault.head().idEvt;
      const r = fairPlayReport(Array.from({ length: head }, (_, i) => vault.get(i + 1)!));
      expect(r.hands).toBe(24);
      expect(r.sharedAddresses).toEqual([{ ip: '198.51.100.1', accounts: ['7', '8'] }]);
      expect(r.pairs[0]).toMatchObject({ a: '1', b: '2', handsTogether: 12, flowAtoB: 1200 });
      expect(r.pairs[1]).toMatchObject({ a: '3', b: '4', flowAtoB: 0 });
      expect(formatFairPlayReport(r).join('\n')).toContain('1 -> 2: 1200 over 12 hands together');
    } finally {
      vault.close();
      t.cleanup();
    }
  });
});
