import {
  clientSecretPepperEnv,
  httpsUrl,
  loadServiceSettings,
  portSchema,
  type ServiceSettingsWithData,
} from '@catalog/server-runtime';
import { z } from 'zod';

/** At most `points` events per key in a fixed window of `windowSeconds`; 0 points means no limit. */
export interface RateLimit {
  readonly points: number;
  readonly windowSeconds: number;
}

/**
 * What an unauthenticated caller may cost the token server. Defaults sit far above what an
 * administrator signing in or an integrator fetching a token each hour ever does.
 */
export interface AuthLimitsConfig {
  /** Token requests per source IP (TOKEN_RATE_LIMIT_IP_PER_MIN). */
  readonly tokenPerIp: RateLimit;
  /** Failed client authentications naming one client id (TOKEN_RATE_LIMIT_CLIENT_PER_MIN); a right secret is always served. */
  readonly tokenPerClient: RateLimit;
  /** Requests to the authorization endpoint and the login pages per source IP (SIGN_IN_RATE_LIMIT_IP_PER_15MIN). */
  readonly signInPerIp: RateLimit;
  /**
   * Open sign-ins held at once (a new one evicts the oldest), and kept ones (a password being checked
   * or accepted: never evicted, a post past it refused) (SIGN_IN_CAPACITY).
   */
  readonly signInCapacity: number;
  /** Failed logins per source IP before the IP is refused (LOGIN_FAILURES_IP_PER_15MIN). */
  readonly loginFailuresPerIp: RateLimit;
  /** Failed logins per email before the email is locked out (LOGIN_FAILURES_EMAIL_PER_15MIN). */
  readonly loginFailuresPerEmail: RateLimit;
  /** Password checks (scrypt) running at once (PASSWORD_CHECK_CONCURRENCY). */
  readonly passwordCheckConcurrency: number;
  /** Password checks waiting for a slot; past it a login is answered 503 (PASSWORD_CHECK_QUEUE). */
  readonly passwordCheckQueue: number;
}

export interface AuthServerConfig extends ServiceSettingsWithData {
  /** CLIENT_SECRET_PEPPER; when absent the pepper file under DATA_DIR is used (created on first start). */
  readonly clientSecretPepper: string | undefined;
  /**
   * The https:// redirect URIs of the admin client for a browser console: the catalog API's own console
   * callback (PUBLIC_CATALOG_URL, else https://localhost and https://127.0.0.1 on CATALOG_API_PORT under
   * BASE_PATH), then the extras of ADMIN_CONSOLE_REDIRECT_URIS.
   */
  readonly adminConsoleRedirectUris: readonly string[];
  readonly limits: AuthLimitsConfig;
}

const redirectUriList = z
  .string()
  .transform((value) => value.split(',').map((uri) => uri.trim()))
  .pipe(z.array(z.url({ protocol: /^https$/, error: 'must be a comma-separated list of https:// URLs' })));

const wholeNumber = (fallback: number, min: number, meaning: string) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be ${meaning}`)
    .max(1_000_000, 'must be at most 1000000')
    .default(fallback);
const limitOrOff = (fallback: number) => wholeNumber(fallback, 0, '0 (off) or more');
const atLeastOne = (fallback: number) => wholeNumber(fallback, 1, 'at least 1');

const authServerOwnEnv = clientSecretPepperEnv.extend({
  ADMIN_CONSOLE_REDIRECT_URIS: redirectUriList.optional(),
  // Where the catalog API serves the console: `pnpm start` gives both servers one environment.
  CATALOG_API_PORT: portSchema('CATALOG_API_PORT', 3000),
  PUBLIC_CATALOG_URL: httpsUrl.optional(),
  TOKEN_RATE_LIMIT_IP_PER_MIN: limitOrOff(300),
  TOKEN_RATE_LIMIT_CLIENT_PER_MIN: limitOrOff(60),
  SIGN_IN_RATE_LIMIT_IP_PER_15MIN: limitOrOff(120),
  SIGN_IN_CAPACITY: atLeastOne(10_000),
  LOGIN_FAILURES_IP_PER_15MIN: atLeastOne(20),
  LOGIN_FAILURES_EMAIL_PER_15MIN: atLeastOne(5),
  PASSWORD_CHECK_CONCURRENCY: atLeastOne(2),
  PASSWORD_CHECK_QUEUE: limitOrOff(32),
});

/** The console's callback on the catalog API (served at `${BASE_PATH}/console`). */
function defaultConsoleRedirectUris(env: {
  readonly publicCatalogUrl: string | undefined;
  readonly catalogApiPort: number;
  readonly basePath: string;
}): string[] {
  if (env.publicCatalogUrl !== undefined) return [`${env.publicCatalogUrl}/console/callback`];
  return ['localhost', '127.0.0.1'].map(
    (host) => `https://${host}:${env.catalogApiPort}${env.basePath}/console/callback`,
  );
}

const MINUTE = 60;
const QUARTER_HOUR = 15 * 60;

/** Reads the token server's configuration from the environment once, at start-up. */
export function loadAuthServerConfig(
  env: Record<string, string | undefined> = process.env,
): AuthServerConfig {
  const { settings, extra } = loadServiceSettings(
    'auth-server',
    {
      portVariable: 'AUTH_SERVER_PORT',
      defaultPort: 4000,
      publicUrlVariable: 'PUBLIC_AUTH_URL',
      metricsPortVariable: 'AUTH_METRICS_PORT',
      defaultMetricsPort: 9465,
    },
    env,
    authServerOwnEnv,
  );
  const limits: AuthLimitsConfig = {
    tokenPerIp: { points: extra.TOKEN_RATE_LIMIT_IP_PER_MIN, windowSeconds: MINUTE },
    tokenPerClient: { points: extra.TOKEN_RATE_LIMIT_CLIENT_PER_MIN, windowSeconds: MINUTE },
    signInPerIp: { points: extra.SIGN_IN_RATE_LIMIT_IP_PER_15MIN, windowSeconds: QUARTER_HOUR },
    signInCapacity: extra.SIGN_IN_CAPACITY,
    loginFailuresPerIp: { points: extra.LOGIN_FAILURES_IP_PER_15MIN, windowSeconds: QUARTER_HOUR },
    loginFailuresPerEmail: { points: extra.LOGIN_FAILURES_EMAIL_PER_15MIN, windowSeconds: QUARTER_HOUR },
    passwordCheckConcurrency: extra.PASSWORD_CHECK_CONCURRENCY,
    passwordCheckQueue: extra.PASSWORD_CHECK_QUEUE,
  };
  return Object.freeze({
    ...settings,
    clientSecretPepper: extra.CLIENT_SECRET_PEPPER,
    adminConsoleRedirectUris: Object.freeze([
      ...new Set([
        ...defaultConsoleRedirectUris({
          publicCatalogUrl: extra.PUBLIC_CATALOG_URL,
          catalogApiPort: extra.CATALOG_API_PORT,
          basePath: settings.basePath,
        }),
        ...(extra.ADMIN_CONSOLE_REDIRECT_URIS ?? []),
      ]),
    ]),
    limits: Object.freeze(limits),
  });
}
