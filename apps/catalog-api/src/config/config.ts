import { join } from 'node:path';
import {
  booleanFlag,
  clientSecretPepperEnv,
  httpsUrl,
  loadServiceSettings,
  portSchema,
  type ServiceSettingsWithData,
  syncTokenSecretEnv,
} from '@catalog/server-runtime';
import { z } from 'zod';

const nonNegativeInt = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (off) or more')
    .default(fallback);

const catalogApiOwnEnv = clientSecretPepperEnv.extend(syncTokenSecretEnv.shape).extend({
  AUTH_SERVER_PORT: portSchema('AUTH_SERVER_PORT', 4000),
  PUBLIC_AUTH_URL: httpsUrl.optional(),
  AUTH_JWKS_URL: httpsUrl.optional(),
  AUTH_CA_FILE: z.string().min(1).optional(),
  RATE_LIMIT_RPS: nonNegativeInt(50),
  RATE_LIMIT_BURST: nonNegativeInt(100),
  RATE_LIMIT_IP_PER_5MIN: nonNegativeInt(1000),
  // The spec's window is 5 minutes; a shorter one lets a test watch a blocked address get back in.
  RATE_LIMIT_IP_WINDOW_SECONDS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(300),
  USAGE_FLUSH_MS: nonNegativeInt(5000),
  DEMO_CATALOGUE_PRODUCTS: nonNegativeInt(5000),
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(1, 'must be at least 1 (ms)').default(5000),
  SEARCH_PAGE_CACHE_MB: nonNegativeInt(32),
  WEBHOOK_DELIVERY: booleanFlag(true),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFlag(false),
  WEBHOOK_CA_FILE: z.string().min(1).optional(),
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1, 'must be at least 1 (ms)').default(5000),
  WEBHOOK_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(1, 'must be at least 1 (ms)').default(10_000),
  // Attempts in flight = events a second × the receiver's answer time: 32 keeps up with 1,000 a
  // second to a receiver answering in 30 ms (with 16 the bench's one-subscription queue grew).
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1, 'must be at least 1').max(64).default(32),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(1, 'must be at least 1 (ms)').default(250),
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1 (day)')
    .max(3650)
    .default(30),
  // Milliseconds between attempts, comma-separated; unset, the Standard Webhooks schedule (over 24 h).
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be milliseconds separated by commas, e.g. 5000,300000')
    .transform((text) => text.split(',').map(Number))
    .optional(),
});

export interface WebhookConfig {
  /** Whether this instance delivers (every instance may: deliveries are claimed, never sent twice at once). */
  readonly deliver: boolean;
  /**
   * A development setting: endpoints on loopback, link-local and private addresses are allowed (the
   * tests' receivers). Off, they are refused when subscribed and again at every connection.
   */
  readonly allowPrivateNetworks: boolean;
  /**
   * A CA certificate trusted for endpoints besides the system's: by default the embedded default's
   * local CA, as for the token server's keys (a receiver on this machine, the tests').
   */
  readonly caFile: string | undefined;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  /** Attempts under way to one subscription's endpoint at once from one instance (twice that claimed over all). */
  readonly concurrencyPerEndpoint: number;
  /** How often an idle worker looks for new changes and due retries. */
  readonly pollMs: number;
  /** Days finished deliveries stay in the delivery log; older ones are deleted hourly. */
  readonly logRetentionDays: number;
  /** Delays between attempts; undefined: the Standard Webhooks schedule. */
  readonly retryScheduleMs: readonly number[] | undefined;
}

export interface RateLimitConfig {
  /** Sustained requests per second shared by all callers; 0 turns the gateway throttle off. */
  readonly rps: number;
  /** Requests allowed in a burst above the sustained rate. */
  readonly burst: number;
  /** Requests per source IP in the rolling window; 0 turns the per-IP limit off. */
  readonly ipPer5Min: number;
  /** Length of the per-IP rolling window (5 minutes unless a test shortens it). */
  readonly ipWindowMs: number;
}

