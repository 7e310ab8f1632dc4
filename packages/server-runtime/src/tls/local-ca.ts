import { KeyObject, randomBytes, type webcrypto, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// @peculiar/x509 resolves its ASN.1 serialisers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// The global Web Crypto and its global types, not node:crypto's \`webcrypto\` types: a project that
// checks this file with the DOM library (the end-to-end suite) has DOM's, and @peculiar/x509 takes
// whichever the global ones are.
const { subtle } = globalThis.crypto;
x509.cryptoProvider.set(globalThis.crypto);
type CryptoKey = Awaited<ReturnType<typeof subtle.importKey>>;
interface CryptoKeyPair {
  readonly publicKey: CryptoKey;
  readonly privateKey: CryptoKey;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
const CA_LIFETIME_DAYS = 3650;
// Browsers and curl on macOS refuse leaf certificates valid for more than 398 days.
const SERVER_LIFETIME_DAYS = 397;
// A leaf closer than this to expiry is re-issued at start-up from the same CA.
const RENEW_BEFORE_DAYS = 30;
const SERVER_NAMES = ['localhost'];
const SERVER_IPS = ['127.0.0.1', '::1'];

export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** PEM of the CA that signed `cert`; absent when the operator supplied the certificate. */
  readonly ca?: string;
  /** Where the CA certificate lives, for the `curl --cacert` hint. */
  readonly caFile?: string;
}

export const localCaFiles = (dataDir: string) => {
  const dir = join(dataDir, 'tls');
  return {
    dir,
    caCert: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca-key.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server-key.pem'),
  };
};

const serial = () => {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // positive, as RFC 5280 requires
  return bytes.toString('hex');
};

const privatePem = (key: CryptoKey) =>
  KeyObject.from(key as webcrypto.CryptoKey)
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0];
  if (!der) throw new Error('CA key file holds no PEM block');
  return subtle.importKey('pkcs8', der, EC_P256, false, ['sign']);
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return subtle.generateKey(EC_P256, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function createCa(): Promise<{
  certPem: string;
  keyPem: string;
  cert: x509.X509Certificate;
  key: CryptoKey;
}> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=Catalog Service Local CA,O=Catalog Service (local development)',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + CA_LIFETIME_DAYS * DAY_MS),
    signingAlgorithm: EC_P256,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: privatePem(keys.privateKey), cert, key: keys.privateKey };
}

async function issueServerCertificate(ca: { cert: x509.X509Certificate; key: CryptoKey }) {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=localhost',
    issuer: ca.cert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + SERVER_LIFETIME_DAYS * DAY_MS),
    signingAlgorithm: EC_P256,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      new x509.SubjectAlternativeNameExtension([
        ...SERVER_NAMES.map((value) => ({ type: 'dns' as const, value })),
        ...SERVER_IPS.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: privatePem(keys.privateKey) };
}

async function readMaterial(files: ReturnType<typeof localCaFiles>): Promise<TlsMaterial> {
  const [cert, key, ca] = await Promise.all([
    readFile(files.serverCert, 'utf8'),
    readFile(files.serverKey, 'utf8'),
    readFile(files.caCert, 'utf8'),
  ]);
  return { cert, key, ca, caFile: files.caCert };
}

const writePrivate = (path: string, pem: string) => writeFile(path, pem, { mode: 0o600 });

/** Writes a file next to its final name and renames it into place, so readers never see half a file. */
async function replaceFile(path: string, contents: string, mode: number) {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, contents, { mode });
  await rename(tmp, path);
}

/**
 * Returns the local CA's server certificate under DATA_DIR/tls, creating the CA on first start.
 * Both servers may start at the same moment: the material is written to a private folder and
 * renamed into place in one step, so whichever process loses the race reads the winner's files.
 */
export async function ensureLocalTls(dataDir: string): Promise<TlsMaterial> {
  const files = localCaFiles(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = `${files.dir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(staging, { mode: 0o700 });
    const ca = await createCa();
    const server = await issueServerCertificate(ca);
    await writeFile(join(staging, 'ca.pem'), ca.certPem, { mode: 0o644 });
    await writePrivate(join(staging, 'ca-key.pem'), ca.keyPem);
    await writeFile(join(staging, 'server.pem'), server.certPem, { mode: 0o644 });
    await writePrivate(join(staging, 'server-key.pem'), server.keyPem);
    await rename(staging, files.dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
  }
  return renewServerCertificateIfDue(files);
}

async function renewServerCertificateIfDue(files: ReturnType<typeof localCaFiles>): Promise<TlsMaterial> {
  const material = await readMaterial(files);
  const expiresAt = Date.parse(new X509Certificate(material.cert).validTo);
  if (expiresAt - Date.now() > RENEW_BEFORE_DAYS * DAY_MS) return material;
  const ca = {
    cert: new x509.X509Certificate(material.ca ?? ''),
    key: await importPrivateKey(await readFile(files.caKey, 'utf8')),
  };
  const server = await issueServerCertificate(ca);
  await replaceFile(files.serverKey, server.keyPem, 0o600);
  await replaceFile(files.serverCert, server.certPem, 0o644);
  return readMaterial(files);
}
