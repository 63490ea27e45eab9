/**
 * TLS material of a sandbox started with `--tls`: a local certificate authority (CA) that the sandbox creates
 * once, and a server certificate it signs for the loopback names (127.0.0.1, ::1, localhost, plus the `--host`
 * address when it is a specific other one).
 *
 * In a state dir: `ca.pem` (0644, what a client trusts; created once and kept, so a bot's configuration stays
 * valid), `ca-key.pem` (0600; it never leaves the state dir), `server.pem` / `server-key.pem` (reused while
 * valid; renewed when it expires within a day, was signed by another CA, or lacks a name). Without a state dir
 * (`--in-memory`) everything is generated in memory at every start and nothing is written
 * ({@link SandboxTlsMaterial.caPem} still reports the CA). Keys are RSA 2048 (Node's crypto); certificates are
 * SHA-256, built with node-forge, and their validity is checked against the wall clock, never the sandbox's.
 * The extensions strict verifiers demand, and the rest: docs/sandbox.md "TLS" and "TLS material (`tls.ts`)".
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';
// only the parts of forge used here (see node-forge-lib.d.ts); they register into `forge`
import forge from 'node-forge/lib/forge';
import 'node-forge/lib/x509';
import 'node-forge/lib/sha256';

/** File names of the TLS material in the state dir. */
export const TLS_FILES = { ca: 'ca.pem', caKey: 'ca-key.pem', cert: 'server.pem', key: 'server-key.pem' } as const;

/** Validity of a new CA certificate, days. */
export const CA_VALIDITY_DAYS = 3650;
/**
 * Validity of a new server certificate, days: 397, under the 398-day limit some platforms (Apple)
 * enforce even for certificates of a locally trusted CA.
 */
export const SERVER_VALIDITY_DAYS = 397;
/** A server certificate that expires within this many ms is renewed at start-up. */
export const RENEW_BEFORE_MS = 24 * 3600_000;

const DAY_MS = 24 * 3600_000;

/** What the HTTPS server and the readiness output need. */
export interface SandboxTlsMaterial {
  /** PEM of the server's private key. */
  key: string;
  /** PEM of the server certificate followed by the CA certificate (the chain the server sends). */
  cert: string;
  /** PEM of the CA certificate (what clients trust). */
  caPem: string;
  /** Absolute path of `STATE_DIR/ca.pem`, or null in memory. */
  caPath: string | null;
  /** What was done, for the log: "created a new local CA …", "renewed the server certificate …". */
  notes: string[];
}

/** Options of {@link loadSandboxTls}. */
export interface SandboxTlsOptions {
  /** The interface the sandbox binds: added to the certificate's names when it is a specific, non-loopback one. */
  host?: string;
  /** Wall clock, ms since the epoch (tests). Default Date.now(). */
  now?: number;
}

/** The names the server certificate must cover for `host` (see the module doc). */
export function certificateNames(host?: string): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  const h = host?.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h && !names.includes(h) && h !== '0.0.0.0' && h !== '::') names.push(h);
  return names;
}

/** A new RSA 2048 key pair (Node's crypto): the private key as PKCS#1 PEM, both as forge keys. */
function rsaKeyPair(): { privatePem: string; forgePrivate: forge.pki.rsa.PrivateKey; forgePublic: forge.pki.rsa.PublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), forgePrivate: forgePrivateKey(privateKey), forgePublic: forgePublicKey(publicKey) };
}

/** A Node private key as a forge one (through DER: forge's PEM helpers live in a module not imported). */
function forgePrivateKey(key: KeyObject): forge.pki.rsa.PrivateKey {
  const der = key.export({ type: 'pkcs1', format: 'der' });
  return forge.pki.privateKeyFromAsn1(forge.asn1.fromDer(der.toString('binary'))) as forge.pki.rsa.PrivateKey;
}

/** A Node public key as a forge one. */
function forgePublicKey(key: KeyObject): forge.pki.rsa.PublicKey {
  const der = key.export({ type: 'spki', format: 'der' });
  return forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(der.toString('binary'))) as forge.pki.rsa.PublicKey;
}

/** A positive random serial number (hex, 16 bytes, high bit clear). */
function serial(): string {
  const b = randomBytes(16);
  b[0] &= 0x7f;
  b[0] |= 0x01;
  return b.toString('hex');
}

