import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSigningKeys } from '@catalog/engines';
import { generateSigningKey, SigningKeySetError, signingKeysFile } from '@catalog/identity';
import { rawRequest, runToExit } from '@catalog/server-runtime/testing';
import type { SealedKeySet } from '@catalog/store';
// biome-ignore lint/style/noRestrictedImports: the test reads the sealed row itself, below the key store, to show no private key is stored in clear.
import { openPostgresSigningKeySetStore } from '@catalog/store/postgres';
import { createTestDatabase, type TestDatabase } from '@catalog/store/testing';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from './support/test-server.ts';
import { postToken } from './support/token-requests.ts';

// Issue 16: token servers on several machines share PostgreSQL. Each instance here has a DATA_DIR of
// its own (its TLS material only); what they share is the database and the client-secret pepper.
const ADMIN_CLI = fileURLToPath(new URL('../../operator-cli/src/admin-cli.ts', import.meta.url));
const PEPPER = randomBytes(32).toString('base64url');

let database: TestDatabase;
let servers: TestServer[] = [];
let client: TestClient;
const env = () => ({ DATABASE_URL: database.url, CLIENT_SECRET_PEPPER: PEPPER });

beforeAll(async () => {
  database = await createTestDatabase(inject('testSettings').databaseUrl, 'auth_shared_keys');
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop({ removeData: true })));
  await database?.drop();
});

const jwksOf = async (server: TestServer): Promise<JSONWebKeySet> =>
  JSON.parse((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca: server.ca })).body);
const kidsOf = async (server: TestServer) => (await jwksOf(server)).keys.map((key) => String(key.kid));

async function issue(server: TestServer): Promise<string> {
  const reply = await postToken(server, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    scope: 'crm-api/products.read',
  });
  expect(reply.status).toBe(200);
  return String(reply.json.access_token);
}

/** Verifies a token issued by `issuer` against the keys `publisher` serves, as the catalog API would. */
async function verifiedWith(token: string, issuer: TestServer, publisher: TestServer) {
  const { payload } = await jwtVerify(token, createLocalJWKSet(await jwksOf(publisher)), {
    issuer: issuer.url,
    audience: 'crm-api',
    algorithms: ['ES256'],
    typ: 'at+jwt',
  });
  return payload.client_id;
}

