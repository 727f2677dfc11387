import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../tests/support/operator/temp-dir';
import { GENERATED_CERT_FILE, GENERATED_KEY_FILE, loadOrCreateTlsIdentity, spkiPin, TlsIdentityError, type TlsIdentity } from './tls';

// DER prefix of a P-256 SubjectPublicKeyInfo (SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING header):
// with the 65-byte point the TLS layer reports, it rebuilds the SPKI independently of spkiPin().
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

function listen(id: TlsIdentity): Promise<Server> {
  const server = createServer({ cert: id.cert, key: id.key }, (socket) => socket.end('hello'));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function port(server: Server): number {
  return (server.address() as { port: number }).port;
}

/** Connects to 127.0.0.1 trusting `ca`; resolves with the pin computed from the peer's key, or rejects with the TLS error. */
function connectAndPin(server: Server, ca: string, servername?: string): Promise<{ pin: string; fromPeer: string; authorized: boolean; data: string }> {
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = connect({ host: '127.0.0.1', port: port(server), ca, servername }, () => {
      const peer = socket.getPeerCertificate();
      const spki = Buffer.concat([P256_SPKI_PREFIX, peer.pubkey!]);
      const fromPeer = `sha256/${createHash('sha256').update(spki).digest('base64')}`;
      const pin = spkiPin(new X509Certificate(peer.raw).toString());
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve({ pin, fromPeer, authorized: socket.authorized, data }));
    });
    socket.on('error', reject);
  });
}

