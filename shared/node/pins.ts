/**
 * SPKI pins, one implementation for the client's link (electron/services/link/pinning.ts checks them)
 * and the operator (operator/tls.ts publishes its own): DESIGN.md §2 `shared/node/`.
 * A pin is `sha256/` and the base64 of the SHA-256 of the certificate's DER SubjectPublicKeyInfo (the
 * HPKP / OkHttp format): it names the key, not the certificate, so a certificate re-issued over the
 * same key keeps its pin.
 */
import { createHash, X509Certificate } from 'node:crypto';

/** A pin: `sha256/` and the base64 of a 32-byte digest. */
export const PIN_PATTERN = /^sha256\/[A-Za-z0-9+/]{43}=$/;

export function isPin(s: unknown): s is string {
  return typeof s === 'string' && PIN_PATTERN.test(s);
}

/** The pin of a certificate (DER or PEM): the SHA-256 of its SubjectPublicKeyInfo, `sha256/<base64>`. */
export function spkiPin(certificate: Buffer | string): string {
  const spki = new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'der' });
  return `sha256/${createHash('sha256').update(spki).digest('base64')}`;
}
