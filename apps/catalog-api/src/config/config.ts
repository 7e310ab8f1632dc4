import { loadServiceSettings, type ServiceSettingsWithData } from '@catalog/server-runtime';
import { z } from 'zod';

export type CatalogApiConfig = ServiceSettingsWithData;

const catalogApiOwnEnv = z.object({});

/** Reads the catalog API's configuration from the environment once, at start-up. */
export function loadCatalogApiConfig(
  env: Record<string, string | undefined> = process.env,
): CatalogApiConfig {
  const { settings } = loadServiceSettings(
    'catalog-api',
    { portVariable: 'CATALOG_API_PORT', defaultPort: 3000, publicUrlVariable: 'PUBLIC_CATALOG_URL' },
    env,
    catalogApiOwnEnv,
  );
  return settings;
}
