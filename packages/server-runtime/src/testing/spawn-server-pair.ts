import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type SpawnedService, spawnService } from './spawn-service.ts';

export interface ServerPair {
  readonly auth: SpawnedService;
  readonly api: SpawnedService;
  /** PEM of the local CA both servers share under DATA_DIR/tls. */
  readonly ca: string;
}

/**
 * The token server, then the catalog API trusting it, on free loopback ports and one DATA_DIR:
 * the pair `pnpm start` runs. Entries are passed in because this package knows neither app.
 */
export async function spawnServerPair(options: {
  readonly dataDir: string;
  readonly authEntry: string;
  readonly apiEntry: string;
  readonly authEnv?: Record<string, string>;
  readonly apiEnv?: Record<string, string>;
  /** False runs the build output as `pnpm start` does; sources by default. */
  readonly sourceConditions?: boolean;
  /** The API seeds its demo catalogue before it listens: a larger catalogue than a test's may need longer than SERVICE_START_MS. */
  readonly apiTimeoutMs?: number;
}): Promise<ServerPair> {
  const sourceConditions = options.sourceConditions ?? true;
  const auth = await spawnService({
    entry: options.authEntry,
    env: { DATA_DIR: options.dataDir, AUTH_SERVER_PORT: '0', AUTH_METRICS_PORT: '0', ...options.authEnv },
    sourceConditions,
  });
  try {
    const api = await spawnService({
      entry: options.apiEntry,
      env: {
        DATA_DIR: options.dataDir,
        CATALOG_API_PORT: '0',
        METRICS_PORT: '0',
        PUBLIC_AUTH_URL: auth.url,
        // A test's search never runs out of time because the machine is busy (turbo runs every
        // package's suite at once on two cores); a test of the time budget sets its own.
        SEARCH_TIMEOUT_MS: '60000',
        ...options.apiEnv,
      },
      sourceConditions,
      ...(options.apiTimeoutMs === undefined ? {} : { timeoutMs: options.apiTimeoutMs }),
    });
    const ca = await readFile(join(options.dataDir, 'tls', 'ca.pem'), 'utf8');
    return { auth, api, ca };
  } catch (error) {
    await auth.stop();
    throw error;
  }
}
