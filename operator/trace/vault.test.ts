import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/operator/temp-dir';
import { hashJoueur, TraceRecordError, type PobilanData, type PoinscritData, type PojeuData } from './records';
import { TraceSigner } from './seal';
import { TraceVault, verifyExport } from './vault';
import { parseXmlElement as parseXml, serialize } from '../../shared/exchange/xml';

const player = { idJoueur: '42', hashJoueur: hashJoueur('Alice Martin 1990-01-01'), ipJoueur: '203.0.113.9', idSession: 'sess-1', inscription: 'CG-T1-42-1', tech: 'CG-T1' };
const inscrit: PoinscritData = { ...player, kind: 'POINSCRIT', description: 'Cash game THNL 0.01/0.02', format: 'CG', solde: { avant: 10_000, mouvement: 2_000, apres: 8_000 } };
const bilan: PobilanData = { ...player, kind: 'POBILAN', solde: { avant: 8_000, mouvement: 2_150, apres: 10_150 } };
const hand = (pool: string): PojeuData => ({
  kind: 'POJEU', tech: 'CG-T1', pool, regle: 'THNL', description: "Texas Hold'em No Limit (0.01-0.02)",
  participants: [
    { idOper: '0099', idJoueur: '42', ipJoueur: '203.0.113.9', siege: 1, inscription: 'CG-T1-42-1', finance: { net: 2, total: 2, caveAvant: 2_000, caveApres: 2_002 } },
    { idOper: '0099', idJoueur: '43', ipJoueur: '203.0.113.10', siege: 2, inscription: 'CG-T1-43-1', finance: { net: -2, total: 2, caveAvant: 1_500, caveApres: 1_498 } },
  ],
  rounds: [
    { name: 'bet', timestamp: new Date('2025-02-01T10:00:00Z'), total: 3, actions: [{ type: 'Bet', name: 'small blind', siege: 1, valeur: 1 }, { type: 'Bet', name: 'big blind', siege: 2, valeur: 2 }] },
    { name: 'pre-flop', timestamp: new Date('2025-02-01T10:00:01Z'), total: 1, actions: [{ type: 'Draw', siege: 1, valeur: 48 }, { type: 'Draw', siege: 2, valeur: 0 }, { type: 'Bet', name: 'call', siege: 1, valeur: 1 }, { type: 'Check', siege: 2 }] },
    { name: 'flop', timestamp: new Date('2025-02-01T10:00:05Z'), total: 0, actions: [{ type: 'Draw', commune: true, ouverte: true, valeur: 51 }, { type: 'Bet', name: 'bet', siege: 2, valeur: 4 }, { type: 'Fold', siege: 1 }] },
  ],
});

