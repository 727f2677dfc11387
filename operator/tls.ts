/**
 * The operator's TLS identity (DESIGN.md §3 "The wire": WSS over TLS, the client pins the operator's key).
 *
 * Either the certificate and key come from configured PEM files, or on first run the operator makes a
 * self-signed certificate (ECDSA P-256, SAN IP:127.0.0.1 and DNS:localhost, about two years) and keeps
 * it in its data folder (the key file readable by its owner only), reusing it on every later start.
 * Clients pin the SubjectPublicKeyInfo (`spkiPin`), not the certificate, so when the generated
 * certificate nears its end it is re-issued over the same key and the pin does not change.
 */
import 'reflect-metadata'; // before @peculiar/x509: its dependency tsyringe needs the Reflect metadata API
import * as x509 from '@peculiar/x509';
import { createPrivateKey, createPublicKey, randomBytes, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic as writeAtomic } from '../shared/node/atomic-file';
import { spkiPin } from '../shared/node/pins';
import { DAY_MS } from '../shared/rules/time';

/** A configuration or file problem with the TLS identity; the message names the file and what to do. */
export class TlsIdentityError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TlsIdentityError';
  }
}

/** Where the identity comes from, and optional knobs (mostly for tests). */
export interface TlsIdentityOptions {
  /** The operator's data folder; the generated identity is kept here. */
  readonly dataDir: string;
  /** Configured certificate (PEM). Given together with `keyFile`; then nothing is generated. */
  readonly certFile?: string;
  /** Configured private key (PEM). */
  readonly keyFile?: string;
  /** Current time; injectable for tests. */
  readonly now?: () => Date;
  /** Validity of a generated certificate, in days (default 730, about two years). */
  readonly validityDays?: number;
  /** A generated certificate this close to its end (default 30 days) is re-issued over the same key. */
  readonly renewWithinDays?: number;
}

/** The identity to give `tls.createServer({ cert, key })`, and the pin clients check. */
export interface TlsIdentity {
  /** Certificate, PEM. */
  readonly cert: string;
  /** Private key, PEM (PKCS#8). */
  readonly key: string;
  /** `sha256/<base64>` of the certificate's SubjectPublicKeyInfo (see {@link spkiPin}). */
  readonly pin: string;
  readonly certPath: string;
  readonly keyPath: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** configured: from the given files; generated: made now; reused: found in the data folder; renewed: re-issued over the kept key. */
  readonly source: 'configured' | 'generated' | 'reused' | 'renewed';
}

/** File names of the generated identity inside the data folder. */
export const GENERATED_CERT_FILE = 'operator-cert.pem';
export const GENERATED_KEY_FILE = 'operator-key.pem';

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const subtle = webcrypto.subtle;
// @peculiar/x509 is typed against the DOM's Web Crypto types; Node's webcrypto implements them.
type X509Crypto = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1];
type X509KeyPair = x509.X509CertificateCreateSelfSignedParams['keys'];
const cryptoProvider = webcrypto as unknown as X509Crypto;

/** The pin of a certificate's public key, as clients pin it (one implementation: shared/node/pins.ts). */
export { spkiPin };

/**
 * Loads the configured certificate and key, or the generated ones from the data folder, or generates
 * them on first run. Throws {@link TlsIdentityError} with a clear message when a file is missing,
 * is not valid PEM, or the key does not match the certificate.
 */
