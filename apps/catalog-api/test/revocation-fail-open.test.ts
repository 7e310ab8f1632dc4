import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createLogger,
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  listen,
  loadClientSecretPepper,
  type RunningServer,
} from '@catalog/server-runtime';
import {
  rawRequest,
  requestAccessToken,
  type SpawnedService,
  spawnService,
} from '@catalog/server-runtime/testing';
import {
  type CatalogStore,
  type ClientStore,
  catalogDatabasePath,
  openSqliteCatalogStore,
} from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { loadCatalogApiConfig } from '../src/config/config.ts';
import { UsageCounter } from '../src/usage/usage-counter.ts';

// The client store behind the revocation check, with a switch that makes it fail as an unreachable
// database would. Everything else (tokens, TLS, SQLite, the app) is real.
function switchableClients(real: ClientStore) {
  const state = { available: true };
  const clients: ClientStore = {
    ...real,
    get: (clientId) =>
      state.available ? real.get(clientId) : Promise.reject(new Error('database is locked')),
    recordUsage: (clientId, calls) => real.recordUsage(clientId, calls),
  };
  return { clients, state };
}

let dataDir: string;
let auth: SpawnedService;
let store: CatalogStore;
let server: RunningServer;
let ca: string;
let base: string;
let state: { available: boolean };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fail-open-'));
  const tls = await ensureLocalTls(dataDir);
  ca = tls.ca ?? '';
  auth = await spawnService({
    entry: fileURLToPath(new URL('../../auth-server/src/main.ts', import.meta.url)),
    env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' },
  });
  const config = loadCatalogApiConfig({ DATA_DIR: dataDir, PUBLIC_AUTH_URL: auth.url, RATE_LIMIT_RPS: '0' });
  store = openSqliteCatalogStore({ databasePath: catalogDatabasePath(dataDir), searchWorkers: 1 });
  const switchable = switchableClients(store.clients);
  state = switchable.state;
  const logger = createLogger('catalog-api-test', 'silent');
  const app = createApp({
    config,
    logger,
    store: {
      ...store,
      clients: switchable.clients,
      productSearch: store.productSearch,
      brandSearch: store.brandSearch,
    },
    verifier: createTokenVerifier(config.tokens),
    usage: new UsageCounter(store.clients, logger),
    secretPepper: await loadClientSecretPepper({ dataDir }),
  });
  server = await listen({ handler: app.callback(), host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
  base = `https://localhost:${server.port}`;
}, 60_000);
afterAll(async () => {
  await server?.close(100);
  await auth?.stop();
  await store?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('revocation check unavailable (spec 3, 5.8)', () => {
  it('accepts a revoked client’s unexpired token while the check cannot be made, and refuses it again once restored', async () => {
    const pepper = await loadClientSecretPepper({ dataDir });
    const secret = generateClientSecret();
    const clientId = 'FailOpenClient0000000000AB';
    await store.clients.create({
      clientId,
      clientName: 'Fail open',
      scopes: ['brands.read'],
      createdBy: { userId: 't', userName: 'test' },
      expiresAt: null,
      secretHash: hashClientSecret(secret, pepper),
      tokenLifetimeSeconds: 3600,
    });
    const { token } = await requestAccessToken({
      authUrl: auth.url,
      ca,
      clientId,
      clientSecret: secret,
      scopes: ['brands.read'],
    });
    const call = () => rawRequest(`${base}/brands`, { ca, headers: { Authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);

    await store.clients.revoke(clientId, { userId: 't', userName: 'test' });
    expect((await call()).status).toBe(403);

    state.available = false;
    expect((await call()).status).toBe(200);

    state.available = true;
    expect((await call()).status).toBe(403);
  });
});
