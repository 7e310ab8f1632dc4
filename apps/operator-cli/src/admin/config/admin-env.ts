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

function authUrlFrom(env: Env): string {
  const publicUrl = set(env.PUBLIC_AUTH_URL);
  if (publicUrl !== undefined) {
    if (!/^https:\/\/[^/]/.test(publicUrl)) throw new UsageError('PUBLIC_AUTH_URL must be an https:// URL');
    return publicUrl.replace(/\/+$/, '');
  }
  const port = Number(set(env.AUTH_SERVER_PORT) ?? '4000');
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new UsageError('AUTH_SERVER_PORT must be a port number between 1 and 65535');
  }
  const basePath = set(env.BASE_PATH) ?? '';
  if (!/^(\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    throw new UsageError('BASE_PATH must be empty or a path such as /prod');
  return `https://localhost:${port}${basePath}`;
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
