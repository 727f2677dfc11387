/**
 * The regulatory trace vault (coffre; R-TRACE, A 1.3.6; SPEC.md §4): an append-only SQLite file of
 * ARJEL records, each one chained to the previous by SHA-256 so that altering, removing or reordering
 * a stored record shows on verification.
 *
 * The vault assigns IDEvt (1, 2, 3, … in append order), and IDOper / IDCoffre from its configuration;
 * DateEvt is the vault's clock at append unless the caller gives the event's own time. The XML text is
 * stored exactly as hashed and exported.
 *
 * Chain: hash(n) = SHA-256 of the JSON array [hash(n−1), IDEvt, kind, DateEvt ms, Tech, Inscription,
 * Pool, xml], with hash(0) = 64 zeros. Rewriting the tail of the chain consistently is possible for
 * whoever can write the file: publish `head()` elsewhere (the operator writes it to its log every hour
 * and on shutdown; a notary, the regulator) and pass it to `verifyChain({ expectedHead })` or
 * `verifyChain({ publishedHash })` to detect that, and truncation, too.
 *
 * An export (`exportPeriod`) carries each record's chain fields and hashes, and the operator's seal
 * over its count and both ends, so that it verifies alone, without the vault (`verifyExport`;
 * docs/trace.md). The heads the operator signs (seal.ts) catch records cut off the vault's end.
 */
import { createHash } from 'node:crypto';
import { openDatabase, type Db, type Migration, type OpenDatabaseOptions } from '../../shared/node/sqlite';
import { formatDateEvt, formatIdEvt, recordXml, TRACE_KINDS, TraceRecordError, type RecordHeader, type TraceData, type TraceKind } from './records';
import { escapeAttr } from '../../shared/exchange/xml';
import { openEvidence } from './evidence';
import { exportStatement, keyFingerprint, readPublicKey, signatureHolds, type Head, type SignedHead, type TraceSigner } from './seal';
import type { KeyObject } from 'node:crypto';

/** Configuration of a vault file. */
export interface TraceVaultOptions extends OpenDatabaseOptions {
  /** The SQLite file. */
  readonly path: string;
  /** Operator number given by the regulator (IDOper), e.g. `0099`. */
  readonly idOper: string;
  /** Number of this vault in the operator's infrastructure (IDCoffre). */
  readonly idCoffre: number;
  /** Current time; injectable for tests. */
  readonly clock?: () => Date;
}

