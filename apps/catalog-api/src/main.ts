import { exitOnStartupError, startHttpService } from '@catalog/server-runtime';
import { createApp } from './app.ts';
import { loadCatalogApiConfig } from './config/config.ts';

try {
  const config = loadCatalogApiConfig();
  await startHttpService({
    service: 'catalog-api',
    settings: config,
    portVariable: 'CATALOG_API_PORT',
    build: (logger) => ({ handler: createApp({ config, logger }).callback() }),
  });
} catch (error) {
  exitOnStartupError(error);
}
