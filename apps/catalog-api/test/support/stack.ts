import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CatalogOperationId, type GrantableScope, validateResponse } from '@catalog/contracts';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import {
  rawRequest,
  requestAccessToken,
  type SpawnedService,
  spawnServerPair,
} from '@catalog/server-runtime/testing';
import type { CatalogStore, StoredClient } from '@catalog/store';
import { TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { expect } from 'vitest';
import { generateClientId } from '../../src/domain/clients/generate-client-id.ts';

const apiEntry = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const authEntry = fileURLToPath(new URL('../../../auth-server/src/main.ts', import.meta.url));

export interface Reply<T = unknown> {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: T;
  readonly text: string;
}

export interface CallOptions {
  readonly method?: string;
  readonly token?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** The operation whose documented response the reply must match (spec: every response is checked). */
  readonly operation?: CatalogOperationId;
}

/** Both servers as `pnpm start` runs them (real processes, real TLS, one SQLite file), plus test helpers. */
export interface Stack {
  readonly dataDir: string;
  readonly ca: string;
  readonly api: SpawnedService;
  readonly auth: SpawnedService;
  /** A second connection to the same database, for setting up clients and users. */
  readonly store: CatalogStore;
  call<T = unknown>(path: string, options?: CallOptions): Promise<Reply<T>>;
  /** A client created straight in the store, and its secret. */
  client(options: { scopes: GrantableScope[]; channel?: string | null; lifetimeSeconds?: number }): Promise<{
    client: StoredClient;
    secret: string;
  }>;
  /** An access token from the real token endpoint. */
  accessToken(clientId: string, secret: string, scopes: readonly GrantableScope[]): Promise<string>;
  /** A client with these scopes and a token carrying all of them. */
  m2mToken(
    scopes: GrantableScope[],
    options?: { channel?: string | null },
  ): Promise<{ clientId: string; token: string }>;
  /** An ID token through the real sign-in flow, for a user with these groups. */
  idToken(groups: string[]): Promise<string>;
  stop(): Promise<void>;
}

let userCounter = 0;

export async function startStack(
  options: { demoProducts?: number; env?: Record<string, string> } = {},
): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'catalog-stack-'));
  const { auth, api, ca } = await spawnServerPair({
    dataDir,
    authEntry,
    apiEntry,
    apiEnv: {
      DEMO_CATALOGUE_PRODUCTS: String(options.demoProducts ?? 0),
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_IP_PER_5MIN: '0',
      USAGE_FLUSH_MS: '100',
      ...options.env,
    },
  });
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
    searchWorkers: 1,
    // A loaded machine may take seconds to start a search worker; a time-out is not what these tests check.
    searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
  });
  const pepper = await loadClientSecretPepper({ dataDir });

  const stack: Stack = {
    dataDir,
    ca,
    api,
    auth,
    store,
    async call(path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      if (callOptions.token !== undefined) headers.Authorization = `Bearer ${callOptions.token}`;
      let payload: string | undefined;
      if (callOptions.body !== undefined) {
        payload = typeof callOptions.body === 'string' ? callOptions.body : JSON.stringify(callOptions.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const reply = await rawRequest(`${api.url}${path}`, {
        method: callOptions.method ?? 'GET',
        headers,
        ca,
        ...(payload === undefined ? {} : { body: payload }),
      });
      const isJson = String(reply.headers['content-type'] ?? '').includes('application/json');
      const body = isJson ? JSON.parse(reply.body) : reply.body;
      if (callOptions.operation !== undefined) {
        expect(
          validateResponse(callOptions.operation, reply.status, body),
          `${path} → ${reply.status}`,
        ).toEqual([]);
      }
      return { status: reply.status, headers: reply.headers, body, text: reply.body };
    },
    async client({ scopes, channel = null, lifetimeSeconds = 3600 }) {
      const secret = generateClientSecret();
      const client = await store.clients.create({
        clientId: generateClientId(),
        clientName: `test client ${scopes.join(' ')}`,
        scopes,
        createdBy: { userId: 'test', userName: 'test suite' },
        expiresAt: null,
        channel,
        secretHash: hashClientSecret(secret, pepper),
        tokenLifetimeSeconds: lifetimeSeconds,
      });
      return { client, secret };
    },
    async accessToken(clientId, secret, scopes) {
      const reply = await requestAccessToken({
        authUrl: auth.url,
        ca,
        clientId,
        clientSecret: secret,
        scopes,
      });
      expect(reply.status, reply.body).toBe(200);
      return reply.token ?? '';
    },
    async m2mToken(scopes, m2mOptions = {}) {
      const { client, secret } = await stack.client({ scopes, channel: m2mOptions.channel ?? null });
      return { clientId: client.clientId, token: await stack.accessToken(client.clientId, secret, scopes) };
    },
    async idToken(groups) {
      userCounter += 1;
      const email = `person${userCounter}.${Date.now()}@example.test`;
      const password = 'correct horse battery staple';
      await createAdminUser({ users: store.adminUsers, email, password, groups });
      return obtainAdminIdToken({ authUrl: auth.url, ca, email, password });
    },
    async stop() {
      await Promise.all([api.stop(), auth.stop()]);
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}
