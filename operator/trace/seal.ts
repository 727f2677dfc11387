/**
 * The operator's seal on its trace (R-TRACE; docs/trace.md "Heads and seals"): a hash chain shows a
 * record changed, removed or moved, but not records cut off its end, nor a chain rewritten whole by
 * whoever can write the file. Both are caught against something the operator signed earlier:
 *
 * - a signing key (Ed25519) made on the operator's first start in its data folder
 *   (`trace-signing-key.pem`, owner-only), and its public half beside it (`trace-public-key.pem`),
 *   which the operator publishes (gives the regulator) once;
 * - the signed heads (`trace-heads.jsonl`): at each start, every hour and at shutdown, the vault's
 *   head (IDEvt, hash) signed with the time; `trace verify` checks the vault against every head there
 *   by default (each head's record must still be in the chain, unchanged), and the operator sends
 *   each line to the regulator as it writes it (the log line `trace head`), so a folder whose heads
 *   file was cut with its vault is caught against the copy the regulator keeps (`--heads <file>`);
 * - an export's seal (`<Sceau>`): the export's IDOper, IDCoffre, period, count and first and last
 *   hashes signed, so a record cut off either end of an export (and `nombre` lowered) shows.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SIGNING_KEY_FILE = 'trace-signing-key.pem';
export const PUBLIC_KEY_FILE = 'trace-public-key.pem';
export const HEADS_FILE = 'trace-heads.jsonl';

/** A head of the chain: the last record's IDEvt and hash (IDEvt 0 and 64 zeros for an empty vault). */
export interface Head {
  readonly idEvt: number;
  readonly hash: string;
}

/** One line of the heads file: a head of a vault, when, signed. */
export interface SignedHead extends Head {
  readonly idOper: string;
  readonly idCoffre: number;
  /** ISO time of the signature. */
  readonly at: string;
  /** Ed25519 signature of {@link headStatement}, base64. */
  readonly signature: string;
}

/** What a head's signature covers. */
export function headStatement(h: Omit<SignedHead, 'signature'>): string {
  return JSON.stringify(['cercle-trace-head', h.idOper, h.idCoffre, h.idEvt, h.hash, h.at]);
}

/** What an export's seal covers: its identity, period, count and the hashes at both ends. */
export function exportStatement(e: { idOper: string; idCoffre: string; debut: string; fin: string; nombre: number; from: Head | null; to: Head | null }): string {
  return JSON.stringify(['cercle-trace-export', e.idOper, e.idCoffre, e.debut, e.fin, e.nombre, e.from?.idEvt ?? null, e.from?.hash ?? null, e.to?.idEvt ?? null, e.to?.hash ?? null]);
}

/** `sha256/<base64>` of the public key's DER: what the operator publishes and a verifier compares. */
export function keyFingerprint(key: KeyObject): string {
  return `sha256/${createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('base64')}`;
}

/** A public key from its PEM or its base64 DER (SPKI), or null. */
export function readPublicKey(text: string): KeyObject | null {
  try {
    return text.includes('-----BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/** Checks a base64 Ed25519 signature of `statement`. */
export function signatureHolds(key: KeyObject, statement: string, signature: string): boolean {
  try {
    return verify(null, Buffer.from(statement, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The operator's signing key, kept in its data folder. */
export class TraceSigner {
  readonly publicKey: KeyObject;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicKey = createPublicKey(privateKey);
  }

  /** The folder's key, made on first use (the running operator only; a verifier never makes one). */
  static loadOrCreate(dataDir: string): TraceSigner {
    const file = join(dataDir, SIGNING_KEY_FILE);
    if (!existsSync(file)) {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
      writeFileSync(join(dataDir, PUBLIC_KEY_FILE), publicKey.export({ type: 'spki', format: 'pem' }));
    }
    const signer = new TraceSigner(createPrivateKey(readFileSync(file, 'utf8')));
    if (!existsSync(join(dataDir, PUBLIC_KEY_FILE))) writeFileSync(join(dataDir, PUBLIC_KEY_FILE), signer.publicKeyPem());
    return signer;
  }

  /** The folder's key if it has one (`trace export` signs with it; it creates nothing). */
  static load(dataDir: string): TraceSigner | null {
    const file = join(dataDir, SIGNING_KEY_FILE);
    return existsSync(file) ? new TraceSigner(createPrivateKey(readFileSync(file, 'utf8'))) : null;
  }

  sign(statement: string): string {
    return sign(null, Buffer.from(statement, 'utf8'), this.privateKey).toString('base64');
  }

  publicKeyPem(): string {
    return this.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  /** The public key as base64 DER (SPKI), as an export's seal carries it. */
  publicKeyDer(): string {
    return this.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  }

  get fingerprint(): string {
    return keyFingerprint(this.publicKey);
  }

  /** Signs the head and appends it to the folder's heads file; returns the line (to publish). */
  appendHead(dataDir: string, vault: { idOper: string; idCoffre: number }, head: Head, at: Date): string {
    const unsigned = { idOper: vault.idOper, idCoffre: vault.idCoffre, idEvt: head.idEvt, hash: head.hash, at: at.toISOString() };
    const line = JSON.stringify({ ...unsigned, signature: this.sign(headStatement(unsigned)) });
    appendFileSync(join(dataDir, HEADS_FILE), `${line}\n`);
    return line;
  }
}

/** The signed heads of a heads file, each signature checked with `key`; or the first line that fails. */
export function readSignedHeads(text: string, key: KeyObject): { ok: true; heads: SignedHead[] } | { ok: false; line: number; reason: string } {
  const heads: SignedHead[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let h: SignedHead;
    try {
      h = JSON.parse(lines[i]) as SignedHead;
    } catch {
      return { ok: false, line: i + 1, reason: 'not a signed head (JSON)' };
    }
    if (typeof h.signature !== 'string' || !signatureHolds(key, headStatement(h), h.signature)) return { ok: false, line: i + 1, reason: "its signature is not the operator's" };
    heads.push(h);
  }
  return { ok: true, heads };
}