export interface TokenTrustConfig {
  /** `iss` of every token the token server signs. */
  readonly issuer: string;
  /** Where the token server publishes its public keys. */
  readonly jwksUrl: string;
  /** CA certificate that vouches for the token server (the local CA by default); system CAs otherwise. */
  readonly caFile: string | undefined;
  /** The token endpoint integrators use, quoted in the client-creation response. */
  readonly tokenEndpoint: string;
}

export interface CatalogApiConfig extends ServiceSettingsWithData {
  readonly tokens: TokenTrustConfig;
  /**
   * The CA certificate the embedded default made for both servers (DATA_DIR/tls/ca.pem), which a
   * caller on this machine passes to curl and the SDK; undefined with certificates of a real CA.
   */
  readonly localCaFile: string | undefined;
  readonly rateLimits: RateLimitConfig;
  readonly clientSecretPepper: string | undefined;
  /** SYNC_TOKEN_SECRET; unset, the key kept in DATA_DIR. */
  readonly syncTokenSecret: string | undefined;
  /** How often batched usage counts are written to the store. */
  readonly usageFlushMs: number;
  /** Products generated into an empty catalogue at first start; 0 starts empty. */
  readonly demoCatalogueProducts: number;
  /** Time budget of one search; past it the caller gets 504 SEARCH_TIMEOUT. */
  readonly searchTimeoutMs: number;
  /** Bytes of repeated search pages kept for the catalogue state they describe; 0 keeps none. */
  readonly searchPageCacheBytes: number;
  readonly webhooks: WebhookConfig;
}

/** Reads the catalog API's configuration from the environment once, at start-up. */
export function loadCatalogApiConfig(
  env: Record<string, string | undefined> = process.env,
): CatalogApiConfig {
  const { settings, extra } = loadServiceSettings(
    'catalog-api',
    {
      portVariable: 'CATALOG_API_PORT',
      defaultPort: 3000,
      publicUrlVariable: 'PUBLIC_CATALOG_URL',
      metricsPortVariable: 'METRICS_PORT',
      defaultMetricsPort: 9464,
    },
    env,
    catalogApiOwnEnv,
  );
  const issuer = extra.PUBLIC_AUTH_URL ?? `https://localhost:${extra.AUTH_SERVER_PORT}${settings.basePath}`;
  const localCa =
    settings.transport.mode === 'local-ca' ? join(settings.dataDir, 'tls', 'ca.pem') : undefined;
  return Object.freeze({
    ...settings,
    tokens: Object.freeze({
      issuer,
      jwksUrl: extra.AUTH_JWKS_URL ?? `${issuer}/.well-known/jwks.json`,
      caFile: extra.AUTH_CA_FILE ?? localCa,
      tokenEndpoint: `${issuer}/oauth2/token`,
    }),
    localCaFile: localCa,
    rateLimits: Object.freeze({
      rps: extra.RATE_LIMIT_RPS,
      burst: extra.RATE_LIMIT_BURST,
      ipPer5Min: extra.RATE_LIMIT_IP_PER_5MIN,
      ipWindowMs: extra.RATE_LIMIT_IP_WINDOW_SECONDS * 1000,
    }),
    clientSecretPepper: extra.CLIENT_SECRET_PEPPER,
    syncTokenSecret: extra.SYNC_TOKEN_SECRET,
    usageFlushMs: extra.USAGE_FLUSH_MS,
    demoCatalogueProducts: extra.DEMO_CATALOGUE_PRODUCTS,
    searchTimeoutMs: extra.SEARCH_TIMEOUT_MS,
    searchPageCacheBytes: extra.SEARCH_PAGE_CACHE_MB * 2 ** 20,
    webhooks: Object.freeze({
      deliver: extra.WEBHOOK_DELIVERY,
      allowPrivateNetworks: extra.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      caFile: extra.WEBHOOK_CA_FILE ?? localCa,
      connectTimeoutMs: extra.WEBHOOK_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: extra.WEBHOOK_RESPONSE_TIMEOUT_MS,
      concurrencyPerEndpoint: extra.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      pollMs: extra.WEBHOOK_POLL_MS,
      logRetentionDays: extra.WEBHOOK_LOG_RETENTION_DAYS,
      retryScheduleMs: extra.WEBHOOK_RETRY_SCHEDULE_MS,
    }),
  });
}
