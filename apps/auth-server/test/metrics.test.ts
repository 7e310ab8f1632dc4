import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import {
  rawRequest,
  type SpawnedService,
  scrapeMetrics,
  spawnService,
} from '@catalog/server-runtime/testing';
import type { CatalogStore } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_OUTCOMES } from '../src/metrics/auth-metrics.ts';
import { newClientId } from './support/test-server.ts';

// The token server's Prometheus metrics, scraped from the real process's metrics listener and read
// with a real text-format parser after a known sequence of token requests.

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SCOPE = 'crm-api/products.read';

describe('token server metrics', () => {
  let dataDir: string;
  let server: SpawnedService;
  let store: CatalogStore;
  let ca: string;
  let metricsUrl: string;

  const createClient = async () => {
    const clientId = newClientId();
    const clientSecret = generateClientSecret();
    await store.clients.create({
      clientId,
      clientName: 'metrics test',
      scopes: ['products.read'],
      createdBy: { userId: 'test', userName: 'test' },
      expiresAt: null,
      secretHash: hashClientSecret(clientSecret, await loadClientSecretPepper({ dataDir })),
      tokenLifetimeSeconds: 3600,
    });
    return { clientId, clientSecret };
  };
  const token = async (form: Record<string, string>) =>
    (
      await rawRequest(`${server.url}/oauth2/token`, {
        method: 'POST',
        ca,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      })
    ).status;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'auth-metrics-'));
    server = await spawnService({
      entry,
      env: {
        DATA_DIR: dataDir,
        AUTH_SERVER_PORT: '0',
        TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '3',
        TOKEN_RATE_LIMIT_IP_PER_MIN: '9',
      },
    });
    if (server.metricsUrl === undefined) throw new Error('no metrics URL announced');
    metricsUrl = server.metricsUrl;
    ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
    store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
      searchWorkers: 1,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts token requests by outcome, rate-limit refusals by limiter and requests by endpoint, exactly', async () => {
    const a = await createClient();
    const b = await createClient();
    const grant = (
      client: { clientId: string; clientSecret: string },
      extra: Record<string, string> = {},
    ) => ({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: SCOPE,
      ...extra,
    });
    const before = await scrapeMetrics(metricsUrl);

    // Per client 3 failed authentications a minute, per address 9 requests a minute.
    const wrong = { client_secret: 'not the secret' };
    const statuses = [
      await token(grant(a)),
      await token(grant(a, { scope: 'crm-api/products.write' })),
      await token(grant(a, wrong)),
      await token(grant(a, wrong)),
      await token(grant(a, wrong)),
      await token(grant(a, wrong)), // a's 4th failure: the per-client limit
      await token(grant(a)), // the right secret is served past it
      await token(grant(b, { grant_type: 'password' })),
      await token(grant(b)),
      await token(grant(b)), // the 10th from this address: the per-IP limit
    ];
    expect(statuses).toEqual([200, 400, 400, 400, 400, 429, 200, 400, 200, 429]);
    expect((await rawRequest(`${server.url}/.well-known/jwks.json`, { ca })).status).toBe(200);
    expect((await rawRequest(`${server.url}/.well-known/openid-configuration`, { ca })).status).toBe(200);
    expect((await rawRequest(`${server.url}/no/such/endpoint`, { ca })).status).toBe(404);
    const after = await scrapeMetrics(metricsUrl);
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    const outcomes = Object.fromEntries(
      TOKEN_OUTCOMES.map((outcome) => [outcome, moved('auth_token_requests_total', { outcome })]),
    );
    expect(outcomes).toEqual({
      issued: 3,
      invalid_client: 3,
      invalid_request: 0,
      invalid_scope: 1,
      invalid_grant: 0,
      unauthorized_client: 0,
      unsupported_grant_type: 1,
      rate_limited: 2,
      server_error: 0,
      other: 0,
    });
    expect(moved('rate_limit_rejections_total', { limiter: 'token_client' })).toBe(1);
    expect(moved('rate_limit_rejections_total', { limiter: 'token_ip' })).toBe(1);
    expect(moved('rate_limit_rejections_total', { limiter: 'sign_in_ip' })).toBe(0);
    expect(moved('http_requests_total', { operation: 'token', status_class: '2xx' })).toBe(3);
    expect(moved('http_requests_total', { operation: 'token', status_class: '4xx' })).toBe(7);
    expect(moved('http_requests_total', { operation: 'jwks', status_class: '2xx' })).toBe(1);
    expect(moved('http_requests_total', { operation: 'discovery', status_class: '2xx' })).toBe(1);
    expect(moved('http_requests_total', { operation: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(moved('http_request_duration_seconds', { operation: 'token' })).toBe(10);
  });

  it('never shows a client id in the metrics, and never serves them on the public port', async () => {
    const client = await createClient();
    await token({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: 'x' });
    const text = (await rawRequest(metricsUrl)).body;
    expect(text).not.toContain(client.clientId);
    expect((await rawRequest(`${server.url}/metrics`, { ca })).status).toBe(404);
  });

  it('listens for scrapes on loopback, on its own port (AUTH_METRICS_PORT), with the default process metrics', async () => {
    const url = new URL(metricsUrl);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe(String(server.port));
    const scrape = await scrapeMetrics(metricsUrl);
    expect(scrape.families.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(scrape.families.has('process_resident_memory_bytes')).toBe(true);
  });

  it('serves no metrics listener with METRICS_ENABLED=false', async () => {
    const quiet = await spawnService({
      entry,
      env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', METRICS_ENABLED: 'false' },
    });
    try {
      expect(quiet.metricsUrl).toBeUndefined();
      expect(quiet.output()).not.toContain('metrics listening');
    } finally {
      await quiet.stop();
    }
  });
});