/** Create a self-signed CA. @returns PEMs of its certificate and key */
export function createCa(now: number): { certPem: string; keyPem: string } {
  const kp = rsaKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = kp.forgePublic;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - DAY_MS);
  cert.validity.notAfter = new Date(now + CA_VALIDITY_DAYS * DAY_MS);
  // a short random tag tells several sandboxes' CAs apart in a trust store
  const subject = [
    { name: 'commonName', value: `SpotDesk sandbox local CA ${randomBytes(4).toString('hex')}` },
    { name: 'organizationName', value: 'SpotDesk sandbox (local testing only)' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(kp.forgePrivate, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: kp.privatePem };
}

/** Create a server certificate for `names` signed by the CA. @returns PEMs of its certificate and key */
export function createServerCert(ca: { certPem: string; keyPem: string }, names: string[], now: number): { certPem: string; keyPem: string } {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const kp = rsaKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = kp.forgePublic;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - DAY_MS);
  cert.validity.notAfter = new Date(now + SERVER_VALIDITY_DAYS * DAY_MS);
  cert.setSubject([{ name: 'commonName', value: names[0] }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(forgePrivateKey(createPrivateKey(ca.keyPem)), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: kp.privatePem };
}

/**
 * Why the server certificate `certPem` / `keyPem` cannot be reused with CA `caPem` for `names` at
 * `now`, or undefined when it can (never throws: unreadable PEMs are a reason too).
 */
export function serverCertProblem(certPem: string, keyPem: string, caPem: string, names: string[], now: number): string | undefined {
  try {
    const cert = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return 'it was not issued by the current CA';
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return 'its key does not match';
    const notAfter = Date.parse(cert.validTo);
    if (!(notAfter - RENEW_BEFORE_MS > now)) return `it expires ${cert.validTo}`;
    for (const n of names) {
      if ((isIP(n) ? cert.checkIP(n) : cert.checkHost(n, { wildcards: false })) === undefined) return `it does not name ${n}`;
    }
    return undefined;
  } catch (e) {
    return `it cannot be read (${(e as Error).message})`;
  }
}

/** Write `text` to `file` atomically with `mode` (tmp file + rename). */
function writeFileMode(file: string, text: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, file);
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * The sandbox's TLS material (see the module doc): from `stateDir` (created or renewed there as
 * needed), or generated in memory when `stateDir` is undefined.
 * @throws Error when `STATE_DIR/ca.pem` exists but cannot be used (unreadable, expired, not a CA, or
 *   `ca-key.pem` missing or not its key): the message says which and how to start over. The sandbox
 *   never replaces a CA a client may already trust without being asked.
 */
export function loadSandboxTls(stateDir: string | undefined, opts: SandboxTlsOptions = {}): SandboxTlsMaterial {
  const now = opts.now ?? Date.now();
  const names = certificateNames(opts.host);
  const notes: string[] = [];
  if (stateDir === undefined) {
    const ca = createCa(now);
    const server = createServerCert(ca, names, now);
    return { key: server.keyPem, cert: server.certPem + ca.certPem, caPem: ca.certPem, caPath: null, notes: ['generated a CA and server certificate in memory (nothing written)'] };
  }
  const caPath = path.resolve(stateDir, TLS_FILES.ca);
  const caKeyPath = path.resolve(stateDir, TLS_FILES.caKey);
  const certPath = path.resolve(stateDir, TLS_FILES.cert);
  const keyPath = path.resolve(stateDir, TLS_FILES.key);

  let ca: { certPem: string; keyPem: string };
  const caPem = readIfExists(caPath);
  if (caPem === undefined) {
    ca = createCa(now);
    // the key first: ca.pem, written last, marks a complete CA
    writeFileMode(caKeyPath, ca.keyPem, 0o600);
    writeFileMode(caPath, ca.certPem, 0o644);
    notes.push(`created a new local CA: ${caPath}`);
  } else {
    const startOver = `Delete ${caPath} and ${caKeyPath} to let the sandbox create a new CA (clients must then trust the new ${TLS_FILES.ca}).`;
    const caKeyPem = readIfExists(caKeyPath);
    if (caKeyPem === undefined) throw new Error(`${caPath} exists but its key ${caKeyPath} is missing. ${startOver}`);
    let problem: string | undefined;
    try {
      const cert = new X509Certificate(caPem);
      if (!cert.ca) problem = 'it is not a CA certificate';
      else if (!cert.checkPrivateKey(createPrivateKey(caKeyPem))) problem = `${caKeyPath} is not its key`;
      else if (!(Date.parse(cert.validTo) > now + RENEW_BEFORE_MS)) problem = `it expires ${cert.validTo}`;
    } catch (e) {
      problem = `it cannot be read (${(e as Error).message})`;
    }
    if (problem) throw new Error(`the sandbox's CA ${caPath} cannot be used: ${problem}. ${startOver}`);
    // the CA key stays private even if someone loosened its mode
    if ((fs.statSync(caKeyPath).mode & 0o077) !== 0) fs.chmodSync(caKeyPath, 0o600);
    ca = { certPem: caPem, keyPem: caKeyPem };
  }

  let server: { certPem: string; keyPem: string } | undefined;
  const certPem = readIfExists(certPath);
  const keyPem = readIfExists(keyPath);
  if (certPem !== undefined && keyPem !== undefined) {
    const problem = serverCertProblem(certPem, keyPem, ca.certPem, names, now);
    if (problem === undefined) server = { certPem, keyPem };
    else notes.push(`renewed the server certificate: ${problem}`);
  }
  if (!server) {
    server = createServerCert(ca, names, now);
    writeFileMode(keyPath, server.keyPem, 0o600);
    writeFileMode(certPath, server.certPem, 0o644);
    if (certPem === undefined) notes.push(`created a server certificate for ${names.join(', ')}: ${certPath}`);
  } else if ((fs.statSync(keyPath).mode & 0o077) !== 0) {
    fs.chmodSync(keyPath, 0o600);
  }
  return { key: server.keyPem, cert: server.certPem + ca.certPem, caPem: ca.certPem, caPath, notes };
}
