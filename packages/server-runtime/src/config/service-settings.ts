import { z } from 'zod';
import { type MetricsSettings, metricsEnv, metricsSettingsFrom } from '../metrics/metrics-settings.ts';
import type { ServiceSettings } from '../start-http-service.ts';
import {
  commonServerEnv,
  connectionTimeoutsFrom,
  httpsUrl,
  portSchema,
  transportFrom,
} from './common-env.ts';
import { parseEnv } from './parse-env.ts';

type Env = Record<string, string | undefined>;

export interface ServiceVariables {
  /** e.g. CATALOG_API_PORT */
  readonly portVariable: string;
  readonly defaultPort: number;
  /** e.g. PUBLIC_CATALOG_URL */
  readonly publicUrlVariable: string;
  /** e.g. METRICS_PORT; each server has its own, as `pnpm start` gives both one environment. */
  readonly metricsPortVariable: string;
  readonly defaultMetricsPort: number;
}

/** Where the state several instances share lives (REDIS_URL), and the prefix of every key written there. */
export interface RedisSettings {
  readonly url: string;
  readonly keyPrefix: string;
}

export interface ServiceSettingsWithData extends ServiceSettings {
  readonly dataDir: string;
  /** DATABASE_URL: the shared PostgreSQL store; unset, the embedded SQLite database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /** SEARCH_ENGINE: a name in the engine registry; unset, the records engine's default. */
  readonly searchEngine: string | undefined;
  /** REDIS_URL and REDIS_KEY_PREFIX; unset URL, each process keeps such state itself. */
  readonly redis: RedisSettings | undefined;
  readonly metrics: MetricsSettings;
}

/**
 * Parses the variables every server has (DATA_DIR, DATABASE_URL, SEARCH_ENGINE, REDIS_URL, HOST, BASE_PATH, LOG_LEVEL, TLS, TRUST_PROXY and TRUSTED_PROXIES,
 * connection time-outs, the shutdown drain, its port, its public URL and its metrics listener) plus the service's own `extra` schema,
 * reporting all problems at once.
 */
export function loadServiceSettings<E extends z.ZodObject>(
  service: string,
  variables: ServiceVariables,
  env: Env,
  extra: E,
): { readonly settings: ServiceSettingsWithData; readonly extra: z.output<E> } {
  const schema = commonServerEnv
    .and(
      z.object({
        [variables.portVariable]: portSchema(variables.portVariable, variables.defaultPort),
        [variables.publicUrlVariable]: httpsUrl.optional(),
      }),
    )
    .and(metricsEnv(variables.metricsPortVariable, variables.defaultMetricsPort));
  const parsed = parseEnv(service, schema.and(extra), env) as z.output<typeof commonServerEnv> &
    Record<string, unknown> &
    z.output<E>;
  const settings: ServiceSettingsWithData = Object.freeze({
    dataDir: parsed.DATA_DIR,
    databaseUrl: parsed.DATABASE_URL,
    searchEngine: parsed.SEARCH_ENGINE,
    redis:
      parsed.REDIS_URL === undefined
        ? undefined
        : Object.freeze({ url: parsed.REDIS_URL, keyPrefix: parsed.REDIS_KEY_PREFIX }),
    host: parsed.HOST,
    port: parsed[variables.portVariable] as number,
    basePath: parsed.BASE_PATH,
    logLevel: parsed.LOG_LEVEL,
    transport: transportFrom(parsed),
    timeouts: connectionTimeoutsFrom(parsed),
    publicUrl: parsed[variables.publicUrlVariable] as string | undefined,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
    metrics: metricsSettingsFrom(parsed, variables.metricsPortVariable),
  });
  return Object.freeze({ settings, extra: parsed });
}