/** A stored record. */
export interface StoredRecord {
  readonly idEvt: number;
  readonly kind: TraceKind;
  readonly dateEvt: Date;
  readonly tech: string;
  readonly inscription: string | null;
  readonly pool: string | null;
  readonly xml: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** Result of {@link TraceVault.verifyChain}: the chain is intact, or the first record that breaks it and why. */
export type ChainVerification =
  | { readonly ok: true; readonly count: number; readonly head: { readonly idEvt: number; readonly hash: string } }
  | { readonly ok: false; readonly idEvt: number; readonly reason: string };

/** A head of the chain as published (the operator's log line `trace head …`), to check a chain against later. */
export interface PublishedHead {
  readonly idEvt: number;
  readonly hash: string;
}

/** A SHA-256 in 64 lower-case hex digits (a record's hash, a published head). */
export function isChainHash(s: string): boolean {
  return /^[0-9a-f]{64}$/.test(s);
}

const GENESIS = '0'.repeat(64);

interface Row {
  id_evt: number;
  kind: TraceKind;
  date_evt: number;
  tech: string;
  inscription: string | null;
  pool: string | null;
  xml: string;
  prev_hash: string;
  hash: string;
}

/** v1: the records and the vault's identity. */
const v1: Migration = (db) => {
  db.exec(`
    CREATE TABLE vault_meta (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE records (
      id_evt      INTEGER PRIMARY KEY,
      kind        TEXT NOT NULL CHECK (kind IN (${TRACE_KINDS.map((k) => `'${k}'`).join(', ')})),
      date_evt    INTEGER NOT NULL,
      tech        TEXT NOT NULL,
      inscription TEXT,
      pool        TEXT,
      xml         TEXT NOT NULL,
      prev_hash   TEXT NOT NULL,
      hash        TEXT NOT NULL UNIQUE
    );
    CREATE INDEX records_by_date ON records(date_evt, id_evt);
    CREATE INDEX records_by_tech ON records(tech, id_evt);
    CREATE INDEX records_by_inscription ON records(inscription) WHERE inscription IS NOT NULL;
    CREATE TRIGGER records_no_update BEFORE UPDATE ON records
    BEGIN SELECT RAISE(ABORT, 'the trace vault is append-only: records cannot be updated'); END;
    CREATE TRIGGER records_no_delete BEFORE DELETE ON records
    BEGIN SELECT RAISE(ABORT, 'the trace vault is append-only: records cannot be deleted'); END;
    CREATE TRIGGER vault_meta_no_update BEFORE UPDATE ON vault_meta
    BEGIN SELECT RAISE(ABORT, 'the vault identity cannot be changed'); END;
  `);
};

/** v2: records found by Pool: a hand's POJEU (and, in older vaults, the POANNULs a voided hand wrote then). */
const v2: Migration = (db) => {
  db.exec('CREATE INDEX records_by_pool ON records(pool) WHERE pool IS NOT NULL');
};

/** The vault's migrations; append only. */
export const TRACE_VAULT_MIGRATIONS: readonly Migration[] = [v1, v2];

function chainHash(prevHash: string, r: Omit<Row, 'prev_hash' | 'hash'>): string {
  const canonical = JSON.stringify([prevHash, r.id_evt, r.kind, r.date_evt, r.tech, r.inscription, r.pool, r.xml]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

function toStored(r: Row): StoredRecord {
  return {
    idEvt: r.id_evt,
    kind: r.kind,
    dateEvt: new Date(r.date_evt),
    tech: r.tech,
    inscription: r.inscription,
    pool: r.pool,
    xml: r.xml,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** The IDEvt a record is {@link prepareRecord prepared} with, replaced by its own when it is appended. */
const PREPARED_ID_EVT = 0;

/**
 * The record's XML, rendered (and so validated: TraceRecordError) ahead of its append, with the time
 * of its event and IDEvt 0 (trace/outbox.ts renders each record once, in the step that moves its money).
 */
export function prepareRecord(idOper: string, idCoffre: number, dateEvt: Date, data: TraceData): string {
  const when = new Date(Math.floor(dateEvt.getTime() / 1000) * 1000);
  return recordXml({ idOper, idCoffre, dateEvt: when, idEvt: PREPARED_ID_EVT }, data);
}

/** A prepared record with its IDEvt, checked to be the one of `header` otherwise. */
function fromPrepared(prepared: string, header: RecordHeader): string {
  const placeholder = `<IDEvt>${formatIdEvt(PREPARED_ID_EVT)}</IDEvt>`;
  const at = prepared.indexOf(placeholder);
  const date = `<DateEvt>${formatDateEvt(header.dateEvt)}</DateEvt>`;
  // The header comes first: its IDEvt is the first; a record prepared for another coffre or time is refused.
  if (at < 0 || !prepared.slice(0, at).includes(date) || !prepared.slice(0, at).includes(`<IDOper>${header.idOper}</IDOper>`)) {
    throw new TraceRecordError('a prepared record does not match the vault (IDOper, DateEvt) or has no IDEvt to fill');
  }
  return prepared.slice(0, at) + `<IDEvt>${formatIdEvt(header.idEvt)}</IDEvt>` + prepared.slice(at + placeholder.length);
}

/** The append-only, hash-chained store of regulatory records. */
export class TraceVault {
  private readonly clock: () => Date;
  private readonly q;

  private constructor(
    private readonly db: Db,
    readonly idOper: string,
    readonly idCoffre: number,
    clock: (() => Date) | undefined,
  ) {
    this.clock = clock ?? (() => new Date());
    this.q = {
      last: db.prepare<[], Row>('SELECT * FROM records ORDER BY id_evt DESC LIMIT 1'),
      insert: db.prepare(
        `INSERT INTO records(id_evt, kind, date_evt, tech, inscription, pool, xml, prev_hash, hash)
         VALUES (@id_evt, @kind, @date_evt, @tech, @inscription, @pool, @xml, @prev_hash, @hash)`,
      ),
      byId: db.prepare<[number], Row>('SELECT * FROM records WHERE id_evt = ?'),
      all: db.prepare<[], Row>('SELECT * FROM records ORDER BY id_evt'),
      period: db.prepare<[number, number], Row>('SELECT * FROM records WHERE date_evt >= ? AND date_evt < ? ORDER BY id_evt'),
      byInscription: db.prepare<[string], Row>('SELECT * FROM records WHERE inscription = ? ORDER BY id_evt'),
      byTech: db.prepare<[string], Row>('SELECT * FROM records WHERE tech = ? ORDER BY id_evt'),
      byPool: db.prepare<[string], Row>('SELECT * FROM records WHERE pool = ? ORDER BY id_evt'),
    };
  }

  /**
   * Opens (creating if needed) the vault file. A new file takes `idOper`/`idCoffre`; an existing one
   * must have been created with the same ones (one file is one coffre), else this throws.
   */
  static open(options: TraceVaultOptions): TraceVault {
    if (!/^\d{1,10}$/.test(options.idOper)) throw new TraceRecordError(`IDOper ${options.idOper} must be digits`);
    if (!Number.isSafeInteger(options.idCoffre) || options.idCoffre < 0) throw new TraceRecordError(`IDCoffre ${options.idCoffre} must be a non-negative integer`);
    const db = openDatabase(options.path, TRACE_VAULT_MIGRATIONS, 'trace vault', options);
    try {
      db.transaction(() => {
        const ins = db.prepare('INSERT INTO vault_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING');
        ins.run('idOper', options.idOper);
        ins.run('idCoffre', String(options.idCoffre));
        const meta = Object.fromEntries((db.prepare('SELECT key, value FROM vault_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
        if (meta.idOper !== options.idOper || meta.idCoffre !== String(options.idCoffre)) {
          throw new Error(
            `The trace vault ${options.path} belongs to IDOper ${meta.idOper} / IDCoffre ${meta.idCoffre}, ` +
              `not ${options.idOper} / ${options.idCoffre}; one file is one coffre.`,
          );
        }
      }).immediate();
    } catch (e) {
      db.close();
      throw e;
    }
    return new TraceVault(db, options.idOper, options.idCoffre, options.clock);
  }

  /**
   * Opens an existing vault file for reading only (`trace verify`, `export`, `report`: evidence is
   * never created nor migrated; evidence.ts). IDOper and IDCoffre are the file's own.
   */
  static openReadonly(path: string): TraceVault {
    const db = openEvidence(path, 'trace vault', TRACE_VAULT_MIGRATIONS.length);
    try {
      const meta = Object.fromEntries((db.prepare('SELECT key, value FROM vault_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      if (meta.idOper === undefined || meta.idCoffre === undefined) throw new Error(`${path} is not a trace vault: no IDOper/IDCoffre`);
      return new TraceVault(db, meta.idOper, Number(meta.idCoffre), undefined);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * Checks the chain against heads the operator signed (seal.ts; their signatures checked already):
   * each head's record must still be there with the same hash. Null when all hold, else the first that
   * does not (a record cut off the end, or the chain rewritten since that head was signed).
   */
  missingHead(heads: readonly SignedHead[]): { idEvt: number; reason: string } | null {
    for (const h of heads) {
      if (h.idOper !== this.idOper || h.idCoffre !== this.idCoffre) return { idEvt: h.idEvt, reason: `a signed head of IDOper ${h.idOper} / IDCoffre ${h.idCoffre}, not this vault's` };
      if (h.idEvt === 0) continue;
      const r = this.q.byId.get(h.idEvt);
      if (!r) return { idEvt: h.idEvt, reason: `record ${h.idEvt} of the head signed at ${h.at} is missing (the vault ends at ${this.head().idEvt}): records were cut off the end` };
      if (r.hash !== h.hash) return { idEvt: h.idEvt, reason: `differs from the head signed at ${h.at}: the chain was rewritten since` };
    }
    return null;
  }

  /**
   * Builds the record from `data` (see records.ts), gives it the next IDEvt and DateEvt (`dateEvt`, or
   * now), chains it and stores it, in one transaction. Throws `TraceRecordError` if the data breaks
   * the format: nothing is stored then.
   */
  append(data: TraceData, dateEvt?: Date, prepared?: string): StoredRecord {
    return this.db
      .transaction(() => {
        const last = this.q.last.get();
        const idEvt = (last?.id_evt ?? 0) + 1;
        // DateEvt is kept to the second, as written (A: "à la seconde près").
        const when = Math.floor((dateEvt ?? this.clock()).getTime() / 1000) * 1000;
        const header = { idOper: this.idOper, idCoffre: this.idCoffre, dateEvt: new Date(when), idEvt };
        const xml = prepared !== undefined ? fromPrepared(prepared, header) : recordXml(header, data);
        const row = {
          id_evt: idEvt,
          kind: data.kind,
          date_evt: when,
          tech: data.tech,
          inscription: data.kind === 'POJEU' ? null : data.inscription,
          pool: data.kind === 'POJEU' || data.kind === 'POANNUL' ? (data.pool ?? null) : null,
          xml,
        };
        const prev_hash = last?.hash ?? GENESIS;
        const full: Row = { ...row, prev_hash, hash: chainHash(prev_hash, row) };
        this.q.insert.run(full);
        return toStored(full);
      })
      .immediate();
  }

  /**
   * How long a write waits for another connection's lock on the file before failing with SQLITE_BUSY
   * (5 s from {@link open}). The running operator sets 0: a busy vault must not stall the event loop,
   * its records wait in the outbox (outbox.ts).
   */
  setBusyTimeout(ms: number): void {
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /** What each record is about, in IDEvt order, without its XML (for the ledger cross-check). */
  summaries(): { kind: string; inscription: string | null; pool: string | null; tech: string }[] {
    return this.db.prepare<[], { kind: string; inscription: string | null; pool: string | null; tech: string }>('SELECT kind, inscription, pool, tech FROM records ORDER BY id_evt').all();
  }

  /** The record with this IDEvt, if any. */
  get(idEvt: number): StoredRecord | undefined {
    const r = this.q.byId.get(idEvt);
    return r ? toStored(r) : undefined;
  }

  /** Every record of one inscription (POINSCRIT … POBILAN), in order. */
  byInscription(inscription: string): StoredRecord[] {
    return this.q.byInscription.all(inscription).map(toStored);
  }

  /** Every record of one game (Tech code), in order. */
  byTech(tech: string): StoredRecord[] {
    return this.q.byTech.all(tech).map(toStored);
  }

  /** Every record of one hand (Pool code): its POJEU (a voided hand has none: docs/trace.md). */
  byPool(pool: string): StoredRecord[] {
    return this.q.byPool.all(pool).map(toStored);
  }

  /** The last record's IDEvt and hash (IDEvt 0 and the genesis hash when empty): publish it to anchor the chain. */
  head(): { idEvt: number; hash: string } {
    const last = this.q.last.get();
    return last ? { idEvt: last.id_evt, hash: last.hash } : { idEvt: 0, hash: GENESIS };
  }

  /**
   * Recomputes the chain from the first record: IDEvt must run 1, 2, 3, …, each record must point to
   * its predecessor's hash and hash to its own. Returns the first record that fails, or the head.
   * With `expectedHead` (a head published earlier), also checks that record is still there unchanged.
   */
  verifyChain(options: { expectedHead?: { idEvt: number; hash: string }; publishedHash?: string } = {}): ChainVerification {
    let prev = GENESIS;
    let expectedId = 1;
    let count = 0;
    let headHash = GENESIS;
    let published = options.publishedHash === undefined || options.publishedHash === GENESIS;
    for (const r of this.q.all.iterate()) {
      if (r.id_evt !== expectedId) return { ok: false, idEvt: expectedId, reason: `record ${expectedId} is missing (next is ${r.id_evt})` };
      if (r.prev_hash !== prev) return { ok: false, idEvt: r.id_evt, reason: 'does not point to the previous record' };
      if (chainHash(prev, r) !== r.hash) return { ok: false, idEvt: r.id_evt, reason: 'content does not match its hash' };
      if (r.hash === options.publishedHash) published = true;
      prev = r.hash;
      headHash = r.hash;
      expectedId++;
      count++;
    }
    // A head published earlier must be in the chain: a chain rewritten from before it (hashes and all)
    // or cut short of it no longer has it.
    if (!published) return { ok: false, idEvt: count, reason: `the published head ${options.publishedHash} is not in the chain (rewritten or cut short since it was published)` };
    const anchor = options.expectedHead;
    if (anchor && anchor.idEvt > 0) {
      if (anchor.idEvt > count) return { ok: false, idEvt: anchor.idEvt, reason: `record ${anchor.idEvt} of the published head is missing (the vault ends at ${count})` };
      if (this.q.byId.get(anchor.idEvt)!.hash !== anchor.hash) return { ok: false, idEvt: anchor.idEvt, reason: 'differs from the published head' };
    }
    return { ok: true, count, head: { idEvt: count, hash: headHash } };
  }

  /**
   * The records whose DateEvt is in [from, to), in IDEvt order, as one XML document: `<Coffre IDOper
   * IDCoffre debut fin nombre>`, each record's stored text inside a `<Maillon>` that carries what its
   * hash covers besides the text (IDEvt, kind, DateEvt in ms, Tech, Inscription, Pool) with the
   * previous record's hash and its own, so the file verifies alone (`verifyExport`; docs/trace.md).
   * The container is ours: the decision defines the records, not how a period of them is bundled.
   */
  exportPeriod(from: Date, to: Date, signer?: TraceSigner): string {
    const rows = this.q.period.all(from.getTime(), to.getTime());
    const coffre = { idOper: this.idOper, idCoffre: String(this.idCoffre), debut: formatDateEvt(from), fin: formatDateEvt(to), nombre: rows.length };
    const attrs = attrText([
      ['IDOper', coffre.idOper],
      ['IDCoffre', coffre.idCoffre],
      ['debut', coffre.debut],
      ['fin', coffre.fin],
      ['nombre', String(coffre.nombre)],
    ]);
    const body = rows.map((r) => `${maillonOpen(r)}\n${r.xml}\n</Maillon>\n`).join('');
    // The seal (seal.ts): the count and both ends signed, so a record cut off either end shows.
    const first = rows[0];
    const last = rows[rows.length - 1];
    const statement = exportStatement({ ...coffre, from: first ? { idEvt: first.id_evt - 1, hash: first.prev_hash } : null, to: last ? { idEvt: last.id_evt, hash: last.hash } : null });
    const seal = signer ? `<Sceau${attrText([['alg', 'Ed25519'], ['cle', signer.publicKeyDer()], ['signature', signer.sign(statement)]])}/>\n` : '';
    return `<?xml version="1.0" encoding="UTF-8"?>\n<Coffre${attrs}>\n${body}${seal}</Coffre>\n`;
  }

  /** Closes the file. */
  close(): void {
    this.db.close();
  }
}

function attrText(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
}

/** The `<Maillon>` opening tag of an exported record: every field of its hash but the text, and the hashes. */
function maillonOpen(r: Row): string {
  const pairs: [string, string][] = [
    ['IDEvt', String(r.id_evt)],
    ['type', r.kind],
    ['date', String(r.date_evt)],
    ['tech', r.tech],
  ];
  if (r.inscription !== null) pairs.push(['inscription', r.inscription]);
  if (r.pool !== null) pairs.push(['pool', r.pool]);
  pairs.push(['precedent', r.prev_hash], ['hash', r.hash]);
  return `<Maillon${attrText(pairs)}>`;
}

function unescapeAttr(v: string): string {
  return v.replace(/&(amp|lt|gt|quot|apos|#(\d+));/g, (_, name: string, code: string | undefined) =>
    code !== undefined ? String.fromCodePoint(Number(code)) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name],
  );
}

/** Result of {@link verifyExport}: the records of the file chain up and match their hashes, or the first that does not. */
export type ExportVerification =
  | { readonly ok: true; readonly count: number; readonly continues: PublishedHead | null; readonly head: PublishedHead | null; readonly sealedBy: string }
  | { readonly ok: false; readonly idEvt: number; readonly reason: string };

/**
 * Verifies an export of `exportPeriod` alone, without the vault (docs/trace.md): IDEvt runs on
 * without a gap, each record points to its predecessor's hash (the first of the vault to the genesis
 * hash) and hashes to its own from its text and chain fields, each text is the record its `<Maillon>`
 * says (kind, IDEvt, DateEvt), and `nombre` counts them. A period that starts later starts from the
 * hash its first record names: check that one against the vault or a published head. With
 * `publishedHash`, that head must be one of the file's records.
 */
export function verifyExport(text: string, options: { publishedHash?: string; publicKey?: KeyObject } = {}): ExportVerification {
  const coffre = /<Coffre\b([^>]*)>/.exec(text);
  if (!coffre) return { ok: false, idEvt: 0, reason: 'not a vault export: no <Coffre> element' };
  const nombre = /\bnombre="(\d+)"/.exec(coffre[1]);
  const re = /<Maillon\b([^>]*)>\n([\s\S]*?)\n<\/Maillon>/g;
  let prev: string | null = null;
  let prevId = 0;
  let count = 0;
  let first: PublishedHead | null = null;
  let head: PublishedHead | null = null;
  let published = options.publishedHash === undefined;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const attrs = new Map<string, string>();
    for (const a of m[1].matchAll(/([A-Za-z]+)="([^"]*)"/g)) attrs.set(a[1], unescapeAttr(a[2]));
    const xml = m[2];
    const idEvt = Number(attrs.get('IDEvt'));
    const at = Number.isSafeInteger(idEvt) ? idEvt : prevId + 1;
    const fail = (reason: string): ExportVerification => ({ ok: false, idEvt: at, reason });
    const kind = attrs.get('type') as TraceKind | undefined;
    const date = Number(attrs.get('date'));
    const tech = attrs.get('tech');
    const precedent = attrs.get('precedent');
    const hash = attrs.get('hash');
    if (!Number.isSafeInteger(idEvt) || idEvt < 1 || !kind || !TRACE_KINDS.includes(kind) || !Number.isSafeInteger(date) || tech === undefined || !precedent || !hash) {
      return fail('its <Maillon> lacks IDEvt, type, date, tech, precedent or hash');
    }
    if (prev !== null && idEvt !== prevId + 1) return fail(`record ${prevId + 1} is missing (next is ${idEvt})`);
    if (prev === null && idEvt === 1 && precedent !== GENESIS) return fail('the first record of the vault does not start the chain');
    if (prev !== null && precedent !== prev) return fail('does not point to the previous record');
    if (!xml.startsWith(`<${kind}`) || !xml.endsWith(`</${kind}>`)) return fail(`its text is not a ${kind}`);
    if (!xml.includes(`<IDEvt>${formatIdEvt(idEvt)}</IDEvt>`)) return fail(`its text does not carry IDEvt ${formatIdEvt(idEvt)}`);
    if (!xml.includes(`<DateEvt>${formatDateEvt(new Date(date))}</DateEvt>`)) return fail('its text does not carry its DateEvt');
    const row = { id_evt: idEvt, kind, date_evt: date, tech, inscription: attrs.get('inscription') ?? null, pool: attrs.get('pool') ?? null, xml };
    if (chainHash(precedent, row) !== hash) return fail('content does not match its hash');
    if (hash === options.publishedHash) published = true;
    first ??= { idEvt, hash: precedent };
    prev = hash;
    prevId = idEvt;
    head = { idEvt, hash };
    count++;
  }
  // Records outside a <Maillon> (an export of an older build, or text slipped in) are not verified.
  const bare = text.replace(re, '').match(/<PO(?:INSCRIT|JEU|BILAN|ACHAT|GAIN|ANNUL)\b/g);
  if (bare) return { ok: false, idEvt: prevId, reason: `${bare.length} record(s) outside a <Maillon>: not covered by the chain` };
  if (!nombre || Number(nombre[1]) !== count) return { ok: false, idEvt: prevId, reason: `the export says ${nombre?.[1] ?? 'no'} records, it holds ${count}` };
  if (!published) return { ok: false, idEvt: prevId, reason: `the published head ${options.publishedHash} is not in the export (rewritten since it was published)` };
  // `continues`: the head this export starts from (the IDEvt before its first record, and that record's hash).
  const continues: Head | null = first === null ? null : { idEvt: first.idEvt - 1, hash: first.hash };
  // The seal: the count and both ends as the operator signed them; a record cut off either end (and
  // `nombre` lowered to match) changes what is signed (seal.ts, docs/trace.md).
  const seals = [...text.matchAll(/<Sceau\b([^>]*)\/>/g)];
  if (seals.length !== 1) return { ok: false, idEvt: prevId, reason: seals.length === 0 ? "no operator's seal (<Sceau>): its count and ends cannot be checked" : 'more than one seal' };
  const sealAttrs = new Map<string, string>();
  for (const a of seals[0][1].matchAll(/([A-Za-z]+)="([^"]*)"/g)) sealAttrs.set(a[1], unescapeAttr(a[2]));
  const key = readPublicKey(sealAttrs.get('cle') ?? '');
  if (!key || sealAttrs.get('alg') !== 'Ed25519') return { ok: false, idEvt: prevId, reason: 'the seal names no Ed25519 public key' };
  if (options.publicKey && keyFingerprint(options.publicKey) !== keyFingerprint(key)) {
    return { ok: false, idEvt: prevId, reason: `sealed with the key ${keyFingerprint(key)}, not the operator's published ${keyFingerprint(options.publicKey)}` };
  }
  const coffreAttrs = new Map<string, string>();
  for (const a of coffre[1].matchAll(/([A-Za-z]+)="([^"]*)"/g)) coffreAttrs.set(a[1], unescapeAttr(a[2]));
  const statement = exportStatement({
    idOper: coffreAttrs.get('IDOper') ?? '',
    idCoffre: coffreAttrs.get('IDCoffre') ?? '',
    debut: coffreAttrs.get('debut') ?? '',
    fin: coffreAttrs.get('fin') ?? '',
    nombre: count,
    from: continues,
    to: head,
  });
  if (!signatureHolds(key, statement, sealAttrs.get('signature') ?? '')) {
    return { ok: false, idEvt: prevId, reason: 'the seal does not hold: records were cut off an end, or the period, count or identity changed since the operator signed it' };
  }
  return { ok: true, count, continues, head, sealedBy: keyFingerprint(key) };
}
