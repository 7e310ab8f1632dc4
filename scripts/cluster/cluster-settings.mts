// What `pnpm start:cluster` reads from its environment, once, here and nowhere else. Every other
// variable (LOG_LEVEL, RATE_LIMIT_*, DEMO_CATALOGUE_PRODUCTS…) reaches the instances as it is.
import { resolve } from 'node:path';

export interface ClusterSettings {
  /** CLUSTER_DIR: TLS material, secrets, the token servers' and each API instance's DATA_DIR, nginx's files. */
  readonly clusterDir: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly redisKeyPrefix: string;
  /** nginx's public ports: CLUSTER_CATALOG_PORT, CLUSTER_AUTH_PORT. */
  readonly catalogPort: number;
  readonly authPort: number;
  readonly clientSecretPepper: string | undefined;
  readonly syncTokenSecret: string | undefined;
  /** NGINX_PATH: the nginx binary, when not on PATH or in /usr/sbin. */
  readonly nginxPath: string | undefined;
  /** PATH, where nginx is looked for. */
  readonly path: string | undefined;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/catalog_cluster';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export class ClusterSettingsError extends Error {
  override readonly name = 'ClusterSettingsError';
}

/** Reads the settings, or throws one error listing every invalid variable (values of secrets never shown). */
export function readClusterSettings(env: Record<string, string | undefined>): ClusterSettings {
  const problems: string[] = [];
  const set = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const port = (name: string, fallback: number) => {
    const value = Number(set(name) ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65_535)
      problems.push(`${name} must be a port number`);
    return value;
  };
  const url = (name: string, fallback: string, protocols: RegExp, shape: string) => {
    const value = set(name) ?? fallback;
    if (!protocols.test(value)) problems.push(`${name} must be a ${shape} URL`);
    return value;
  };
  const secret = (name: string) => {
    const value = set(name);
    if (value !== undefined && value.length < 32) problems.push(`${name} must be at least 32 characters`);
    return value;
  };
  const settings: ClusterSettings = {
    clusterDir: resolve(set('CLUSTER_DIR') ?? 'data-cluster'),
    databaseUrl: url('DATABASE_URL', DEFAULT_DATABASE_URL, /^postgres(ql)?:\/\/[^/]/, 'postgres://'),
    redisUrl: url('REDIS_URL', DEFAULT_REDIS_URL, /^rediss?:\/\/[^/]/, 'redis://'),
    redisKeyPrefix: set('REDIS_KEY_PREFIX') ?? 'catalog-cluster:',
    catalogPort: port('CLUSTER_CATALOG_PORT', 3443),
    authPort: port('CLUSTER_AUTH_PORT', 4443),
    clientSecretPepper: secret('CLIENT_SECRET_PEPPER'),
    syncTokenSecret: secret('SYNC_TOKEN_SECRET'),
    nginxPath: set('NGINX_PATH'),
    path: set('PATH'),
  };
  if (settings.catalogPort === settings.authPort)
    problems.push('CLUSTER_CATALOG_PORT and CLUSTER_AUTH_PORT must differ');
  if (problems.length > 0) throw new ClusterSettingsError(problems.join('\n'));
  return Object.freeze(settings);
}