describe('operator TLS identity', () => {
  let t: ReturnType<typeof tempDir>;
  let server: Server | undefined;
  beforeEach(() => (t = tempDir()));
  afterEach(async () => {
    if (server) await new Promise((r) => server!.close(r));
    server = undefined;
    t.cleanup();
  });

  it('generates a self-signed P-256 certificate for 127.0.0.1 and localhost, valid about two years, key file 0600', async () => {
    const now = new Date('2025-03-01T12:00:00Z');
    const id = await loadOrCreateTlsIdentity({ dataDir: join(t.dir, 'data'), now: () => now });
    expect(id.source).toBe('generated');
    const cert = new X509Certificate(readFileSync(join(t.dir, 'data', GENERATED_CERT_FILE)));
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost');
    expect(cert.publicKey.asymmetricKeyType).toBe('ec');
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    const days = (id.notAfter.getTime() - now.getTime()) / 86_400_000;
    expect(days).toBe(730);
    expect(id.notBefore.getTime()).toBeLessThanOrEqual(now.getTime());
    if (process.platform !== 'win32') expect(statSync(id.keyPath).mode & 0o777).toBe(0o600);
    expect(id.pin).toMatch(/^sha256\/[A-Za-z0-9+/]{43}=$/);
  });

  it('serves TLS on 127.0.0.1; a client trusting the certificate connects and the peer key matches the pin', async () => {
    const id = await loadOrCreateTlsIdentity({ dataDir: t.dir });
    server = await listen(id);
    const byIp = await connectAndPin(server, id.cert);
    expect(byIp).toEqual({ pin: id.pin, fromPeer: id.pin, authorized: true, data: 'hello' });
    const byName = await connectAndPin(server, id.cert, 'localhost');
    expect(byName.authorized).toBe(true);
    // A client trusting another operator's certificate refuses this one.
    const other = await loadOrCreateTlsIdentity({ dataDir: join(t.dir, 'other') });
    expect(other.pin).not.toBe(id.pin);
    await expect(connectAndPin(server, other.cert)).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
  });

  it('reuses the same files on the second start', async () => {
    const first = await loadOrCreateTlsIdentity({ dataDir: t.dir });
    const certBytes = readFileSync(first.certPath);
    const keyBytes = readFileSync(first.keyPath);
    const second = await loadOrCreateTlsIdentity({ dataDir: t.dir });
    expect(second.source).toBe('reused');
    expect(second.pin).toBe(first.pin);
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);
    expect(readFileSync(first.certPath).equals(certBytes)).toBe(true);
    expect(readFileSync(first.keyPath).equals(keyBytes)).toBe(true);
    server = await listen(second);
    expect((await connectAndPin(server, first.cert)).pin).toBe(first.pin);
  });

  it('re-issues a certificate near its end over the same key, so the pin does not change', async () => {
    const start = new Date('2025-01-01T00:00:00Z');
    const first = await loadOrCreateTlsIdentity({ dataDir: t.dir, now: () => start });
    const later = new Date(start.getTime() + 710 * 86_400_000);
    const renewed = await loadOrCreateTlsIdentity({ dataDir: t.dir, now: () => later });
    expect(renewed.source).toBe('renewed');
    expect(renewed.pin).toBe(first.pin);
    expect(renewed.cert).not.toBe(first.cert);
    expect(renewed.notAfter.getTime()).toBe(later.getTime() + 730 * 86_400_000);
    // An interrupted first run (key written, certificate not) is completed the same way.
    rmSync(renewed.certPath);
    const completed = await loadOrCreateTlsIdentity({ dataDir: t.dir });
    expect(completed).toMatchObject({ source: 'renewed', pin: first.pin });
  });

  it('loads configured PEM files', async () => {
    const made = await loadOrCreateTlsIdentity({ dataDir: join(t.dir, 'made') });
    const certFile = join(t.dir, 'server.crt');
    const keyFile = join(t.dir, 'server.key');
    copyFileSync(made.certPath, certFile);
    copyFileSync(made.keyPath, keyFile);
    const id = await loadOrCreateTlsIdentity({ dataDir: join(t.dir, 'data'), certFile, keyFile });
    expect(id).toMatchObject({ source: 'configured', pin: made.pin, certPath: certFile, keyPath: keyFile });
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir, certFile })).rejects.toThrow(/both a certificate file and a key file/);
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir, certFile: join(t.dir, 'nope.crt'), keyFile })).rejects.toThrow(/Cannot read .*nope\.crt/);
    const farFuture = new Date(made.notAfter.getTime() + 1000);
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir, certFile, keyFile, now: () => farFuture })).rejects.toThrow(/expired/);
  });

  it('a corrupt PEM gives a clear error naming the file', async () => {
    const id = await loadOrCreateTlsIdentity({ dataDir: t.dir });
    const goodCert = readFileSync(id.certPath, 'utf8');
    const goodKey = readFileSync(id.keyPath, 'utf8');

    writeFileSync(id.certPath, goodCert.replace(/[A-Za-z]{20}/, 'AAAAAAAAAAAAAAAAAAAA'));
    const bad = loadOrCreateTlsIdentity({ dataDir: t.dir });
    await expect(bad).rejects.toBeInstanceOf(TlsIdentityError);
    await expect(bad).rejects.toThrow(`${id.certPath} is not a valid PEM certificate`);

    writeFileSync(id.certPath, 'not a certificate at all\n');
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir })).rejects.toThrow(/operator-cert\.pem is not a valid PEM certificate \(no PEM "CERTIFICATE" block\)/);

    writeFileSync(id.certPath, goodCert);
    writeFileSync(id.keyPath, goodKey.slice(0, 60) + goodKey.slice(90));
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir })).rejects.toThrow(`${id.keyPath} is not a valid PEM private key`);

    // A valid key that belongs to another certificate.
    const other = await loadOrCreateTlsIdentity({ dataDir: join(t.dir, 'other') });
    writeFileSync(id.keyPath, readFileSync(other.keyPath));
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir })).rejects.toThrow(/does not belong to the certificate/);

    // A certificate whose key is gone is not silently replaced (that would change the pin).
    rmSync(id.keyPath);
    await expect(loadOrCreateTlsIdentity({ dataDir: t.dir })).rejects.toThrow(/key .*operator-key\.pem is missing/);
    expect(readFileSync(id.certPath, 'utf8')).toBe(goodCert);
    expect(GENERATED_KEY_FILE).toBe('operator-key.pem');
  });
});
