/**
 * Certificate pinning for the operator link (DESIGN.md §3 "The wire": pinned TLS; docs/protocol.md
 * "Transport"). The client trusts an operator by the SHA-256 of its certificate's public key
 * (SubjectPublicKeyInfo), written `sha256/<base64>`, never by a certificate authority. Several pins
 * may be accepted at once (a key rotation: the old key and the next one).
 *
 * Why the check is done here and not left to Node: with `rejectUnauthorized: false` (needed, since no
 * CA signs the operator's self-signed certificate) Node does not even call `checkServerIdentity` when
 * the chain fails to verify, which is always the case for a self-signed certificate; and when it does
 * call it, a refusal only marks the socket unauthorized without closing it. So the connection is made
 * by {@link pinnedConnector}: it opens the TLS socket itself, checks the public key against the pins
 * AND the host name (or IP address) against the certificate's subject alternative names once the
 * handshake is done, and only then hands the socket to the WebSocket client. A refused peer never
 * receives a byte of application data: not the HTTP upgrade request, let alone a WebSocket frame.
 */
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';

import { isPin, spkiPin } from '../../../shared/node/pins';

// The pin format and its computation are shared with the operator (shared/node/pins.ts).
export { isPin, PIN_PATTERN } from '../../../shared/node/pins';
/** The pin of a certificate (DER or PEM): shared/node/pins.ts `spkiPin`. */
export const spkiPinOf = spkiPin;

export type PinFailure = 'PIN_MISMATCH' | 'HOSTNAME_MISMATCH' | 'NO_CERTIFICATE';

/** The operator's identity was refused: the connection was closed before anything was sent. */
export class PinError extends Error {
  constructor(
    readonly failure: PinFailure,
    message: string,
    /** The pin the peer presented, when it had a certificate. */
    readonly presented: string | null = null,
  ) {
    super(message);
    this.name = 'PinError';
  }
}

/**
 * Accepts the peer only if its public key matches one of `pins` and `host` matches the certificate
 * (for an IP address, an IP subject alternative name: `127.0.0.1` for the embedded operator).
 * Returns the refusal, or undefined to accept (the shape of `tls`'s `checkServerIdentity`).
 */
export function checkPinnedIdentity(host: string, cert: PeerCertificate | undefined, pins: readonly string[]): PinError | undefined {
  if (!cert || !cert.raw || cert.raw.length === 0) return new PinError('NO_CERTIFICATE', 'the operator presented no certificate');
  let presented: string;
  try {
    presented = spkiPinOf(cert.raw);
  } catch (e) {
    return new PinError('NO_CERTIFICATE', `the operator's certificate cannot be read: ${(e as Error).message}`);
  }
  if (!pins.includes(presented)) {
    return new PinError('PIN_MISMATCH', `the operator's public key ${presented} matches none of the pinned keys`, presented);
  }
  // The pin replaces CA trust, not the name check: a pinned key presented for another name is refused too.
  const wrongName = checkServerIdentity(host, cert);
  if (wrongName) return new PinError('HOSTNAME_MISMATCH', `the operator's certificate is not valid for ${host}: ${wrongName.message}`, presented);
  return undefined;
}

/** What `ws` (through `https.request`) passes to `createConnection`. */
interface ConnectRequest {
  host?: string;
  hostname?: string;
  port?: number | string;
}

export interface PinnedConnectorOptions {
  pins: readonly string[];
  /** Gives up on a TCP + TLS handshake taking longer than this. */
  timeoutMs: number;
  /** Told about every refused identity (the link reports it and stops retrying). */
  onRefused?: (e: PinError) => void;
}

/**
 * A `createConnection` for `ws`/`https.request` that answers through its callback once the peer is
 * verified (http.ClientRequest accepts an asynchronous `createConnection`: it writes the request only
 * when the socket is handed over).
 */
export function pinnedConnector(o: PinnedConnectorOptions): (req: ConnectRequest, done: (err: Error | null, socket?: Duplex) => void) => undefined {
  const pins = [...o.pins];
  if (pins.length === 0 || !pins.every(isPin)) throw new TypeError('pinnedConnector: at least one pin, each sha256/<base64>');
  return (req, done) => {
    const host = (req.host ?? req.hostname ?? '').replace(/^\[(.*)\]$/, '$1');
    let finished = false;
    const finish = (err: Error | null, socket?: Duplex): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      done(err, socket);
    };
    const socket = connect({
      host,
      port: Number(req.port),
      // SNI carries host names only (RFC 6066 §3).
      servername: isIP(host) ? '' : host,
      // No CA signs the operator's certificate: the pin is the trust, checked below before any byte is sent.
      rejectUnauthorized: false,
      // Called by Node only when a chain verifies; kept so that path checks the pin and the name too.
      checkServerIdentity: (name, cert) => checkPinnedIdentity(name, cert, pins),
      minVersion: 'TLSv1.2',
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => {
      socket.destroy();
      finish(new Error(`no TLS handshake with ${host}:${String(req.port)} within ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    socket.once('secureConnect', () => {
      const refused = checkPinnedIdentity(host, socket.getPeerCertificate(true), pins);
      if (refused) {
        socket.destroy();
        o.onRefused?.(refused);
        finish(refused);
        return;
      }
      finish(null, socket);
    });
    socket.once('error', (e) => finish(e));
    return undefined;
  };
}
