import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import {
  rawRequest,
  requestAccessToken,
  type SpawnedService,
  spawnService,
} from '@catalog/server-runtime/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from './support/test-server.ts';

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('auth-server process (pnpm start)', () => {
  let dataDir: string;
  let first: SpawnedService;
  let second: SpawnedService;
  let ca: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'auth-server-process-'));
    // Two servers on one empty DATA_DIR at the same moment, as `pnpm start` starts both servers.
    [first, second] = await Promise.all([
      spawnService({ entry, env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' } }),
      spawnService({ entry, env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', BASE_PATH: '/prod' } }),
    ]);
    ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the token endpoint, issuing tokens to a client the shared store holds', async () => {
    const pepper = await loadClientSecretPepper({ dataDir });
    const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined));
    const clientId = newClientId();
    const clientSecret = generateClientSecret();
    try {
      await store.clients.create({
        clientId,
        clientName: 'process test',
        scopes: ['products.read'],
        createdBy: { userId: 'test', userName: 'test' },
        expiresAt: null,
        secretHash: hashClientSecret(clientSecret, pepper),
        tokenLifetimeSeconds: 3600,
      });
    } finally {
      await store.close();
    }
    for (const server of [first, second]) {
      const reply = await requestAccessToken({
        authUrl: server.url,
        ca,
        clientId,
        clientSecret,
        scopes: ['products.read'],
      });
      expect(reply.status).toBe(200);
      const token = reply.token ?? '';
      const jwks = JSON.parse((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca })).body);
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: server.url,
        audience: 'crm-api',
      });
      expect(payload.client_id).toBe(clientId);
    }
  });

  it('shares one signing key and one pepper between servers started together on an empty DATA_DIR', async () => {
    const kids = await Promise.all(
      [first, second].map(async (server) =>
        JSON.parse((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca })).body),
      ),
    );
    expect(kids[0]).toEqual(kids[1]);
  });

  it('serves the token routes under the BASE_PATH stage prefix, with the prefix in the issuer', async () => {
    expect(second.url).toMatch(/\/prod$/);
    const discovery = JSON.parse(
      (await rawRequest(`${second.url}/.well-known/openid-configuration`, { ca })).body,
    ) as Record<string, string>;
    expect(discovery.issuer).toBe(second.url);
    expect(discovery.token_endpoint).toBe(`${second.url}/oauth2/token`);
    expect(discovery.jwks_uri).toBe(`${second.url}/.well-known/jwks.json`);
    const unprefixed = await rawRequest(`${second.url.replace(/\/prod$/, '')}/.well-known/jwks.json`, { ca });
    expect(unprefixed.status).toBe(404);
  });
});
