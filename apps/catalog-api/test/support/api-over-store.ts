// The catalog API built in-process over a real SQLite store that a test may wrap (to make one of its
// parts fail as an unreachable database would), beside a real token server process. Everything
// else — tokens, TLS, SQLite, the app's middleware — is what `pnpm start` runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalogue, selectEngines } from '@catalog/engines';
import {
  createLogger,
  ensureLocalTls,
  listen,
  loadClientSecretPepper,
  type RunningServer,
} from '@catalog/server-runtime';
import { type SpawnedService, spawnService } from '@catalog/server-runtime/testing';
import type { CatalogStore } from '@catalog/store';
import { TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { createApp } from '../../src/app.ts';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';
import { loadCatalogApiConfig } from '../../src/config/config.ts';
import { openRequestLimiter } from '../../src/limits/open-request-limiter.ts';
import type { CatalogMetrics } from '../../src/metrics/catalog-metrics.ts';
import { UsageCounter } from '../../src/usage/usage-counter.ts';

export interface ApiOverStore {
  readonly dataDir: string;
  readonly auth: SpawnedService;
  /** The real store, unwrapped: what the test writes through. */
  readonly store: CatalogStore;
  readonly ca: string;
  /** `https://localhost:<port>` of the API. */
  readonly base: string;
  stop(): Promise<void>;
}

export async function startApiOverStore(input: {
  readonly dataDirPrefix: string;
  /** The parts of the store the API is given instead of the real ones. */
  readonly wrap: (store: CatalogStore) => Partial<CatalogStore>;
  /** The API's metrics, for a test that reads them from the registry. */
  readonly metrics?: CatalogMetrics;
  /** More of the API's environment (BASE_PATH…). */
  readonly env?: Record<string, string>;
  /** The built console it serves, instead of @catalog/admin-console's dist/. */
  readonly consoleDir?: string;
}): Promise<ApiOverStore> {
  const dataDir = await mkdtemp(join(tmpdir(), input.dataDirPrefix));
  const tls = await ensureLocalTls(dataDir);
  const auth = await spawnService({
    entry: fileURLToPath(new URL('../../../auth-server/src/main.ts', import.meta.url)),
    env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' },
  });
  const config = loadCatalogApiConfig({
    DATA_DIR: dataDir,
    PUBLIC_AUTH_URL: auth.url,
    RATE_LIMIT_RPS: '0',
    ...input.env,
  });
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
    searchWorkers: 1,
    // A loaded machine may take seconds to start a search worker; a time-out is not what these tests check.
    searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
  });
  const logger = createLogger('catalog-api-test', 'silent');
  const limiter = await openRequestLimiter({
    config,
    logger,
    onFallback: () => input.metrics?.rateLimitFallback(),
  });
  const app = createApp({
    config,
    logger,
    store: {
      ...store,
      productSearch: store.productSearch,
      brandSearch: store.brandSearch,
      ...input.wrap(store),
    },
    verifier: createTokenVerifier(config.tokens),
    usage: new UsageCounter(store.clients, logger, input.metrics),
    limiter,
    ...(input.metrics === undefined ? {} : { metrics: input.metrics }),
    ...(input.consoleDir === undefined ? {} : { consoleDir: input.consoleDir }),
    secretPepper: await loadClientSecretPepper({ dataDir }),
  });
  const server: RunningServer = await listen({
    handler: app.callback(),
    host: '127.0.0.1',
    port: 0,
    tls,
    portVariable: 'PORT',
  });
  return {
    dataDir,
    auth,
    store,
    ca: tls.ca ?? '',
    base: `https://localhost:${server.port}`,
    async stop() {
      await server.close(100);
      await limiter.close();
      await auth.stop();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