export async function loadOrCreateTlsIdentity(options: TlsIdentityOptions): Promise<TlsIdentity> {
  const now = options.now?.() ?? new Date();
  if (options.certFile !== undefined || options.keyFile !== undefined) {
    if (options.certFile === undefined || options.keyFile === undefined) {
      throw new TlsIdentityError('A configured TLS identity needs both a certificate file and a key file.');
    }
    const id = parseIdentity(readPem(options.certFile, 'certificate'), readPem(options.keyFile, 'private key'), options.certFile, options.keyFile, 'configured');
    if (id.notAfter.getTime() <= now.getTime()) {
      throw new TlsIdentityError(`The configured certificate ${options.certFile} expired on ${id.notAfter.toISOString()}; install a valid one.`);
    }
    return id;
  }

  const certPath = join(options.dataDir, GENERATED_CERT_FILE);
  const keyPath = join(options.dataDir, GENERATED_KEY_FILE);
  const validityDays = options.validityDays ?? 730;
  const renewWithinMs = (options.renewWithinDays ?? 30) * DAY_MS;
  const haveCert = existsSync(certPath);
  const haveKey = existsSync(keyPath);

  if (haveCert && !haveKey) {
    throw new TlsIdentityError(
      `The operator certificate ${certPath} is there but its key ${keyPath} is missing. Restore the key, or delete the ` +
        'certificate to generate a new identity (clients that pinned the old key will then refuse to connect until re-pinned).',
    );
  }
  if (haveKey) {
    const keyPem = readPem(keyPath, 'private key');
    const key = parseKey(keyPem, keyPath);
    if (haveCert) {
      const id = parseIdentity(readPem(certPath, 'certificate'), keyPem, certPath, keyPath, 'reused');
      if (id.notAfter.getTime() - now.getTime() > renewWithinMs) return id;
    }
    // No certificate yet (interrupted first run) or close to its end: re-issue over the same key, so the pin holds.
    const certPem = await issueCertificate(key, now, validityDays);
    writeFileAtomic(certPath, certPem, 0o644);
    return parseIdentity(certPem, keyPem, certPath, keyPath, 'renewed');
  }

  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const pair = await subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', pair.privateKey));
  const keyPem = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }) as string;
  const certPem = await issueCertificate(parseKey(keyPem, keyPath), now, validityDays);
  // The key first: a crash in between leaves a key without certificate, which the next start completes.
  writeFileAtomic(keyPath, keyPem, 0o600);
  writeFileAtomic(certPath, certPem, 0o644);
  return parseIdentity(certPem, keyPem, certPath, keyPath, 'generated');
}

/** A self-signed server certificate for 127.0.0.1 and localhost over `key` (ECDSA P-256, SHA-256). */
async function issueCertificate(key: KeyObject, now: Date, validityDays: number): Promise<string> {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new TlsIdentityError('The operator key in the data folder is not an ECDSA P-256 key; delete both identity files to generate a new one.');
  }
  const privateKey = await subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), EC_P256, false, ['sign']);
  const publicKey = await subtle.importKey('spki', createPublicKey(key).export({ type: 'spki', format: 'der' }), EC_P256, true, ['verify']);
  const keys = { privateKey, publicKey } as unknown as X509KeyPair;
  const start = Math.floor(now.getTime() / 1000) * 1000;
  const serial = randomBytes(16);
  serial[0] &= 0x7f; // a positive INTEGER (RFC 5280 §4.1.2.2)
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: 'CN=Cercle operator, O=Cercle',
      notBefore: new Date(start - 5 * 60_000), // a little slack for clients whose clock runs behind
      notAfter: new Date(start + validityDays * DAY_MS),
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
        ]),
        await x509.SubjectKeyIdentifierExtension.create(publicKey, false, cryptoProvider),
      ],
    },
    cryptoProvider,
  );
  return cert.toString('pem').replace(/\r\n/g, '\n').trimEnd() + '\n';
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new TlsIdentityError(`Cannot read the operator's TLS ${what} file ${path}: ${(e as Error).message}`, { cause: e });
  }
}

function parseKey(keyPem: string, keyPath: string): KeyObject {
  try {
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyPem)) throw new Error('no PEM "PRIVATE KEY" block');
    return createPrivateKey(keyPem);
  } catch (e) {
    throw new TlsIdentityError(`${keyPath} is not a valid PEM private key (${(e as Error).message}).`, { cause: e });
  }
}

function parseIdentity(certPem: string, keyPem: string, certPath: string, keyPath: string, source: TlsIdentity['source']): TlsIdentity {
  let cert: X509Certificate;
  try {
    if (!certPem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM "CERTIFICATE" block');
    cert = new X509Certificate(certPem);
  } catch (e) {
    throw new TlsIdentityError(`${certPath} is not a valid PEM certificate (${(e as Error).message}).`, { cause: e });
  }
  const key = parseKey(keyPem, keyPath);
  if (!cert.checkPrivateKey(key)) throw new TlsIdentityError(`The private key ${keyPath} does not belong to the certificate ${certPath}.`);
  return {
    cert: certPem,
    key: keyPem,
    pin: spkiPin(certPem),
    certPath,
    keyPath,
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
    source,
  };
}

/** Writes through a temporary file and a rename (shared/node/atomic-file.ts), so a crash never leaves a half-written PEM; `mode` exact. */
function writeFileAtomic(path: string, data: string, mode: number): void {
  try {
    writeAtomic(path, data, { mode });
  } catch (e) {
    throw new TlsIdentityError(`Cannot write ${path}: ${(e as Error).message}`, { cause: e });
  }
}
