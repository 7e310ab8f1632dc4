// The catalog API built in-process with what its limits need and no more: a fresh DATA_DIR and
// SQLite store, its own metrics and log lines, and no token server (the tests call the public
// /openapi.json). Several of them over one Redis are several instances of one deployment.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { listen, loadClientSecretPepper, resolveTls } from '@catalog/server-runtime';
import { type RawReply, rawRequest } from '@catalog/server-runtime/testing';
import { TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { pino } from 'pino';
import { inject } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';
import { loadCatalogApiConfig } from '../../src/config/config.ts';
import { openRequestLimiter } from '../../src/limits/open-request-limiter.ts';
import { CatalogMetrics } from '../../src/metrics/catalog-metrics.ts';
import { UsageCounter } from '../../src/usage/usage-counter.ts';

export interface LogEntry {
  readonly level: number;
  readonly msg: string;
}

export interface LimitedApi {
  readonly metrics: CatalogMetrics;
  /** What the API logged at info or above. */
  readonly logs: LogEntry[];
  /**
   * GET /openapi.json, with these headers (behind TRUST_PROXY the X-Forwarded-Proto the proxy sends),
   * connecting from `localAddress` when given (127.0.0.2: a caller other than a proxy on 127.0.0.1).
   */
  call(headers?: Record<string, string>, localAddress?: string): Promise<RawReply>;
  /** catalog_rate_limit_fallbacks_total */
  fallbacks(): Promise<number>;
  stop(): Promise<void>;
}

/** A key prefix of its own for one test's instances, under the run's (removed after the run). */
export function testKeyPrefix(): string {
  return `${inject('redisRunPrefix')}${randomBytes(4).toString('hex')}:`;
}

export async function startLimitedApi(env: Record<string, string>): Promise<LimitedApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'catalog-limits-'));
  const config = loadCatalogApiConfig({
    DATA_DIR: dataDir,
    RATE_LIMIT_RPS: '0',
    RATE_LIMIT_IP_PER_5MIN: '0',
    ...env,
  });
  const tls = await resolveTls(config.transport);
  const logs: LogEntry[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        logs.push(JSON.parse(line) as LogEntry);
      },
    },
  );
  const metrics = new CatalogMetrics({ enabled: false });
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
    searchWorkers: 1,
    // A loaded machine may take seconds to start a search worker; a time-out is not what these tests check.
    searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
  });
  const limiter = await openRequestLimiter({ config, logger, onFallback: () => metrics.rateLimitFallback() });
  const app = createApp({
    config,
    logger,
    store,
    limiter,
    metrics,
    verifier: createTokenVerifier(config.tokens),
    usage: new UsageCounter(store.clients, logger, metrics),
    secretPepper: await loadClientSecretPepper({ dataDir }),
  });
  const server = await listen({
    handler: app.callback(),
    host: '127.0.0.1',
    port: 0,
    tls,
    portVariable: 'PORT',
  });
  // The local CA's certificate names localhost; plain HTTP (TRUST_PROXY) goes straight to the address.
  const base = tls === null ? `http://127.0.0.1:${server.port}` : `https://localhost:${server.port}`;
  return {
    metrics,
    logs,
    call: (headers = {}, localAddress = undefined) =>
      rawRequest(`${base}/openapi.json`, {
        headers,
        ...(tls?.ca ? { ca: tls.ca } : {}),
        ...(localAddress ? { localAddress } : {}),
      }),
    async fallbacks() {
      const metric = await metrics.registry.getSingleMetric('catalog_rate_limit_fallbacks_total')?.get();
      return metric?.values[0]?.value ?? 0;
    },
    async stop() {
      await server.close(100);
      await limiter.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
