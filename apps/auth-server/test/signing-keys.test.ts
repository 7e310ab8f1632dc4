import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import {
  RETIRED_KEY_RETENTION_SECONDS,
  RotationTooEarlyError,
  rotateSigningKeys,
  signingKeysFile,
} from '@catalog/identity';
import { rawRequest } from '@catalog/server-runtime/testing';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from './support/test-server.ts';
import { postToken, verifyAccessToken } from './support/token-requests.ts';

let server: TestServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  client = await server.createClient();
});
afterAll(async () => {
  await server?.stop({ removeData: true });
});

const jwksKids = async () => {
  const body = JSON.parse(
    (await rawRequest(`${server.url}/.well-known/jwks.json`, { ca: server.ca })).body,
  ) as {
    keys: Record<string, unknown>[];
  };
  return body.keys;
};

const issue = async () => {
  const reply = await postToken(server, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    scope: 'crm-api/products.read',
  });
  return String(reply.json.access_token);
};

/** The server polls the key file about once a second. */
async function waitForJwks(predicate: (kids: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const kids = (await jwksKids()).map((key) => String(key.kid));
    if (predicate(kids)) return kids;
    if (Date.now() > deadline) throw new Error(`JWKS never matched; last: ${kids.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('signing keys (decisions: Identity; spec 2.5)', () => {
  it('are generated on first start into DATA_DIR with the private key file at mode 0600', async () => {
    const file = signingKeysFile(server.dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored.keys).toHaveLength(1);
    expect(stored.keys[0].status).toBe('active');
  });

  it('are published at /.well-known/jwks.json as public EC P-256 keys only', async () => {
    const keys = await jwksKids();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('survive a restart: the same key keeps signing', async () => {
    const before = decodeProtectedHeader(await issue()).kid;
    const { dataDir } = server;
    await server.stop();
    server = await startTestServer({ dataDir });
    expect(decodeProtectedHeader(await issue()).kid).toBe(before);
  });

  it('rotate in two steps: staged key published first, promoted later; the retired key stays published', async () => {
    const oldKid = String(decodeProtectedHeader(await issue()).kid);
    const oldToken = await issue();

    const staged = await rotateSigningKeys({ dataDir: server.dataDir });
    expect(staged.step).toBe('staged');
    if (staged.step !== 'staged') return;
    expect(await waitForJwks((kids) => kids.length === 2)).toEqual([oldKid, staged.stagedKid]);
    // Step 1 changes nothing for signing: caches learn the new key before it is used.
    expect(decodeProtectedHeader(await issue()).kid).toBe(oldKid);

    await expect(rotateSigningKeys({ dataDir: server.dataDir })).rejects.toBeInstanceOf(
      RotationTooEarlyError,
    );

    const promoted = await rotateSigningKeys({ dataDir: server.dataDir, force: true });
    expect(promoted).toMatchObject({ step: 'promoted', activeKid: staged.stagedKid, retiredKid: oldKid });
    await waitForJwks((kids) => kids[0] === staged.stagedKid);
    const newToken = await issue();
    expect(decodeProtectedHeader(newToken).kid).toBe(staged.stagedKid);
    // Tokens signed before the rotation still verify against the published set.
    await expect(verifyAccessToken(server, oldToken)).resolves.toBeDefined();
    await expect(verifyAccessToken(server, newToken)).resolves.toBeDefined();
  });

  it('drop a retired key only after the longest token lifetime plus the JWKS cache time', async () => {
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
    const file = signingKeysFile(server.dataDir);
    const retired = () =>
      JSON.parse(readFileSync(file, 'utf8')).keys.filter(
        (key: { status: string }) => key.status === 'retired',
      );
    expect(retired()).toHaveLength(1);
    await rotateSigningKeys({ dataDir: server.dataDir, now: later(RETIRED_KEY_RETENTION_SECONDS - 60) });
    expect(retired()).toHaveLength(1);
    const report = await rotateSigningKeys({
      dataDir: server.dataDir,
      now: later(RETIRED_KEY_RETENTION_SECONDS + 60),
      force: true,
    });
    expect(report.pruned).toHaveLength(1);
    expect(retired()).toHaveLength(1); // the key this promotion just retired
  });
});
