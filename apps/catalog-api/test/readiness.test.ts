import { once } from 'node:events';
import { createServer } from 'node:net';
import { validateResponse } from '@catalog/contracts';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { MetricsScrape, rawRequest, requestAccessToken } from '@catalog/server-runtime/testing';
import type { ClientStore } from '@catalog/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '../src/auth/token-verifier.ts';
import { CatalogMetrics } from '../src/metrics/catalog-metrics.ts';
import { type ApiOverStore, startApiOverStore } from './support/api-over-store.ts';
import { type Stack, startStack } from './support/stack.ts';

// /ready: 200 only when the store answers, the token server's keys are at hand and the process is
// not stopping; /health stays liveness throughout.

/** Polls (bounded) until `read` gives `expected`; returns the last value read. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 200 && value !== expected; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

describe('readiness over a store that becomes unreachable', () => {
  let api: ApiOverStore;
  const state = { available: true };
  const metrics = new CatalogMetrics({ enabled: true });

  beforeAll(async () => {
    api = await startApiOverStore({
      dataDirPrefix: 'readiness-',
      metrics,
      // The store behind the API fails as an unreachable database would; the rest is real.
      wrap: (store): { clients: ClientStore } => ({
        clients: {
          ...store.clients,
          get: (clientId) =>
            state.available ? store.clients.get(clientId) : Promise.reject(new Error('database is locked')),
          recordUsage: (clientId, calls) => store.clients.recordUsage(clientId, calls),
        },
      }),
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const ready = () => rawRequest(`${api.base}/ready`, { ca: api.ca });

  it('answers 200 with each check named when the store answers and the keys can be fetched, without authentication', async () => {
    const reply = await ready();
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(reply.body)).toEqual({
      status: 'ready',
      checks: { store: 'ok', jwks: 'ok', shutdown: 'running' },
    });
    expect(validateResponse('getReadiness', reply.status, JSON.parse(reply.body))).toEqual([]);
  });

  it('answers 503 naming the store while it cannot be read, 200 again once it can; /health stays 200; the fail-open is counted', async () => {
    const pepper = await loadClientSecretPepper({ dataDir: api.dataDir });
    const secret = generateClientSecret();
    const clientId = 'ReadinessClient00000000000';
    await api.store.clients.create({
      clientId,
      clientName: 'readiness',
      scopes: ['brands.read'],
      createdBy: { userId: 't', userName: 'test' },
      expiresAt: null,
      secretHash: hashClientSecret(secret, pepper),
      tokenLifetimeSeconds: 3600,
    });
    const { token } = await requestAccessToken({
      authUrl: api.auth.url,
      ca: api.ca,
      clientId,
      clientSecret: secret,
      scopes: ['brands.read'],
    });
    const failedOpen = async () =>
      new MetricsScrape(await metrics.registry.metrics()).value(
        'catalog_revocation_checks_failed_open_total',
      );
    const before = await failedOpen();

    state.available = false;
    try {
      const reply = await ready();
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.body)).toEqual({
        status: 'not-ready',
        checks: { store: 'failing', jwks: 'ok', shutdown: 'running' },
      });
      expect(reply.body).not.toContain('locked');
      expect((await rawRequest(`${api.base}/health`, { ca: api.ca })).status).toBe(200);
      const call = await rawRequest(`${api.base}/brands`, {
        ca: api.ca,
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(call.status).toBe(200);
      expect((await failedOpen()) - before).toBe(1);
    } finally {
      state.available = true;
    }
    expect((await ready()).status).toBe(200);
  });
});

describe('readiness of the token server keys', () => {
  it('reports the keys unavailable when the JWKS cannot be fetched, and available from a live token server', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const issuer = `https://localhost:${port}`;
    const unreachable = createTokenVerifier({
      issuer,
      jwksUrl: `${issuer}/.well-known/jwks.json`,
      caFile: undefined,
      tokenEndpoint: `${issuer}/oauth2/token`,
    });
    expect(await unreachable.keysAvailable()).toBe(false);
  });
});

describe('draining on SIGTERM', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('answers /ready 503 at once while it still completes in-flight requests and serves new ones, /health staying 200', async () => {
    stack = await startStack({ demoProducts: 10, env: { SHUTDOWN_DRAIN_MS: '600000' } });
    const { token } = await stack.m2mToken(['products.read']);
    expect((await stack.call('/ready')).status).toBe(200);

    const inFlight = stack.call('/products/search', { token });
    stack.api.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    const drainingStack = stack;
    expect(await until(async () => (await drainingStack.call('/ready')).status, 503)).toBe(503);
    expect((await stack.call('/ready', { operation: 'getReadiness' })).body).toEqual({
      status: 'not-ready',
      checks: { shutdown: 'draining' },
    });
    expect((await stack.call('/products/search', { token })).status).toBe(200);
    expect((await stack.call('/health')).status).toBe(200);
    expect(stack.api.output()).toContain('draining: /ready answers 503');
  });

  it('closes once the drain period is over and exits 0', async () => {
    stack = await startStack({ env: { SHUTDOWN_DRAIN_MS: '100' } });
    expect(await stack.api.stop()).toBe(0);
    const output = stack.api.output();
    expect(output.indexOf('draining')).toBeGreaterThan(-1);
    expect(output.indexOf('"msg":"stopped"')).toBeGreaterThan(output.indexOf('draining'));
  });
});
