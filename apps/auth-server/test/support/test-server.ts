import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecords } from '@catalog/engines';
import {
  createLogger,
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  listen,
  loadClientSecretPepper,
  type RunningServer,
} from '@catalog/server-runtime';
import { type ClientScope, type RecordStore, storageLocation } from '@catalog/store';
import { type AuthServer, buildAuthServer } from '../../src/auth-server.ts';
import { loadAuthServerConfig } from '../../src/config/config.ts';
import type { ClientSecretVerifier } from '../../src/oidc/client-secret-check.ts';

export interface TestClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface TestServer {
  readonly url: string;
  readonly ca: string;
  readonly dataDir: string;
  /** A second handle on the same store (the SQLite file, or DATABASE_URL's), as the catalog API would hold. */
  readonly store: RecordStore;
  createClient(options?: {
    scopes?: ClientScope[];
    tokenLifetimeSeconds?: number;
    expiresAt?: string | null;
  }): Promise<TestClient>;
  /** Stops the server; the data directory stays unless `removeData`. */
  stop(options?: { removeData?: boolean }): Promise<void>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const newClientId = () => Array.from({ length: 26 }, () => ALPHANUMERIC[randomInt(62)]).join('');

/**
 * The real token server, in this process, on a loopback port with real TLS from the local CA in a
 * temporary DATA_DIR and a real SQLite file (or DATABASE_URL's PostgreSQL database, given in `env`).
 * Pass `dataDir` to restart on existing data, `env` for more configuration (limits set low),
 * `secretVerifier` to observe client-secret checks.
 */
export async function startTestServer(
  options: {
    dataDir?: string;
    basePath?: string;
    env?: Record<string, string>;
    secretVerifier?: (pepper: Uint8Array) => ClientSecretVerifier;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'auth-server-test-')));
  const config = loadAuthServerConfig({
    DATA_DIR: dataDir,
    AUTH_SERVER_PORT: '0',
    LOG_LEVEL: 'silent',
    BASE_PATH: options.basePath,
    ...options.env,
  });
  const tls = await ensureLocalTls(dataDir);
  const server: AuthServer = await buildAuthServer({
    config,
    logger: createLogger('auth-server', 'silent'),
    ...(options.secretVerifier === undefined ? {} : { secretVerifier: options.secretVerifier }),
  });
  const running: RunningServer = await listen({
    handler: server.handler,
    host: '127.0.0.1',
    port: 0,
    tls,
    portVariable: 'AUTH_SERVER_PORT',
  });
  const url = `https://localhost:${running.port}${config.basePath}`;
  server.start(url);
  const store = await openRecords(storageLocation(config));
  const pepper = await loadClientSecretPepper({ dataDir, override: config.clientSecretPepper });
  return {
    url,
    ca: await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8'),
    dataDir,
    store,
    async createClient(client = {}) {
      const clientId = newClientId();
      const clientSecret = generateClientSecret();
      await store.clients.create({
        clientId,
        clientName: 'test integration',
        scopes: client.scopes ?? ['products.read', 'brands.read'],
        createdBy: { userId: 'test', userName: 'test' },
        expiresAt: client.expiresAt ?? null,
        secretHash: hashClientSecret(clientSecret, pepper),
        tokenLifetimeSeconds: client.tokenLifetimeSeconds ?? 3600,
      });
      return { clientId, clientSecret };
    },
    async stop({ removeData = false } = {}) {
      await running.close(1000);
      await server.close();
      await store.close();
      if (removeData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
