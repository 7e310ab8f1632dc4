import { adminConsoleAssetsDir } from '@catalog/admin-console';
import {
  healthCheck,
  readinessCheck,
  requestContext,
  requestMetrics,
  requireForwardedHttps,
  ShutdownState,
  securityHeaders,
  trustedProxyHeaders,
} from '@catalog/server-runtime';
import type { CatalogStore } from '@catalog/store';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { TokenVerifier } from './auth/token-verifier.ts';
import type { CatalogApiConfig } from './config/config.ts';
import type { AppState } from './http/app-state.ts';
import { authenticate } from './http/authenticate.ts';
import { checkClientStatus } from './http/check-client-status.ts';
import { errorBody } from './http/error-body.ts';
import { rateLimits } from './http/rate-limits.ts';
import { apiReadinessChecks, apiReadinessDetails } from './http/readiness-checks.ts';
import { refuseQueryAccessToken } from './http/refuse-query-access-token.ts';
import type { RequestLimiter } from './limits/request-limiter.ts';
import { CatalogMetrics } from './metrics/catalog-metrics.ts';
import { operationOf } from './metrics/operation-of.ts';
import { adminCatalogueRoutes } from './routes/admin-catalogue.ts';
import { adminConsoleRoutes } from './routes/admin-console.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { auditEventRoutes } from './routes/audit-events.ts';
import { catalogBrandRoutes } from './routes/catalog-brands.ts';
import { catalogProductRoutes } from './routes/catalog-products.ts';
import { m2mClientRoutes } from './routes/m2m-clients.ts';
import type { RouteDeps } from './routes/route-deps.ts';
import { searchPreviewRoutes } from './routes/search-preview.ts';
import { webAppClientRoutes } from './routes/web-app-clients.ts';
import { webhookSubscriptionRoutes } from './routes/webhook-subscriptions.ts';
import type { UsageCounter } from './usage/usage-counter.ts';

export interface CatalogApiDeps {
  readonly config: CatalogApiConfig;
  readonly logger: Logger;
  readonly store: CatalogStore;
  readonly verifier: TokenVerifier;
  readonly usage: UsageCounter;
  /** The limits of spec 8, from openRequestLimiter (shared through Redis when REDIS_URL is set). */
  readonly limiter: RequestLimiter;
  /** The pepper that keys client-secret hashes (shared with the token server). */
  readonly secretPepper: Uint8Array;
  readonly now?: () => Date;
  /** Counts what operators watch; none kept (and no per-request cost) when absent. */
  readonly metrics?: CatalogMetrics;
  /** Turns /ready to 503 once the process stops; never, when absent. */
  readonly shutdown?: ShutdownState;
  /** The built admin console (index.html, assets/); @catalog/admin-console's dist/ when absent. */
  readonly consoleDir?: string;
}

/** Builds the catalog API without listening, so tests and main.ts start it the same way. */
export function createApp(deps: CatalogApiDeps): Koa<AppState> {
  const { config, logger, store } = deps;
  // Behind the proxy the caller's address is the X-Forwarded-For entry the proxy appended (the last
  // one): earlier entries are whatever the caller sent, and the per-IP limit keys on this address.
  // Only a request from one of TRUSTED_PROXIES keeps that header (trustedProxyHeaders).
  const app = new Koa<AppState>({ proxy: config.transport.mode === 'behind-proxy', maxIpsCount: 1 });
  const healthPath = `${config.basePath}/health`;
  const readyPath = `${config.basePath}/ready`;
  const metrics = deps.metrics ?? new CatalogMetrics({ enabled: false });
  const router = new Router<AppState>({ prefix: config.basePath });

  // Before anything reads the caller's address or protocol: only a trusted proxy's headers stay.
  if (config.transport.mode === 'behind-proxy') app.use(trustedProxyHeaders(config.transport.trustedProxies));
  // First, so that every answer is counted, the refusals of the middleware below included.
  if (metrics.enabled) {
    const probes = new Map([
      [healthPath, 'health'],
      [readyPath, 'ready'],
    ]);
    app.use(requestMetrics(metrics.registry, operationOf(router, probes)));
  }
  app.use(requestContext(logger));
  app.use(securityHeaders());
  if (config.transport.mode === 'behind-proxy') app.use(requireForwardedHttps(healthPath, readyPath));
  app.use(errorBody());
  app.use(refuseQueryAccessToken());
  app.use(healthCheck(healthPath, 'catalog-api'));
  app.use(
    readinessCheck(
      readyPath,
      apiReadinessChecks(store, deps.verifier),
      deps.shutdown ?? new ShutdownState(),
      apiReadinessDetails(store),
    ),
  );
  app.use(rateLimits(deps.limiter, healthPath, (limiter) => metrics.rateLimited(limiter)));

  const routeDeps: RouteDeps = {
    store,
    config,
    secretPepper: deps.secretPepper,
    now: deps.now ?? (() => new Date()),
    guards: {
      authenticate: authenticate(deps.verifier),
      checkClientStatus: checkClientStatus(store, deps.usage, metrics),
    },
  };
  // Fixed paths first: /brands/overview must not be taken for GET /brands/{id}, nor
  // /products/search-preview for GET /products/{productId}.
  adminCatalogueRoutes(router, routeDeps);
  searchPreviewRoutes(router, routeDeps);
  catalogProductRoutes(router, routeDeps);
  catalogBrandRoutes(router, routeDeps);
  m2mClientRoutes(router, routeDeps);
  webhookSubscriptionRoutes(router, routeDeps);
  auditEventRoutes(router, routeDeps);
  webAppClientRoutes(router, routeDeps);
  apiDocsRoutes(router, routeDeps);
  adminConsoleRoutes(router, routeDeps, { dir: deps.consoleDir ?? adminConsoleAssetsDir });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
