import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageLocation } from '@catalog/store';
import { clientSecretPepper } from '../../config/client-secret-pepper.ts';
import { resolveStorage } from '../../config/storage.ts';
import { UsageError } from '../../usage-error.ts';

/** The environment `pnpm admin` reads, once, here and nowhere else. */
export interface AdminEnv {
  readonly dataDir: string;
  /** The catalogue: DATABASE_URL's PostgreSQL, else the embedded database in `dataDir`. */
  readonly storage: StorageLocation;
  /** CLIENT_SECRET_PEPPER: on PostgreSQL it seals the signing keys, as the token servers have it. */
  readonly clientSecretPepper: string | undefined;
  /** The token server's public URL (its issuer). */
  readonly authUrl: string;
  /** The local CA under DATA_DIR/tls when present; otherwise the system's CAs are trusted. */
  readonly caFile: string | undefined;
  /** ADMIN_PASSWORD, for scripts; otherwise the password is read from stdin. */
  readonly password: string | undefined;
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/**
 * A server's public URL: `urlVariable` when set (https only), else https://localhost on its port
 * variable (`defaultPort`) under BASE_PATH, as the server itself computes its own address.
 */
function serviceUrlFrom(
  env: Env,
  explicit: { readonly name: string; readonly value: string | undefined },
  portVariable: string,
  defaultPort: number,
): string {
  const url = set(explicit.value);
  if (url !== undefined) {
    if (!/^https:\/\/[^/]/.test(url)) throw new UsageError(`${explicit.name} must be an https:// URL`);
    return url.replace(/\/+$/, '');
  }
  const port = Number(set(env[portVariable]) ?? String(defaultPort));
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new UsageError(`${portVariable} must be a port number between 1 and 65535`);
  }
  const basePath = set(env.BASE_PATH) ?? '';
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    throw new UsageError('BASE_PATH must be empty or a path such as /prod');
  return `https://localhost:${port}${basePath}`;
}

const authUrlFrom = (env: Env): string =>
  serviceUrlFrom(env, { name: 'PUBLIC_AUTH_URL', value: env.PUBLIC_AUTH_URL }, 'AUTH_SERVER_PORT', 4000);

/** Where `pnpm admin webhooks` calls the catalog API, and with which administrator's ID token. */
export interface ApiTarget {
  readonly apiUrl: string;
  readonly token: string;
  readonly caFile: string | undefined;
}

export interface ApiOptions {
  readonly apiUrl?: string;
  readonly token?: string;
  readonly ca?: string;
}

/** --api-url, else PUBLIC_CATALOG_URL, else the API's local address; --token, else ADMIN_ID_TOKEN; --ca, else the local CA. */
export function readApiTarget(options: ApiOptions, adminEnv: AdminEnv, env: Env): ApiTarget {
  const token = set(options.token) ?? set(env.ADMIN_ID_TOKEN);
  if (token === undefined) {
    throw new UsageError(
      'no ID token: pass --token or set ADMIN_ID_TOKEN (ADMIN_ID_TOKEN=$(pnpm --silent admin token --email …))',
    );
  }
  const apiUrl = serviceUrlFrom(
    env,
    { name: 'the API URL', value: set(options.apiUrl) ?? env.PUBLIC_CATALOG_URL },
    'CATALOG_API_PORT',
    3000,
  );
  return { apiUrl, token, caFile: set(options.ca) ?? adminEnv.caFile };
}

export function readAdminEnv(options: { dataDir?: string | undefined }, env: Env): AdminEnv {
  const storage = resolveStorage(options.dataDir, env);
  const { dataDir } = storage;
  const localCa = join(dataDir, 'tls', 'ca.pem');
  return Object.freeze({
    dataDir,
    storage,
    clientSecretPepper: clientSecretPepper(env),
    authUrl: authUrlFrom(env),
    caFile: existsSync(localCa) ? localCa : undefined,
    password: set(env.ADMIN_PASSWORD),
  });
}

// biome-ignore lint/style/noProcessEnv: this module is the admin CLI's configuration reader.
export const processEnv = (): Env => process.env;
