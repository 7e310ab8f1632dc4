// Token servers built in-process as instances of one deployment: one DATA_DIR (the SQLite store,
// signing keys, pepper, TLS) and one Redis prefix, each on its own loopback port, all naming the
// balancer's public URL as their issuer. A test sends each request to whichever instance it wants.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { createAdminUser, type HttpsReply, HttpsSession } from '@catalog/identity';
import {
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  listen,
  loadClientSecretPepper,
} from '@catalog/server-runtime';
import { type RawReply, rawRequest } from '@catalog/server-runtime/testing';
import type { CatalogStore } from '@catalog/store';
import { pino } from 'pino';
import { buildAuthServer } from '../../src/auth-server.ts';
import { loadAuthServerConfig } from '../../src/config/config.ts';
import { AuthMetrics } from '../../src/metrics/auth-metrics.ts';
import { newClientId, type TestClient } from './test-server.ts';

/** The issuer every instance names, as behind a balancer; nothing listens there. */
export const PUBLIC_URL = 'https://auth.balancer.test';

export interface LogEntry {
  readonly level: number;
  readonly msg: string;
}

export interface Instance {
  readonly url: string;
  readonly ca: string;
  /** What the instance logged at info or above. */
  readonly logs: LogEntry[];
  /** auth_rate_limit_fallbacks_total */
  fallbacks(): Promise<number>;
  stop(): Promise<void>;
}

export interface Deployment {
  readonly dataDir: string;
  readonly store: CatalogStore;
  /** Starts one more instance (or a restarted one) on the deployment's data and Redis. */
  start(): Promise<Instance>;
  createClient(): Promise<TestClient>;
  createAdmin(email: string, password: string): Promise<void>;
  /** Stops every instance still running and removes the data. */
  stop(): Promise<void>;
}

export async function deployment(env: Record<string, string>): Promise<Deployment> {
  const dataDir = await mkdtemp(join(tmpdir(), 'auth-shared-'));
  const running = new Set<Instance>();

  const start = async (): Promise<Instance> => {
    const config = loadAuthServerConfig({ DATA_DIR: dataDir, AUTH_SERVER_PORT: '0', ...env });
    const logs: LogEntry[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    const metrics = new AuthMetrics({ enabled: false });
    const server = await buildAuthServer({ config, logger, metrics });
    const tls = await ensureLocalTls(dataDir);
    const listening = await listen({
      handler: server.handler,
      host: '127.0.0.1',
      port: 0,
      tls,
      portVariable: 'AUTH_SERVER_PORT',
    });
    server.start(PUBLIC_URL);
    const instance: Instance = {
      url: `https://localhost:${listening.port}`,
      ca: await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8'),
      logs,
      async fallbacks() {
        const metric = await metrics.registry.getSingleMetric('auth_rate_limit_fallbacks_total')?.get();
        return metric?.values[0]?.value ?? 0;
      },
      async stop() {
        if (!running.delete(instance)) return;
        await listening.close(1000);
        await server.close();
      },
    };
    running.add(instance);
    return instance;
  };

  // The store and the pepper first, as a deployment's operator would create them (both are created
  // once, whoever comes first).
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined));
  const pepper = await loadClientSecretPepper({ dataDir });
  return {
    dataDir,
    store,
    start,
    async createClient() {
      const clientId = newClientId();
      const clientSecret = generateClientSecret();
      await store.clients.create({
        clientId,
        clientName: 'shared-state test',
        scopes: ['products.read'],
        createdBy: { userId: 'test', userName: 'test' },
        expiresAt: null,
        secretHash: hashClientSecret(clientSecret, pepper),
        tokenLifetimeSeconds: 3600,
      });
      return { clientId, clientSecret };
    },
    async createAdmin(email, password) {
      await createAdminUser({ users: store.adminUsers, email, password, groups: ['admin'] });
    },
    async stop() {
      await Promise.all([...running].map((instance) => instance.stop()));
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser behind the balancer: each request goes to the next instance in turn, whatever origin
 * the URL names (the issuer's, in the provider's redirects). `served` lists the instance of each.
 */
export class AlternatingBrowser extends HttpsSession {
  readonly served: number[] = [];
  readonly #instances: readonly Instance[];
  #next = 0;

  constructor(instances: readonly Instance[]) {
    super({ ca: instances[0]?.ca });
    this.#instances = instances;
  }

  override send(method: 'GET' | 'POST', url: string, form?: URLSearchParams): Promise<HttpsReply> {
    const index = this.#next % this.#instances.length;
    this.#next += 1;
    this.served.push(index);
    const target = new URL(url);
    const origin = new URL(this.#instances[index]?.url ?? '');
    target.host = origin.host;
    return super.send(method, target.href, form);
  }
}

/** A client-credentials token request to one instance. */
export function requestToken(instance: Instance, client: TestClient): Promise<RawReply> {
  return rawRequest(`${instance.url}/oauth2/token`, {
    method: 'POST',
    ca: instance.ca,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'crm-api/products.read',
    }).toString(),
  });
}
