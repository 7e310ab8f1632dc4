import { engineSelection, openCatalogue } from '@catalog/engines';
import {
  exitOnStartupError,
  loadClientSecretPepper,
  loadSyncTokenSecret,
  startHttpService,
} from '@catalog/server-runtime';
import { ensureDemoCatalogue } from '@catalog/store';
import { createApp } from './app.ts';
import { createTokenVerifier } from './auth/token-verifier.ts';
import { loadCatalogApiConfig } from './config/config.ts';
import { openRequestLimiter } from './limits/open-request-limiter.ts';
import { CatalogMetrics } from './metrics/catalog-metrics.ts';
import { UsageCounter } from './usage/usage-counter.ts';
import { startWebhookDelivery } from './webhooks/start-webhook-delivery.ts';

try {
  const config = loadCatalogApiConfig();
  const engines = engineSelection(config);
  await startHttpService({
    service: 'catalog-api',
    settings: config,
    portVariable: 'CATALOG_API_PORT',
    build: async (logger, shutdown) => {
      const metrics = new CatalogMetrics({ enabled: config.metrics.enabled });
      const store = await openCatalogue(engines, {
        searchTimeoutMs: config.searchTimeoutMs,
        searchObserver: metrics.searchObserver,
        searchPageCacheBytes: config.searchPageCacheBytes,
        syncTokenSecret: await loadSyncTokenSecret({
          dataDir: config.dataDir,
          override: config.syncTokenSecret,
        }),
        onReplicaError: (error) =>
          logger.warn({ err: error }, 'the search replica could not follow the change feed; retrying'),
        // A replica built from scratch takes tens of seconds at 1M products: the API listens meanwhile,
        // refusing searches, and says how far the build has come on /ready and in its log.
        replicaInBackground: true,
        onReplicaProgress: (progress) =>
          logger.info(
            { searchReplica: progress },
            progress.state === 'built' ? 'search replica built' : 'search replica building',
          ),
      });
      if (config.demoCatalogueProducts > 0) {
        const seeded = await ensureDemoCatalogue(store, { products: config.demoCatalogueProducts });
        if (seeded) logger.info({ products: config.demoCatalogueProducts }, 'demo catalogue generated');
      }
      const usage = new UsageCounter(store.clients, logger, metrics);
      usage.start(config.usageFlushMs);
      const limiter = await openRequestLimiter({
        config,
        logger,
        onFallback: () => metrics.rateLimitFallback(),
      });
      const secretPepper = await loadClientSecretPepper({
        dataDir: config.dataDir,
        override: config.clientSecretPepper,
      });
      const app = createApp({
        config,
        logger,
        store,
        usage,
        limiter,
        metrics,
        shutdown,
        verifier: createTokenVerifier(config.tokens),
        secretPepper,
      });
      const webhooks = await startWebhookDelivery({
        config: config.webhooks,
        location: engines.records,
        store: store.webhooks,
        secretPepper,
        observer: metrics.webhookObserver,
        logger,
      });
      return {
        handler: app.callback(),
        metrics: metrics.registry,
        close: async () => {
          await webhooks.stop();
          await usage.stop();
          await limiter.close();
          await store.close();
        },
      };
    },
  });
} catch (error) {
  exitOnStartupError(error);
}