/** Every instance polls the database about once a second; a loaded machine gets a generous deadline. */
async function untilEvery(predicate: (kids: string[]) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const seen = await Promise.all(servers.map(kidsOf));
    if (seen.every(predicate)) return;
    if (Date.now() > deadline)
      throw new Error(`${what}: never on every instance; last ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rotate = (args: string[], operatorDataDir: string) =>
  runToExit({
    entry: ADMIN_CLI,
    args: ['keys', 'rotate', ...args],
    env: { ...env(), DATA_DIR: operatorDataDir },
  });

describe('signing keys in the shared store on PostgreSQL (issue 16)', () => {
  it('two token servers starting together with different DATA_DIRs create one key set in the database and publish the same JWKS', async () => {
    servers = await Promise.all([startTestServer({ env: env() }), startTestServer({ env: env() })]);
    const [first, second] = servers as [TestServer, TestServer];
    expect(first.dataDir).not.toBe(second.dataDir);
    const published = await jwksOf(first);
    expect(published.keys).toHaveLength(1);
    expect(await jwksOf(second)).toEqual(published);
    for (const server of servers) expect(existsSync(signingKeysFile(server.dataDir))).toBe(false);
    client = await first.createClient();
  });

  it('the set in the database is sealed: no private JWK, no "d" member, no private key bytes in clear', async () => {
    const records = await openPostgresSigningKeySetStore({ url: database.url });
    const opened = await openSigningKeys(
      { engine: 'postgres', url: database.url, dataDir: servers[0]?.dataDir as string },
      async () => Buffer.from(PEPPER, 'utf8'),
    );
    try {
      const sealed = Buffer.from((await records.read())?.sealed ?? []);
      const { d } = (await opened.read())?.set.keys[0]?.privateJwk ?? { d: '' };
      expect(d).not.toBe('');
      const text = sealed.toString('latin1');
      for (const clear of ['"d"', 'privateJwk', '"kty"', d]) expect(text).not.toContain(clear);
      expect(sealed.includes(Buffer.from(d, 'base64url'))).toBe(false);
      expect(() => JSON.parse(sealed.toString('utf8'))).toThrow();
    } finally {
      await records.close();
      await opened.close();
    }
  });

  it('pnpm admin keys rotate against the database is served by every instance: staged key published, then signing; tokens of either verify with the other; earlier tokens stay valid', async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const [oldKid] = await kidsOf(first);
    const earlier = [await issue(first), await issue(second)];
    // The operator's machine: a DATA_DIR with neither keys nor pepper; the pepper comes from the variable.
    const operatorDataDir = await mkdtemp(join(tmpdir(), 'auth-operator-'));
    try {
      const staged = await rotate([], operatorDataDir);
      expect(staged.stderr).toContain('step 1 of 2');
      expect(staged.code).toBe(0);
      const stagedKid = /^staged (\S+)\n$/.exec(staged.stdout)?.[1] as string;
      await untilEvery((kids) => kids.join() === [oldKid, stagedKid].join(), 'the staged key published');
      for (const server of servers) expect(decodeProtectedHeader(await issue(server)).kid).toBe(oldKid);

      const promoted = await rotate(['--force'], operatorDataDir);
      expect(promoted.code).toBe(0);
      expect(promoted.stdout).toBe(`active ${stagedKid}\n`);
      await untilEvery(
        (kids) => kids[0] === stagedKid && kids.includes(oldKid as string),
        'the new key signing',
      );
      expect(existsSync(signingKeysFile(operatorDataDir))).toBe(false);
    } finally {
      await rm(operatorDataDir, { recursive: true, force: true });
    }

    const fresh = [await issue(first), await issue(second)];
    for (const token of fresh) expect(decodeProtectedHeader(token).kid).not.toBe(oldKid);
    expect(await verifiedWith(fresh[0] as string, first, second)).toBe(client.clientId);
    expect(await verifiedWith(fresh[1] as string, second, first)).toBe(client.clientId);
    for (const [index, token] of earlier.entries()) {
      const issuer = servers[index] as TestServer;
      for (const publisher of servers)
        expect(await verifiedWith(token, issuer, publisher)).toBe(client.clientId);
    }
    const { events } = await first.store.audit.list({ targetType: 'signing-key', limit: 10 });
    expect(events.map((event) => event.action)).toEqual(['signing-key.promote', 'signing-key.stage']);
  });

  it('a token server given another pepper cannot open the set and does not start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'auth-other-pepper-'));
    try {
      const refused = startTestServer({
        dataDir,
        env: { DATABASE_URL: database.url, CLIENT_SECRET_PEPPER: randomBytes(32).toString('base64url') },
      });
      await expect(refused).rejects.toBeInstanceOf(SigningKeySetError);
      await expect(refused).rejects.toThrow(/does not open with this deployment's client-secret pepper/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a sealed set put back at another version does not open: the version is sealed in with it', async () => {
    const url = await database.schemaUrl();
    const keys = await openSigningKeys({ engine: 'postgres', url, dataDir: tmpdir() }, async () =>
      Buffer.from(PEPPER, 'utf8'),
    );
    const records = await openPostgresSigningKeySetStore({ url });
    try {
      await keys.createOnce({ format: 1, keys: [await generateSigningKey('active', new Date())] });
      const first = (await records.read()) as SealedKeySet;
      // What write access to the table allows: version 1's bytes stored again as version 2.
      expect(await records.replace(1, first.sealed)).toBe(true);
      await expect(keys.read()).rejects.toThrow(/version 2 does not open/);
    } finally {
      await records.close();
      await keys.close();
    }
  });
});
