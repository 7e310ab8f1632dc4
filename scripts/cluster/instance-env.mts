// The environment of each instance of a cluster behind nginx (README, "Deployment"): what every
// instance shares, and what each one has of its own. `pnpm start:cluster` and the cluster tests start
// their instances with exactly these.

/** The same for every instance: one store, one Redis, one pepper, one syncToken key, nginx's URLs. */
export interface ClusterShared {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly redisKeyPrefix: string;
  /** Keys client-secret hashes: every instance of both servers must use the same one. */
  readonly clientSecretPepper: string;
  /** Signs syncTokens: a walk's pages are served by whichever API instance nginx picks. */
  readonly syncTokenSecret: string;
  /** nginx's URLs, the ones callers use; the token server's is the issuer of every token. */
  readonly publicCatalogUrl: string;
  readonly publicAuthUrl: string;
  /** The CA of nginx's certificate: the API fetches the token server's keys through nginx. */
  readonly caFile: string;
}

/** What one instance has of its own. */
export interface InstancePlace {
  readonly dataDir: string;
  /** Its plain-HTTP port on 127.0.0.1 (0: a free one, announced on its `listening` line). */
  readonly port: number;
}

const behindNginx = (shared: ClusterShared, instance: InstancePlace) => ({
  DATABASE_URL: shared.databaseUrl,
  REDIS_URL: shared.redisUrl,
  REDIS_KEY_PREFIX: shared.redisKeyPrefix,
  CLIENT_SECRET_PEPPER: shared.clientSecretPepper,
  PUBLIC_CATALOG_URL: shared.publicCatalogUrl,
  PUBLIC_AUTH_URL: shared.publicAuthUrl,
  DATA_DIR: instance.dataDir,
  // Plain HTTP on loopback, for nginx alone; X-Forwarded-Proto: https required on every request.
  HOST: '127.0.0.1',
  TRUST_PROXY: 'true',
  // nginx reaches the instances from loopback: only its X-Forwarded-* headers are believed.
  TRUSTED_PROXIES: '127.0.0.1',
  // Each instance's metrics listener on a free port of its own (logged on its `listening` line).
  METRICS_PORT: '0',
  AUTH_METRICS_PORT: '0',
});

export function catalogApiEnv(shared: ClusterShared, instance: InstancePlace): Record<string, string> {
  return {
    ...behindNginx(shared, instance),
    CATALOG_API_PORT: String(instance.port),
    SYNC_TOKEN_SECRET: shared.syncTokenSecret,
    AUTH_CA_FILE: shared.caFile,
    // Webhook endpoints on the cluster's own certificate are trusted, as a single server trusts its
    // local CA: a receiver beside a development cluster works as one beside `pnpm start` does.
    WEBHOOK_CA_FILE: shared.caFile,
  };
}

export function authServerEnv(shared: ClusterShared, instance: InstancePlace): Record<string, string> {
  return { ...behindNginx(shared, instance), AUTH_SERVER_PORT: String(instance.port) };
}

/**
 * What `pnpm admin` and `pnpm catalog` need to work on the cluster: its database, the pepper its
 * signing keys are sealed with, the token server's public URL (`admin token` signs in there), and
 * a DATA_DIR whose tls/ca.pem is nginx's CA.
 */
export function operatorEnv(shared: ClusterShared, clusterDir: string): Record<string, string> {
  return {
    DATABASE_URL: shared.databaseUrl,
    CLIENT_SECRET_PEPPER: shared.clientSecretPepper,
    PUBLIC_AUTH_URL: shared.publicAuthUrl,
    DATA_DIR: clusterDir,
  };
}