describe('trace vault', () => {
  let t: ReturnType<typeof tempDir>;
  let path: string;
  let now: Date;
  let vault: TraceVault;
  const open = () => TraceVault.open({ path, idOper: '0099', idCoffre: 3, clock: () => now });

  beforeEach(() => {
    t = tempDir();
    path = join(t.dir, 'trace.sqlite');
    now = new Date('2025-02-01T09:59:59.750Z');
    vault = open();
  });
  afterEach(() => {
    vault.close();
    t.cleanup();
  });

  it('numbers, dates and chains the records it stores', () => {
    const a = vault.append(inscrit);
    now = new Date('2025-02-01T10:00:30Z');
    const b = vault.append(hand('H1'));
    const c = vault.append(bilan, new Date('2025-02-01T10:05:00.400Z'));
    expect([a.idEvt, b.idEvt, c.idEvt]).toEqual([1, 2, 3]);
    expect(a.dateEvt.toISOString()).toBe('2025-02-01T09:59:59.000Z');
    expect(a.xml).toContain('<IDOper>0099</IDOper>\n  <IDCoffre>3</IDCoffre>\n  <DateEvt>2025-02-01T09:59:59</DateEvt>\n  <IDEvt>0000000001</IDEvt>');
    expect(c.xml).toContain('<DateEvt>2025-02-01T10:05:00</DateEvt>');
    expect(b).toMatchObject({ kind: 'POJEU', tech: 'CG-T1', pool: 'H1', inscription: null, prevHash: a.hash });
    expect(c.prevHash).toBe(b.hash);
    expect(a.prevHash).toBe('0'.repeat(64));
    expect(vault.get(2)).toEqual(b);
    expect(vault.byInscription('CG-T1-42-1').map((r) => r.kind)).toEqual(['POINSCRIT', 'POBILAN']);
    expect(vault.byTech('CG-T1').map((r) => r.idEvt)).toEqual([1, 2, 3]);
    expect(parseXml(b.xml).name).toBe('POJEU');
    expect(vault.verifyChain()).toEqual({ ok: true, count: 3, head: { idEvt: 3, hash: c.hash } });
    expect(vault.head()).toEqual({ idEvt: 3, hash: c.hash });
  });

  it('finds a hand by its Pool: its POJEU, or the POANNULs of its cancellation, whose XML has no Pool', () => {
    vault.append(inscrit);
    vault.append(hand('H1'));
    const annul = vault.append({ ...player, kind: 'POANNUL', motif: 'Annulation de la partie H2 (incident technique)', solde: { avant: 8_000, mouvement: 0, apres: 8_000 }, pool: 'H2' });
    expect(vault.byPool('H1').map((r) => r.kind)).toEqual(['POJEU']);
    expect(vault.byPool('H2')).toEqual([annul]);
    expect(annul).toMatchObject({ inscription: 'CG-T1-42-1', pool: 'H2' });
    expect(annul.xml).not.toContain('Pool');
    expect(annul.xml).toContain('<Motif>Annulation de la partie H2 (incident technique)</Motif>\n  <SoldeAvant>80.00</SoldeAvant>\n  <SoldeMouvement>0.00</SoldeMouvement>');
    expect(vault.byPool('H3')).toEqual([]);
    expect(vault.verifyChain()).toMatchObject({ ok: true, count: 3 });
  });

  it('continues the chain after reopening, and refuses to open as another coffre', () => {
    vault.append(inscrit);
    vault.close();
    vault = open();
    expect(vault.append(bilan).idEvt).toBe(2);
    expect(vault.verifyChain()).toMatchObject({ ok: true, count: 2 });
    expect(() => TraceVault.open({ path, idOper: '0099', idCoffre: 4 })).toThrow(/belongs to IDOper 0099 \/ IDCoffre 3, not 0099 \/ 4/);
  });

  it('stores nothing when a record is malformed', () => {
    vault.append(inscrit);
    const head = vault.head();
    expect(() => vault.append({ ...bilan, solde: { avant: 1, mouvement: 5, apres: 2 } })).toThrow(TraceRecordError);
    expect(vault.head()).toEqual(head);
    expect(vault.append(bilan).idEvt).toBe(2);
  });

  it('a stored amount changed directly in the file is reported at that record', () => {
    vault.append(inscrit);
    vault.append(hand('H1'));
    vault.append(bilan);
    vault.append(hand('H2'));
    const other = new Database(path);
    // The triggers stop a plain update or delete...
    expect(() => other.prepare('UPDATE records SET xml = xml WHERE id_evt = 3').run()).toThrow(/append-only/);
    expect(() => other.prepare('DELETE FROM records WHERE id_evt = 4').run()).toThrow(/append-only/);
    // ...so a forger drops them first and edits the SoldeMouvement of the POBILAN.
    other.exec('DROP TRIGGER records_no_update; DROP TRIGGER records_no_delete;');
    const changed = other
      .prepare("UPDATE records SET xml = replace(xml, '<SoldeMouvement>21.50</SoldeMouvement>', '<SoldeMouvement>91.50</SoldeMouvement>') WHERE id_evt = 3")
      .run();
    expect(changed.changes).toBe(1);
    expect(other.prepare('SELECT xml FROM records WHERE id_evt = 3').pluck().get()).toContain('91.50');
    expect(vault.verifyChain()).toEqual({ ok: false, idEvt: 3, reason: 'content does not match its hash' });
    other.close();
  });

  it('a forger who also recomputes the record\'s hash breaks the next link; removal and truncation show too', () => {
    for (const r of [inscrit, hand('H1'), hand('H2'), bilan]) vault.append(r);
    const published = vault.head();
    const other = new Database(path);
    other.exec('DROP TRIGGER records_no_update; DROP TRIGGER records_no_delete;');
    // Record 2 edited (a stack) and re-hashed with the documented chain formula: it is self-consistent now...
    const r2 = other.prepare('SELECT * FROM records WHERE id_evt = 2').get() as Record<string, string | number | null>;
    const xml = String(r2.xml).replace('<CaveApres>20.02</CaveApres>', '<CaveApres>90.02</CaveApres>');
    expect(xml).not.toBe(r2.xml);
    const hash = createHash('sha256').update(JSON.stringify([r2.prev_hash, r2.id_evt, r2.kind, r2.date_evt, r2.tech, r2.inscription, r2.pool, xml])).digest('hex');
    other.prepare('UPDATE records SET xml = ?, hash = ? WHERE id_evt = 2').run(xml, hash);
    // ...but record 3 still points to the original.
    expect(vault.verifyChain()).toEqual({ ok: false, idEvt: 3, reason: 'does not point to the previous record' });
    other.prepare('UPDATE records SET xml = ?, hash = ? WHERE id_evt = 2').run(r2.xml, r2.hash);
    expect(vault.verifyChain()).toMatchObject({ ok: true, count: 4 });
    other.prepare('DELETE FROM records WHERE id_evt = 3').run();
    expect(vault.verifyChain()).toEqual({ ok: false, idEvt: 3, reason: 'record 3 is missing (next is 4)' });
    other.prepare('DELETE FROM records WHERE id_evt >= 3').run();
    // A cut tail looks like a shorter, intact chain; the published head shows it.
    expect(vault.verifyChain()).toMatchObject({ ok: true, count: 2 });
    expect(vault.verifyChain({ expectedHead: published })).toMatchObject({ ok: false, idEvt: 4 });
    other.close();
  });

  it('exports the records of a period as one XML document, each record as stored', () => {
    const at = (s: string) => new Date(s);
    const r1 = vault.append(inscrit, at('2025-01-31T23:59:59Z'));
    const r2 = vault.append(hand('H1'), at('2025-02-01T00:00:00Z'));
    const r3 = vault.append(hand('H2'), at('2025-02-01T23:59:59Z'));
    const r4 = vault.append(bilan, at('2025-02-02T00:00:00Z'));
    const xml = vault.exportPeriod(at('2025-02-01T00:00:00Z'), at('2025-02-02T00:00:00Z'));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Coffre IDOper="0099" IDCoffre="3" debut="2025-02-01T00:00:00" fin="2025-02-02T00:00:00" nombre="2">\n')).toBe(true);
    const doc = parseXml(xml);
    // Each record inside its <Maillon>, which carries its chain.
    expect(doc.children.map((m) => m.name)).toEqual(['Maillon', 'Maillon']);
    expect(doc.children.map((m) => Object.fromEntries(m.attrs))).toEqual([
      { IDEvt: '2', type: 'POJEU', date: String(r2.dateEvt.getTime()), tech: 'CG-T1', pool: 'H1', precedent: r1.hash, hash: r2.hash },
      { IDEvt: '3', type: 'POJEU', date: String(r3.dateEvt.getTime()), tech: 'CG-T1', pool: 'H2', precedent: r2.hash, hash: r3.hash },
    ]);
    expect(doc.children.map((m) => m.children[0].children.find((e) => e.name === 'IDEvt')!.text)).toEqual(['0000000002', '0000000003']);
    expect(xml).toContain(r2.xml);
    expect(xml).toContain(r3.xml);
    expect(xml).not.toContain(r1.xml);
    expect(xml).not.toContain('<POBILAN>');
    // Each record reads back to the same tree it was written from.
    expect(serialize(doc.children[0].children[0])).toBe(r2.xml);
    expect(vault.exportPeriod(at('2025-03-01T00:00:00Z'), at('2025-04-01T00:00:00Z'))).toContain('nombre="0"');
    expect(r4.idEvt).toBe(4);
  });

  describe('proof outside the vault', () => {
    const fill = () => {
      const at = (s: string) => new Date(s);
      vault.append(inscrit, at('2025-02-01T10:00:00Z'));
      vault.append(hand('H1'), at('2025-02-01T10:01:00Z'));
      vault.append(hand('H2'), at('2025-02-01T10:02:00Z'));
      vault.append(bilan, at('2025-02-01T10:03:00Z'));
    };
    // The operator's signing key (seal.ts), made in the test's folder.
    const signer = () => TraceSigner.loadOrCreate(t.dir);
    const all = () => vault.exportPeriod(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'), signer());

    it('an export verifies alone: the whole vault from the genesis, a later period from the hash it names', () => {
      fill();
      const head = vault.head();
      const sealedBy = signer().fingerprint;
      expect(verifyExport(all())).toEqual({ ok: true, count: 4, continues: { idEvt: 0, hash: '0'.repeat(64) }, head, sealedBy });
      const later = vault.exportPeriod(new Date('2025-02-01T10:01:30Z'), new Date('2026-01-01T00:00:00Z'), signer());
      expect(verifyExport(later)).toEqual({ ok: true, count: 2, continues: { idEvt: 2, hash: vault.get(2)!.hash }, head, sealedBy });
      expect(verifyExport(later, { publicKey: signer().publicKey })).toMatchObject({ ok: true });
      expect(verifyExport(all(), { publishedHash: vault.get(3)!.hash })).toMatchObject({ ok: true });
    });

    it('a tampered export is caught: a changed amount, a changed chain field, a record removed, a record slipped in', () => {
      fill();
      const xml = all();
      const amount = xml.replace('<CaveApres>20.02</CaveApres>', '<CaveApres>90.02</CaveApres>');
      expect(amount).not.toBe(xml);
      expect(verifyExport(amount)).toEqual({ ok: false, idEvt: 2, reason: 'content does not match its hash' });
      expect(verifyExport(xml.replace('pool="H2"', 'pool="H9"'))).toEqual({ ok: false, idEvt: 3, reason: 'content does not match its hash' });
      // The second record cut out, the count fixed: record 3 no longer follows.
      const cut = xml.replace(/<Maillon IDEvt="2"[\s\S]*?<\/Maillon>\n/, '').replace('nombre="4"', 'nombre="3"');
      expect(verifyExport(cut)).toEqual({ ok: false, idEvt: 3, reason: 'record 2 is missing (next is 3)' });
      const slipped = xml.replace('</Coffre>', `${vault.get(2)!.xml}\n</Coffre>`);
      expect(verifyExport(slipped)).toMatchObject({ ok: false, reason: '1 record(s) outside a <Maillon>: not covered by the chain' });
      // An empty period verifies, sealed; an export without the operator's seal does not (its ends are not covered).
      expect(verifyExport(vault.exportPeriod(new Date('2025-03-01T00:00:00Z'), new Date('2025-04-01T00:00:00Z'), signer()))).toMatchObject({ ok: true, count: 0 });
      expect(verifyExport('<Coffre nombre="0"></Coffre>')).toMatchObject({ ok: false, reason: expect.stringContaining("no operator's seal") });
      // The last record cut off with the count lowered: the chain still holds, the seal does not.
      const lastCut = xml.replace(/<Maillon IDEvt="4"[\s\S]*?<\/Maillon>\n/, '').replace('nombre="4"', 'nombre="3"');
      expect(verifyExport(lastCut)).toMatchObject({ ok: false, reason: expect.stringContaining('the seal does not hold') });
      // Sealed again with another key: caught against the key the operator publishes.
      mkdirSync(join(t.dir, 'forger'));
      const forger = TraceSigner.loadOrCreate(join(t.dir, 'forger'));
      const resealed = vault.exportPeriod(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'), forger);
      expect(verifyExport(resealed, { publicKey: signer().publicKey })).toMatchObject({ ok: false, reason: expect.stringContaining('not the operator') });
      expect(verifyExport('not xml')).toMatchObject({ ok: false, reason: 'not a vault export: no <Coffre> element' });
    });

    it('a chain rewritten whole (every hash recomputed) passes alone but is caught against a head published earlier', () => {
      fill();
      const published = vault.head();
      const before = all();
      // Someone with write access rewrites record 2 and every hash after it, consistently.
      const other = new Database(path);
      other.exec('DROP TRIGGER records_no_update');
      const rows = other.prepare('SELECT * FROM records ORDER BY id_evt').all() as { id_evt: number; kind: string; date_evt: number; tech: string; inscription: string | null; pool: string | null; xml: string; prev_hash: string; hash: string }[];
      let prev = '0'.repeat(64);
      for (const r of rows) {
        const xml = r.id_evt === 2 ? r.xml.replace('<CaveApres>20.02</CaveApres>', '<CaveApres>90.02</CaveApres>').replace('<CaveApres>14.98</CaveApres>', '<CaveApres>-55.02</CaveApres>') : r.xml;
        const hash = createHash('sha256').update(JSON.stringify([prev, r.id_evt, r.kind, r.date_evt, r.tech, r.inscription, r.pool, xml])).digest('hex');
        other.prepare('UPDATE records SET xml = ?, prev_hash = ?, hash = ? WHERE id_evt = ?').run(xml, prev, hash, r.id_evt);
        prev = hash;
      }
      other.close();
      // Alone, the rewritten chain and its export (sealed by the operator's key) look intact...
      expect(vault.verifyChain()).toMatchObject({ ok: true, count: 4 });
      const after = all();
      expect(after).not.toBe(before);
      expect(verifyExport(after)).toMatchObject({ ok: true, count: 4 });
      // ...the head published before the rewrite is in neither.
      expect(vault.verifyChain({ publishedHash: published.hash })).toMatchObject({ ok: false, reason: expect.stringContaining('is not in the chain') });
      expect(verifyExport(after, { publishedHash: published.hash })).toMatchObject({ ok: false, reason: expect.stringContaining('is not in the export') });
      expect(verifyExport(before, { publishedHash: published.hash })).toMatchObject({ ok: true });
    });
  });
});
