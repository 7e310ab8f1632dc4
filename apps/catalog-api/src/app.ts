import { healthCheck, requestContext, requireForwardedHttps } from '@catalog/server-runtime';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { CatalogApiConfig } from './config/config.ts';
import type { AppState } from './http/app-state.ts';
import { errorBody } from './http/error-body.ts';

export interface CatalogApiDeps {
  readonly config: CatalogApiConfig;
  readonly logger: Logger;
}

/** Builds the catalog API without listening, so tests and main.ts start it the same way. */
export function createApp({ config, logger }: CatalogApiDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: config.transport.mode === 'behind-proxy' });
  const router = new Router<AppState>({ prefix: config.basePath });
  const healthPath = `${config.basePath}/health`;

  app.use(requestContext(logger));
  if (config.transport.mode === 'behind-proxy') app.use(requireForwardedHttps(healthPath));
  app.use(errorBody());
  app.use(healthCheck(healthPath, 'catalog-api'));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
